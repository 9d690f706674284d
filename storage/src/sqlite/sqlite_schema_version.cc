#include "sqlite/sqlite_schema_version.h"

#include <string>

#include "robotscan/storage/crawl_store.h"
#include "sqlite/sqlite_handles.h"

namespace robotscan::storage {

Status ReadSchemaVersion(sqlite3* db, std::int64_t* version) {
  Statement query;
  if (Status s = Statement::Prepare(db, "PRAGMA user_version", &query);
      !s.ok()) {
    return s;
  }
  const int step = query.Step();
  if (step != SQLITE_ROW) {
    return StatusFromSqlite(db, step, "read the schema version");
  }
  *version = query.ColumnInt(0);
  return Status::Ok();
}

Status CheckSchemaVersion(sqlite3* db, std::string_view path,
                          std::int64_t* version) {
  if (Status s = ReadSchemaVersion(db, version); !s.ok()) return s;
  if (*version > kSchemaVersion) {
    return Status(Status::Code::kSchemaTooNew,
                  std::string(path) + " was written by a newer robotscan " +
                      "(schema version " + std::to_string(*version) +
                      ", this robotscan's is " +
                      std::to_string(kSchemaVersion) + ")");
  }
  return Status::Ok();
}

}  // namespace robotscan::storage
