#include "robotscan/storage/copy_crawl.h"

#include <sqlite3.h>

#include <string>
#include <vector>

#include "postgres/pg_database.h"
#include "postgres/pg_handles.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "sqlite/sqlite_handles.h"

namespace robotscan::storage {
namespace {

enum class Kind : std::uint8_t { kInt, kReal, kText, kBlob };

struct Column {
  const char* name;
  Kind kind;
};

struct Table {
  const char* name;
  std::vector<Column> columns;
  const char* order;  // ORDER BY of the SQLite read.
  std::int64_t CopySummary::*count;
};

// Tables in foreign-key order. crawl_run's provenance columns (schema 2)
// are read as NULL from a version-1 file.
std::vector<Table> Tables(bool has_provenance) {
  std::vector<Column> run = {{"id", Kind::kInt},
                             {"started_at", Kind::kText},
                             {"finished_at", Kind::kText},
                             {"status", Kind::kText},
                             {"tool_version", Kind::kText},
                             {"input", Kind::kText},
                             {"options", Kind::kText}};
  if (has_provenance) {
    for (const char* name :
         {"host", "pid", "list_source", "list_id", "list_date", "list_url",
          "list_sha256", "list_entries"}) {
      const bool number =
          std::string(name) == "pid" || std::string(name) == "list_entries";
      run.push_back({name, number ? Kind::kInt : Kind::kText});
    }
  }
  std::vector<Column> fetch = {{"id", Kind::kInt},
                               {"run_id", Kind::kInt},
                               {"domain_id", Kind::kInt},
                               {"rank", Kind::kInt},
                               {"url", Kind::kText},
                               {"final_url", Kind::kText},
                               {"strategy", Kind::kText},
                               {"http_status", Kind::kInt},
                               {"access", Kind::kText},
                               {"error_class", Kind::kText},
                               {"error_message", Kind::kText},
                               {"redirects", Kind::kInt},
                               {"attempts", Kind::kInt},
                               {"bytes", Kind::kInt},
                               {"truncated", Kind::kInt},
                               {"not_modified", Kind::kInt},
                               {"body_id", Kind::kInt},
                               {"content_type", Kind::kText},
                               {"content_encoding", Kind::kText},
                               {"content_length", Kind::kText},
                               {"cache_control", Kind::kText},
                               {"expires", Kind::kText},
                               {"last_modified", Kind::kText},
                               {"etag", Kind::kText},
                               {"retry_after", Kind::kText},
                               {"ip", Kind::kText},
                               {"dns_ms", Kind::kReal},
                               {"connect_ms", Kind::kReal},
                               {"tls_ms", Kind::kReal},
                               {"first_byte_ms", Kind::kReal},
                               {"total_ms", Kind::kReal},
                               {"fetched_at", Kind::kText}};
  return {
      {"crawl_run", run, "id", &CopySummary::runs},
      {"body",
       {{"id", Kind::kInt},
        {"sha256", Kind::kBlob},
        {"size", Kind::kInt},
        {"compression", Kind::kText},
        {"data", Kind::kBlob}},
       "id",
       &CopySummary::bodies},
      {"domain",
       {{"id", Kind::kInt},
        {"name", Kind::kText},
        {"latest_fetch_id", Kind::kInt}},
       "id",
       &CopySummary::domains},
      {"fetch", fetch, "id", &CopySummary::fetches},
      {"fetch_step",
       {{"fetch_id", Kind::kInt},
        {"seq", Kind::kInt},
        {"url", Kind::kText},
        {"http_status", Kind::kInt},
        {"location", Kind::kText},
        {"error_class", Kind::kText},
        {"error_message", Kind::kText},
        {"ip", Kind::kText},
        {"total_ms", Kind::kReal}},
       "fetch_id, seq",
       &CopySummary::steps},
  };
}

std::string ColumnList(const Table& table) {
  std::string list;
  for (const Column& c : table.columns) {
    if (!list.empty()) list += ", ";
    list += c.name;
  }
  return list;
}

Status PutCopyData(PGconn* conn, CopyRows* rows) {
  if (rows->empty()) return Status::Ok();
  if (PQputCopyData(conn, rows->data().data(),
                    static_cast<int>(rows->data().size())) != 1) {
    return StatusFromPgResult(conn, nullptr, "copy rows");
  }
  rows->Clear();
  return Status::Ok();
}

// Streams one SQLite table into PostgreSQL with COPY, 1 MiB at a time.
Status CopyTable(sqlite3* source, PGconn* conn, bool utf8, const Table& table,
                 std::int64_t* copied) {
  const std::string columns = ColumnList(table);
  Statement select;
  const std::string sql = "SELECT " + columns + " FROM \"" + table.name + "\"" +
                          " ORDER BY " + table.order;
  if (Status s = Statement::Prepare(source, sql, &select); !s.ok()) return s;
  const std::string copy =
      std::string("COPY \"") + table.name + "\" (" + columns + ") FROM STDIN";
  PgResult start(PQexec(conn, copy.c_str()));
  if (start == nullptr || PQresultStatus(start.get()) != PGRES_COPY_IN) {
    return StatusFromPgResult(conn, start.get(), copy);
  }
  CopyRows rows(utf8);
  std::int64_t n = 0;
  for (;;) {
    const int rc = select.Step();
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      return StatusFromSqlite(source, rc, std::string("read ") + table.name);
    }
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      const int col = static_cast<int>(i);
      if (select.ColumnIsNull(col)) {
        rows.Null();
        continue;
      }
      switch (table.columns[i].kind) {
        case Kind::kInt:
          rows.Int(select.ColumnInt(col));
          break;
        case Kind::kReal:
          rows.Double(select.ColumnDouble(col));
          break;
        case Kind::kText:
          rows.Text(select.ColumnText(col));
          break;
        case Kind::kBlob:
          rows.Bytes(select.ColumnText(col));
          break;
      }
    }
    rows.EndRow();
    ++n;
    if (rows.data().size() >= (1u << 20)) {
      if (Status s = PutCopyData(conn, &rows); !s.ok()) return s;
    }
  }
  if (Status s = PutCopyData(conn, &rows); !s.ok()) return s;
  if (PQputCopyEnd(conn, nullptr) != 1) {
    return StatusFromPgResult(conn, nullptr, copy);
  }
  Status status;
  while (PGresult* raw = PQgetResult(conn)) {
    PgResult r(raw);
    if (PQresultStatus(r.get()) != PGRES_COMMAND_OK && status.ok()) {
      status = StatusFromPgResult(conn, r.get(), copy);
    }
  }
  *copied = n;
  return status;
}

}  // namespace

