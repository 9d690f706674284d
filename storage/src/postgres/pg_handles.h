// Move-only RAII wrappers around libpq's PGconn* and PGresult*, a
// transaction guard that rolls back unless committed, parameter lists for
// PQexecParams, readers of binary result columns, and a COPY writer. Private
// to storage (public headers never expose libpq).
//
// Every query asks for binary results (resultFormat 1) and the SQL casts
// each column to one of int8, float8, text or bytea, so that four decoders
// read every column of every query.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_HANDLES_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_HANDLES_H_

#include <libpq-fe.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/storage/status.h"
#include "schema/cell.h"

namespace robotscan::storage {

struct FinishConnection {
  void operator()(PGconn* conn) const { PQfinish(conn); }
};
using PgConnection = std::unique_ptr<PGconn, FinishConnection>;

struct ClearResult {
  void operator()(PGresult* result) const { PQclear(result); }
};
using PgResult = std::unique_ptr<PGresult, ClearResult>;

// Connects to `uri` (a postgresql:// URI; PG* environment variables fill
// what it leaves out). Errors never repeat the URI (it may carry a
// password): libpq's message is given with `shown_as` (RedactDatabaseUri).
Status ConnectToPostgres(std::string_view uri, PgConnection* out);

// Status of a failed command: SQLSTATE classes map to the storage codes
// (53100 disk full -> kDiskFull; 40001/40P01 -> kBusy, which callers retry;
// 23xxx -> kInvalidArgument; connection failures -> kIoError).
Status StatusFromPgResult(PGconn* conn, const PGresult* result,
                          std::string_view context);

// Text parameters for PQexecParams; NULL where absent. Binary parameters
// (bytea) are given as such.
class PgParams {
 public:
  PgParams& Text(std::string_view text);
  PgParams& TextOrNull(std::string_view text);  // Empty -> NULL.
  PgParams& Int(std::int64_t value);
  PgParams& Double(double value);
  PgParams& Bytes(std::string_view bytes);  // bytea, binary.
  PgParams& Null();

  int size() const { return static_cast<int>(values_.size()); }
  const char* const* values() const { return pointers_.data(); }
  const int* lengths() const { return lengths_.data(); }
  const int* formats() const { return formats_.data(); }

 private:
  PgParams& Add(std::string value, int format);
  // Owned copies; a deque never moves its elements, so the pointers stay
  // valid as parameters are added.
  std::deque<std::string> values_;
  std::vector<const char*> pointers_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
};

// Runs `sql` with `params`, binary results. Ok for PGRES_COMMAND_OK and
// PGRES_TUPLES_OK; the result is kept in *result when given.
Status ExecPg(PGconn* conn, std::string_view sql, const PgParams& params,
              std::string_view context, PgResult* result = nullptr);
// Parameterless commands (BEGIN, several statements in one string).
Status ExecPgSimple(PGconn* conn, const char* sql, std::string_view context);

// Binary column readers. NULL reads as 0 / "" (callers ask IsNull first
// where NULL means something).
bool PgIsNull(const PGresult* r, int row, int col);
std::int64_t PgInt(const PGresult* r, int row, int col);        // int8 / int4.
double PgDouble(const PGresult* r, int row, int col);           // float8.
std::string_view PgBytes(const PGresult* r, int row, int col);  // text/bytea.
std::string PgText(const PGresult* r, int row, int col);

// Row `row` of a result, as the codecs and the row decoders read it
// (schema/codecs.h's Cells).
class PgCells {
 public:
  PgCells(const PGresult* result, int row) : result_(result), row_(row) {}
  std::string_view Bytes(int column) const {
    return PgBytes(result_, row_, column);
  }
  std::int64_t Int(int column) const { return PgInt(result_, row_, column); }
  double Real(int column) const { return PgDouble(result_, row_, column); }
  bool IsNull(int column) const { return PgIsNull(result_, row_, column); }

 private:
  const PGresult* result_;
  int row_;
};

// BEGIN on Begin(), ROLLBACK on destruction unless Commit() succeeded.
class PgTransaction {
 public:
  explicit PgTransaction(PGconn* conn) : conn_(conn) {}
  PgTransaction(const PgTransaction&) = delete;
  PgTransaction& operator=(const PgTransaction&) = delete;
  ~PgTransaction();
  Status Begin(const char* begin_sql = "BEGIN");
  Status Commit();

 private:
  PGconn* conn_;
  bool open_ = false;
};

// Writes rows for COPY ... FROM STDIN in text format: fields separated by
// tabs, rows by newlines, \N for NULL, backslash escapes, bytea as \\x hex.
// Text fields pass through PgSafeText first (see there).
class CopyRows {
 public:
  explicit CopyRows(bool utf8_server) : utf8_(utf8_server) {}
  CopyRows& Text(std::string_view text);
  CopyRows& TextOrNull(std::string_view text);
  CopyRows& Int(std::int64_t value);
  CopyRows& IntOrNull(std::int64_t value, bool is_null);
  CopyRows& Double(double value);
  CopyRows& MillisOrNull(double ms);  // Negative -> NULL.
  CopyRows& Bytes(std::string_view bytes);
  CopyRows& BytesOrNull(std::string_view bytes, bool is_null);
  CopyRows& Null();
  // A column's value as its codec made it (schema/codecs.h).
  CopyRows& Cell(const schema::Cell& cell);
  void EndRow();
  const std::string& data() const { return data_; }
  bool empty() const { return data_.empty(); }
  void Clear() { data_.clear(); }

 private:
  void Separate();
  void Escaped(std::string_view text);
  bool utf8_;
  bool row_started_ = false;
  std::string data_;
};

// Sends `rows` to `copy_sql` (a COPY ... FROM STDIN) and checks the result.
Status CopyIntoTable(PGconn* conn, const char* copy_sql, const CopyRows& rows,
                     std::string_view context);

// PostgreSQL text cannot hold NUL, and a UTF8 database refuses invalid
// UTF-8 (SQLite stores any bytes). For a UTF8 server, each invalid byte
// (and NUL) becomes U+FFFD; other server encodings (SQL_ASCII) take the
// bytes as they are, NUL excepted. Valid UTF-8 is returned unchanged, so
// the usual values (ASCII URLs, headers, error messages) round-trip.
std::string PgSafeText(std::string_view text, bool utf8_server);
bool IsValidUtf8WithoutNul(std::string_view text);

// Whether the server encoding is UTF8 (the default of initdb).
Status ServerIsUtf8(PGconn* conn, bool* utf8);

// Lower-case hex, and back.
std::string HexOf(std::string_view bytes);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_HANDLES_H_
