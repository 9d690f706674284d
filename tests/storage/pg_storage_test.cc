// The PostgreSQL backend of storage/ against a real PostgreSQL 15 (the test
// run's own cluster, tests/pg): the same schema, view and figures as the
// SQLite file, versioned migrations, bodies once by hash, the copy of an
// SQLite crawl (robotscan migrate), the one-live-crawl hold, and the
// shared frontier's leases, takeovers, per-IP slots and rate tokens.
// Suites named Pg* need PostgreSQL and skip visibly without it.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "pg_test_server.h"
#include "postgres/pg_schema.h"
#include "result_into.h"
#include "robotscan/storage/copy_crawl.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/shared_frontier.h"

namespace robotscan::storage {
namespace {

namespace fs = std::filesystem;
using robotscan::testing::PgTestCluster;

#define ASSERT_OK(expression)                       \
  do {                                              \
    const Status status_ = (expression);            \
    ASSERT_TRUE(status_.ok()) << status_.message(); \
  } while (0)

RunInfo RunStartedAt(std::string started_at) {
  RunInfo info;
  info.started_at = std::move(started_at);
  info.tool_version = "test";
  info.input = "list.csv";
  info.options_json = "{\"top\":0}";
  return info;
}

FetchRecord Fetch(std::string domain, int status, std::string body,
                  std::string fetched_at) {
  FetchRecord r;
  r.domain = std::move(domain);
  r.rank = 1;
  r.url = "https://" + r.domain + "/robots.txt";
  r.final_url = r.url;
  r.strategy = "https,http";
  r.http_status = status;
  r.access = status >= 200 && status < 300  ? robots::AccessClass::kSuccess
             : status >= 500 || status == 0 ? robots::AccessClass::kUnreachable
                                            : robots::AccessClass::kUnavailable;
  r.body = std::move(body);
  r.content_type = "text/plain";
  r.ip = "127.0.0.1";
  r.total_ms = 1.5;
  r.fetched_at = std::move(fetched_at);
  FetchStep step;
  step.url = r.url;
  step.http_status = status;
  step.ip = r.ip;
  step.total_ms = 1.5;
  r.steps.push_back(step);
  return r;
}

// Every field a report reads, one line per row.
std::string Describe(const LatestFetchRow& r) {
  return r.domain + "|" + std::to_string(r.rank) + "|" + r.url + "|" +
         r.final_url + "|" + std::to_string(r.http_status) + "|" +
         std::string(robots::AccessClassName(r.access)) + "|" +
         std::string(ErrorClassName(r.error)) + "|" +
         std::to_string(r.redirects) + "|" + std::to_string(r.bytes) + "|" +
         std::to_string(r.truncated) + "|" + std::to_string(r.not_modified) +
         "|" + r.content_type + "|" + r.body + "|" + r.body_sha256 + "|" +
         r.fetched_at;
}

std::vector<std::string> ReadAll(const std::string& location,
                                 LatestFetchQuery query = {}) {
  query.by_domain = true;
  auto reader = LatestFetchReader::Open(location, query);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> rows;
  if (!reader.ok()) return rows;
  LatestFetchRow row;
  for (bool has_row = true;;) {
    const Status s = Into(reader.value()->Next(&row), &has_row);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok() || !has_row) break;
    rows.push_back(Describe(row));
  }
  return rows;
}

std::vector<std::string> SharedBodies(const std::string& location) {
  auto reader = LatestFetchReader::Open(location);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> out;
  if (!reader.ok()) return out;
  std::vector<SharedBody> bodies;
  EXPECT_TRUE(Into(reader.value()->FindSharedBodies(2, 10), &bodies).ok());
  for (const SharedBody& b : bodies) {
    out.push_back(b.sha256 + "|" + std::to_string(b.domains) + "|" +
                  std::to_string(b.bytes) + "|" + b.example_domain + "|" +
                  std::to_string(b.example_rank) + "|" + b.excerpt);
  }
  return out;
}

// Two runs: history, a shared body, an error page, a 304 that keeps the
// earlier body, a redirect and text that is not UTF-8.
void WriteTwoRuns(CrawlStore* store) {
  std::int64_t run = 0;
  ASSERT_OK(
      Into(store->BeginRun(RunStartedAt("2026-01-01T00:00:00.000Z")), &run));
  std::vector<FetchRecord> first = {
      Fetch("c.test", 200, "User-agent: *\nDisallow: /\n",
            "2026-01-01T00:00:01.000Z"),
      Fetch("a.test", 200, "User-agent: *\nDisallow: /\n",
            "2026-01-01T00:00:01.000Z"),
      Fetch("b.test", 404, "<html>not found</html>",
            "2026-01-01T00:00:01.000Z"),
      Fetch("e.test", 200, "Sitemap: x\n", "2026-01-01T00:00:01.000Z")};
  first[0].rank = 3;
  first[1].rank = 1;
  first[2].rank = 2;
  first[3].rank = 5;
  first[3].etag = "\"v1\"";
  first[2].error_message =
      std::string("bad \xff\xfe bytes and a NUL \0 here", 29);
  first[1].redirects = 1;
  first[1].final_url = "https://www.a.test/robots.txt";
  {
    const Status s = store->AppendFetches(run, first);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  std::optional<PreviousFetch> previous;
  ASSERT_OK(Into(store->FindLatestFetch("e.test"), &previous));
  ASSERT_TRUE(previous.has_value());
  ASSERT_OK(store->FinishRun(run, "finished", "2026-01-01T00:01:00.000Z"));
  ASSERT_OK(
      Into(store->BeginRun(RunStartedAt("2026-02-01T00:00:00.000Z")), &run));
  FetchRecord kept =
      Fetch("e.test", 304, "Sitemap: x\n", "2026-02-01T00:00:01.000Z");
  kept.not_modified = true;
  kept.access = robots::AccessClass::kSuccess;
  kept.body_from_fetch_id = previous->fetch_id;
  std::vector<FetchRecord> second = {
      kept,
      Fetch("b.test", 200, "User-agent: *\nDisallow: /\n",
            "2026-02-01T00:00:01.000Z"),
      Fetch("d.test", 0, "", "2026-02-01T00:00:01.000Z")};
  second[2].error_class = ErrorClass::kConnectRefused;
  second[2].error_message = "Connection refused";
  second[2].http_status = 0;
  {
    const Status s = store->AppendFetches(run, second);
    ASSERT_TRUE(s.ok()) << s.message();
  }
  ASSERT_OK(store->FinishRun(run, "finished", "2026-02-01T00:01:00.000Z"));
}

class PgStorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ROBOTSCAN_SKIP_WITHOUT_PG();
    std::string error;
    uri_ = PgTestCluster::Get().CreateDatabase(
        ::testing::UnitTest::GetInstance()->current_test_info()->name(),
        &error);
    ASSERT_FALSE(uri_.empty()) << error;
    dir_ = fs::temp_directory_path() /
           ("pg_storage_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    sqlite_ = (dir_ / "crawl.sqlite").string();
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string Query(const std::string& sql) {
    std::string error;
    std::string out = PgTestCluster::Query(uri_, sql, &error);
    EXPECT_EQ(error, "") << sql;
    return out;
  }

  std::unique_ptr<CrawlStore> Open(const std::string& location,
                                   StoreOptions options = {}) {
    auto store = CrawlStore::Open(location, options);
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(store.value()) : nullptr;
  }

  std::string uri_;
  fs::path dir_;
  std::string sqlite_;
};

TEST_F(PgStorageTest, CreatesTheVersionedSchemaWithTheSameView) {
  auto pg = Open(uri_);
  ASSERT_NE(pg, nullptr);
  EXPECT_EQ(Query("SELECT version FROM robotscan_schema"),
            std::to_string(kPgSchemaVersion));
  // latest_fetch has the SQLite view's columns, in its order.
  auto lite = Open(sqlite_);
  ASSERT_NE(lite, nullptr);
  lite.reset();
  std::string sqlite_columns;
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(
        sqlite3_open_v2(sqlite_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
        SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(
                  db, "SELECT name FROM pragma_table_info('latest_fetch')", -1,
                  &stmt, nullptr),
              SQLITE_OK);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      if (!sqlite_columns.empty()) sqlite_columns += ',';
      sqlite_columns +=
          reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
  }
  const std::string pg_columns = Query(
      "SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM "
      "information_schema.columns WHERE table_name = 'latest_fetch'");
  EXPECT_EQ(pg_columns, sqlite_columns);
  EXPECT_EQ(
      pg_columns.rfind("domain,rank,url,final_url,http_status,access,", 0), 0u);
  // Reopening neither re-migrates nor fails; many processes may migrate at
  // once (the advisory lock serializes them).
  std::vector<std::thread> openers;
  std::atomic<int> failures{0};
  for (int i = 0; i < 4; ++i) {
    openers.emplace_back([&] {
      if (!CrawlStore::Open(uri_, {}).ok()) ++failures;
    });
  }
  for (auto& t : openers) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Query("SELECT count(*) FROM robotscan_schema"), "1");
}

// crawl --signals: a fetch's signals are written with it, the same on both
// backends, and copied by `robotscan migrate`.
TEST_F(PgStorageTest, SignalsAreWrittenWithTheirFetchOnBothBackends) {
  FetchRecord record = Fetch("s.test", 200, "User-agent: *\nAllow: /\n",
                             "2026-03-01T00:00:00.000Z");
  SignalRecord llms;
  llms.kind = "llms.txt";
  llms.url = "https://s.test/llms.txt";
  llms.final_url = llms.url;
  llms.http_status = 200;
  llms.content_type = "text/markdown";
  llms.body = "# S\n\xff binary kept";
  llms.bytes = static_cast<std::int64_t>(llms.body.size());
  llms.present = true;
  SignalRecord tdmrep;
  tdmrep.kind = "tdmrep.json";
  tdmrep.url = "https://s.test/.well-known/tdmrep.json";
  tdmrep.final_url = "https://s.test/";
  tdmrep.http_status = 200;
  tdmrep.redirects = 1;
  tdmrep.absent_reason = "soft-404";
  SignalRecord home;
  home.kind = "homepage";
  home.url = "https://s.test/";
  home.http_status = 200;
  home.present = true;
  home.x_robots_tag = "noai, noimageai";
  home.tdm_reservation = "1";
  record.signals = {llms, tdmrep, home};
  for (const std::string& location : {uri_, sqlite_}) {
    auto store = Open(location);
    ASSERT_NE(store, nullptr);
    std::int64_t run = 0;
    ASSERT_OK(Into(store->BeginRun(RunStartedAt("2026-03-01")), &run));
    ASSERT_OK(store->AppendFetches(run, std::vector<FetchRecord>{record}));
  }
  const std::string pg_rows = Query(
      "SELECT kind, http_status, redirects, present, absent_reason, valid, "
      "x_robots_tag, tdm_reservation, encode(body, 'hex') FROM signal_fetch "
      "ORDER BY kind");
  EXPECT_EQ(pg_rows,
            "homepage|200|0|1|NULL|NULL|noai, noimageai|1|\n"
            "llms.txt|200|0|1|NULL|NULL|NULL|NULL|"
            "2320530aff2062696e617279206b657074\n"
            "tdmrep.json|200|1|0|soft-404|NULL|NULL|NULL|");
  // The readers summarise them the same on both backends.
  for (const std::string& location : {uri_, sqlite_}) {
    auto reader = LatestFetchReader::Open(location);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    LatestFetchRow row;
    bool has_row = false;
    ASSERT_OK(Into(reader.value()->Next(&row), &has_row));
    ASSERT_TRUE(has_row);
    const SignalSummary& summary = row.signals;
    EXPECT_TRUE(summary.fetched) << location;
    EXPECT_TRUE(summary.llms_txt);
    EXPECT_FALSE(summary.tdmrep);
    EXPECT_EQ(summary.tdmrep_valid, -1);
    EXPECT_EQ(summary.x_robots_tag, "noai, noimageai");
    EXPECT_EQ(summary.tdm_reservation, "1");
    EXPECT_EQ(summary.content_usage, "");
  }
  CopySummary copied;
  std::string error;
  const std::string copy =
      PgTestCluster::Get().CreateDatabase("SignalsCopy", &error);
  ASSERT_FALSE(copy.empty()) << error;
  ASSERT_OK(Into(CopyCrawlDatabase(sqlite_, copy, nullptr), &copied));
  EXPECT_EQ(copied.signals, 3);
  EXPECT_EQ(PgTestCluster::Query(copy,
                                 "SELECT kind, http_status, redirects, "
                                 "present, absent_reason, valid, x_robots_tag,"
                                 " tdm_reservation, encode(body, 'hex') FROM "
                                 "signal_fetch ORDER BY kind",
                                 &error),
            pg_rows);
}

TEST_F(PgStorageTest, NewerSchemaIsRefused) {
  ASSERT_NE(Open(uri_), nullptr);
  Query("UPDATE robotscan_schema SET version = 99");
  auto store = CrawlStore::Open(uri_, {});
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Status::Code::kSchemaTooNew);
  auto reader = LatestFetchReader::Open(uri_);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), Status::Code::kSchemaTooNew);
}

