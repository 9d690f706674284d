// The crawl database: every robots.txt fetch `robotscan crawl` makes, kept
// in one SQLite file that researchers query with plain SQL, or in a
// PostgreSQL database (Open with a postgresql:// URI, database_location.h;
// the same tables and view, both defined once in storage/src/schema/;
// shared by many workers, docs/scale-out.md).
//
// Layout (schema version kSchemaVersion, PRAGMA user_version; older files are
// migrated forward on Open, newer ones are refused):
//   crawl_run   one row per invocation of the crawler (options, start, end).
//   domain      one row per domain name ever seen; latest_fetch_id points at
//               its newest fetch.
//   fetch       one row per domain per crawl: the final outcome after
//               retries, fallbacks and redirects. Nothing is overwritten; a
//               re-crawl adds rows (history).
//   fetch_step  every HTTP request behind a fetch, in order: the https try,
//               the http fallback, each redirect hop.
//   body        each distinct body once, keyed by SHA-256 of its decoded
//               bytes (optionally zstd-compressed).
//   history_file each archive file an import read (docs/history.md): where
//               it stands, so that a stopped import resumes and imports
//               each file exactly once.
//   latest_fetch (VIEW, the stable public contract, see docs/crawler.md):
//               one row per domain with at least domain, rank, url,
//               final_url, http_status, access, error, redirects, bytes,
//               truncated, body, fetched_at.
//
// The access column is the RFC 9309 §2.3.1 class: "success",
// "unavailable", "unreachable"; http_status keeps the raw status so an
// analysis can apply another reading (e.g. Google's 429 rule). Records
// carry the classes as enums (robots::AccessClass, ErrorClass); their
// names, the database's text, come from the one table of fetch_classes.h
// and appear only where a row is written or read.
//
// Durability: WAL with synchronous=NORMAL. A committed AppendFetches batch
// survives a crash of the process (kill -9); a failed batch (disk full, I/O
// error) is rolled back as a whole and reported, earlier batches stay.
//
// Thread-safety: a CrawlStore is used by one thread at a time. Several
// CrawlStore objects (threads or processes) may open the same file: one
// writer, any number of readers.
//
// Errors are values (status.h): what a call reads comes back as a
// Result<T> (a T or the Status saying why not), a write returns a Status.
// A Result's ok() (and its explicit bool) says whether there is a value,
// not what the value is: test *has_fetches, not has_fetches.
//
// Usage:
//   auto store = CrawlStore::Open("crawl.sqlite", {});
//   if (!store.ok()) return store.status();
//   Result<std::int64_t> run = store.value()->BeginRun(info);
//   if (!run.ok()) return run.status();
//   Status s = store.value()->AppendFetches(*run, records);
#ifndef ROBOTSCAN_STORAGE_CRAWL_STORE_H_
#define ROBOTSCAN_STORAGE_CRAWL_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/access_policy.h"
#include "robotscan/storage/crawl_lock.h"
#include "robotscan/storage/fetch_classes.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

inline constexpr int kSchemaVersion = 4;

// One HTTP request made while fetching a domain's robots.txt.
struct FetchStep {
  std::string url;
  int http_status = 0;   // 0: no response.
  std::string location;  // Location header of a 3xx, as sent.
  ErrorClass error_class = ErrorClass::kNone;  // kNone: a response came.
  std::string error_message;  // libcurl's or the resolver's words.
  std::string ip;             // Address connected to, if any.
  double total_ms = 0;
};

