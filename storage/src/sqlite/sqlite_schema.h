// The SQLite crawl database's schema as forward migrations:
// SqliteMigrations()[i] takes a file from user_version i to i + 1. Each is
// a schema step's SQL as the table and view definitions make it
// (schema/migrations.h; SQLite has no SQL of its own). Append, never edit:
// files in the field were created by the old steps (schema_steps.h).
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_H_

#include <string>
#include <vector>

#include "robotscan/storage/crawl_store.h"
#include "schema/schema_steps.h"

namespace robotscan::storage {

static_assert(schema::CurrentVersion(schema::Dialect::kSqlite) ==
              kSchemaVersion);

// kSchemaVersion of them, in order.
const std::vector<std::string>& SqliteMigrations();

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_H_