TEST_F(PgStorageTest, AReaderOfAnEmptyDatabaseSaysItIsNotACrawl) {
  auto reader = LatestFetchReader::Open(uri_);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(reader.status().message().find("not a robotscan crawl database"),
            std::string::npos);
}

TEST_F(PgStorageTest, SameRecordsReadBackTheSameAsOnSqlite) {
  for (const bool compress : {false, true}) {
    SCOPED_TRACE(compress ? "zstd" : "plain");
    std::string error;
    const std::string uri = PgTestCluster::Get().CreateDatabase(
        compress ? "same_zstd" : "same_plain", &error);
    ASSERT_FALSE(uri.empty()) << error;
    const std::string file =
        (dir_ / (compress ? "z.sqlite" : "p.sqlite")).string();
    StoreOptions options;
    options.compress_bodies = compress;
    auto pg = Open(uri, options);
    auto lite = Open(file, options);
    ASSERT_NE(pg, nullptr);
    ASSERT_NE(lite, nullptr);
    WriteTwoRuns(lite.get());
    WriteTwoRuns(pg.get());
    const auto pg_rows = ReadAll(uri);
    const auto lite_rows = ReadAll(file);
    ASSERT_EQ(pg_rows.size(), 5u);
    // The invalid UTF-8 of error_message is not part of these columns;
    // everything the report reads is identical.
    EXPECT_EQ(pg_rows, lite_rows);
    LatestFetchQuery first_run;
    first_run.as_of_run = 1;
    EXPECT_EQ(ReadAll(uri, first_run), ReadAll(file, first_run));
    // A capture window (report --period) reads the same on both: January
    // holds run 1's four captures, February run 2's.
    LatestFetchQuery january, february;
    january.captured_before = "2026-02-01T00:00:00Z";
    february.captured_from = "2026-02-01T00:00:00Z";
    EXPECT_EQ(ReadAll(uri, january), ReadAll(file, january));
    EXPECT_EQ(ReadAll(uri, january).size(), 4u);
    EXPECT_EQ(ReadAll(uri, january), ReadAll(file, first_run));
    EXPECT_EQ(ReadAll(uri, february), ReadAll(file, february));
    EXPECT_FALSE(ReadAll(uri, february).empty());
    ASSERT_EQ(SharedBodies(uri).size(), 1u);
    std::int64_t fetches = 0, bodies = 0, lite_fetches = 0, lite_bodies = 0;
    ASSERT_OK(Into(pg->CountRows(), &fetches, &bodies));
    ASSERT_OK(Into(lite->CountRows(), &lite_fetches, &lite_bodies));
    EXPECT_EQ(fetches, 7);
    // Bodies once by hash: the disallow-all body of a, c and (later) b,
    // and e's sitemap; the 404 page is not kept.
    EXPECT_EQ(bodies, 2);
    EXPECT_EQ(bodies, lite_bodies);
    std::vector<RunRecord> runs;
    ASSERT_OK(Into(pg->ReadRuns(), &runs));
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].status, "finished");
    bool ok = false;
    std::string report;
    ASSERT_OK(Into(pg->CheckIntegrity(), &ok, &report));
    EXPECT_TRUE(ok) << report;
    std::string body;
    std::optional<PreviousFetch> latest;
    ASSERT_OK(Into(pg->FindLatestFetch("e.test"), &latest));
    ASSERT_TRUE(latest.has_value());
    ASSERT_OK(Into(pg->ReadBody(latest->fetch_id), &body));
    EXPECT_EQ(body, "Sitemap: x\n");
  }
  // Text PostgreSQL cannot hold (invalid UTF-8, NUL) became U+FFFD.
  EXPECT_EQ(PgTestCluster::Query(
                uri_, "SELECT 1"),  // The fixture's own database is unused.
            "1");
}

