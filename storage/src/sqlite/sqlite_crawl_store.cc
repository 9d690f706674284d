#include "robotscan/storage/crawl_store.h"

#include <sqlite3.h>

#include <array>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "body_codec.h"
#include "location/backends.h"
#include "schema/crawl_tables.h"
#include "schema/previous_fetch_columns.h"
#include "sqlite/sqlite_handles.h"
#include "sqlite/sqlite_run_rows.h"
#include "sqlite/sqlite_schema.h"
#include "sqlite/sqlite_schema_version.h"
#include "sqlite/sqlite_table_rows.h"

namespace robotscan::storage {
namespace {

// The ids AppendFetches binds itself; every other column of fetch and
// fetch_step comes from the record's members (schema/crawl_tables.h).
constexpr int kFetchId = SqliteParameterOf(schema::kFetchTable, "id");
constexpr int kFetchRunId = SqliteParameterOf(schema::kFetchTable, "run_id");
constexpr int kFetchDomainId =
    SqliteParameterOf(schema::kFetchTable, "domain_id");
constexpr int kFetchBodyId = SqliteParameterOf(schema::kFetchTable, "body_id");
constexpr std::string_view kFetchIds[] = {"id", "run_id", "domain_id",
                                          "body_id"};
static_assert(schema::FillsTheRest(schema::kFetchTable, kFetchIds, true));
constexpr int kStepFetchId =
    SqliteParameterOf(schema::kFetchStepTable, "fetch_id");
constexpr int kStepSeq = SqliteParameterOf(schema::kFetchStepTable, "seq");
constexpr std::string_view kStepIds[] = {"fetch_id", "seq"};
static_assert(schema::FillsTheRest(schema::kFetchStepTable, kStepIds, true));
constexpr int kSignalFetchId =
    SqliteParameterOf(schema::kSignalTable, "fetch_id");
constexpr std::string_view kSignalIds[] = {"fetch_id"};
static_assert(schema::FillsTheRest(schema::kSignalTable, kSignalIds, true));

class SqliteCrawlStore final : public CrawlStore {
 public:
  SqliteCrawlStore(DatabaseHandle db, std::string path,
                   const StoreOptions& options)
      : db_(std::move(db)), path_(std::move(path)), options_(options) {}

  Status Initialize();

  Result<std::int64_t> BeginRun(const RunInfo& info) override;
  Status FinishRun(std::int64_t run_id, std::string_view status,
                   std::string_view finished_at) override;
  Status AppendFetches(std::int64_t run_id,
                       std::span<const FetchRecord> records) override;
  Result<std::optional<PreviousFetch>> FindLatestFetch(
      std::string_view domain) override;
  Result<std::string> ReadBody(std::int64_t fetch_id) override;
  Result<IntegrityReport> CheckIntegrity() override;
  Result<RowCounts> CountRows() override;
  Result<bool> HasFetches() override;
  Result<std::vector<RunRecord>> ReadRuns() override;
  Result<LockAttempt> LockForCrawl(const CrawlHolder& me) override;
  // One writer: an import holds the database as a crawl does.
  Result<LockAttempt> LockForImport(const CrawlHolder& me) override {
    return LockForCrawl(me);
  }
  Result<std::optional<std::int64_t>> FindImportRun(
      FetchSource source, std::string_view source_crawl) override;
  Result<std::int64_t> FindOrBeginImportRun(const RunInfo& info) override;
  Result<HistoryFile> OpenHistoryFile(std::int64_t run_id,
                                      std::string_view name,
                                      std::string_view location,
                                      std::string_view holder,
                                      std::string_view now,
                                      std::string_view lease_until) override;
  Result<HistoryCounts> AppendImportedFetches(
      std::int64_t run_id, std::span<const FetchRecord> records,
      const HistoryProgress& progress) override;

