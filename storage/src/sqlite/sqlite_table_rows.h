// Writing a table's rows on SQLite from its definition (schema/table.h):
// one INSERT of every column, column i bound as parameter i + 1, the
// columns a record fills bound through their codecs, the rest (ids) bound
// by the store by name. Private to storage.
//
// Usage:
//   Statement insert;
//   Statement::Prepare(db, SqliteInsertSql(schema::kFetchStepTable), &insert);
//   BindRecord(insert, schema::kFetchStepTable, step);
//   insert.BindInt(SqliteParameterOf(schema::kFetchStepTable, "seq"), seq);
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_TABLE_ROWS_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_TABLE_ROWS_H_

#include <cassert>
#include <string>
#include <string_view>

#include "schema/schema_sql.h"
#include "schema/table.h"
#include "sqlite/sqlite_handles.h"

namespace robotscan::storage {

// "INSERT INTO t(c1, ..., cn) VALUES (?1, ..., ?n)".
inline std::string SqliteInsertSql(const schema::Table& table) {
  std::string values;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (i > 0) values += ", ";
    values +=
        schema::Parameter(static_cast<int>(i) + 1, schema::Dialect::kSqlite);
  }
  return "INSERT INTO " +
         schema::QuotedName(table.name, schema::Dialect::kSqlite) + "(" +
         schema::ColumnNames(table,
                             [](const schema::Column&) { return true; }) +
         ") VALUES (" + values + ")";
}

// The parameter of `column` in SqliteInsertSql(table); 0 if none.
constexpr int SqliteParameterOf(const schema::Table& table,
                                std::string_view column) {
  return schema::ColumnIndex(table, column) + 1;
}

// Binds every column of `table` that `record` fills.
template <class Record>
void BindRecord(Statement& insert, const schema::Table& table,
                const Record& record) {
  assert(table.record == schema::RecordTag<Record>());
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    const schema::Column& c = table.columns[i];
    if (c.written()) insert.BindCell(static_cast<int>(i) + 1, c.write(&record));
  }
}

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_TABLE_ROWS_H_