TEST_F(PgStorageTest, TextThatIsNotUtf8IsStoredWithReplacementCharacters) {
  auto pg = Open(uri_);
  ASSERT_NE(pg, nullptr);
  WriteTwoRuns(pg.get());
  EXPECT_EQ(
      Query("SELECT error_message FROM \"fetch\" f JOIN domain d ON d.id = "
            "f.domain_id WHERE d.name = 'b.test' AND f.run_id = 1"),
      "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes and a NUL \xEF\xBF\xBD here");
  // Steps and the view are plain SQL for researchers, as on SQLite.
  EXPECT_EQ(Query("SELECT count(*) FROM fetch_step"), "7");
  EXPECT_EQ(Query("SELECT domain, http_status, access FROM latest_fetch "
                  "WHERE domain = 'd.test'"),
            "d.test|NULL|unreachable");
}

TEST_F(PgStorageTest, DuplicateDomainInOneRunRollsBackTheWholeBatch) {
  auto pg = Open(uri_);
  ASSERT_NE(pg, nullptr);
  std::int64_t run = 0;
  ASSERT_OK(Into(pg->BeginRun(RunStartedAt("t")), &run));
  const Status s = pg->AppendFetches(
      run, std::vector<FetchRecord>{Fetch("x.test", 200, "a", "1"),
                                    Fetch("x.test", 200, "b", "1")});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.message();
  EXPECT_EQ(Query("SELECT count(*) FROM \"fetch\""), "0");
  EXPECT_EQ(Query("SELECT count(*) FROM body"), "0");
  // The next batch is unaffected (its bodies are not thought to exist).
  ASSERT_OK(pg->AppendFetches(
      run, std::vector<FetchRecord>{Fetch("x.test", 200, "a", "1")}));
  EXPECT_EQ(Query("SELECT count(*) FROM body"), "1");
  FetchRecord bad = Fetch("y.test", 200, "a", "1");
  bad.error_class = static_cast<ErrorClass>(200);  // No such class.
  EXPECT_EQ(pg->AppendFetches(run, std::vector<FetchRecord>{bad}).code(),
            Status::Code::kInvalidArgument);
}