 private:
  Status PrepareImportStatements();
  // Writes one imported capture under the run's one-fetch-per-domain rule;
  // counts it in *counts.
  Status ImportOne(std::int64_t run_id, std::int64_t* last_id,
                   const FetchRecord& record, HistoryCounts* counts);
  Status Migrate();
  Status PrepareStatements();
  Status InsertOne(std::int64_t run_id, std::int64_t fetch_id,
                   const FetchRecord& record);
  Status UpsertDomain(std::string_view name, std::int64_t latest_fetch_id,
                      std::int64_t* id);
  Status BodyIdFor(std::string_view body, std::int64_t* id);
  Status StepDone(Statement& stmt, std::string_view what) {
    const int rc = stmt.Step();
    if (rc == SQLITE_DONE || rc == SQLITE_ROW) return Status::Ok();
    return StatusFromSqlite(db_.get(), rc, what);
  }

  DatabaseHandle db_;
  std::string path_;
  StoreOptions options_;
  // Ids of bodies seen lately, by SHA-256: a popular robots.txt (a CMS's
  // default, a hosting provider's) recurs thousands of times in a crawl,
  // and each hit here saves a SELECT. Bodies are never deleted, so an id
  // stays valid once committed; the map is cleared when a batch fails
  // (its inserts rolled back) and when it reaches kMaxKnownBodies.
  static constexpr std::size_t kMaxKnownBodies = 4096;
  std::unordered_map<std::string, std::int64_t> known_bodies_;
  Statement insert_run_, finish_run_, upsert_domain_, max_fetch_id_,
      select_body_, insert_body_, insert_fetch_, insert_step_, insert_signal_,
      select_latest_, select_body_of_fetch_, body_id_of_fetch_;
  // Imports' statements, prepared on first use.
  bool import_prepared_ = false;
  Statement find_import_run_, open_history_file_, fetch_of_run_domain_,
      delete_steps_, delete_fetch_, newest_fetch_of_domain_, set_latest_fetch_,
      history_progress_;
};

Status SqliteCrawlStore::Initialize() {
  sqlite3* db = db_.get();
  sqlite3_extended_result_codes(db, 1);
  // A concurrent reader (the crawler's lookups) or a checkpoint may hold a
  // lock briefly; wait instead of failing.
  sqlite3_busy_timeout(db, kBusyTimeoutMilliseconds);
  if (!options_.read_only) {
    // WAL: readers never block the single writer; synchronous=NORMAL keeps
    // every committed transaction across a process crash (only an OS crash
    // or power loss can drop the last ones).
    if (Status s = Execute(db, "PRAGMA journal_mode=WAL"); !s.ok()) return s;
    if (Status s = Execute(db, "PRAGMA synchronous=NORMAL"); !s.ok()) return s;
  }
  if (Status s = Execute(db, "PRAGMA foreign_keys=ON"); !s.ok()) return s;
  if (options_.max_page_count > 0) {
    const std::string pragma =
        "PRAGMA max_page_count=" + std::to_string(options_.max_page_count);
    if (Status s = Execute(db, pragma.c_str()); !s.ok()) return s;
  }
  if (options_.read_only) {
    // A reader refuses what a newer robotscan wrote, as the writer does:
    // its tables may mean what this version cannot know. An older file is
    // read as it is (a reader never migrates).
    std::int64_t version = 0;
    if (Status s = CheckSchemaVersion(db, path_, &version); !s.ok()) return s;
  } else {
    if (Status s = Migrate(); !s.ok()) return s;
  }
  return PrepareStatements();
}

Status SqliteCrawlStore::Migrate() {
  std::int64_t current = 0;
  if (Status s = CheckSchemaVersion(db_.get(), path_, &current); !s.ok()) {
    return s;
  }
  for (std::int64_t v = current; v < kSchemaVersion; ++v) {
    // Each step and its version bump commit together: a crash mid-migration
    // leaves the previous version intact.
    Transaction txn(db_.get());
    if (Status s = txn.Begin(); !s.ok()) return s;
    if (Status s = Execute(
            db_.get(), SqliteMigrations()[static_cast<std::size_t>(v)].c_str());
        !s.ok()) {
      return s;
    }
    const std::string bump = "PRAGMA user_version=" + std::to_string(v + 1);
    if (Status s = Execute(db_.get(), bump.c_str()); !s.ok()) return s;
    if (Status s = txn.Commit(); !s.ok()) return s;
  }
  return Status::Ok();
}

Status SqliteCrawlStore::PrepareStatements() {
  struct Item {
    Statement* stmt;
    std::string sql;
    // Writes: not prepared by a read-only store, which may be looking at
    // a file of an older schema version (only a writer migrates).
    bool writes = false;
  };
  const Item items[] = {
      {&insert_run_,
       "INSERT INTO crawl_run(started_at, tool_version, input, options, host, "
       "pid, list_source, list_id, list_date, list_url, list_sha256, "
       "list_entries, source, source_crawl) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
       "?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
       true},
      {&finish_run_,
       "UPDATE crawl_run SET status = ?2, finished_at = ?3 WHERE id = ?1",
       true},
      // One statement per record for the domain row: it is created or
      // pointed at its newest fetch, and its id comes back.
      {&upsert_domain_,
       "INSERT INTO domain(name, latest_fetch_id) VALUES (?1, ?2) "
       "ON CONFLICT(name) DO UPDATE SET latest_fetch_id = "
       "excluded.latest_fetch_id RETURNING id",
       true},
      {&max_fetch_id_, "SELECT coalesce(max(id), 0) FROM fetch"},
      {&select_body_, "SELECT id FROM body WHERE sha256 = ?1"},
      {&insert_body_,
       "INSERT INTO body(sha256, size, compression, data) "
       "VALUES (?1, ?2, ?3, ?4)",
       true},
      {&insert_fetch_, SqliteInsertSql(schema::kFetchTable), true},
      {&insert_step_, SqliteInsertSql(schema::kFetchStepTable), true},
      {&insert_signal_, SqliteInsertSql(schema::kSignalTable), true},
      {&select_latest_,
       "SELECT " + schema::PreviousFetchColumnsSql(schema::Dialect::kSqlite) +
           " FROM domain d JOIN fetch f ON f.id = d.latest_fetch_id WHERE "
           "d.name = ?1"},
      {&select_body_of_fetch_,
       "SELECT b.compression, b.size, b.data FROM fetch f "
       "JOIN body b ON b.id = f.body_id WHERE f.id = ?1"},
      {&body_id_of_fetch_, "SELECT body_id FROM fetch WHERE id = ?1"},
  };
  for (const Item& item : items) {
    if (item.writes && options_.read_only) continue;
    if (Status s = Statement::Prepare(db_.get(), item.sql, item.stmt);
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Result<std::int64_t> SqliteCrawlStore::BeginRun(const RunInfo& info) {
  ScopedReset reset(insert_run_);
  insert_run_.BindText(1, info.started_at);
  insert_run_.BindTextOrNull(2, info.tool_version);
  insert_run_.BindTextOrNull(3, info.input);
  insert_run_.BindTextOrNull(4, info.options_json);
  insert_run_.BindTextOrNull(5, info.host);
  insert_run_.BindInt(6, info.pid);
  insert_run_.BindTextOrNull(7, info.list.source);
  insert_run_.BindTextOrNull(8, info.list.list_id);
  insert_run_.BindTextOrNull(9, info.list.date);
  insert_run_.BindTextOrNull(10, info.list.url);
  insert_run_.BindTextOrNull(11, info.list.sha256);
  insert_run_.BindInt(12, info.list.entries);
  insert_run_.BindText(13, FetchSourceName(info.source));
  insert_run_.BindTextOrNull(14, info.source_crawl);
  if (Status s = StepDone(insert_run_, "insert crawl_run"); !s.ok()) return s;
  return static_cast<std::int64_t>(sqlite3_last_insert_rowid(db_.get()));
}

Status SqliteCrawlStore::FinishRun(std::int64_t run_id, std::string_view status,
                                   std::string_view finished_at) {
  ScopedReset reset(finish_run_);
  finish_run_.BindInt(1, run_id);
  finish_run_.BindText(2, status);
  finish_run_.BindText(3, finished_at);
  return StepDone(finish_run_, "update crawl_run");
}

Status SqliteCrawlStore::UpsertDomain(std::string_view name,
                                      std::int64_t latest_fetch_id,
                                      std::int64_t* id) {
  ScopedReset reset(upsert_domain_);
  upsert_domain_.BindText(1, name);
  upsert_domain_.BindInt(2, latest_fetch_id);
  const int rc = upsert_domain_.Step();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "upsert domain");
  *id = upsert_domain_.ColumnInt(0);
  return Status::Ok();
}

Status SqliteCrawlStore::BodyIdFor(std::string_view body, std::int64_t* id) {
  std::string digest = Sha256Of(body);
  if (auto it = known_bodies_.find(digest); it != known_bodies_.end()) {
    *id = it->second;
    return Status::Ok();
  }
  if (known_bodies_.size() >= kMaxKnownBodies) known_bodies_.clear();
  {
    ScopedReset reset(select_body_);
    select_body_.BindBlob(1, digest);
    const int rc = select_body_.Step();
    if (rc == SQLITE_ROW) {
      *id = select_body_.ColumnInt(0);
      known_bodies_.emplace(std::move(digest), *id);
      return Status::Ok();
    }
    if (rc != SQLITE_DONE)
      return StatusFromSqlite(db_.get(), rc, "select body");
  }
  ScopedReset reset(insert_body_);
  insert_body_.BindBlob(1, digest);
  insert_body_.BindInt(2, static_cast<std::int64_t>(body.size()));
  std::string compressed;
  if (options_.compress_bodies) {
    if (Status s = CompressBody(body, &compressed); !s.ok()) return s;
    insert_body_.BindText(3, "zstd");
    insert_body_.BindBlob(4, compressed);
  } else {
    insert_body_.BindText(3, "none");
    insert_body_.BindBlob(4, body);
  }
  if (Status s = StepDone(insert_body_, "insert body"); !s.ok()) return s;
  *id = sqlite3_last_insert_rowid(db_.get());
  known_bodies_.emplace(std::move(digest), *id);
  return Status::Ok();
}

Status SqliteCrawlStore::InsertOne(std::int64_t run_id, std::int64_t fetch_id,
                                   const FetchRecord& r) {
  if (Status s = schema::CheckFetchRecord(r); !s.ok()) return s;
  std::int64_t domain_id = 0;
  if (Status s = UpsertDomain(r.domain, fetch_id, &domain_id); !s.ok()) {
    return s;
  }

  std::int64_t body_id = 0;
  if (r.body_from_fetch_id != 0) {
    ScopedReset reset(body_id_of_fetch_);
    body_id_of_fetch_.BindInt(1, r.body_from_fetch_id);
    const int rc = body_id_of_fetch_.Step();
    if (rc == SQLITE_ROW && !body_id_of_fetch_.ColumnIsNull(0)) {
      body_id = body_id_of_fetch_.ColumnInt(0);
    } else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
      return StatusFromSqlite(db_.get(), rc, "select body of fetch");
    }
  } else if (r.http_status >= 200 && r.http_status < 300) {
    // Only 2xx bodies are robots.txt files; error pages are not kept.
    if (Status s = BodyIdFor(r.body, &body_id); !s.ok()) return s;
  }

  Statement& f = insert_fetch_;
  ScopedReset reset(f);
  BindRecord(f, schema::kFetchTable, r);
  f.BindInt(kFetchId, fetch_id);
  f.BindInt(kFetchRunId, run_id);
  f.BindInt(kFetchDomainId, domain_id);
  if (body_id != 0) {
    f.BindInt(kFetchBodyId, body_id);
  } else {
    f.BindNull(kFetchBodyId);
  }
  if (Status s = StepDone(f, "insert fetch of " + r.domain); !s.ok()) return s;

  int seq = 0;
  for (const FetchStep& step : r.steps) {
    Statement& st = insert_step_;
    ScopedReset step_reset(st);
    BindRecord(st, schema::kFetchStepTable, step);
    st.BindInt(kStepFetchId, fetch_id);
    st.BindInt(kStepSeq, seq++);
    if (Status s = StepDone(st, "insert fetch_step"); !s.ok()) return s;
  }
  for (const SignalRecord& signal : r.signals) {
    Statement& sg = insert_signal_;
    ScopedReset signal_reset(sg);
    BindRecord(sg, schema::kSignalTable, signal);
    sg.BindInt(kSignalFetchId, fetch_id);
    if (Status s = StepDone(sg, "insert signal_fetch"); !s.ok()) return s;
  }
  return Status::Ok();
}

Status SqliteCrawlStore::AppendFetches(std::int64_t run_id,
                                       std::span<const FetchRecord> records) {
  if (records.empty()) return Status::Ok();
  Transaction txn(db_.get());
  if (Status s = txn.Begin(); !s.ok()) return s;
  // BEGIN IMMEDIATE holds the write lock, so no other connection adds a
  // fetch before this commits and the ids can be assigned here: the domain
  // row then points at its new fetch as it is written, instead of in a
  // third statement per record.
  std::int64_t last_id = 0;
  {
    ScopedReset reset(max_fetch_id_);
    const int rc = max_fetch_id_.Step();
    if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "max id");
    last_id = max_fetch_id_.ColumnInt(0);
  }
  for (const FetchRecord& record : records) {
    if (Status s = InsertOne(run_id, ++last_id, record); !s.ok()) {
      known_bodies_.clear();  // This batch's new bodies are rolled back.
      return s;
    }
  }
  Status committed = txn.Commit();
  if (!committed.ok()) known_bodies_.clear();
  return committed;
}

Result<std::optional<PreviousFetch>> SqliteCrawlStore::FindLatestFetch(
    std::string_view domain) {
  ScopedReset reset(select_latest_);
  select_latest_.BindText(1, domain);
  const int rc = select_latest_.Step();
  if (rc == SQLITE_DONE) return std::optional<PreviousFetch>();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "latest fetch");
  PreviousFetch p;
  if (Status s =
          schema::DecodePreviousFetch(StatementCells(select_latest_), 0, &p);
      !s.ok()) {
    return s;
  }
  return std::optional<PreviousFetch>(std::move(p));
}

Result<std::string> SqliteCrawlStore::ReadBody(std::int64_t fetch_id) {
  ScopedReset reset(select_body_of_fetch_);
  select_body_of_fetch_.BindInt(1, fetch_id);
  const int rc = select_body_of_fetch_.Step();
  if (rc == SQLITE_DONE) return std::string();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "read body");
  const std::string compression = select_body_of_fetch_.ColumnText(0);
  const auto size =
      static_cast<std::size_t>(select_body_of_fetch_.ColumnInt(1));
  std::string data = select_body_of_fetch_.ColumnText(2);
  if (compression != "zstd") return data;
  std::string body;
  if (Status s = DecompressBody(data, size, &body); !s.ok()) return s;
  return body;
}

