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
// ImportWayback asks the Wayback Machine's CDX API, per domain of a top
// list, for the captures of DOMAIN/robots.txt in a time range, takes the
// first capture of each period (month, quarter or year) and fetches its
// raw bytes (the `id_` snapshot URL). Each snapshot becomes a fetch of
// the period's run ("wayback", the period's label), fetched_at the capture
// time; a captured redirect is followed through the archive to its
// target's capture in the same period (a chain of steps, as a crawl
// records one). A domain/period pair is imported once: its history_file
// row is committed with its fetch, so a stopped import resumes without
// fetching it again. Polite by construction: at most `concurrency`
// requests to the archive at a time, paced, 429/503 answered with the
// Retry-After asked (every worker waits), a User-Agent naming robotscan
// and its version.
//
// Thread-safety: ImportCommonCrawl and ImportWayback may be called from
// any thread; they run options.jobs (options.concurrency) threads of their
// own. Cancel through the CrawlHandle.
//
// Usage:
//   CommonCrawlImport import;
//   import.db_path = "history.sqlite";
//   import.crawl_id = "CC-MAIN-2024-10";
//   import.files = {"CC-MAIN-20240220...-00000.warc.gz"};
//   ImportSummary summary;
//   Status s = ImportCommonCrawl(import, {}, nullptr, &summary);
//
//   WaybackImport wayback;  // The Wayback Machine, one run per month.
//   wayback.db_path = "history.sqlite";
//   wayback.list_path = "top-1m.csv";
//   wayback.from = "2016";
//   wayback.to = "202412";
//   WaybackSummary monthly;
//   s = ImportWayback(wayback, {}, nullptr, &monthly);
#ifndef ROBOTSCAN_CRAWLER_HISTORY_H_
#define ROBOTSCAN_CRAWLER_HISTORY_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
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
  // PostgreSQL: how long a file stays leased to this import after its last
  // commit. Importers on other hosts take over a file whose lease ran out
  // (its importer died or stalled) and go on from its last commit.
  int lease_seconds = 300;
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
  // PostgreSQL: files another importer was reading when this one came to
  // them, waited for (done by it, or taken over once its lease ran out),
  // and files whose lease this import lost mid-way (its batch not written).
  std::int64_t files_waited_for = 0;
  std::int64_t leases_lost = 0;
  std::int64_t records = 0;        // WARC records read.
  std::int64_t fetches = 0;        // Fetches written.
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

// How often ImportWayback takes a capture: the first one of each
// calendar month, quarter (Q1 = January to March) or year. Each period is
// one run, its source_crawl the label "2024-03", "2024-Q1" or "2024".
enum class WaybackPeriod { kMonth, kQuarter, kYear };
inline constexpr WaybackPeriod kWaybackPeriods[] = {
    WaybackPeriod::kMonth, WaybackPeriod::kQuarter, WaybackPeriod::kYear};

// "month", "quarter", "year" (--every, crawl_run.options), and back;
// nullopt for another name.
std::string_view WaybackPeriodName(WaybackPeriod every);
std::optional<WaybackPeriod> ParseWaybackPeriod(std::string_view name);

struct WaybackImport {
  std::string db_path;
  // A top list (top_list.h formats), required; top > 0: its first `top`
  // entries. Domains are asked for in the list's order.
  std::string list_path;
  std::int64_t top = 0;
  // The range, YYYY or YYYYMM, both ends included, widened to whole
  // periods (--every quarter --from 202402 starts in January).
  std::string from, to;
  WaybackPeriod every = WaybackPeriod::kMonth;
  // Replaces https://web.archive.org for /cdx/search/cdx and /web/.
  std::string wayback_url = "https://web.archive.org";
  // Requests to the archive in flight at once, at most (1 to 16): one
  // worker thread each, one request at a time.
  int concurrency = 2;
  // Pacing of request starts, all workers together; 0: none. The defaults
  // keep under the limits the archive enforces per IP address (docs/
  // history.md): CDX queries 24 a minute, snapshots 8 a second.
  double cdx_per_minute = 24;
  double snapshots_per_second = 8;
  // Captures asked for per CDX answer (limit=); further pages follow
  // the answer's resumeKey.
  int cdx_page_rows = 1000;
  // The CDX output asked for: JSON (false) or the plain space-separated
  // text (true). Either is read, whatever was asked.
  bool cdx_plain_text = false;
  // Tries of one request: a 429, a 5xx or a failed transfer is retried
  // after the Retry-After the archive asked for (or 2, 4, 8... s, at most
  // 120 s, without one) until this many tries have failed.
  int max_tries = 6;
  std::chrono::seconds timeout{120};                // One request, whole.
  std::size_t max_body_bytes = kMinBodyLimitBytes;  // Raised to the minimum.
  bool compress_bodies = false;
  std::string tool_version;
  std::string user_agent;  // Empty: DefaultUserAgent().
};

// What a Wayback import did, in this invocation. A unit is one domain in
// one period.
struct WaybackSummary {
  std::vector<std::string> periods;      // Labels, oldest first.
  std::vector<std::int64_t> run_ids;     // One per period, in that order.
  std::int64_t domains = 0;              // Listed.
  std::int64_t domains_done_before = 0;  // Every period done earlier.
  std::int64_t domains_failed = 0;       // A unit left for the next import.
  std::int64_t units_done_before = 0;
  std::int64_t cdx_requests = 0;       // Answers, pages included.
  std::int64_t snapshot_requests = 0;  // Answers received.
  std::int64_t retries = 0;            // Requests tried again (429, 5xx...).
  std::int64_t captures = 0;           // CDX rows read.
  std::int64_t fetches = 0;            // Snapshots written as fetches.
  std::int64_t no_capture = 0;         // Units without a capture: no fetch.
  // Fetches whose archived response is HTML (text/html) with a 2xx: the
  // site served a page, not a robots.txt; recorded as it came.
  std::int64_t html = 0;
  // Units whose capture the archive did not replay (its own error page,
  // no Memento-Datetime), and units of a domain the CDX API refuses (403,
  // an excluded site): no fetch; history_file says why.
  std::int64_t archive_errors = 0;
  std::int64_t malformed_captures = 0;  // CDX rows that could not be read.
  std::int64_t units_failed = 0;        // Left pending: CDX or snapshot failed.
  std::vector<std::string> first_errors;  // Up to 10, "domain: reason".
  bool cancelled = false;
};

struct WaybackCallbacks {
  // After each domain, with the summary so far.
  std::function<void(std::string_view domain, const WaybackSummary&)> on_domain;
};

// Imports the snapshots. Errors: kInvalidArgument (a bad --from/--to, an
// option out of range, no list, a PostgreSQL database: not supported yet),
// kLocked (another crawl or import holds the database), kIoError (the
// list cannot be read), storage errors as they come. A domain whose CDX
// query or snapshot fails after every try is counted (units_failed) and
// left to the next import. `handle` may be null.
Status ImportWayback(const WaybackImport& options,
                     const WaybackCallbacks& callbacks, CrawlHandle* handle,
                     WaybackSummary* summary);

// The crawl ID named in a Common Crawl path or URL
// (".../crawl-data/CC-MAIN-2024-10/..."), or "".
std::string CrawlIdInPath(std::string_view path);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_HISTORY_H_
