// What a new crawl reads of a domain's newest fetch (PreviousFetch: its
// conditional request, the already-present check): the columns, as both
// backends select them from a fetch row `f`, and the one decoding of them.
// Used by both stores' FindLatestFetch and the frontier's claims.
//
// Private to storage. Thread-safety: constant data, pure functions.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_PREVIOUS_FETCH_COLUMNS_H_
#define ROBOTSCAN_STORAGE_SCHEMA_PREVIOUS_FETCH_COLUMNS_H_

#include <string>

#include "robotscan/storage/crawl_store.h"
#include "schema/codecs.h"
#include "schema/crawl_tables.h"
#include "schema/schema_sql.h"

namespace robotscan::storage::schema {

inline constexpr Expression kPreviousFetchColumns[] = {
    {"f.id"},
    {"f.fetched_at"},
    {"f.http_status", Expression::Form::kInteger},
    {"f.access"},
    {"f.etag"},
    {"f.last_modified"},
    {"f.body_id IS NOT NULL", Expression::Form::kBoolean},
};

// "f.id, f.fetched_at, ...", as `dialect` selects them.
inline std::string PreviousFetchColumnsSql(Dialect dialect) {
  std::string sql;
  for (const Expression& e : kPreviousFetchColumns) {
    if (!sql.empty()) sql += ", ";
    sql += SelectedSql(e, dialect);
  }
  return sql;
}

// The PreviousFetch in columns first .. first + 6 of the current row of
// `cells` (codecs.h's Cells). kCorrupt when a stored value does not decode
// (a class name this robotscan does not know).
template <class Cells>
Status DecodePreviousFetch(const Cells& cells, int first, PreviousFetch* p) {
  p->fetch_id = cells.Int(first);
  p->has_body = cells.Int(first + 6) != 0;
  if (Text::Load(cells, first + 1, &p->fetched_at) &&
      Integer::Load(cells, first + 2, &p->http_status) &&
      AccessCodec::Load(cells, first + 3, &p->access) &&
      TextOrNull::Load(cells, first + 4, &p->etag) &&
      TextOrNull::Load(cells, first + 5, &p->last_modified)) {
    return Status::Ok();
  }
  return Status(Status::Code::kCorrupt,
                "fetch " + std::to_string(p->fetch_id) +
                    " holds a value this robotscan cannot read");
}

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_PREVIOUS_FETCH_COLUMNS_H_
