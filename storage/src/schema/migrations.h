// The part of each migration step that comes from the table and view
// definitions (crawl_tables.h, latest_fetch_view.h): for `step` in
// `dialect`, CREATE TABLE for the tables it adds (with their indexes),
// ALTER TABLE ... ADD COLUMN for the columns it adds to older tables,
// CREATE INDEX for the indexes it adds to them, then the views it creates.
// Empty for a step with none (PostgreSQL's frontier steps are its own SQL,
// postgres/pg_schema.h). Each backend runs a step's SQL and its version
// bump in one transaction (sqlite/sqlite_schema.h, postgres/pg_schema.h).
//
// Private to storage. Thread-safety: a pure function.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_MIGRATIONS_H_
#define ROBOTSCAN_STORAGE_SCHEMA_MIGRATIONS_H_

#include <string>

#include "schema/schema_steps.h"

namespace robotscan::storage::schema {

std::string DefinedMigrationSql(Step step, Dialect dialect);

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_MIGRATIONS_H_
