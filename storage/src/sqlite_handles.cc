#include "sqlite_handles.h"

#include <string>

namespace robotscan::storage {

Status StatusFromSqlite(sqlite3* db, int rc, std::string_view context) {
  std::string message(context);
  message += ": ";
  message += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  switch (rc & 0xff) {
    case SQLITE_OK:
    case SQLITE_DONE:
    case SQLITE_ROW:
      return Status::Ok();
    case SQLITE_FULL:
      return Status(Status::Code::kDiskFull, std::move(message));
    case SQLITE_IOERR:
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
    case SQLITE_PERM:
      return Status(Status::Code::kIoError, std::move(message));
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status(Status::Code::kBusy, std::move(message));
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status(Status::Code::kCorrupt, std::move(message));
    case SQLITE_CONSTRAINT:
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
      return Status(Status::Code::kInvalidArgument, std::move(message));
    default:
      return Status(Status::Code::kInternal, std::move(message));
  }
}

Status Statement::Prepare(sqlite3* db, std::string_view sql, Statement* out) {
  sqlite3_stmt* stmt = nullptr;
  const int rc =
      sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                         SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return StatusFromSqlite(db, rc, "prepare");
  }
  *out = Statement(db, stmt);
  return Status::Ok();
}

Status Execute(sqlite3* db, const char* sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status::Ok();
  Status status = StatusFromSqlite(db, rc, "exec");
  sqlite3_free(error);
  return status;
}

Transaction::~Transaction() {
  // After a failed COMMIT (e.g. SQLITE_FULL) SQLite may already have rolled
  // back; a second ROLLBACK then fails harmlessly.
  if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

Status Transaction::Begin() {
  Status status = Execute(db_, "BEGIN IMMEDIATE");
  open_ = status.ok();
  return status;
}

Status Transaction::Commit() {
  Status status = Execute(db_, "COMMIT");
  if (status.ok()) open_ = false;
  return status;
}

}  // namespace robotscan::storage
