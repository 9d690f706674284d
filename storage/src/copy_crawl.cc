#include "robotscan/storage/copy_crawl.h"

#include <sqlite3.h>

#include <iterator>
#include <string>
#include <vector>

#include "postgres/pg_database.h"
#include "postgres/pg_handles.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "schema/crawl_tables.h"
#include "schema/schema_sql.h"
#include "sqlite/sqlite_handles.h"

namespace robotscan::storage {
namespace {

// The tables in the order they are copied (each after the tables it
// references), with the SQLite read's order and the summary's count.
struct CopiedTable {
  const schema::Table* table;
  const char* order;
  std::int64_t CopySummary::*count;
};
constexpr CopiedTable kCopiedTables[] = {
    {&schema::kCrawlRunTable, "id", &CopySummary::runs},
    {&schema::kBodyTable, "id", &CopySummary::bodies},
    {&schema::kDomainTable, "id", &CopySummary::domains},
    {&schema::kFetchTable, "id", &CopySummary::fetches},
    {&schema::kFetchStepTable, "fetch_id, seq", &CopySummary::steps},
    {&schema::kHistoryFileTable, "id", &CopySummary::history_files},
    {&schema::kSignalTable, "fetch_id, kind", &CopySummary::signals},
};
static_assert(std::size(kCopiedTables) == std::size(schema::kCrawlTables));

// The columns a file of schema `version` has: a version-1 file's crawl_run
// has no provenance (read as NULL on the PostgreSQL side).
std::string ColumnList(const schema::Table& table, std::int64_t version) {
  return schema::ColumnNames(table, [&](const schema::Column& c) {
    return schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                           c.since);
  });
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
Status CopyTable(sqlite3* source, PGconn* conn, bool utf8,
                 const CopiedTable& copied_table, std::int64_t version,
                 std::int64_t* copied) {
  const schema::Table& table = *copied_table.table;
  const std::string columns = ColumnList(table, version);
  Statement select;
  const std::string sql = "SELECT " + columns + " FROM \"" + table.name + "\"" +
                          " ORDER BY " + copied_table.order;
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
    int col = 0;
    for (const schema::Column& c : table.columns) {
      if (!schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                           c.since)) {
        continue;
      }
      if (select.ColumnIsNull(col)) {
        rows.Null();
      } else {
        switch (c.type) {
          case schema::SqlType::kKey:
          case schema::SqlType::kInt32:
          case schema::SqlType::kInt64:
            rows.Int(select.ColumnInt(col));
            break;
          case schema::SqlType::kReal:
            rows.Double(select.ColumnDouble(col));
            break;
          case schema::SqlType::kText:
            rows.Text(select.ColumnBytes(col));
            break;
          case schema::SqlType::kBlob:
            rows.Bytes(select.ColumnBytes(col));
            break;
        }
      }
      ++col;
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

Result<CopySummary> CopyCrawlDatabase(
    std::string_view from, std::string_view to,
    const std::function<void(std::string_view table, std::int64_t rows)>&
        progress) {
  CopySummary summary;
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
  for (const CopiedTable& table : kCopiedTables) {
    // A file older than a table has none of its rows (history_file).
    if (!schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                         table.table->since)) {
      continue;
    }
    std::int64_t rows = 0;
    if (Status s =
            CopyTable(source.get(), conn, db.utf8, table, version, &rows);
        !s.ok()) {
      return s;
    }
    summary.*table.count = rows;
    if (progress) progress(table.table->name, rows);
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
          "coalesce((SELECT max(id) FROM \"fetch\"), 0) + 1, false); "
          "SELECT setval(pg_get_serial_sequence('history_file', 'id'), "
          "coalesce((SELECT max(id) FROM history_file), 0) + 1, false);",
          "advance the id sequences");
      !s.ok()) {
    return s;
  }
  if (Status s = txn.Commit(); !s.ok()) return s;
  return summary;
}

}  // namespace robotscan::storage
