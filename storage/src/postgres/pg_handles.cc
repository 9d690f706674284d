#include "postgres/pg_handles.h"

#include <arpa/inet.h>

#include <cstring>
#include <string>

#include "robotscan/storage/database_location.h"

namespace robotscan::storage {
namespace {

std::uint64_t ReadBigEndian(const char* data, int size) {
  std::uint64_t value = 0;
  for (int i = 0; i < size; ++i) {
    value = (value << 8) | static_cast<unsigned char>(data[i]);
  }
  return value;
}

// libpq's messages end with a newline; ours do not.
std::string TrimmedMessage(const char* message) {
  std::string text = message != nullptr ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  return text;
}

}  // namespace

Status ConnectToPostgres(std::string_view uri, PgConnection* out) {
  const std::string conninfo(uri);
  PgConnection conn(PQconnectdb(conninfo.c_str()));
  if (conn == nullptr) {
    return Status(Status::Code::kIoError, "cannot allocate a libpq connection");
  }
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    return Status(Status::Code::kIoError,
                  "cannot connect to " + RedactDatabaseUri(uri) + ": " +
                      TrimmedMessage(PQerrorMessage(conn.get())));
  }
  // Bytes go to the server as they are, never converted: the text we
  // store is checked for the server's encoding (PgSafeText) instead.
  if (const char* encoding = PQparameterStatus(conn.get(), "server_encoding")) {
    PQsetClientEncoding(conn.get(), encoding);
  }
  // Notices (e.g. "relation already exists, skipping") would go to
  // stderr: a library never prints.
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  *out = std::move(conn);
  return Status::Ok();
}

Status StatusFromPgResult(PGconn* conn, const PGresult* result,
                          std::string_view context) {
  std::string message(context);
  message += ": ";
  const char* error = result != nullptr ? PQresultErrorMessage(result) : "";
  if (error == nullptr || error[0] == '\0') error = PQerrorMessage(conn);
  message += TrimmedMessage(error);
  const char* state = result != nullptr
                          ? PQresultErrorField(result, PG_DIAG_SQLSTATE)
                          : nullptr;
  const std::string sqlstate = state != nullptr ? state : "";
  if (PQstatus(conn) != CONNECTION_OK || sqlstate.rfind("08", 0) == 0 ||
      sqlstate.rfind("57P", 0) == 0) {
    return Status(Status::Code::kIoError, std::move(message));
  }
  if (sqlstate == "53100") {
    return Status(Status::Code::kDiskFull, std::move(message));
  }
  if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03") {
    return Status(Status::Code::kBusy, std::move(message));
  }
  if (sqlstate.rfind("23", 0) == 0 || sqlstate.rfind("22", 0) == 0) {
    return Status(Status::Code::kInvalidArgument, std::move(message));
  }
  if (sqlstate == "XX001" || sqlstate == "XX002") {
    return Status(Status::Code::kCorrupt, std::move(message));
  }
  return Status(Status::Code::kInternal, std::move(message));
}

PgParams& PgParams::Add(std::string value, int format) {
  values_.push_back(std::move(value));
  pointers_.push_back(values_.back().data());
  lengths_.push_back(static_cast<int>(values_.back().size()));
  formats_.push_back(format);
  return *this;
}

PgParams& PgParams::Text(std::string_view text) {
  return Add(std::string(text), 0);
}
PgParams& PgParams::TextOrNull(std::string_view text) {
  return text.empty() ? Null() : Text(text);
}
PgParams& PgParams::Int(std::int64_t value) {
  return Add(std::to_string(value), 0);
}
PgParams& PgParams::Double(double value) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.17g", value);
  return Add(text, 0);
}
PgParams& PgParams::Bytes(std::string_view bytes) {
  return Add(std::string(bytes), 1);
}
PgParams& PgParams::Null() {
  values_.emplace_back();
  pointers_.push_back(nullptr);
  lengths_.push_back(0);
  formats_.push_back(0);
  return *this;
}

