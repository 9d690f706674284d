#include "schema/schema_sql.h"

#include <string>
#include <vector>

namespace robotscan::storage::schema {
namespace {

bool IsSimpleName(std::string_view sql) {
  for (const char c : sql) {
    if (!(c == '.' || c == '_' || (c >= 'a' && c <= 'z') ||
          (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string QuotedName(std::string_view name, Dialect dialect) {
  // FETCH is reserved in PostgreSQL (FETCH FIRST, cursors); SQLite takes
  // it bare, as researchers' queries write it.
  if (dialect == Dialect::kPostgres && name == "fetch") return "\"fetch\"";
  return std::string(name);
}

std::string_view TypeName(SqlType type, Dialect dialect) {
  const bool sqlite = dialect == Dialect::kSqlite;
  switch (type) {
    case SqlType::kKey:
      return sqlite ? "INTEGER PRIMARY KEY" : "bigserial PRIMARY KEY";
    case SqlType::kInt32:
      return sqlite ? "INTEGER" : "integer";
    case SqlType::kInt64:
      return sqlite ? "INTEGER" : "bigint";
    case SqlType::kReal:
      return sqlite ? "REAL" : "double precision";
    case SqlType::kText:
      return sqlite ? "TEXT" : "text";
    case SqlType::kBlob:
      return sqlite ? "BLOB" : "bytea";
  }
  return "";
}

std::string Parameter(int number, Dialect dialect) {
  return (dialect == Dialect::kSqlite ? "?" : "$") + std::to_string(number);
}

std::string DefinedSql(const Expression& e, Dialect dialect) {
  if (e.form != Expression::Form::kHex) return e.sql;
  if (dialect == Dialect::kSqlite) {
    return std::string("lower(hex(") + e.sql + "))";
  }
  return std::string("encode(") + e.sql + ", 'hex')";
}

std::string SelectedSql(const Expression& e, Dialect dialect) {
  if (dialect == Dialect::kSqlite) return DefinedSql(e, dialect);
  switch (e.form) {
    case Expression::Form::kInteger:
      return IsSimpleName(e.sql) ? std::string(e.sql) + "::int8"
                                 : std::string("(") + e.sql + ")::int8";
    case Expression::Form::kBoolean:
      return std::string("(") + e.sql + ")::int";
    case Expression::Form::kAsIs:
    case Expression::Form::kHex:
      break;
  }
  return DefinedSql(e, dialect);
}

std::string ColumnDefinition(const Column& column, Dialect dialect) {
  std::string sql = column.name;
  sql += ' ';
  sql += TypeName(column.type, dialect);
  if (*column.constraints != '\0') {
    sql += ' ';
    sql += column.constraints;
  }
  if (*column.references != '\0') {
    sql += " REFERENCES ";
    sql += QuotedName(column.references, dialect);
    sql += "(id)";
  }
  return sql;
}

std::string CreateTableSql(const Table& table, Dialect dialect) {
  struct Item {
    std::string sql;
    const char* comment;
  };
  std::vector<Item> items;
  for (const Column& c : table.columns) {
    if (c.since == table.since) {
      items.push_back({ColumnDefinition(c, dialect), c.comment});
    }
  }
  if (*table.constraints != '\0') items.push_back({table.constraints, ""});
  std::string sql = "CREATE TABLE " + QuotedName(table.name, dialect) + " (\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    sql += "  ";
    sql += items[i].sql;
    if (i + 1 < items.size()) sql += ',';
    if (*items[i].comment != '\0') {
      sql += "  -- ";
      sql += items[i].comment;
    }
    sql += '\n';
  }
  sql += ')';
  if (table.sqlite_without_rowid && dialect == Dialect::kSqlite) {
    sql += " WITHOUT ROWID";
  }
  sql += ";\n";
  for (const Index& index : table.indexes) {
    if (index.since == table.since) {
      sql += CreateIndexSql(table, index, dialect);
    }
  }
  return sql;
}

std::string AddColumnSql(const Table& table, const Column& column,
                         Dialect dialect) {
  std::string sql = "ALTER TABLE " + QuotedName(table.name, dialect) +
                    " ADD COLUMN " + ColumnDefinition(column, dialect) + ";";
  if (*column.comment != '\0') {
    sql += "  -- ";
    sql += column.comment;
  }
  return sql + "\n";
}

std::string CreateIndexSql(const Table& table, const Index& index,
                           Dialect dialect) {
  return std::string("CREATE INDEX ") + index.name + " ON " +
         QuotedName(table.name, dialect) + "(" + index.columns + ");\n";
}

}  // namespace robotscan::storage::schema