Status CopyCrawlDatabase(std::string_view from, std::string_view to,
                         const std::function<void(std::string_view table,
                                                  std::int64_t rows)>& progress,
                         CopySummary* summary) {
  *summary = CopySummary();
  if (IsPostgresUri(from)) {
    return Status(Status::Code::kInvalidArgument,
                  "--from must be an SQLite crawl database file");
  }
  if (!IsPostgresUri(to)) {
    return Status(Status::Code::kInvalidArgument,
                  "--db must be a postgresql:// URI");
  }
  const std::string path(from);
  DatabaseHandle source;
  std::string uri;
  if (Status s = OpenDatabaseForReading(path, 0, &source, &uri); !s.ok()) {
    return s;
  }
  sqlite3_busy_timeout(source.get(), 5000);
  std::int64_t version = 0;
  {
    Statement v;
    if (Status s = Statement::Prepare(source.get(), "PRAGMA user_version", &v);
        !s.ok()) {
      return s;
    }
    if (v.Step() != SQLITE_ROW) {
      return StatusFromSqlite(source.get(), SQLITE_ERROR, "read user_version");
    }
    version = v.ColumnInt(0);
    Statement view;
    if (Status s = Statement::Prepare(
            source.get(),
            "SELECT 1 FROM sqlite_schema WHERE type = 'view' AND name = "
            "'latest_fetch'",
            &view);
        !s.ok()) {
      return Status(Status::Code::kInvalidArgument,
                    path + " is not a crawl database: " + s.message());
    }
    if (view.Step() != SQLITE_ROW) {
      return Status(Status::Code::kInvalidArgument,
                    path +
                        " is not a robotscan crawl database (no "
                        "latest_fetch view)");
    }
  }
  if (version > kSchemaVersion) {
    return Status(Status::Code::kSchemaTooNew,
                  path + " was written by a newer robotscan");
  }
  PgDatabase db;
  if (Status s = OpenPgDatabase(to, true, &db); !s.ok()) return s;
  PGconn* conn = db.conn.get();
  PgTransaction txn(conn);
  if (Status s = txn.Begin(); !s.ok()) return s;
  // Ids are copied as they are, so the destination must not have any.
  PgResult r;
  if (Status s = ExecPg(conn,
                        "SELECT (SELECT count(*) FROM crawl_run)::int8 + "
                        "(SELECT count(*) FROM domain)::int8",
                        {}, "check the destination", &r);
      !s.ok()) {
    return s;
  }
  if (PgInt(r.get(), 0, 0) != 0) {
    return Status(Status::Code::kInvalidArgument,
                  RedactDatabaseUri(to) +
                      " already has crawls; migrate into an empty database");
  }
  for (const Table& table : Tables(version >= 2)) {
    std::int64_t rows = 0;
    if (Status s = CopyTable(source.get(), conn, db.utf8, table, &rows);
        !s.ok()) {
      return s;
    }
    summary->*table.count = rows;
    if (progress) progress(table.name, rows);
  }
  // The sequences continue after the copied ids.
  if (Status s = ExecPgSimple(
          conn,
          "SELECT setval(pg_get_serial_sequence('crawl_run', 'id'), "
          "coalesce((SELECT max(id) FROM crawl_run), 0) + 1, false); "
          "SELECT setval(pg_get_serial_sequence('body', 'id'), "
          "coalesce((SELECT max(id) FROM body), 0) + 1, false); "
          "SELECT setval(pg_get_serial_sequence('domain', 'id'), "
          "coalesce((SELECT max(id) FROM domain), 0) + 1, false); "
          "SELECT setval(pg_get_serial_sequence('fetch', 'id'), "
          "coalesce((SELECT max(id) FROM \"fetch\"), 0) + 1, false);",
          "advance the id sequences");
      !s.ok()) {
    return s;
  }
  return txn.Commit();
}

}  // namespace robotscan::storage
