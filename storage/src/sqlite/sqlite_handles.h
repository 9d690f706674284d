// Move-only RAII wrappers around sqlite3* and sqlite3_stmt*, and a
// transaction guard that rolls back unless committed. Private to storage.
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_HANDLES_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_HANDLES_H_

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "robotscan/storage/status.h"
#include "schema/cell.h"

namespace robotscan::storage {

// Maps an SQLite result code to a Status, copying sqlite3_errmsg at once
// (the next call on the connection overwrites it).
Status StatusFromSqlite(sqlite3* db, int rc, std::string_view context);

struct CloseDatabase {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using DatabaseHandle = std::unique_ptr<sqlite3, CloseDatabase>;

// Opens the database file at `path` for reading only (SQLITE_OPEN_READONLY
// and `extra_flags`): nothing is ever written to it, and a reader who may
// read the file but not write it (nor its directory, nor its file system)
// can read it.
//
// That needs more than SQLITE_OPEN_READONLY. A WAL-mode database is read
// through its -shm index, which SQLite creates (with an empty -wal) when it
// is absent; where it cannot, the first read fails ("attempt to write a
// readonly database", "unable to open database file"). The file is then
// opened immutable (URI parameter immutable=1: no locks, no -wal, no -shm),
// which reads exactly what the file holds. That is all there is to read
// unless a -wal holds transactions not yet copied into the file, or a hot
// rollback journal holds one half-written: immutable would silently miss
// (or half-read) them, so then this fails instead (kIoError, with a
// message that says why and what to do). Leftover -wal and -shm files that
// can be read are read (SQLite's read-only -shm), never through immutable.
//
// On success `*uri` is the SQLite URI that opens the file as it was opened
// ("file:PATH?mode=ro" or "file:PATH?immutable=1"), for other SQLite
// clients (Python's sqlite3) to read it the same way. Other failures of
// the first read (not a database, busy) are left to the caller's first
// query, which reports them as it always has.
Status OpenDatabaseForReading(const std::string& path, int extra_flags,
                              DatabaseHandle* db, std::string* uri);

// A prepared statement, prepared once and reused with bind/step/reset.
class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept
      : db_(other.db_), stmt_(std::exchange(other.stmt_, nullptr)) {}
  Statement& operator=(Statement&& other) noexcept {
    if (this != &other) {
      sqlite3_finalize(stmt_);
      db_ = other.db_;
      stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(stmt_); }

  static Status Prepare(sqlite3* db, std::string_view sql, Statement* out);

  // Bind helpers (1-based like SQLite). Text and blobs are copied by SQLite
  // (SQLITE_TRANSIENT) so callers' buffers need not outlive the step.
  void BindInt(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_, index, value);
  }
  void BindDouble(int index, double value) {
    sqlite3_bind_double(stmt_, index, value);
  }
  void BindNull(int index) { sqlite3_bind_null(stmt_, index); }
  void BindText(int index, std::string_view text) {
    sqlite3_bind_text(stmt_, index, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
  }
  // Empty text binds NULL: absent headers and errors read as NULL in SQL.
  void BindTextOrNull(int index, std::string_view text) {
    if (text.empty()) {
      BindNull(index);
    } else {
      BindText(index, text);
    }
  }
  void BindBlob(int index, std::string_view bytes) {
    sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(),
                        SQLITE_TRANSIENT);
  }
  // Negative timings mean "unknown" and are stored as NULL.
  void BindMillisOrNull(int index, double ms) {
    if (ms < 0) {
      BindNull(index);
    } else {
      BindDouble(index, ms);
    }
  }

  // A column's value as its codec made it (schema/codecs.h).
  void BindCell(int index, const schema::Cell& cell) {
    switch (cell.kind) {
      case schema::Cell::Kind::kNull:
        BindNull(index);
        break;
      case schema::Cell::Kind::kInt:
        BindInt(index, cell.integer);
        break;
      case schema::Cell::Kind::kReal:
        BindDouble(index, cell.real);
        break;
      case schema::Cell::Kind::kText:
        BindText(index, cell.bytes);
        break;
      case schema::Cell::Kind::kBlob:
        BindBlob(index, cell.bytes);
        break;
    }
  }

  // Returns SQLITE_ROW, SQLITE_DONE or an error code.
  int Step() { return sqlite3_step(stmt_); }
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

  std::int64_t ColumnInt(int col) const {
    return sqlite3_column_int64(stmt_, col);
  }
  double ColumnDouble(int col) const {
    return sqlite3_column_double(stmt_, col);
  }
  bool ColumnIsNull(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
  }
  // The bytes of a text or blob column, valid until the next step or
  // reset (NULL: empty).
  std::string_view ColumnBytes(int col) const {
    const auto* data = sqlite3_column_blob(stmt_, col);
    const int size = sqlite3_column_bytes(stmt_, col);
    if (data == nullptr || size <= 0) return {};
    return {static_cast<const char*>(data), static_cast<std::size_t>(size)};
  }
  std::string ColumnText(int col) const {
    const auto* text = sqlite3_column_blob(stmt_, col);
    const int size = sqlite3_column_bytes(stmt_, col);
    if (text == nullptr) return {};
    return std::string(static_cast<const char*>(text),
                       static_cast<std::size_t>(size));
  }

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// The current row of a stepped statement, as the codecs and the row
// decoders read it (schema/codecs.h's Cells).
class StatementCells {
 public:
  explicit StatementCells(const Statement& stmt) : stmt_(stmt) {}
  std::string_view Bytes(int column) const { return stmt_.ColumnBytes(column); }
  std::int64_t Int(int column) const { return stmt_.ColumnInt(column); }
  double Real(int column) const { return stmt_.ColumnDouble(column); }
  bool IsNull(int column) const { return stmt_.ColumnIsNull(column); }

 private:
  const Statement& stmt_;
};

// Resets a statement when the scope ends, whatever path leaves it.
class ScopedReset {
 public:
  explicit ScopedReset(Statement& stmt) : stmt_(stmt) {}
  ~ScopedReset() { stmt_.Reset(); }
  ScopedReset(const ScopedReset&) = delete;
  ScopedReset& operator=(const ScopedReset&) = delete;

 private:
  Statement& stmt_;
};

// BEGIN IMMEDIATE on construction (Begin()), ROLLBACK on destruction unless
// Commit() succeeded.
class Transaction {
 public:
  explicit Transaction(sqlite3* db) : db_(db) {}
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  Status Begin();
  Status Commit();

 private:
  sqlite3* db_;
  bool open_ = false;
};

Status Execute(sqlite3* db, const char* sql);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_HANDLES_H_
