// robots.txt history without crawling: imports of archived captures into
// the crawl database, each capture a fetch as a crawl would have written
// it (docs/history.md).
//
// ImportCommonCrawl reads the robots.txt WARC files Common Crawl publishes
// with every crawl (crawl-data/CC-MAIN-YYYY-WW/robotstxt.paths.gz lists
// them): every HTTP response record whose host is a domain of the list
// (or www. of one; every host without a list) becomes a fetch of run
// "commoncrawl" for the crawl ID, with its status, headers and body (cut
// at the body cap, truncated flag), fetched_at the capture time
// (WARC-Date), and its WARC file and record offset. A redirect captured
// together with its target (in the same file, within 64 records) is one
// fetch with a step per hop, as a crawl records a redirect chain.
//
// One run per crawl ID: a second import of the same crawl ID adds to it.
// A run keeps one fetch per domain, its earliest capture; the others are
// counted as duplicates. Every file's progress commits with its records,
// so an import stopped anywhere (a signal, kill -9, a full disk) resumes
// where it stood, and each record is imported once.
//
// Thread-safety: ImportCommonCrawl may be called from any thread; it runs
// options.jobs threads of its own. Cancel through the CrawlHandle.
//
// Usage:
//   CommonCrawlImport import;
//   import.db_path = "history.sqlite";
//   import.crawl_id = "CC-MAIN-2024-10";
//   import.files = {"CC-MAIN-20240220...-00000.warc.gz"};
//   ImportSummary summary;
//   Status s = ImportCommonCrawl(import, {}, nullptr, &summary);
#ifndef ROBOTSCAN_CRAWLER_HISTORY_H_
#define ROBOTSCAN_CRAWLER_HISTORY_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/status.h"
#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

struct CommonCrawlImport {
  std::string db_path;
  // Local paths or http(s) URLs of WARC files (gzip per record, or plain).
  std::vector<std::string> files;
  // A path list (robotstxt.paths or .paths.gz, one path a line) whose
  // paths are appended to base_url; added after `files`.
  std::string paths_file;
  std::string base_url = "https://data.commoncrawl.org/";
  // A top list (top_list.h formats); empty: every domain. top > 0: its
  // first `top` entries.
  std::string list_path;
  std::int64_t top = 0;
  // CC-MAIN-YYYY-WW. Empty: taken from the files' paths
  // (crawl-data/CC-MAIN-YYYY-WW/...) or their warcinfo's isPartOf.
  std::string crawl_id;
  int jobs = 1;  // Files read at once (one thread each).
  std::size_t max_body_bytes = kMinBodyLimitBytes;  // Raised to the minimum.
  bool compress_bodies = false;
  int batch_size = 500;  // Fetches per transaction.
  std::string tool_version;
  // Where URLs are downloaded to before they are read (deleted after);
  // empty: the system's temporary folder.
  std::string download_dir;
};

// What an import did. Counts are of this invocation; files already done
// by an earlier one are only counted in files_already_done.
struct ImportSummary {
  std::int64_t run_id = 0;
  std::string crawl_id;
  std::int64_t files = 0;               // Files named.
  std::int64_t files_imported = 0;      // Read to their end now.
  std::int64_t files_already_done = 0;  // Done by an earlier import.
  std::int64_t files_resumed = 0;       // Begun earlier, finished now.
  std::int64_t files_failed = 0;        // Could not be read (see errors).
  std::int64_t records = 0;             // WARC records read.
  std::int64_t fetches = 0;             // Fetches written.
  std::int64_t duplicates = 0;     // Captures of a domain the run already had.
  std::int64_t redirect_hops = 0;  // Responses linked into a chain.
  // Records that are no capture to import, by reason: "warcinfo",
  // "request", "metadata", "revisit", "not_http" (another scheme or
  // block type), "not_robots_txt", "not_in_list", "bad_uri" (not UTF-8, no
  // host).
  std::map<std::string, std::int64_t> skipped;
  std::int64_t errors = 0;  // Malformed records and unreadable files.
  std::vector<std::string> first_errors;  // Up to 10, "file: reason".
  bool cancelled = false;
};

struct ImportCallbacks {
  // After each file, with its name and the summary so far.
  std::function<void(std::string_view file, const ImportSummary&)> on_file;
};

// Imports the files. Errors: kInvalidArgument (no crawl ID to be found,
// bad options, a PostgreSQL database: not supported yet), kLocked
// (another crawl or import holds the database), kIoError (the list or the
// path list cannot be read), storage errors as they come. A file that
// cannot be read or downloaded is counted in files_failed and left to the
// next import; malformed records are counted, never fatal. `handle` may be
// null.
Status ImportCommonCrawl(const CommonCrawlImport& options,
                         const ImportCallbacks& callbacks, CrawlHandle* handle,
                         ImportSummary* summary);

// The crawl ID named in a Common Crawl path or URL
// (".../crawl-data/CC-MAIN-2024-10/..."), or "".
std::string CrawlIdInPath(std::string_view path);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_HISTORY_H_