// One AI-preference signal outside robots.txt, fetched with the domain's
// robots.txt by `crawl --signals` (docs/crawler.md, "Signals"): /llms.txt,
// /.well-known/tdmrep.json (TDMRep), or the homepage's headers. Written
// with its fetch, in the same transaction: a domain's signals are there
// exactly when its fetch is.
struct SignalRecord {
  std::string kind;       // "llms.txt", "tdmrep.json" or "homepage".
  std::string url;        // First URL requested; empty when not fetched.
  std::string final_url;  // After redirects (same site, at most five).
  int http_status = 0;    // 0: no response.
  ErrorClass error_class = ErrorClass::kNone;
  std::string error_message;
  int redirects = 0;
  std::string content_type;
  std::int64_t bytes = 0;  // Decoded body bytes received (up to the cap).
  bool truncated = false;
  // Present: a 2xx answer that is this kind of file. An HTML page (a
  // site's soft 404), an empty body, a redirect to the homepage or a
  // non-2xx status is absent, and says why (absent_reason: "status",
  // "html", "soft-404", "empty", "no-response", "not-fetched"). The
  // homepage is present when any 2xx came.
  bool present = false;
  std::string absent_reason;
  // tdmrep.json only: 1 when it is a valid TDMRep file, 0 when not (with
  // validation_error); -1 (NULL) for the other kinds and absent files.
  int valid = -1;
  std::string validation_error;
  // The response's headers of the final answer (several lines of one
  // header joined with ", ").
  std::string x_robots_tag, content_usage, tdm_reservation, tdm_policy;
  std::string body;  // llms.txt and tdmrep.json, up to the cap; else empty.
};

// The final outcome of fetching one domain's robots.txt in one crawl.
struct FetchRecord {
  std::string domain;  // Lower-case ASCII (punycode), no trailing dot.
  std::int64_t rank = 0;
  std::string url;        // First URL requested.
  std::string final_url;  // URL of the last response (after redirects).
  std::string strategy;   // e.g. "https,http" (schemes tried, in order).
  int http_status = 0;    // Final status; 0 when no response.
  // RFC 9309 §2.3.1; stored as its name (fetch_classes.h).
  robots::AccessClass access = robots::AccessClass::kUnreachable;
  ErrorClass error_class = ErrorClass::kNone;  // kNone: a response came.
  std::string error_message;
  int redirects = 0;          // Redirect hops followed.
  int attempts = 1;           // Tries including retries.
  bool truncated = false;     // Body longer than the cap; `body` is a prefix.
  bool not_modified = false;  // 304 to a conditional request.
  std::string body;           // Decoded body (up to the cap).
  // For a 304: the fetch whose body is still current (body reused).
  std::int64_t body_from_fetch_id = 0;
  // Selected response headers of the final response (empty if absent).
  std::string content_type, content_encoding, content_length, cache_control,
      expires, last_modified, etag, retry_after;
  std::string ip;
  // Timings of the final request, milliseconds; negative when unknown.
  double dns_ms = -1, connect_ms = -1, tls_ms = -1, first_byte_ms = -1,
         total_ms = -1;
  std::string fetched_at;  // ISO 8601 UTC, e.g. 2026-01-31T12:00:00.123Z
  std::vector<FetchStep> steps;
  // With `crawl --signals`: the domain's signals (one per kind).
  std::vector<SignalRecord> signals;
  // Where the fetch came from (docs/history.md). For a capture imported
  // from an archive, fetched_at is the capture time the archive recorded
  // (so that every reader of fetched_at sees when the site answered), and
  // the fields below say which record it was.
  FetchSource source = FetchSource::kCrawl;
  std::string source_file;          // commoncrawl: the WARC file's name.
  std::int64_t source_offset = -1;  // commoncrawl: its record's offset; -1.
  // The capture time as the archive wrote it (WARC-Date; Wayback's
  // 14-digit timestamp), kept verbatim next to fetched_at's ISO form.
  std::string source_timestamp;
};

// What a new crawl needs to know about a domain's newest fetch.
struct PreviousFetch {
  std::int64_t fetch_id = 0;
  std::string fetched_at;
  int http_status = 0;
  // A 304 answer keeps it (a fetch with a body was a success).
  robots::AccessClass access = robots::AccessClass::kSuccess;
  std::string etag;
  std::string last_modified;
  bool has_body = false;
};