Result<IntegrityReport> SqliteCrawlStore::CheckIntegrity() {
  Statement check;
  if (Status s =
          Statement::Prepare(db_.get(), "PRAGMA integrity_check", &check);
      !s.ok()) {
    return s;
  }
  const int rc = check.Step();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "integrity");
  IntegrityReport report;
  report.text = check.ColumnText(0);
  report.healthy = report.text == "ok";
  return report;
}

Result<bool> SqliteCrawlStore::HasFetches() {
  Statement exists;
  if (Status s = Statement::Prepare(
          db_.get(), "SELECT EXISTS (SELECT 1 FROM fetch)", &exists);
      !s.ok()) {
    return s;
  }
  const int rc = exists.Step();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "any fetch");
  return exists.ColumnInt(0) != 0;
}

Result<std::vector<RunRecord>> SqliteCrawlStore::ReadRuns() {
  return ReadRunRows(db_.get());
}

Result<LockAttempt> SqliteCrawlStore::LockForCrawl(const CrawlHolder& me) {
  if (options_.read_only) {
    return Status(Status::Code::kInvalidArgument,
                  "a read-only store cannot hold a crawl");
  }
  return AcquireSqliteCrawlLock(path_, me);
}

Status SqliteCrawlStore::PrepareImportStatements() {
  if (import_prepared_) return Status::Ok();
  if (options_.read_only) {
    return Status(Status::Code::kInvalidArgument,
                  "a read-only store cannot import");
  }
  const std::pair<Statement*, const char*> items[] = {
      {&find_import_run_,
       "SELECT id FROM crawl_run WHERE source = ?1 AND source_crawl = ?2 "
       "ORDER BY id LIMIT 1"},
      {&open_history_file_,
       "INSERT INTO history_file(run_id, name, location, holder, started_at, "
       "lease_until) VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(run_id, name) "
       "DO UPDATE SET location = excluded.location, holder = excluded.holder, "
       "lease_until = excluded.lease_until "
       "RETURNING id, state, resume_offset, resume_skip, records, fetches, "
       "duplicates, skipped, errors"},
      // The domain's newest fetch, and its fetch in this run if any.
      {&fetch_of_run_domain_,
       "SELECT d.latest_fetch_id, lf.fetched_at, f.id, f.fetched_at, "
       "coalesce(f.source_file, ''), coalesce(f.source_offset, -1) FROM "
       "domain d LEFT JOIN fetch lf ON lf.id = d.latest_fetch_id LEFT JOIN "
       "fetch f ON f.domain_id = d.id AND f.run_id = ?1 WHERE d.name = ?2"},
      {&set_latest_fetch_,
       "UPDATE domain SET latest_fetch_id = ?2 WHERE name = ?1"},
      {&delete_steps_, "DELETE FROM fetch_step WHERE fetch_id = ?1"},
      {&delete_fetch_, "DELETE FROM fetch WHERE id = ?1"},
      {&newest_fetch_of_domain_,
       "UPDATE domain SET latest_fetch_id = (SELECT f.id FROM fetch f WHERE "
       "f.domain_id = domain.id ORDER BY f.fetched_at DESC, f.id DESC LIMIT "
       "1) WHERE name = ?1"},
      {&history_progress_,
       "UPDATE history_file SET resume_offset = ?2, resume_skip = ?3, "
       "records = records + ?4, fetches = fetches + ?5, duplicates = "
       "duplicates + ?6, skipped = skipped + ?7, errors = errors + ?8, "
       "last_error = coalesce(?9, last_error), state = CASE WHEN ?10 THEN "
       "'done' ELSE state END, finished_at = CASE WHEN ?10 THEN ?11 ELSE "
       "finished_at END WHERE id = ?1"},
  };
  for (const auto& [stmt, sql] : items) {
    if (Status s = Statement::Prepare(db_.get(), sql, stmt); !s.ok()) return s;
  }
  // An import writes a file's worth of bodies in a row: a 64 MiB page
  // cache (SQLite's default is 2 MiB) keeps the tables' and indexes'
  // pages in memory between its transactions.
  if (Status s = Execute(db_.get(), "PRAGMA cache_size=-65536"); !s.ok()) {
    return s;
  }
  import_prepared_ = true;
  return Status::Ok();
}

