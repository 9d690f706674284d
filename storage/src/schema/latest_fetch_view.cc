#include "schema/latest_fetch_view.h"

#include <string>
#include <string_view>

#include "schema/latest_fetch_columns.h"

namespace robotscan::storage::schema {
namespace {

constexpr bool EveryColumnReadIsTheViews() {
  for (const char* name : latest_fetch_columns::kViewColumnOf) {
    if (name == nullptr) continue;
    bool found = false;
    for (const ViewColumn& column : kLatestFetchView) {
      found = found || std::string_view(column.name) == name;
    }
    if (!found) return false;
  }
  return true;
}
static_assert(EveryColumnReadIsTheViews());

const ViewColumn* FindViewColumn(std::string_view name) {
  for (const ViewColumn& column : kLatestFetchView) {
    if (name == column.name) return &column;
  }
  return nullptr;
}

// The view's joins, each domain with the fetch whose id is `fetch_id`.
std::string Sources(Dialect dialect, std::string_view fetch_id) {
  const std::string fetch = QuotedName("fetch", dialect);
  std::string sql = "domain d\nJOIN " + fetch + " f ON f.id = ";
  sql += fetch_id;
  return sql + "\nLEFT JOIN body b ON b.id = f.body_id";
}

// Each domain's newest fetch among the runs up to parameter 1
// (fetch_by_domain makes it an index search per domain).
std::string NewestFetchUpToRun(Dialect dialect) {
  const std::string fetch = QuotedName("fetch", dialect);
  return "(SELECT max(g.id) FROM " + fetch +
         " g\n                        WHERE g.domain_id = d.id AND "
         "g.run_id <= " +
         Parameter(1, dialect) + ")";
}

// Each domain's newest capture in [parameter 1, parameter 2), either bound
// NULL for open: by capture time, since imported snapshots arrive in any
// order (the id breaks ties between captures of the same second).
std::string NewestCaptureInWindow(Dialect dialect) {
  const std::string fetch = QuotedName("fetch", dialect);
  // PostgreSQL cannot infer a type for "$1 IS NULL".
  const std::string cast = dialect == Dialect::kPostgres ? "::text" : "";
  const std::string from = Parameter(1, dialect) + cast;
  const std::string before = Parameter(2, dialect) + cast;
  return "(SELECT g.id FROM " + fetch +
         " g\n                        WHERE g.domain_id = d.id"
         "\n                          AND (" +
         from + " IS NULL OR g.fetched_at >= " + from +
         ")\n                          AND (" + before +
         " IS NULL OR g.fetched_at < " + before +
         ")\n                        ORDER BY g.fetched_at DESC, g.id DESC "
         "LIMIT 1)";
}

// The zstd body the view leaves NULL: read through the fetch row (one
// indexed lookup, only for compressed rows), or straight from b.
std::string CompressedBody(Dialect dialect, bool as_of_run) {
  if (as_of_run) return "CASE WHEN b.compression = 'zstd' THEN b.data END";
  return "CASE WHEN lf.body IS NULL AND lf.body_compression = 'zstd' THEN\n"
         "         (SELECT b.data FROM " +
         QuotedName("fetch", dialect) +
         " f JOIN body b ON b.id = f.body_id\n"
         "          WHERE f.id = lf.fetch_id) END";
}

}  // namespace

std::string CreateLatestFetchViewSql(Dialect dialect) {
  std::string sql =
      "-- The stable public view: one row per domain, its newest fetch.\n"
      "CREATE VIEW latest_fetch AS\nSELECT ";
  bool first = true;
  for (const ViewColumn& column : kLatestFetchView) {
    if (!first) sql += ",\n       ";
    first = false;
    sql += DefinedSql(column.expression, dialect);
    sql += " AS ";
    sql += column.name;
  }
  return sql + "\nFROM " + Sources(dialect, "d.latest_fetch_id") + ";\n";
}

std::string LatestFetchRowsSql(Dialect dialect, RowSource source,
                               bool with_signals) {
  const bool as_of_run = source != RowSource::kView;
  std::string sql = "SELECT ";
  bool first = true;
  for (const char* name : latest_fetch_columns::kViewColumnOf) {
    if (!first) sql += ", ";
    first = false;
    if (name == nullptr) {
      sql += CompressedBody(dialect, as_of_run);
      continue;
    }
    const ViewColumn* column = FindViewColumn(name);
    if (as_of_run) {
      sql += SelectedSql(column->expression, dialect);
      continue;
    }
    // The view's column is read as the view shows it (a hex digest is
    // already text).
    const std::string alias = std::string("lf.") + name;
    Expression read{alias.c_str(), column->expression.form};
    if (read.form == Form::kHex) read.form = Form::kAsIs;
    sql += SelectedSql(read, dialect);
  }
  for (const char* column : latest_fetch_columns::kSignalColumnOf) {
    sql += ", ";
    sql += with_signals ? column : "NULL";
  }
  sql += "\nFROM ";
  switch (source) {
    case RowSource::kView:
      sql += "latest_fetch lf";
      break;
    case RowSource::kUpToRun:
      sql += Sources(dialect, NewestFetchUpToRun(dialect));
      break;
    case RowSource::kCaptureWindow:
      sql += Sources(dialect, NewestCaptureInWindow(dialect));
      break;
  }
  if (with_signals) {
    // One primary-key lookup per kind and row.
    const std::string fetch_id =
        source == RowSource::kView ? "lf.fetch_id" : "f.id";
    const char* kinds[][2] = {
        {"s1", "llms.txt"}, {"s2", "tdmrep.json"}, {"s3", "homepage"}};
    for (const auto& [alias, kind] : kinds) {
      sql += std::string("\nLEFT JOIN signal_fetch ") + alias + " ON " + alias +
             ".fetch_id = " + fetch_id + " AND " + alias + ".kind = '" + kind +
             "'";
    }
  }
  return sql + "\n";
}

}  // namespace robotscan::storage::schema