TEST_F(PgStorageTest, MigrateCopiesASqliteCrawlWithItsHistory) {
  {
    auto lite = Open(sqlite_);
    ASSERT_NE(lite, nullptr);
    WriteTwoRuns(lite.get());
  }
  CopySummary copied;
  std::vector<std::string> tables;
  const Status s =
      Into(CopyCrawlDatabase(sqlite_, uri_,
                             [&](std::string_view table, std::int64_t) {
                               tables.emplace_back(table);
                             }),
           &copied);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(copied.runs, 2);
  EXPECT_EQ(copied.fetches, 7);
  EXPECT_EQ(copied.domains, 5);
  EXPECT_EQ(copied.bodies, 2);
  EXPECT_EQ(copied.steps, 7);
  EXPECT_EQ(copied.history_files, 0);
  EXPECT_EQ(copied.signals, 0);
  EXPECT_EQ(tables.size(), 7u);
  EXPECT_EQ(ReadAll(uri_), ReadAll(sqlite_));
  LatestFetchQuery first_run;
  first_run.as_of_run = 1;
  EXPECT_EQ(ReadAll(uri_, first_run), ReadAll(sqlite_, first_run));
  EXPECT_EQ(SharedBodies(uri_), SharedBodies(sqlite_));
  // A second copy into the same database is refused, nothing changes.
  CopySummary again;
  const Status twice = Into(CopyCrawlDatabase(sqlite_, uri_, nullptr), &again);
  EXPECT_EQ(twice.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(Query("SELECT count(*) FROM \"fetch\""), "7");
  // The copy goes on as a crawl database: new ids follow the copied ones.
  auto pg = Open(uri_);
  ASSERT_NE(pg, nullptr);
  std::int64_t run = 0;
  ASSERT_OK(Into(pg->BeginRun(RunStartedAt("t3")), &run));
  EXPECT_EQ(run, 3);
  ASSERT_OK(pg->AppendFetches(
      run, std::vector<FetchRecord>{Fetch("a.test", 200, "new", "3")}));
  EXPECT_EQ(Query("SELECT body FROM latest_fetch WHERE domain = 'a.test'"),
            "\\x6e6577");
  // Not a crawl database, or not PostgreSQL: clear errors.
  const std::string junk = (dir_ / "junk.sqlite").string();
  { std::ofstream(junk) << "not sqlite"; }
  EXPECT_FALSE(Into(CopyCrawlDatabase(junk, uri_, nullptr), &again).ok());
  EXPECT_EQ(Into(CopyCrawlDatabase(sqlite_, sqlite_, nullptr), &again).code(),
            Status::Code::kInvalidArgument);
}

// A file of schema version 1 (made by that version's own SQL) has no
// provenance columns: its runs are copied with NULL there.
TEST_F(PgStorageTest, MigrateCopiesAVersionOneFile) {
  {
    std::ifstream in(fs::path(ROBOTSCAN_STORAGE_TEST_DATA) / "schema_history" /
                     "sqlite_v1.sql");
    std::stringstream v1;
    v1 << in.rdbuf();
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(sqlite_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, v1.str().c_str(), nullptr, nullptr, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO crawl_run(started_at, input) VALUES "
                           "('old', 'list.csv'); PRAGMA user_version=1",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  CopySummary copied;
  ASSERT_OK(Into(CopyCrawlDatabase(sqlite_, uri_, nullptr), &copied));
  EXPECT_EQ(copied.runs, 1);
  EXPECT_EQ(copied.fetches, 0);
  EXPECT_EQ(Query("SELECT started_at, input, host IS NULL, list_entries IS "
                  "NULL FROM crawl_run"),
            "old|list.csv|t|t");
}

TEST_F(PgStorageTest, OneLiveCrawlHoldSharedByWorkersOnly) {
  auto store = Open(uri_);
  ASSERT_NE(store, nullptr);
  CrawlHolder me{11, "host-a", "2026-01-01T00:00:00Z", 0};
  LockAttempt first;
  ASSERT_OK(Into(store->LockForCrawl(me), &first));
  ASSERT_NE(first.lock, nullptr);
  LockAttempt second;
  ASSERT_OK(Into(store->LockForCrawl({12, "host-b", "x", 0}), &second));
  EXPECT_EQ(second.lock, nullptr);
  ASSERT_TRUE(second.held_by.has_value());
  EXPECT_EQ(second.held_by->pid, 11);
  EXPECT_EQ(second.held_by->host, "host-a");
  ASSERT_OK(first.lock->SetRunId(7));
  auto frontier = SharedFrontier::Open(uri_, {});
  ASSERT_TRUE(frontier.ok()) << frontier.status().message();
  LockAttempt worker;
  ASSERT_OK(Into(frontier.value()->LockForWorker({13, "w", "x", 0}), &worker));
  EXPECT_EQ(worker.lock, nullptr);
  ASSERT_TRUE(worker.held_by.has_value());
  EXPECT_EQ(worker.held_by->run_id, 7);
  first.lock.reset();
  LockAttempt w1, w2;
  ASSERT_OK(Into(frontier.value()->LockForWorker({14, "w", "x", 0}), &w1));
  ASSERT_OK(Into(frontier.value()->LockForWorker({15, "w", "x", 0}), &w2));
  EXPECT_NE(w1.lock, nullptr);
  EXPECT_NE(w2.lock, nullptr);
  LockAttempt refused;
  ASSERT_OK(Into(store->LockForCrawl(me), &refused));
  EXPECT_EQ(refused.lock, nullptr);
  ASSERT_TRUE(refused.held_by.has_value());
  EXPECT_EQ(refused.held_by->pid, 14);
}

TEST_F(PgStorageTest, AKilledHoldersLockIsTakenOverAndReportedStale) {
  ASSERT_NE(Open(uri_), nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto store = CrawlStore::Open(uri_, {});
    LockAttempt hold;
    if (!store.ok() ||
        !Into(store.value()->LockForCrawl({4242, "dead", "t", 0}), &hold)
             .ok() ||
        hold.lock == nullptr) {
      ::_exit(1);
    }
    // Dies holding it: no destructor runs, the server sees the socket close.
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto store = Open(uri_);
  ASSERT_NE(store, nullptr);
  LockAttempt attempt;
  // The server notices the closed session at once; allow it a moment.
  for (int i = 0; i < 50 && attempt.lock == nullptr; ++i) {
    ASSERT_OK(Into(store->LockForCrawl({1, "me", "t", 0}), &attempt));
    if (attempt.lock == nullptr) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  ASSERT_NE(attempt.lock, nullptr);
  ASSERT_TRUE(attempt.stale.has_value());
  EXPECT_EQ(attempt.stale->pid, 4242);
}

// The frontier, step by step, with two workers of one crawl.
class PgFrontierTest : public PgStorageTest {
 protected:
  void SetUp() override {
    PgStorageTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    a_ = OpenFrontier();
    b_ = OpenFrontier();
    ASSERT_NE(a_, nullptr);
    ASSERT_NE(b_, nullptr);
  }

  std::unique_ptr<SharedFrontier> OpenFrontier() {
    auto f = SharedFrontier::Open(uri_, {});
    EXPECT_TRUE(f.ok()) << f.status().message();
    return f.ok() ? std::move(f.value()) : nullptr;
  }

  // Enqueues d0.test .. d{n-1}.test (and a duplicate of d0).
  std::int64_t Enqueue(int n, CrawlSettings settings) {
    std::vector<FrontierEntry> entries;
    for (int i = 0; i < n; ++i) {
      entries.push_back({"d" + std::to_string(i) + ".test", i + 1});
    }
    entries.push_back({"d0.test", n + 1});
    std::size_t next = 0;
    EnqueueSummary summary;
    RunInfo info = RunStartedAt("2026-03-01T00:00:00.000Z");
    info.list.source = "file";
    info.list.entries = n + 1;
    struct Entries final : FrontierInput {
      std::vector<FrontierEntry>* entries;
      std::size_t* next;
      bool Next(FrontierEntry* e) override {
        if (*next >= entries->size()) return false;
        *e = (*entries)[(*next)++];
        return true;
      }
      std::string error() const override { return ""; }
      std::int64_t malformed_lines() const override { return 2; }
    } input;
    input.entries = &entries;
    input.next = &next;
    const Status s = Into(a_->Enqueue(info, settings, &input), &summary);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(summary.entries, n);
    EXPECT_EQ(summary.duplicates, 1);
    return summary.run_id;
  }

  std::int64_t Register(SharedFrontier* f, std::int64_t run, int pid) {
    std::int64_t id = 0;
    WorkerInfo info{"host", pid, "2026-03-01T00:00:00.000Z", "{}"};
    EXPECT_TRUE(Into(f->RegisterWorker(run, info), &id).ok());
    return id;
  }

  Status Commit(SharedFrontier* f, std::int64_t run, std::int64_t worker,
                const std::vector<LeasedDomain>& leased,
                CommitOutcome* outcome) {
    std::vector<FetchRecord> records;
    std::vector<LeaseTag> tags;
    for (const LeasedDomain& d : leased) {
      records.push_back(Fetch(d.entry.domain, 200, "User-agent: *\n", "t"));
      records.back().rank = d.entry.rank;
      tags.push_back(d.lease);
    }
    return Into(f->CommitFetches(run, worker, records, tags, {}, {}), outcome);
  }

  std::unique_ptr<SharedFrontier> a_, b_;
};

TEST_F(PgFrontierTest, ClaimsAreDisjointAndCommitsFinishTheCrawl) {
  CrawlSettings settings;
  settings.batch_size = 3;
  const std::int64_t run = Enqueue(8, settings);
  CrawlToJoin crawl;
  ASSERT_OK(Into(b_->FindCrawl(0), &crawl));
  EXPECT_EQ(crawl.run_id, run);
  EXPECT_EQ(crawl.settings.batch_size, 3);
  const std::int64_t wa = Register(a_.get(), run, 1);
  const std::int64_t wb = Register(b_.get(), run, 2);
  ClaimResult ca, cb;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, crawl.settings), &ca));
  ASSERT_OK(Into(b_->ClaimBatch(run, wb, crawl.settings), &cb));
  ASSERT_EQ(ca.domains.size(), 3u);
  ASSERT_EQ(cb.domains.size(), 3u);
  // List order, and no domain in both.
  EXPECT_EQ(ca.domains[0].entry.domain, "d0.test");
  std::set<std::string> seen;
  for (const auto* c : {&ca, &cb}) {
    for (const LeasedDomain& d : c->domains) {
      EXPECT_TRUE(seen.insert(d.entry.domain).second) << d.entry.domain;
      EXPECT_FALSE(d.taken_over);
    }
  }
  CommitOutcome outcome;
  ASSERT_OK(Commit(a_.get(), run, wa, ca.domains, &outcome));
  EXPECT_EQ(outcome.accepted, 3);
  EXPECT_EQ(outcome.rejected, 0);
  EXPECT_FALSE(outcome.crawl_finished);
  // A domain found present is done without a record.
  ClaimResult rest;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, crawl.settings), &rest));
  ASSERT_EQ(rest.domains.size(), 2u);
  std::vector<std::string> present = {rest.domains[1].entry.domain};
  std::vector<LeaseTag> present_tags = {rest.domains[1].lease};
  std::vector<FetchRecord> records = {
      Fetch(rest.domains[0].entry.domain, 404, "", "t")};
  std::vector<LeaseTag> tags = {rest.domains[0].lease};
  ASSERT_OK(
      Into(a_->CommitFetches(run, wa, records, tags, present, present_tags),
           &outcome));
  EXPECT_EQ(outcome.accepted, 1);
  EXPECT_FALSE(outcome.crawl_finished);  // b's batch is still open.
  ClaimResult none;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, crawl.settings), &none));
  EXPECT_TRUE(none.domains.empty());
  EXPECT_TRUE(none.others_hold_leases);
  EXPECT_GT(none.soonest_expiry.count(), 0);
  ASSERT_OK(Commit(b_.get(), run, wb, cb.domains, &outcome));
  EXPECT_TRUE(outcome.crawl_finished);
  ASSERT_OK(Into(b_->ClaimBatch(run, wb, crawl.settings), &none));
  EXPECT_TRUE(none.domains.empty());
  EXPECT_FALSE(none.others_hold_leases);
  FrontierStatus status;
  ASSERT_OK(Into(a_->ReadStatus(0), &status));
  EXPECT_EQ(status.run.status, "finished");
  EXPECT_EQ(status.total, 8);
  EXPECT_EQ(status.done, 7);
  EXPECT_EQ(status.present, 1);
  EXPECT_EQ(status.pending + status.leased, 0);
  EXPECT_EQ(status.duplicates, 1);
  EXPECT_EQ(status.malformed_lines, 2);
  ASSERT_EQ(status.workers.size(), 2u);
  EXPECT_EQ(status.workers[0].fetched, 4);
  EXPECT_EQ(status.workers[1].fetched, 3);
  EXPECT_EQ(Query("SELECT count(*), count(DISTINCT domain_id) FROM \"fetch\" "
                  "WHERE run_id = " +
                  std::to_string(run)),
            "7|7");
}