Result<std::optional<std::int64_t>> SqliteCrawlStore::FindImportRun(
    FetchSource source, std::string_view source_crawl) {
  if (Status s = PrepareImportStatements(); !s.ok()) return s;
  ScopedReset reset(find_import_run_);
  find_import_run_.BindText(1, FetchSourceName(source));
  find_import_run_.BindText(2, source_crawl);
  const int rc = find_import_run_.Step();
  if (rc == SQLITE_DONE) return std::optional<std::int64_t>();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "find run");
  return std::optional<std::int64_t>(find_import_run_.ColumnInt(0));
}

Result<std::int64_t> SqliteCrawlStore::FindOrBeginImportRun(
    const RunInfo& info) {
  if (Status s = PrepareImportStatements(); !s.ok()) return s;
  Transaction txn(db_.get());
  if (Status s = txn.Begin(); !s.ok()) return s;
  Result<std::optional<std::int64_t>> found =
      FindImportRun(info.source, info.source_crawl);
  if (!found.ok()) return found.status();
  std::int64_t run = 0;
  if (*found) {
    run = **found;
  } else {
    Result<std::int64_t> begun = BeginRun(info);
    if (!begun.ok()) return begun.status();
    run = *begun;
  }
  if (Status s = txn.Commit(); !s.ok()) return s;
  return run;
}