Status ExecPg(PGconn* conn, std::string_view sql, const PgParams& params,
              std::string_view context, PgResult* result) {
  const std::string text(sql);
  PgResult r(PQexecParams(conn, text.c_str(), params.size(), nullptr,
                          params.values(), params.lengths(), params.formats(),
                          1));
  const ExecStatusType status =
      r != nullptr ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return StatusFromPgResult(conn, r.get(), context);
  }
  if (result != nullptr) *result = std::move(r);
  return Status::Ok();
}

Status ExecPgSimple(PGconn* conn, const char* sql, std::string_view context) {
  PgResult r(PQexec(conn, sql));
  const ExecStatusType status =
      r != nullptr ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    return StatusFromPgResult(conn, r.get(), context);
  }
  return Status::Ok();
}

bool PgIsNull(const PGresult* r, int row, int col) {
  return PQgetisnull(r, row, col) != 0;
}

std::int64_t PgInt(const PGresult* r, int row, int col) {
  if (PgIsNull(r, row, col)) return 0;
  const int size = PQgetlength(r, row, col);
  const char* data = PQgetvalue(r, row, col);
  const std::uint64_t raw = ReadBigEndian(data, size);
  if (size == 4) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(raw));
  }
  if (size == 2) {
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(raw));
  }
  return static_cast<std::int64_t>(raw);
}

double PgDouble(const PGresult* r, int row, int col) {
  if (PgIsNull(r, row, col)) return 0;
  const std::uint64_t raw = ReadBigEndian(PQgetvalue(r, row, col), 8);
  double value = 0;
  std::memcpy(&value, &raw, sizeof(value));
  return value;
}

std::string_view PgBytes(const PGresult* r, int row, int col) {
  if (PgIsNull(r, row, col)) return {};
  return std::string_view(PQgetvalue(r, row, col),
                          static_cast<std::size_t>(PQgetlength(r, row, col)));
}

std::string PgText(const PGresult* r, int row, int col) {
  return std::string(PgBytes(r, row, col));
}

PgTransaction::~PgTransaction() {
  if (open_) {
    PgResult r(PQexec(conn_, "ROLLBACK"));
  }
}

Status PgTransaction::Begin(const char* begin_sql) {
  Status status = ExecPgSimple(conn_, begin_sql, "begin");
  open_ = status.ok();
  return status;
}

Status PgTransaction::Commit() {
  Status status = ExecPgSimple(conn_, "COMMIT", "commit");
  // A failed COMMIT ends the transaction too (PostgreSQL rolls it back).
  open_ = false;
  return status;
}

void CopyRows::Separate() {
  if (row_started_) data_ += '\t';
  row_started_ = true;
}

void CopyRows::Escaped(std::string_view text) {
  for (const char c : text) {
    switch (c) {
      case '\\':
        data_ += "\\\\";
        break;
      case '\t':
        data_ += "\\t";
        break;
      case '\n':
        data_ += "\\n";
        break;
      case '\r':
        data_ += "\\r";
        break;
      default:
        data_ += c;
    }
  }
}

CopyRows& CopyRows::Text(std::string_view text) {
  Separate();
  if (IsValidUtf8WithoutNul(text)) {
    Escaped(text);
  } else {
    Escaped(PgSafeText(text, utf8_));
  }
  return *this;
}

CopyRows& CopyRows::TextOrNull(std::string_view text) {
  return text.empty() ? Null() : Text(text);
}

CopyRows& CopyRows::Int(std::int64_t value) {
  Separate();
  data_ += std::to_string(value);
  return *this;
}

CopyRows& CopyRows::IntOrNull(std::int64_t value, bool is_null) {
  return is_null ? Null() : Int(value);
}

CopyRows& CopyRows::Double(double value) {
  Separate();
  char text[64];
  std::snprintf(text, sizeof(text), "%.17g", value);
  data_ += text;
  return *this;
}

CopyRows& CopyRows::MillisOrNull(double ms) {
  return ms < 0 ? Null() : Double(ms);
}

