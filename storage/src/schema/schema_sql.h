// SQL text from table definitions (table.h), per dialect: the few places
// where SQLite and PostgreSQL spell the same schema differently are here
// and nowhere else —
//   * type names (INTEGER vs integer/bigint, REAL vs double precision,
//     BLOB vs bytea) and the row id (INTEGER PRIMARY KEY vs bigserial);
//   * "fetch", a reserved word in PostgreSQL, is quoted there;
//   * SQLite's WITHOUT ROWID;
//   * parameters (?1 vs $1);
//   * in queries read through libpq's binary results, integers cast to
//     int8 and conditions to int (pg_handles.h reads four types);
//   * a blob shown as hex (lower(hex(x)) vs encode(x, 'hex')).
//
// Private to storage. Thread-safety: pure functions.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_SQL_H_
#define ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_SQL_H_

#include <string>
#include <string_view>

#include "schema/schema_steps.h"
#include "schema/table.h"

namespace robotscan::storage::schema {

// `name` as an identifier of `dialect` ("fetch" is quoted on PostgreSQL).
std::string QuotedName(std::string_view name, Dialect dialect);

std::string_view TypeName(SqlType type, Dialect dialect);

// "?N" on SQLite, "$N" on PostgreSQL.
std::string Parameter(int number, Dialect dialect);

// An expression in a query (a view's column, a reader's select list),
// with how the dialects differ in writing or reading it.
struct Expression {
  enum class Form : std::uint8_t {
    kAsIs,
    kInteger,  // Read as int8 on PostgreSQL.
    kBoolean,  // A condition, read as 0/1 (int on PostgreSQL).
    kHex,      // A blob, shown as its lower-case hex.
  };
  const char* sql;
  Form form = Form::kAsIs;
};

// The expression as a view defines it (no casts for reading).
std::string DefinedSql(const Expression& e, Dialect dialect);
// The expression as a query selects it to read it back.
std::string SelectedSql(const Expression& e, Dialect dialect);

// "name TYPE constraints REFERENCES table(id)".
std::string ColumnDefinition(const Column& column, Dialect dialect);

// CREATE TABLE with the columns the table was created with (those of
// its own step; later ones come by AddColumnSql), and its indexes of
// that step.
std::string CreateTableSql(const Table& table, Dialect dialect);
std::string AddColumnSql(const Table& table, const Column& column,
                         Dialect dialect);
std::string CreateIndexSql(const Table& table, const Index& index,
                           Dialect dialect);

// "a, b, c": the names of `table`'s columns for which `keep(column)`.
template <class Keep>
std::string ColumnNames(const Table& table, Keep keep,
                        std::string_view prefix = "") {
  std::string names;
  for (const Column& c : table.columns) {
    if (!keep(c)) continue;
    if (!names.empty()) names += ", ";
    names += prefix;
    names += c.name;
  }
  return names;
}

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_SQL_H_
