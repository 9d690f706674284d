// A read-only, streaming reader of the crawl database's public view
// `latest_fetch` (one row per domain, see crawl_store.h and docs/crawler.md).
// Built for analyses over a million domains: rows are produced one at a time
// into a caller-owned buffer whose strings keep their capacity, so memory
// stays bounded by the largest body (500 KiB by default), not by the number
// of rows. Compressed bodies (StoreOptions::compress_bodies) are
// decompressed transparently.
//
// The file is opened read-only (SQLITE_OPEN_READONLY): a report can run
// while a crawl is writing (WAL) and never changes the database. Reading
// needs no write access: a database in a read-only directory or on a
// read-only mount is read immutable where SQLite cannot create its -shm
// (SqliteUriForReading, database_location.h).
//
// Thread-safety: one reader per thread; several readers may share a file.
//
// Usage:
//   auto reader = LatestFetchReader::Open("crawl.sqlite");
//   if (!reader.ok()) return reader.status();
//   LatestFetchRow row;
//   while (true) {
//     Result<bool> has_row = reader.value()->Next(&row);
//     if (!has_row.ok()) return has_row.status();
//     if (!*has_row) break;  // Not `!has_row`: that asks whether it failed.
//     Use(row);
//   }
#ifndef ROBOTSCAN_STORAGE_LATEST_FETCH_READER_H_
#define ROBOTSCAN_STORAGE_LATEST_FETCH_READER_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/access_policy.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/fetch_classes.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

// What a fetch's signals (crawl --signals; the signal_fetch table, crawl_
// store.h's SignalRecord) said, for analyses of latest_fetch. `fetched` is
// false when the crawl did not ask for them (or the database predates
// them); every field is then empty.
struct SignalSummary {
  bool fetched = false;
  bool llms_txt = false;    // /llms.txt present.
  bool tdmrep = false;      // /.well-known/tdmrep.json present...
  int tdmrep_valid = -1;    // ...and valid TDMRep (1), or not (0).
  std::string tdmrep_body;  // As served, when present.
  // The homepage's headers.
  std::string x_robots_tag, content_usage, tdm_reservation, tdm_policy;
};

// One row of `latest_fetch`. NULL text columns read as empty strings; the
// access and error columns are read through fetch_classes.h's name table.
struct LatestFetchRow {
  std::string domain;
  std::int64_t rank = 0;  // 0 when the list gave none.
  std::string url;
  std::string final_url;
  int http_status = 0;  // 0: no response.
  robots::AccessClass access = robots::AccessClass::kUnreachable;
  // The error class (kNone on a response). A name this robotscan does not
  // know (written by a newer one) reads as kOther.
  ErrorClass error = ErrorClass::kNone;
  int redirects = 0;
  std::int64_t bytes = 0;  // Decoded body size as stored.
  bool truncated = false;
  // A 304 answer to a conditional re-crawl: `body` is the earlier copy,
  // still current.
  bool not_modified = false;
  std::string content_type;  // Content-Type header of the final response.
  std::string body;          // Decoded body, decompressed if needed.
  std::string body_sha256;   // Lower-case hex; empty when there is no body.
  std::string fetched_at;
  SignalSummary signals;
};

// A body (by SHA-256) that several domains serve.
struct SharedBody {
  std::string sha256;  // Lower-case hex.
  std::int64_t domains = 0;
  std::int64_t bytes = 0;
  std::string example_domain;  // The best-ranked domain serving it.
  std::int64_t example_rank = 0;
  std::string excerpt;  // The first bytes (up to 512) of the body.
};

// Which rows a reader produces (the default: latest_fetch, in no order).
struct LatestFetchQuery {
  // Rows ordered by domain name (byte order, SQLite's BINARY collation), so
  // that two readers can be merged in one pass (report --compare).
  bool by_domain = false;
  // When > 0: each domain's newest fetch among runs up to this crawl_run id
  // — the database as it was when that run ended — instead of its newest
  // fetch of all. Domains first fetched later are left out.
  std::int64_t as_of_run = 0;
  // When either is set (and as_of_run is not): each domain's newest capture
  // — by fetched_at, then by id — with captured_from <= fetched_at <
  // captured_before, instead of its newest fetch by id. ISO 8601 UTC text
  // ("2019-01-01T00:00:00Z"); an empty bound is open. Imported history
  // (docs/history.md) is written in any order, so capture time, not id,
  // says which snapshot is newest. Domains without a capture in the window
  // are left out. This is how `report --series` and `--period` see one
  // period.
  std::string captured_from;
  std::string captured_before;
  bool by_capture_window() const {
    return as_of_run <= 0 &&
           (!captured_from.empty() || !captured_before.empty());
  }
};

// The oldest and newest fetched_at of every fetch in the database (empty
// strings when it has none).
struct CaptureSpan {
  std::string first;
  std::string last;
};

class LatestFetchReader {
 public:
  // Opens `path` read-only. Fails with kInvalidArgument if the file has no
  // `latest_fetch` view (not a crawl database) or no crawl_run
  // `query.as_of_run`, kSchemaTooNew if written by a newer robotscan.
  static Result<std::unique_ptr<LatestFetchReader>> Open(
      std::string_view path, const LatestFetchQuery& query = {});
  virtual ~LatestFetchReader() = default;

  // Every crawl_run row, oldest first (with each run's list provenance).
  virtual Result<std::vector<RunRecord>> ReadRuns() = 0;

  // The span of capture times over every fetch (index-free: one scan).
  virtual Result<CaptureSpan> ReadCaptureSpan() = 0;

  // Number of rows in latest_fetch (one per domain).
  virtual Result<std::int64_t> CountRows() = 0;

  // Reads the next row into *row (reusing its buffers): true, or false
  // once every row was read. Rows come in no particular order.
  virtual Result<bool> Next(LatestFetchRow* row) = 0;

  // Bodies served by at least `min_domains` domains with a 2xx status (or a
  // 304 that kept an earlier 2xx body), most
  // shared first, at most `limit` of them (SQLite groups them on disk, so
  // memory does not grow with the number of distinct bodies).
  virtual Result<std::vector<SharedBody>> FindSharedBodies(
      std::int64_t min_domains, std::int64_t limit) = 0;
};

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_LATEST_FETCH_READER_H_
