// Writing a table's rows on PostgreSQL from its definition
// (schema/table.h), set-wise: the columns a record fills are COPYed into a
// staging table of the same column names (PgStagedColumns), then moved
// with one INSERT ... SELECT (PgInsertFromStaged) in which the store gives
// an expression for each column no member fills. Private to storage.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_TABLE_ROWS_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_TABLE_ROWS_H_

#include <cassert>
#include <span>
#include <string>
#include <string_view>

#include "postgres/pg_handles.h"
#include "schema/schema_sql.h"
#include "schema/table.h"

namespace robotscan::storage {

// "rank bigint, url text, ...": the columns a record fills, in table
// order, as a staging table declares them (no constraints: the INSERT
// into the real table checks them).
inline std::string PgStagedColumns(const schema::Table& table) {
  std::string sql;
  for (const schema::Column& c : table.columns) {
    if (!c.written()) continue;
    if (!sql.empty()) sql += ", ";
    sql += c.name;
    sql += ' ';
    sql += schema::TypeName(c.type, schema::Dialect::kPostgres);
  }
  return sql;
}

// "rank, url, ...": the same columns' names (COPY's column list).
inline std::string PgStagedColumnNames(const schema::Table& table) {
  return schema::ColumnNames(
      table, [](const schema::Column& c) { return c.written(); });
}

// Appends the columns `record` fills to the current COPY row, in the order
// of PgStagedColumnNames.
template <class Record>
void CopyRecord(CopyRows& rows, const schema::Table& table,
                const Record& record) {
  assert(table.record == schema::RecordTag<Record>());
  for (const schema::Column& c : table.columns) {
    if (c.written()) rows.Cell(c.write(&record));
  }
}

// An expression the store gives for a column no member fills.
struct FilledBy {
  std::string_view column;
  std::string_view sql;
};

// For schema::FillsTheRest(table, fillers, /*with_key=*/false): a staged
// insert gives an expression for each column no member fills, the row id
// aside (its sequence fills it).
constexpr std::string_view FillerName(const FilledBy& filler) {
  return filler.column;
}

// "INSERT INTO t (c, ...)\n  SELECT e, ...": every column but the row id,
// in table order; a filled one from `filled`, the others as
// `staged`.<name>. The caller adds FROM and the rest.
inline std::string PgInsertFromStaged(const schema::Table& table,
                                      std::string_view staged,
                                      std::span<const FilledBy> filled) {
  std::string columns, values;
  for (const schema::Column& c : table.columns) {
    if (c.type == schema::SqlType::kKey) continue;
    if (!columns.empty()) {
      columns += ", ";
      values += ", ";
    }
    columns += c.name;
    if (c.written()) {
      values += staged;
      values += '.';
      values += c.name;
      continue;
    }
    for (const FilledBy& f : filled) {
      if (f.column == c.name) values += f.sql;
    }
  }
  return "INSERT INTO " +
         schema::QuotedName(table.name, schema::Dialect::kPostgres) + " (" +
         columns + ")\n  SELECT " + values;
}

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_TABLE_ROWS_H_