Result<HistoryFile> SqliteCrawlStore::OpenHistoryFile(
    std::int64_t run_id, std::string_view name, std::string_view location,
    std::string_view holder, std::string_view now,
    std::string_view lease_until) {
  if (Status s = PrepareImportStatements(); !s.ok()) return s;
  ScopedReset reset(open_history_file_);
  open_history_file_.BindInt(1, run_id);
  open_history_file_.BindText(2, name);
  open_history_file_.BindTextOrNull(3, location);
  open_history_file_.BindTextOrNull(4, holder);
  open_history_file_.BindText(5, now);
  open_history_file_.BindTextOrNull(6, lease_until);
  const int rc = open_history_file_.Step();
  if (rc != SQLITE_ROW) {
    return StatusFromSqlite(db_.get(), rc, "open history_file");
  }
  HistoryFile file;
  Statement& st = open_history_file_;
  file.id = st.ColumnInt(0);
  file.done = st.ColumnText(1) == "done";
  file.resume_offset = st.ColumnInt(2);
  file.resume_skip = st.ColumnInt(3);
  file.counts.records = st.ColumnInt(4);
  file.counts.fetches = st.ColumnInt(5);
  file.counts.duplicates = st.ColumnInt(6);
  file.counts.skipped = st.ColumnInt(7);
  file.counts.errors = st.ColumnInt(8);
  // The RETURNING row is read; finish the statement so that it commits.
  if (Status s = StepDone(st, "open history_file"); !s.ok()) return s;
  return file;
}