TEST_F(PgFrontierTest, AnExpiredLeaseIsTakenOverAndTheLateCommitRefused) {
  CrawlSettings settings;
  settings.batch_size = 2;
  settings.lease = std::chrono::milliseconds(300);
  const std::int64_t run = Enqueue(2, settings);
  const std::int64_t wa = Register(a_.get(), run, 1);
  const std::int64_t wb = Register(b_.get(), run, 2);
  ClaimResult ca;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, settings), &ca));
  ASSERT_EQ(ca.domains.size(), 2u);
  // Heartbeats keep it: b finds nothing while a renews.
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    std::int64_t renewed = 0;
    ASSERT_OK(Into(a_->Heartbeat(wa, settings.lease, 1.5, 2), &renewed));
    EXPECT_EQ(renewed, 1);
    ClaimResult cb;
    ASSERT_OK(Into(b_->ClaimBatch(run, wb, settings), &cb));
    EXPECT_TRUE(cb.domains.empty());
    EXPECT_TRUE(cb.others_hold_leases);
  }
  // a stops renewing (a dead or stalled worker); b takes the batch over.
  std::this_thread::sleep_for(std::chrono::milliseconds(450));
  ClaimResult cb;
  ASSERT_OK(Into(b_->ClaimBatch(run, wb, settings), &cb));
  ASSERT_EQ(cb.domains.size(), 2u);
  EXPECT_TRUE(cb.domains[0].taken_over);
  EXPECT_EQ(cb.domains[0].lease.batch_id, ca.domains[0].lease.batch_id);
  EXPECT_EQ(cb.domains[0].lease.generation, ca.domains[0].lease.generation + 1);
  // a's heartbeat no longer renews what it lost.
  std::int64_t renewed = -1;
  ASSERT_OK(Into(a_->Heartbeat(wa, settings.lease, 0, 0), &renewed));
  EXPECT_EQ(renewed, 0);
  CommitOutcome late;
  ASSERT_OK(Commit(a_.get(), run, wa, ca.domains, &late));
  EXPECT_EQ(late.accepted, 0);
  EXPECT_EQ(late.rejected, 2);
  EXPECT_EQ(late.rejected_domains.size(), 2u);
  CommitOutcome won;
  ASSERT_OK(Commit(b_.get(), run, wb, cb.domains, &won));
  EXPECT_EQ(won.accepted, 2);
  EXPECT_TRUE(won.crawl_finished);
  FrontierStatus status;
  ASSERT_OK(Into(b_->ReadStatus(run), &status));
  EXPECT_EQ(status.taken_over_domains, 2);
  EXPECT_EQ(status.taken_over_leases, 2);
  EXPECT_EQ(status.rejected_records, 2);
  EXPECT_EQ(Query("SELECT count(*) FROM \"fetch\""), "2");
}

