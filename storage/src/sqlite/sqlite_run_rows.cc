#include "sqlite/sqlite_run_rows.h"

#include "schema/schema_steps.h"
#include "sqlite/sqlite_handles.h"
#include "sqlite/sqlite_schema_version.h"

namespace robotscan::storage {

Result<std::vector<RunRecord>> ReadRunRows(sqlite3* db) {
  std::vector<RunRecord> runs;
  std::int64_t version = 0;
  if (Status s = ReadSchemaVersion(db, &version); !s.ok()) return s;
  const bool has_provenance =
      schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                      schema::Step::kRunProvenance);
  const bool has_sources =
      schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                      schema::Step::kHistorySources);
  const char* sql =
      has_sources
          ? "SELECT id, started_at, finished_at, status, tool_version, input, "
            "host, pid, list_source, list_id, list_date, list_url, "
            "list_sha256, list_entries, source, source_crawl FROM crawl_run "
            "ORDER BY id"
      : has_provenance
          ? "SELECT id, started_at, finished_at, status, tool_version, input, "
            "host, pid, list_source, list_id, list_date, list_url, "
            "list_sha256, list_entries FROM crawl_run ORDER BY id"
          : "SELECT id, started_at, finished_at, status, tool_version, input "
            "FROM crawl_run ORDER BY id";
  Statement select;
  if (Status s = Statement::Prepare(db, sql, &select); !s.ok()) return s;
  for (;;) {
    const int rc = select.Step();
    if (rc == SQLITE_DONE) return runs;
    if (rc != SQLITE_ROW) return StatusFromSqlite(db, rc, "read crawl_run");
    RunRecord run;
    run.id = select.ColumnInt(0);
    run.started_at = select.ColumnText(1);
    run.finished_at = select.ColumnText(2);
    run.status = select.ColumnText(3);
    run.tool_version = select.ColumnText(4);
    run.input = select.ColumnText(5);
    if (has_provenance) {
      run.host = select.ColumnText(6);
      run.pid = select.ColumnInt(7);
      run.list.source = select.ColumnText(8);
      run.list.list_id = select.ColumnText(9);
      run.list.date = select.ColumnText(10);
      run.list.url = select.ColumnText(11);
      run.list.sha256 = select.ColumnText(12);
      run.list.entries = select.ColumnInt(13);
    }
    if (has_sources) {
      run.source =
          ParseFetchSource(select.ColumnText(14)).value_or(FetchSource::kCrawl);
      run.source_crawl = select.ColumnText(15);
    }
    runs.push_back(std::move(run));
  }
}

}  // namespace robotscan::storage