Status SqliteCrawlStore::ImportOne(std::int64_t run_id, std::int64_t* last_id,
                                   const FetchRecord& r,
                                   HistoryCounts* counts) {
  std::int64_t replaced = 0;
  std::int64_t latest = 0;  // The domain's newest fetch before this one.
  std::string latest_at;
  {
    ScopedReset reset(fetch_of_run_domain_);
    fetch_of_run_domain_.BindInt(1, run_id);
    fetch_of_run_domain_.BindText(2, r.domain);
    const int rc = fetch_of_run_domain_.Step();
    if (rc == SQLITE_ROW) {
      const Statement& st = fetch_of_run_domain_;
      latest = st.ColumnInt(0);
      latest_at = st.ColumnText(1);
      if (!st.ColumnIsNull(2)) {
        const std::string at = st.ColumnText(3);
        const std::string file = st.ColumnText(4);
        const std::int64_t offset = st.ColumnInt(5);
        const bool earlier =
            std::tie(r.fetched_at, r.source_file, r.source_offset) <
            std::tie(at, file, offset);
        ++counts->duplicates;
        if (!earlier) return Status::Ok();
        replaced = st.ColumnInt(2);
      }
    } else if (rc != SQLITE_DONE) {
      return StatusFromSqlite(db_.get(), rc, "find the run's fetch");
    }
  }
  if (replaced != 0) {
    for (Statement* del : {&delete_steps_, &delete_fetch_}) {
      ScopedReset reset(*del);
      del->BindInt(1, replaced);
      if (Status s = StepDone(*del, "replace a later capture"); !s.ok()) {
        return s;
      }
    }
  }
  // InsertOne points the domain at the new fetch, which is right unless
  // the domain has a newer one: an import may add an older capture after
  // a newer fetch (the newest is by capture time, not the last written).
  if (Status s = InsertOne(run_id, ++*last_id, r); !s.ok()) return s;
  if (replaced == 0) ++counts->fetches;
  if (latest != 0 && latest == replaced) {
    // The replaced fetch was the newest: find the newest again.
    ScopedReset reset(newest_fetch_of_domain_);
    newest_fetch_of_domain_.BindText(1, r.domain);
    return StepDone(newest_fetch_of_domain_, "point the domain at its newest");
  }
  if (latest != 0 && latest_at > r.fetched_at) {
    ScopedReset reset(set_latest_fetch_);
    set_latest_fetch_.BindText(1, r.domain);
    set_latest_fetch_.BindInt(2, latest);
    return StepDone(set_latest_fetch_, "keep the domain's newest fetch");
  }
  return Status::Ok();
}