// Where a crawl's top list came from (crawl_run.list_*). Empty fields are
// stored as NULL.
struct ListProvenance {
  std::string source;        // "tranco", "umbrella", "majestic" or "file".
  std::string list_id;       // Tranco's list ID, when known.
  std::string date;          // YYYY-MM-DD the list was published or fetched.
  std::string url;           // Where it was downloaded from.
  std::string sha256;        // Lower-case hex of the file as read.
  std::int64_t entries = 0;  // Entries selected for the crawl (--top/--skip).
};

struct RunInfo {
  std::string started_at;  // ISO 8601 UTC.
  std::string tool_version;
  std::string input;         // The list's path.
  std::string options_json;  // The crawl options, for provenance.
  std::string host;          // Machine that ran the crawl.
  std::int64_t pid = 0;
  ListProvenance list;
  // What the run is: a crawl, or an import of an archive's captures, and
  // for Common Crawl the crawl ID (CC-MAIN-2024-10) it imported.
  FetchSource source = FetchSource::kCrawl;
  std::string source_crawl;
};

// A crawl_run row, as ReadRuns returns it.
struct RunRecord {
  std::int64_t id = 0;
  std::string started_at, finished_at, status, tool_version, input, host;
  std::int64_t pid = 0;
  ListProvenance list;
  // As RunInfo's; a run of a file older than the history sources reads as
  // a crawl.
  FetchSource source = FetchSource::kCrawl;
  std::string source_crawl;
};

// What CheckIntegrity found.
struct IntegrityReport {
  bool healthy = false;
  std::string text;  // "ok", or the first complaint.
};

// Rows of the fetch and body tables (CountRows).
struct RowCounts {
  std::int64_t fetches = 0;
  std::int64_t bodies = 0;
};

// What an import counted in an archive file (history_file's counts).
struct HistoryCounts {
  std::int64_t records = 0;     // WARC records read, malformed ones too.
  std::int64_t fetches = 0;     // Fetches written.
  std::int64_t duplicates = 0;  // Captures of a domain the run already had.
  std::int64_t skipped = 0;     // Records that are no robots.txt response.
  std::int64_t errors = 0;      // Malformed records.
};

// An archive file of an import run, as OpenHistoryFile finds it.
struct HistoryFile {
  std::int64_t id = 0;
  bool done = false;
  // Where reading goes on: the gzip member at resume_offset, after its
  // first resume_skip records.
  std::int64_t resume_offset = 0;
  std::int64_t resume_skip = 0;
  HistoryCounts counts;  // So far.
  // Not empty: another importer holds the file's lease (PostgreSQL, where
  // importers on several hosts share a run's files); it was not opened, so
  // come back to it after its lease_until. Never set on SQLite, where one
  // import holds the database.
  std::string held_by;
  std::string lease_until;
};

// What a batch of an import adds to its file.
struct HistoryProgress {
  std::int64_t file_id = 0;
  std::int64_t resume_offset = 0;
  std::int64_t resume_skip = 0;
  // Counted by the reader (records, skipped, errors); the store adds the
  // fetches and duplicates it decided.
  HistoryCounts counts;
  std::string last_error;  // Empty: none in this batch.
  bool done = false;       // The whole file is read.
  std::string finished_at;
  // The importer holding the file, and its renewed lease (ISO 8601 UTC).
  // On PostgreSQL the batch commits only while `holder` still holds the
  // file: one whose lease expired and was taken over gets kAborted, and
  // nothing of the batch is written (the new holder reads it again).
  std::string holder;
  std::string lease_until;
};

struct StoreOptions {
  bool read_only = false;
  // Store bodies zstd-compressed (level 3). latest_fetch.body is then NULL
  // for compressed bodies; read them with ReadBody(). Off by default so
  // that plain sqlite3 sees every body.
  bool compress_bodies = false;
  // Test hook: cap the file at this many pages (PRAGMA max_page_count) to
  // exercise the disk-full path. 0: no cap.
  std::int64_t max_page_count = 0;
};

