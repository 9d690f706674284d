#include "schema/migrations.h"

#include "schema/crawl_tables.h"
#include "schema/latest_fetch_view.h"
#include "schema/schema_sql.h"

namespace robotscan::storage::schema {

std::string DefinedMigrationSql(Step step, Dialect dialect) {
  std::string sql;
  for (const Table* table : kCrawlTables) {
    if (table->since == step) {
      sql += CreateTableSql(*table, dialect);
      continue;
    }
    for (const Column& column : table->columns) {
      if (column.since == step) sql += AddColumnSql(*table, column, dialect);
    }
    for (const Index& index : table->indexes) {
      if (index.since == step) sql += CreateIndexSql(*table, index, dialect);
    }
  }
  if (step == kLatestFetchViewSince) sql += CreateLatestFetchViewSql(dialect);
  return sql;
}

}  // namespace robotscan::storage::schema