Result<HistoryCounts> SqliteCrawlStore::AppendImportedFetches(
    std::int64_t run_id, std::span<const FetchRecord> records,
    const HistoryProgress& progress) {
  if (Status s = PrepareImportStatements(); !s.ok()) return s;
  Transaction txn(db_.get());
  if (Status s = txn.Begin(); !s.ok()) return s;
  std::int64_t last_id = 0;
  {
    ScopedReset reset(max_fetch_id_);
    const int rc = max_fetch_id_.Step();
    if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "max id");
    last_id = max_fetch_id_.ColumnInt(0);
  }
  HistoryCounts decided;
  for (const FetchRecord& record : records) {
    if (Status s = ImportOne(run_id, &last_id, record, &decided); !s.ok()) {
      known_bodies_.clear();  // This batch's new bodies are rolled back.
      return s;
    }
  }
  {
    Statement& st = history_progress_;
    ScopedReset reset(st);
    st.BindInt(1, progress.file_id);
    st.BindInt(2, progress.resume_offset);
    st.BindInt(3, progress.resume_skip);
    st.BindInt(4, progress.counts.records);
    st.BindInt(5, decided.fetches);
    st.BindInt(6, decided.duplicates);
    st.BindInt(7, progress.counts.skipped);
    st.BindInt(8, progress.counts.errors);
    st.BindTextOrNull(9, progress.last_error);
    st.BindInt(10, progress.done ? 1 : 0);
    st.BindTextOrNull(11, progress.finished_at);
    if (Status s = StepDone(st, "history_file progress"); !s.ok()) {
      known_bodies_.clear();
      return s;
    }
  }
  Status committed = txn.Commit();
  if (!committed.ok()) {
    known_bodies_.clear();
    return committed;
  }
  return decided;
}

