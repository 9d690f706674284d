// The `latest_fetch` view, the crawl database's stable public contract
// (crawl_store.h, docs/crawler.md), defined once: its columns as
// expressions over domain d, fetch f and body b, from which come both
// dialects' CREATE VIEW and the LatestFetchReader's queries — over the
// view, or (LatestFetchQuery::as_of_run) the same expressions over each
// domain's newest fetch up to a run. What the dialects spell differently
// (the hex of a SHA-256, the quoted "fetch", casts for binary reads,
// parameters) is schema_sql.h's.
//
// Columns are only ever added, at the end (scripts select them by name and
// the contract's come first in this order); a change is a new schema step
// that replaces the view.
//
// Private to storage. Thread-safety: constant data, pure functions.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_VIEW_H_
#define ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_VIEW_H_

#include <string>
#include <string_view>

#include "robotscan/storage/latest_fetch_reader.h"
#include "schema/schema_sql.h"
#include "schema/schema_steps.h"

namespace robotscan::storage::schema {

struct ViewColumn {
  const char* name;
  Expression expression;
};

using Form = Expression::Form;

inline constexpr ViewColumn kLatestFetchView[] = {
    {"domain", {"d.name"}},
    {"rank", {"f.rank", Form::kInteger}},
    {"url", {"f.url"}},
    {"final_url", {"f.final_url"}},
    {"http_status", {"f.http_status", Form::kInteger}},
    {"access", {"f.access"}},
    {"error", {"f.error_class"}},
    {"redirects", {"f.redirects", Form::kInteger}},
    {"bytes", {"f.bytes", Form::kInteger}},
    {"truncated", {"f.truncated", Form::kInteger}},
    // Compressed bodies are NULL here (LatestFetchReader decompresses).
    {"body", {"CASE WHEN b.compression = 'none' THEN b.data END"}},
    {"fetched_at", {"f.fetched_at"}},
    {"error_message", {"f.error_message"}},
    {"fetch_id", {"f.id", Form::kInteger}},
    {"run_id", {"f.run_id", Form::kInteger}},
    {"strategy", {"f.strategy"}},
    {"attempts", {"f.attempts", Form::kInteger}},
    {"not_modified", {"f.not_modified", Form::kInteger}},
    {"content_type", {"f.content_type"}},
    {"content_encoding", {"f.content_encoding"}},
    {"content_length", {"f.content_length"}},
    {"cache_control", {"f.cache_control"}},
    {"expires", {"f.expires"}},
    {"last_modified", {"f.last_modified"}},
    {"etag", {"f.etag"}},
    {"retry_after", {"f.retry_after"}},
    {"ip", {"f.ip"}},
    {"dns_ms", {"f.dns_ms"}},
    {"connect_ms", {"f.connect_ms"}},
    {"tls_ms", {"f.tls_ms"}},
    {"first_byte_ms", {"f.first_byte_ms"}},
    {"total_ms", {"f.total_ms"}},
    {"body_sha256", {"b.sha256", Form::kHex}},
    {"body_compression", {"b.compression"}},
};

// The step that created the view (migrations.h).
inline constexpr Step kLatestFetchViewSince = Step::kCrawlTables;

// CREATE VIEW latest_fetch for `dialect`.
std::string CreateLatestFetchViewSql(Dialect dialect);

// Where the LatestFetchReader's rows come from (LatestFetchQuery).
enum class RowSource {
  kView,           // latest_fetch itself (alias lf).
  kUpToRun,        // Each domain's newest fetch of runs <= parameter 1.
  kCaptureWindow,  // Each domain's newest capture with parameter 1 <=
                   // fetched_at < parameter 2 (NULL: open bound).
};

inline RowSource RowSourceOf(const LatestFetchQuery& query) {
  if (query.as_of_run > 0) return RowSource::kUpToRun;
  if (query.by_capture_window()) return RowSource::kCaptureWindow;
  return RowSource::kView;
}

// The LatestFetchReader's SELECT of latest_fetch_columns.h's columns (in
// their order) from `source` (aliases d, f, b unless kView), the signal
// columns from signal_fetch when `with_signals` (a database at kSignals or
// later), else NULL. Without ORDER BY; ends with a newline.
std::string LatestFetchRowsSql(Dialect dialect, RowSource source,
                               bool with_signals);

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_VIEW_H_