CopyRows& CopyRows::Bytes(std::string_view bytes) {
  Separate();
  // COPY text format first removes one level of backslashes, then bytea's
  // hex input reads \x...: so two backslashes here.
  static constexpr char kHex[] = "0123456789abcdef";
  data_ += "\\\\x";
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    data_ += kHex[b >> 4];
    data_ += kHex[b & 0xf];
  }
  return *this;
}

CopyRows& CopyRows::BytesOrNull(std::string_view bytes, bool is_null) {
  return is_null ? Null() : Bytes(bytes);
}

CopyRows& CopyRows::Null() {
  Separate();
  data_ += "\\N";
  return *this;
}

CopyRows& CopyRows::Cell(const schema::Cell& cell) {
  switch (cell.kind) {
    case schema::Cell::Kind::kNull:
      return Null();
    case schema::Cell::Kind::kInt:
      return Int(cell.integer);
    case schema::Cell::Kind::kReal:
      return Double(cell.real);
    case schema::Cell::Kind::kText:
      return Text(cell.bytes);
    case schema::Cell::Kind::kBlob:
      return Bytes(cell.bytes);
  }
  return Null();
}

void CopyRows::EndRow() {
  data_ += '\n';
  row_started_ = false;
}

Status CopyIntoTable(PGconn* conn, const char* copy_sql, const CopyRows& rows,
                     std::string_view context) {
  PgResult start(PQexec(conn, copy_sql));
  if (start == nullptr || PQresultStatus(start.get()) != PGRES_COPY_IN) {
    return StatusFromPgResult(conn, start.get(), context);
  }
  const std::string& data = rows.data();
  // In pieces: PQputCopyData takes an int length.
  constexpr std::size_t kPiece = 1 << 20;
  for (std::size_t done = 0; done < data.size(); done += kPiece) {
    const std::size_t n = std::min(kPiece, data.size() - done);
    if (PQputCopyData(conn, data.data() + done, static_cast<int>(n)) != 1) {
      return StatusFromPgResult(conn, nullptr, context);
    }
  }
  if (PQputCopyEnd(conn, nullptr) != 1) {
    return StatusFromPgResult(conn, nullptr, context);
  }
  Status status = Status::Ok();
  while (PGresult* raw = PQgetResult(conn)) {
    PgResult r(raw);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK && status.ok()) {
      status = StatusFromPgResult(conn, r.get(), context);
    }
  }
  return status;
}

bool IsValidUtf8WithoutNul(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == 0) return false;
      ++i;
      continue;
    }
    int extra = 0;
    unsigned min = 0;
    if (c >= 0xc2 && c <= 0xdf) {
      extra = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      extra = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      extra = 3;
      min = 0x10000;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(extra) >= n) return false;
    unsigned code = c & (0x3fu >> extra);
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(text[i + k]);
      if ((d & 0xc0) != 0x80) return false;
      code = (code << 6) | (d & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return false;
    }
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

std::string PgSafeText(std::string_view text, bool utf8_server) {
  std::string out;
  out.reserve(text.size());
  if (!utf8_server) {
    for (const char c : text) {
      if (c != '\0') out += c;
    }
    return out;
  }
  std::size_t i = 0;
  while (i < text.size()) {
    // The longest valid sequence starting here, else one byte replaced.
    std::size_t length = 0;
    for (std::size_t l = 1; l <= 4 && i + l <= text.size(); ++l) {
      if (IsValidUtf8WithoutNul(text.substr(i, l))) {
        length = l;
        break;
      }
    }
    if (length == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, length));
      i += length;
    }
  }
  return out;
}

Status ServerIsUtf8(PGconn* conn, bool* utf8) {
  const char* encoding = PQparameterStatus(conn, "server_encoding");
  *utf8 = encoding == nullptr || std::string_view(encoding) == "UTF8";
  return Status::Ok();
}

std::string HexOf(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    out += kHex[b >> 4];
    out += kHex[b & 0xf];
  }
  return out;
}

}  // namespace robotscan::storage