class CrawlStore {
 public:
  // Opens (creating if needed) and migrates the database at `path`.
  static Result<std::unique_ptr<CrawlStore>> Open(std::string_view path,
                                                  const StoreOptions& options);
  virtual ~CrawlStore() = default;

  // Records the start of a crawl and returns its id.
  virtual Result<std::int64_t> BeginRun(const RunInfo& info) = 0;
  // Marks a run "finished", "interrupted" or "failed".
  virtual Status FinishRun(std::int64_t run_id, std::string_view status,
                           std::string_view finished_at) = 0;

  // Appends `records` to run `run_id` in one transaction: all or nothing.
  // A domain gets at most one fetch per run: a second record for the same
  // (run, domain) fails the batch with kInvalidArgument.
  virtual Status AppendFetches(std::int64_t run_id,
                               std::span<const FetchRecord> records) = 0;

  // The newest fetch of `domain`, or nullopt if none.
  virtual Result<std::optional<PreviousFetch>> FindLatestFetch(
      std::string_view domain) = 0;

  // The decoded body stored for a fetch (decompressed if needed); empty if
  // the fetch has no body.
  virtual Result<std::string> ReadBody(std::int64_t fetch_id) = 0;

  // Runs PRAGMA integrity_check: healthy, or the first complaint.
  virtual Result<IntegrityReport> CheckIntegrity() = 0;

  // Number of fetch rows and distinct bodies (statistics, tests).
  virtual Result<RowCounts> CountRows() = 0;

  // Whether any fetch is recorded at all (constant time, unlike CountRows).
  virtual Result<bool> HasFetches() = 0;

  // Every crawl_run row, oldest first.
  virtual Result<std::vector<RunRecord>> ReadRuns() = 0;

  // Imports from archives (docs/history.md). The run that imported
  // `source_crawl` from `source` (one run per crawl ID), if any.
  virtual Result<std::optional<std::int64_t>> FindImportRun(
      FetchSource source, std::string_view source_crawl) = 0;
  // That run, or a new one begun from `info` (info.source, info.
  // source_crawl) when there is none: atomically, so that importers
  // starting together on several hosts share one run.
  virtual Result<std::int64_t> FindOrBeginImportRun(const RunInfo& info) = 0;
  // The history_file row of `name` in run `run_id`, created if new (its
  // location and holder updated if not), leased to `holder` until
  // `lease_until`. On PostgreSQL a file another holder leases until after
  // `now` is not taken: HistoryFile::held_by names that holder.
  virtual Result<HistoryFile> OpenHistoryFile(std::int64_t run_id,
                                              std::string_view name,
                                              std::string_view location,
                                              std::string_view holder,
                                              std::string_view now,
                                              std::string_view lease_until) = 0;
  // Appends imported captures and the progress of their file in one
  // transaction, so that a file's records are imported once whatever stops
  // the import. A run keeps one fetch per domain: the earliest capture
  // (fetched_at, then source_file, then source_offset); a later one is
  // counted as a duplicate, an earlier one replaces it. A domain's
  // latest_fetch_id is its newest fetch by fetched_at. Returns the fetches
  // written and the duplicates of this batch.
  virtual Result<HistoryCounts> AppendImportedFetches(
      std::int64_t run_id, std::span<const FetchRecord> records,
      const HistoryProgress& progress) = 0;

  // Takes the database's one-live-crawl hold (crawl_lock.h) for `me`: the
  // attempt holds the lock, or names who holds it. Not for read-only stores.
  virtual Result<LockAttempt> LockForCrawl(const CrawlHolder& me) = 0;
  // The hold an import takes: the same as a crawl's on SQLite (one writer);
  // shared on PostgreSQL, where importers on several hosts share a run's
  // files through history_file's leases (a single-process crawl is still
  // refused while they run, and the other way round).
  virtual Result<LockAttempt> LockForImport(const CrawlHolder& me) = 0;
};

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_CRAWL_STORE_H_
