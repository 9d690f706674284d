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

std::string LatestFetchRowsSql(Dialect dialect, bool as_of_run) {
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
  sql += "\nFROM ";
  sql += as_of_run ? Sources(dialect, NewestFetchUpToRun(dialect))
                   : std::string("latest_fetch lf");
  return sql + "\n";
}

}  // namespace robotscan::storage::schema