Result<RowCounts> SqliteCrawlStore::CountRows() {
  Statement count;
  if (Status s = Statement::Prepare(
          db_.get(),
          "SELECT (SELECT count(*) FROM fetch), (SELECT count(*) FROM body)",
          &count);
      !s.ok()) {
    return s;
  }
  const int rc = count.Step();
  if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "count");
  RowCounts counts;
  counts.fetches = count.ColumnInt(0);
  counts.bodies = count.ColumnInt(1);
  return counts;
}

}  // namespace

Result<std::unique_ptr<CrawlStore>> OpenSqliteCrawlStore(
    std::string_view path, const StoreOptions& options) {
  const std::string file(path);
  DatabaseHandle db;
  if (options.read_only) {
    std::string uri;
    if (Status s = OpenDatabaseForReading(file, SQLITE_OPEN_NOMUTEX, &db, &uri);
        !s.ok()) {
      return s;
    }
  } else {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(
        file.c_str(), &raw,
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
        nullptr);
    db.reset(raw);
    if (rc != SQLITE_OK) return StatusFromSqlite(raw, rc, "open " + file);
  }
  auto store = std::make_unique<SqliteCrawlStore>(std::move(db), file, options);
  if (Status s = store->Initialize(); !s.ok()) return s;
  return std::unique_ptr<CrawlStore>(std::move(store));
}

}  // namespace robotscan::storage