TEST_F(PgFrontierTest, AnExpiredButUntakenLeaseStillCommits) {
  CrawlSettings settings;
  settings.batch_size = 5;
  settings.lease = std::chrono::milliseconds(100);
  const std::int64_t run = Enqueue(3, settings);
  const std::int64_t wa = Register(a_.get(), run, 1);
  ClaimResult ca;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, settings), &ca));
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  CommitOutcome outcome;
  ASSERT_OK(Commit(a_.get(), run, wa, ca.domains, &outcome));
  EXPECT_EQ(outcome.accepted, 3);
  EXPECT_TRUE(outcome.crawl_finished);
}

TEST_F(PgFrontierTest, UnstartedDomainsGoBackToTheFrontier) {
  CrawlSettings settings;
  settings.batch_size = 4;
  const std::int64_t run = Enqueue(4, settings);
  const std::int64_t wa = Register(a_.get(), run, 1);
  const std::int64_t wb = Register(b_.get(), run, 2);
  ClaimResult ca;
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, settings), &ca));
  ASSERT_EQ(ca.domains.size(), 4u);
  const std::vector<std::string> unstarted = {ca.domains[2].entry.domain,
                                              ca.domains[3].entry.domain};
  ASSERT_OK(a_->ReleaseUnstarted(run, wa, unstarted));
  ClaimResult cb;
  ASSERT_OK(Into(b_->ClaimBatch(run, wb, settings), &cb));
  ASSERT_EQ(cb.domains.size(), 2u);
  EXPECT_EQ(cb.domains[0].entry.domain, unstarted[0]);
  EXPECT_FALSE(cb.domains[0].taken_over);
}

