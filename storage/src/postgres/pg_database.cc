#include "postgres/pg_database.h"

#include <string>

#include "postgres/pg_schema.h"
#include "robotscan/storage/database_location.h"

namespace robotscan::storage {
namespace {

Status ReadVersion(PGconn* conn, int* version, bool* has_table) {
  PgResult r;
  if (Status s =
          ExecPg(conn, "SELECT to_regclass('robotscan_schema') IS NOT NULL", {},
                 "read schema version", &r);
      !s.ok()) {
    return s;
  }
  *has_table = PgInt(r.get(), 0, 0) != 0;
  *version = 0;
  if (!*has_table) return Status::Ok();
  if (Status s = ExecPg(conn,
                        "SELECT coalesce(max(version), 0)::int8 FROM "
                        "robotscan_schema",
                        {}, "read schema version", &r);
      !s.ok()) {
    return s;
  }
  *version = static_cast<int>(PgInt(r.get(), 0, 0));
  return Status::Ok();
}

Status Migrate(PGconn* conn, int* version) {
  for (;;) {
    // One step per transaction, each under the migration lock and with
    // its version bump: a crash mid-migration leaves the previous version,
    // and a second process waits, re-reads and finds the work done.
    PgTransaction txn(conn);
    if (Status s = txn.Begin(); !s.ok()) return s;
    if (Status s = ExecPg(conn, "SELECT pg_advisory_xact_lock($1)",
                          PgParams().Int(kPgMigrationLockKey), "lock schema");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPgSimple(conn, kPgSchemaVersionTable, "schema table");
        !s.ok()) {
      return s;
    }
    bool has_table = false;
    int current = 0;
    if (Status s = ReadVersion(conn, &current, &has_table); !s.ok()) return s;
    if (current > kPgSchemaVersion) {
      return Status(Status::Code::kSchemaTooNew,
                    "database schema version " + std::to_string(current) +
                        " is newer than this robotscan's " +
                        std::to_string(kPgSchemaVersion));
    }
    if (current == kPgSchemaVersion) {
      *version = current;
      return txn.Commit();
    }
    if (Status s = ExecPgSimple(
            conn, PgMigrations()[static_cast<std::size_t>(current)].c_str(),
            "migrate to schema version " + std::to_string(current + 1));
        !s.ok()) {
      return s;
    }
    if (Status s =
            ExecPgSimple(conn, "DELETE FROM robotscan_schema", "bump version");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPg(conn,
                          "INSERT INTO robotscan_schema(version) VALUES "
                          "($1::int)",
                          PgParams().Int(current + 1), "bump version");
        !s.ok()) {
      return s;
    }
    if (Status s = txn.Commit(); !s.ok()) return s;
  }
}

std::string Quoted(const std::string& value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Status OpenPgDatabase(std::string_view uri, bool migrate, PgDatabase* out) {
  if (Status s = ConnectToPostgres(uri, &out->conn); !s.ok()) return s;
  PGconn* conn = out->conn.get();
  if (Status s = ServerIsUtf8(conn, &out->utf8); !s.ok()) return s;
  if (migrate) {
    // A writer's statements touch a few hundred rows each through indexes
    // a running crawl keeps in shared buffers. At the default cost of a
    // random page (4: a disk seek) the planner rather hashed the whole
    // domain table on every commit to set 500 domains' latest_fetch_id,
    // a cost growing with the crawl. A setting of this session only (and
    // never above what the server has).
    if (Status s = ExecPgSimple(
            conn,
            "SELECT set_config('random_page_cost', least(current_setting("
            "'random_page_cost')::float8, 1.1)::text, false)",
            "set the planner's page cost");
        !s.ok()) {
      return s;
    }
    return Migrate(conn, &out->version);
  }
  bool has_table = false;
  if (Status s = ReadVersion(conn, &out->version, &has_table); !s.ok()) {
    return s;
  }
  if (!has_table || out->version < 1) {
    return Status(Status::Code::kInvalidArgument,
                  RedactDatabaseUri(uri) +
                      " is not a robotscan crawl database (no "
                      "robotscan_schema table)");
  }
  if (out->version > kPgSchemaVersion) {
    return Status(Status::Code::kSchemaTooNew,
                  RedactDatabaseUri(uri) + " was written by a newer robotscan");
  }
  return Status::Ok();
}

Result<std::vector<RunRecord>> ReadPgRuns(PGconn* conn, int version) {
  std::vector<RunRecord> runs;
  const bool has_sources = schema::HasStep(schema::Dialect::kPostgres, version,
                                           schema::Step::kHistorySources);
  PgResult r;
  if (Status s = ExecPg(
          conn,
          std::string(
              "SELECT id, started_at, finished_at, status, tool_version, "
              "input, host, pid, list_source, list_id, list_date, list_url, "
              "list_sha256, list_entries") +
              (has_sources ? ", source, source_crawl" : "") +
              " FROM crawl_run ORDER BY id",
          {}, "read crawl_run", &r);
      !s.ok()) {
    return s;
  }
  const PGresult* res = r.get();
  for (int i = 0; i < PQntuples(res); ++i) {
    RunRecord run;
    run.id = PgInt(res, i, 0);
    run.started_at = PgText(res, i, 1);
    run.finished_at = PgText(res, i, 2);
    run.status = PgText(res, i, 3);
    run.tool_version = PgText(res, i, 4);
    run.input = PgText(res, i, 5);
    run.host = PgText(res, i, 6);
    run.pid = PgInt(res, i, 7);
    run.list.source = PgText(res, i, 8);
    run.list.list_id = PgText(res, i, 9);
    run.list.date = PgText(res, i, 10);
    run.list.url = PgText(res, i, 11);
    run.list.sha256 = PgText(res, i, 12);
    run.list.entries = PgInt(res, i, 13);
    if (has_sources) {
      run.source =
          ParseFetchSource(PgText(res, i, 14)).value_or(FetchSource::kCrawl);
      run.source_crawl = PgText(res, i, 15);
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

std::string PgTextArray(const std::vector<std::string>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += Quoted(values[i]);
  }
  return out + "}";
}

std::string PgIntArray(const std::vector<std::int64_t>& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(values[i]);
  }
  return out + "}";
}

Result<std::int64_t> InsertPgCrawlRun(PGconn* conn, bool utf8,
                                      const RunInfo& info) {
  PgParams p;
  p.Text(info.started_at)
      .TextOrNull(info.tool_version)
      .TextOrNull(PgSafeText(info.input, utf8))
      .TextOrNull(PgSafeText(info.options_json, utf8))
      .TextOrNull(info.host)
      .Int(info.pid)
      .TextOrNull(info.list.source)
      .TextOrNull(info.list.list_id)
      .TextOrNull(info.list.date)
      .TextOrNull(info.list.url)
      .TextOrNull(info.list.sha256)
      .Int(info.list.entries)
      .Text(FetchSourceName(info.source))
      .TextOrNull(info.source_crawl);
  PgResult r;
  if (Status s = ExecPg(
          conn,
          "INSERT INTO crawl_run(started_at, tool_version, input, options, "
          "host, pid, list_source, list_id, list_date, list_url, "
          "list_sha256, list_entries, source, source_crawl) VALUES ($1, $2, "
          "$3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id",
          p, "insert crawl_run", &r);
      !s.ok()) {
    return s;
  }
  return PgInt(r.get(), 0, 0);
}

}  // namespace robotscan::storage
