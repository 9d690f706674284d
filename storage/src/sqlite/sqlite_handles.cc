#include "sqlite/sqlite_handles.h"

#include <filesystem>
#include <string>
#include <system_error>

#include "robotscan/storage/database_location.h"

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

namespace {

// `path` as the path of a file: URI (RFC 8089 / SQLite's URI filenames):
// '%', '?' and '#' percent-encoded, an absolute path after an empty
// authority so that one starting with "//" is not read as a host.
std::string FileUri(const std::string& path, std::string_view query) {
  std::string uri = path.starts_with('/') ? "file://" : "file:";
  for (const char c : path) {
    switch (c) {
      case '%':
        uri += "%25";
        break;
      case '?':
        uri += "%3F";
        break;
      case '#':
        uri += "%23";
        break;
      default:
        uri += c;
    }
  }
  uri += '?';
  uri += query;
  return uri;
}

// The first read of a database, where SQLite opens (or fails to create)
// its -wal and -shm files.
int ReadSchema(sqlite3* db) {
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_schema", -1,
                              &stmt, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_step(stmt);
  sqlite3_finalize(stmt);
  return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

// True when `path` exists and is not empty.
bool HasContent(const std::string& path) {
  std::error_code error;
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  return !error && size > 0;
}

}  // namespace

Status OpenDatabaseForReading(const std::string& path, int extra_flags,
                              DatabaseHandle* db, std::string* uri) {
  const int flags = SQLITE_OPEN_READONLY | extra_flags;
  sqlite3* raw = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  DatabaseHandle opened(raw);
  if (rc != SQLITE_OK) return StatusFromSqlite(raw, rc, "open " + path);
  rc = ReadSchema(opened.get());
  const int primary = rc & 0xff;
  if (primary != SQLITE_READONLY && primary != SQLITE_CANTOPEN) {
    *db = std::move(opened);
    *uri = FileUri(path, "mode=ro");
    return Status::Ok();
  }
  // SQLite could not create or open what a WAL reader needs next to the
  // file. Copy its message before the handle goes.
  const Status failure = StatusFromSqlite(opened.get(), rc, "read " + path);
  opened.reset();
  if (HasContent(path + "-wal")) {
    return Status(Status::Code::kIoError,
                  failure.message() + " (" + path +
                      "-wal holds transactions not yet in the file, and "
                      "SQLite reads them only where it may create " +
                      path +
                      "-shm: open the database once with write access, "
                      "which moves them into the file, or copy the file "
                      "with its -wal to a writable directory)");
  }
  if (HasContent(path + "-journal")) {
    return Status(Status::Code::kIoError,
                  failure.message() + " (" + path +
                      "-journal holds a transaction that was cut short, "
                      "which only a reader with write access can roll "
                      "back: open the database once with write access)");
  }
  const std::string immutable = FileUri(path, "immutable=1");
  rc = sqlite3_open_v2(immutable.c_str(), &raw, flags | SQLITE_OPEN_URI,
                       nullptr);
  opened.reset(raw);
  if (rc == SQLITE_OK) {
    rc = ReadSchema(opened.get());
  }
  if (rc != SQLITE_OK) return failure;
  *db = std::move(opened);
  *uri = immutable;
  return Status::Ok();
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

// database_location.h's, here beside the opening it reports.
Result<std::string> SqliteUriForReading(std::string_view path) {
  DatabaseHandle db;
  std::string uri;
  if (Status s = OpenDatabaseForReading(std::string(path), 0, &db, &uri);
      !s.ok()) {
    return s;
  }
  return uri;
}

}  // namespace robotscan::storage