// Claims go on from where the worker's previous one ended; domains given
// back behind that point are still claimed, once nothing is left ahead.
TEST_F(PgFrontierTest, DomainsGivenBackBehindAClaimAreClaimedLater) {
  CrawlSettings settings;
  settings.batch_size = 2;
  const std::int64_t run = Enqueue(6, settings);
  const std::int64_t wa = Register(a_.get(), run, 1);
  const std::int64_t wb = Register(b_.get(), run, 2);
  ClaimResult cb, ca;
  ASSERT_OK(Into(b_->ClaimBatch(run, wb, settings), &cb));  // Positions 1, 2.
  ASSERT_OK(Into(a_->ClaimBatch(run, wa, settings), &ca));  // 3, 4.
  ASSERT_EQ(ca.domains.size(), 2u);
  EXPECT_EQ(ca.domains[0].position, 3);
  const std::vector<std::string> given_back = {cb.domains[1].entry.domain};
  ASSERT_OK(b_->ReleaseUnstarted(run, wb, given_back));
  CommitOutcome outcome;
  ASSERT_OK(Commit(b_.get(), run, wb, {cb.domains[0]}, &outcome));
  ASSERT_OK(Commit(a_.get(), run, wa, ca.domains, &outcome));
  std::vector<std::int64_t> positions;
  for (int i = 0; i < 4; ++i) {
    ClaimResult next;
    ASSERT_OK(Into(a_->ClaimBatch(run, wa, settings), &next));
    if (next.domains.empty()) {
      EXPECT_FALSE(next.others_hold_leases);
      break;
    }
    for (const LeasedDomain& d : next.domains) positions.push_back(d.position);
    ASSERT_OK(Commit(a_.get(), run, wa, next.domains, &outcome));
  }
  // Ahead first (5, 6), then the one given back (2); then nothing is left.
  EXPECT_EQ(positions, (std::vector<std::int64_t>{5, 6, 2}));
  EXPECT_TRUE(outcome.crawl_finished);
}

TEST_F(PgFrontierTest, IpSlotsOfAllWorkersNeverExceedTheCap) {
  CrawlSettings settings;
  settings.per_ip_limit = 5;
  const std::int64_t run = Enqueue(1, settings);
  const std::int64_t wa = Register(a_.get(), run, 1);
  const std::int64_t wb = Register(b_.get(), run, 2);
  std::vector<IpSlotGrant> ga, gb;
  ASSERT_OK(Into(a_->TakeIpSlots(run, wa, settings,
                                 std::vector<IpSlotRequest>{
                                     {"10.0.0.1", 0, 4}, {"10.0.0.2", 0, 1}}),
                 &ga));
  ASSERT_OK(
      Into(b_->TakeIpSlots(run, wb, settings,
                           std::vector<IpSlotRequest>{{"10.0.0.1", 0, 4}}),
           &gb));
  ASSERT_EQ(ga.size(), 2u);
  ASSERT_EQ(gb.size(), 1u);
  EXPECT_EQ(ga[0].ip, "10.0.0.1");
  EXPECT_EQ(ga[0].slots, 4);
  EXPECT_EQ(gb[0].slots, 1);  // 5 - 4.
  // a learns that b waits; it gives back what it does not use.
  ASSERT_OK(
      Into(a_->TakeIpSlots(run, wa, settings,
                           std::vector<IpSlotRequest>{{"10.0.0.1", 2, 2}}),
           &ga));
  EXPECT_EQ(ga[0].slots, 2);
  EXPECT_EQ(ga[0].others_wanting, 1);
  ASSERT_OK(
      Into(b_->TakeIpSlots(run, wb, settings,
                           std::vector<IpSlotRequest>{{"10.0.0.1", 1, 4}}),
           &gb));
  EXPECT_EQ(gb[0].slots, 3);
  EXPECT_EQ(Query("SELECT sum(slots) FROM ip_quota WHERE ip = '10.0.0.1'"),
            "5");
  // Giving all back removes the row.
  ASSERT_OK(
      Into(b_->TakeIpSlots(run, wb, settings,
                           std::vector<IpSlotRequest>{{"10.0.0.1", 0, 0}}),
           &gb));
  EXPECT_EQ(gb[0].slots, 0);
  EXPECT_EQ(Query("SELECT count(*) FROM ip_quota WHERE worker_id = " +
                  std::to_string(wb)),
            "0");
}

TEST_F(PgFrontierTest, StartTokensFollowTheCrawlWideRate) {
  CrawlSettings settings;
  settings.rate_limit = 20;  // Burst max(1, 20/10) = 2.
  const std::int64_t run = Enqueue(1, settings);
  double granted_a = 0, granted_b = 0;
  ASSERT_OK(Into(a_->TakeStartTokens(run, 10), &granted_a));
  ASSERT_OK(Into(b_->TakeStartTokens(run, 10), &granted_b));
  EXPECT_LE(granted_a + granted_b, 2);
  // Over 0.5 s about 10 more, shared by both, never much more.
  double total = 0;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start <
         std::chrono::milliseconds(500)) {
    double g = 0;
    ASSERT_OK(Into(a_->TakeStartTokens(run, 1), &g));
    total += g;
    ASSERT_OK(Into(b_->TakeStartTokens(run, 1), &g));
    total += g;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LE(total, 20 * seconds + 2 + 1e-9);
  EXPECT_GE(total, 5);
  // Without a rate, everything asked for is granted.
  CrawlSettings unlimited;
  const std::int64_t free_run = Enqueue(1, unlimited);
  ASSERT_OK(Into(a_->TakeStartTokens(free_run, 1000), &granted_a));
  EXPECT_EQ(granted_a, 1000);
}

TEST_F(PgFrontierTest, FilesAreNotSharedFrontiers) {
  auto f = SharedFrontier::Open(sqlite_, {});
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), Status::Code::kInvalidArgument);
}

TEST(DatabaseLocation, PostgresUrisAreRecognisedAndPasswordsRedacted) {
  EXPECT_TRUE(IsPostgresUri("postgresql://h/db"));
  EXPECT_TRUE(IsPostgresUri("POSTGRES://h/db"));
  EXPECT_FALSE(IsPostgresUri("crawl.sqlite"));
  EXPECT_FALSE(IsPostgresUri("/tmp/postgresql://x"));
  EXPECT_EQ(RedactDatabaseUri("crawl.sqlite"), "crawl.sqlite");
  EXPECT_EQ(RedactDatabaseUri("postgresql://u:s3cret@h:5432/db"),
            "postgresql://u:***@h:5432/db");
  EXPECT_EQ(RedactDatabaseUri("postgresql://u@h/db?password=s3cret&x=1"),
            "postgresql://u@h/db?password=***&x=1");
  EXPECT_EQ(RedactDatabaseUri("postgresql://h/db"), "postgresql://h/db");
  EXPECT_EQ(RedactDatabaseUri("postgresql://u:p@ss@h/db"),
            "postgresql://u:***@h/db");
}

}  // namespace
}  // namespace robotscan::storage
