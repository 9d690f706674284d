#include "robotscan/storage/crawl_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "result_into.h"
#include "sqlite/sqlite_schema.h"

namespace robotscan::storage {
namespace {

namespace fs = std::filesystem;

RunInfo RunStartedAt(std::string started_at, std::string tool_version = "",
                     std::string input = "", std::string options_json = "") {
  RunInfo info;
  info.started_at = std::move(started_at);
  info.tool_version = std::move(tool_version);
  info.input = std::move(input);
  info.options_json = std::move(options_json);
  return info;
}

class CrawlStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("storage_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "crawl.sqlite").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::unique_ptr<CrawlStore> OpenStore(StoreOptions options = {}) {
    auto store = CrawlStore::Open(path_, options);
    EXPECT_TRUE(store.ok()) << store.status().message();
    return store.ok() ? std::move(store.value()) : nullptr;
  }

  // A store with a run begun in it (test run "t"); null, with the test
  // failed, if either step fails.
  std::unique_ptr<CrawlStore> OpenStoreWithRun(std::int64_t* run,
                                               StoreOptions options = {}) {
    auto store = OpenStore(options);
    if (store == nullptr) return nullptr;
    const Status begun = Into(store->BeginRun(RunStartedAt("t")), run);
    EXPECT_TRUE(begun.ok()) << begun.message();
    return begun.ok() ? std::move(store) : nullptr;
  }

  // Runs a query with plain sqlite3 (as a researcher would) and returns
  // rows as '|'-joined strings.
  std::vector<std::string> Query(const std::string& sql) {
    sqlite3* db = nullptr;
    EXPECT_EQ(
        sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
        SQLITE_OK);
    std::vector<std::string> rows;
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db);
    while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
      std::string row;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        if (i > 0) row += '|';
        const auto* text = sqlite3_column_text(stmt, i);
        row += text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
      }
      rows.push_back(row);
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return rows;
  }

  static FetchRecord Success(std::string domain, std::string body) {
    FetchRecord r;
    r.domain = std::move(domain);
    r.rank = 1;
    r.url = "https://" + r.domain + "/robots.txt";
    r.final_url = r.url;
    r.strategy = "https,http";
    r.http_status = 200;
    r.access = robots::AccessClass::kSuccess;
    r.body = std::move(body);
    r.content_type = "text/plain";
    r.etag = "\"abc\"";
    r.ip = "192.0.2.1";
    r.total_ms = 12.5;
    r.fetched_at = "2026-01-01T00:00:00.000Z";
    r.steps.push_back({r.url, 200, "", ErrorClass::kNone, "", r.ip, 12.5});
    return r;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(CrawlStoreTest, CreatesVersionedSchemaInWalMode) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Query("PRAGMA user_version"),
            std::vector<std::string>{std::to_string(kSchemaVersion)});
  EXPECT_EQ(Query("PRAGMA journal_mode"), std::vector<std::string>{"wal"});
}

// Version 2 adds who ran a crawl and which list it read; ReadRuns returns
// them (the report prints the list's provenance).
TEST_F(CrawlStoreTest, RunProvenanceIsStoredAndReadBack) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  RunInfo info = RunStartedAt("2026-12-02T00:00:00.000Z", "0.9", "top.csv");
  info.host = "crawler1";
  info.pid = 4321;
  info.list.source = "tranco";
  info.list.list_id = "X5Y7N";
  info.list.date = "2026-12-01";
  info.list.url = "http://127.0.0.1:1/top-1m.csv.zip";
  info.list.sha256 = std::string(64, 'a');
  info.list.entries = 1000;
  std::int64_t run = 0;
  ASSERT_TRUE(Into(store->BeginRun(info), &run).ok());
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t2")), &run).ok());
  std::vector<RunRecord> runs;
  ASSERT_TRUE(Into(store->ReadRuns(), &runs).ok());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].host, "crawler1");
  EXPECT_EQ(runs[0].pid, 4321);
  EXPECT_EQ(runs[0].list.source, "tranco");
  EXPECT_EQ(runs[0].list.list_id, "X5Y7N");
  EXPECT_EQ(runs[0].list.date, "2026-12-01");
  EXPECT_EQ(runs[0].list.url, "http://127.0.0.1:1/top-1m.csv.zip");
  EXPECT_EQ(runs[0].list.sha256, std::string(64, 'a'));
  EXPECT_EQ(runs[0].list.entries, 1000);
  EXPECT_EQ(runs[0].status, "running");
  EXPECT_EQ(runs[1].list.source, "") << "NULL reads as empty";
  EXPECT_EQ(Query("SELECT list_source IS NULL, list_id IS NULL FROM crawl_run "
                  "WHERE id = 2"),
            std::vector<std::string>{"1|1"});
}

// A file written by schema version 1 is migrated forward on open, its rows
// kept; a read-only reader of a version-1 file still reads its runs.
TEST_F(CrawlStoreTest, VersionOneFileIsMigratedToTwo) {
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, SqliteMigrations()[0].c_str(), nullptr, nullptr,
                           nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                           "INSERT INTO crawl_run(started_at, input) VALUES "
                           "('old', 'list.csv'); PRAGMA user_version=1",
                           nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
  }
  {
    StoreOptions read_only;
    read_only.read_only = true;
    auto reader = CrawlStore::Open(path_, read_only);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    std::vector<RunRecord> runs;
    ASSERT_TRUE(Into(reader.value()->ReadRuns(), &runs).ok());
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0].input, "list.csv");
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Query("PRAGMA user_version"),
            std::vector<std::string>{std::to_string(kSchemaVersion)});
  EXPECT_EQ(Query("SELECT started_at, input, list_source IS NULL FROM "
                  "crawl_run"),
            std::vector<std::string>{"old|list.csv|1"});
}

// Version 3 (history sources): a version-2 file's runs and fetches read as
// robotscan's own crawl after the migration, and a new crawl's fetch is
// source 'crawl' with no archive provenance.
TEST_F(CrawlStoreTest, VersionTwoFileIsMigratedToTheCurrentVersionAsACrawl) {
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    for (int step = 0; step < 2; ++step) {
      ASSERT_EQ(sqlite3_exec(db, SqliteMigrations()[step].c_str(), nullptr,
                             nullptr, nullptr),
                SQLITE_OK);
    }
    ASSERT_EQ(
        sqlite3_exec(db,
                     "INSERT INTO crawl_run(started_at, input) VALUES "
                     "('old', 'list.csv'); INSERT INTO domain(name) VALUES "
                     "('a.example'); INSERT INTO fetch(run_id, domain_id, "
                     "url, access, fetched_at) VALUES (1, 1, "
                     "'https://a.example/robots.txt', 'success', 'then'); "
                     "PRAGMA user_version=2",
                     nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Query("PRAGMA user_version"),
            std::vector<std::string>{std::to_string(kSchemaVersion)});
  EXPECT_EQ(Query("SELECT count(*) FROM signal_fetch"),
            std::vector<std::string>{"0"});
  EXPECT_EQ(Query("SELECT source, source_crawl IS NULL FROM crawl_run"),
            std::vector<std::string>{"crawl|1"});
  std::int64_t run = 0;
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t2")), &run).ok());
  const FetchRecord record = Success("b.example", "User-agent: *\n");
  ASSERT_TRUE(store->AppendFetches(run, {&record, 1}).ok());
  EXPECT_EQ(Query("SELECT source, source_file IS NULL, source_offset IS NULL, "
                  "source_timestamp IS NULL FROM fetch ORDER BY id"),
            (std::vector<std::string>{"crawl|1|1|1", "crawl|1|1|1"}));
  std::vector<RunRecord> runs;
  ASSERT_TRUE(Into(store->ReadRuns(), &runs).ok());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].source, FetchSource::kCrawl);
  EXPECT_EQ(runs[1].source, FetchSource::kCrawl);
  EXPECT_EQ(Query("SELECT count(*) FROM history_file"),
            std::vector<std::string>{"0"});
}

// An imported capture keeps its provenance, and a run says which crawl ID
// it imported.
TEST_F(CrawlStoreTest, ImportedCaptureKeepsItsProvenance) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  RunInfo info = RunStartedAt("t", "0.9", "");
  info.source = FetchSource::kCommonCrawl;
  info.source_crawl = "CC-MAIN-2024-10";
  std::int64_t run = 0;
  ASSERT_TRUE(Into(store->BeginRun(info), &run).ok());
  FetchRecord record = Success("c.example", "User-agent: *\n");
  record.source = FetchSource::kCommonCrawl;
  record.source_file = "x.warc.gz";
  record.source_offset = 0;
  record.source_timestamp = "2024-02-20T12:00:00Z";
  ASSERT_TRUE(store->AppendFetches(run, {&record, 1}).ok());
  EXPECT_EQ(
      Query("SELECT source, source_file, source_offset, "
            "source_timestamp FROM fetch"),
      std::vector<std::string>{"commoncrawl|x.warc.gz|0|2024-02-20T12:00:00Z"});
  std::vector<RunRecord> runs;
  ASSERT_TRUE(Into(store->ReadRuns(), &runs).ok());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].source, FetchSource::kCommonCrawl);
  EXPECT_EQ(runs[0].source_crawl, "CC-MAIN-2024-10");
}

TEST_F(CrawlStoreTest, LatestFetchViewHasTheDocumentedColumns) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  const std::vector<std::string> contract = {
      "domain", "rank",      "url",   "final_url", "http_status", "access",
      "error",  "redirects", "bytes", "truncated", "body",        "fetched_at"};
  const auto columns =
      Query("SELECT name FROM pragma_table_info('latest_fetch')");
  for (const std::string& name : contract) {
    EXPECT_NE(std::find(columns.begin(), columns.end(), name), columns.end())
        << name;
  }
  // The contract columns come first, in this order.
  ASSERT_GE(columns.size(), contract.size());
  for (std::size_t i = 0; i < contract.size(); ++i) {
    EXPECT_EQ(columns[i], contract[i]) << i;
  }
}

TEST_F(CrawlStoreTest, AppendsAndReadsBackThroughTheView) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  std::int64_t run = 0;
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("2026-01-01T00:00:00Z", "0.1",
                                                "list", "{}")),
                   &run)
                  .ok());
  FetchRecord ok = Success("example.com", "User-agent: *\nDisallow: /x\n");
  FetchRecord gone;
  gone.domain = "gone.example";
  gone.rank = 2;
  gone.url = "https://gone.example/robots.txt";
  gone.access = robots::AccessClass::kUnreachable;
  gone.error_class = ErrorClass::kDnsNxdomain;
  gone.error_message = "Domain name not found";
  gone.fetched_at = "2026-01-01T00:00:01.000Z";
  const std::vector<FetchRecord> batch = {ok, gone};
  const Status s = store->AppendFetches(run, batch);
  ASSERT_TRUE(s.ok()) << s.message();

  EXPECT_EQ(
      Query("SELECT domain, rank, url, final_url, http_status, access, "
            "error, redirects, bytes, truncated, body, fetched_at "
            "FROM latest_fetch ORDER BY rank"),
      (std::vector<std::string>{
          "example.com|1|https://example.com/robots.txt|https://"
          "example.com/robots.txt|200|success|NULL|0|27|0|User-agent: "
          "*\nDisallow: /x\n|2026-01-01T00:00:00.000Z",
          "gone.example|2|https://gone.example/robots.txt|NULL|NULL|"
          "unreachable|dns_nxdomain|0|0|0|NULL|2026-01-01T00:00:01.000Z"}));
  EXPECT_EQ(Query("SELECT content_type, etag, ip, total_ms FROM latest_fetch "
                  "WHERE domain = 'example.com'"),
            std::vector<std::string>{"text/plain|\"abc\"|192.0.2.1|12.5"});
  EXPECT_EQ(Query("SELECT seq, url, http_status FROM fetch_step"),
            std::vector<std::string>{"0|https://example.com/robots.txt|200"});
}

TEST_F(CrawlStoreTest, RecrawlKeepsHistoryAndViewShowsNewest) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  std::int64_t run1 = 0, run2 = 0;
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t1")), &run1).ok());
  ASSERT_TRUE(
      store->AppendFetches(run1, std::vector{Success("a.test", "old")}).ok());
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t2")), &run2).ok());
  FetchRecord newer = Success("a.test", "new");
  newer.fetched_at = "2026-01-02T00:00:00.000Z";
  ASSERT_TRUE(store->AppendFetches(run2, std::vector{newer}).ok());

  EXPECT_EQ(Query("SELECT count(*) FROM fetch"), std::vector<std::string>{"2"});
  EXPECT_EQ(Query("SELECT body, run_id FROM latest_fetch"),
            std::vector<std::string>{"new|" + std::to_string(run2)});
  std::optional<PreviousFetch> previous;
  ASSERT_TRUE(Into(store->FindLatestFetch("a.test"), &previous).ok());
  ASSERT_TRUE(previous.has_value());
  EXPECT_EQ(previous->fetched_at, "2026-01-02T00:00:00.000Z");
  EXPECT_EQ(previous->etag, "\"abc\"");
  EXPECT_TRUE(previous->has_body);
  ASSERT_TRUE(Into(store->FindLatestFetch("unknown.test"), &previous).ok());
  EXPECT_FALSE(previous.has_value());
}

TEST_F(CrawlStoreTest, IdenticalBodiesAreStoredOnce) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  const std::vector<FetchRecord> batch = {Success("a.test", "same"),
                                          Success("b.test", "same"),
                                          Success("c.test", "other")};
  ASSERT_TRUE(store->AppendFetches(run, batch).ok());
  std::int64_t fetches = 0, bodies = 0;
  ASSERT_TRUE(Into(store->CountRows(), &fetches, &bodies).ok());
  EXPECT_EQ(fetches, 3);
  EXPECT_EQ(bodies, 2);
  EXPECT_EQ(Query("SELECT count(DISTINCT body_sha256) FROM latest_fetch"),
            std::vector<std::string>{"2"});
}

TEST_F(CrawlStoreTest, BodySeenInAnEarlierBatchIsReusedCorrectly) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  // More distinct bodies than the store remembers, then each again: ids
  // come from memory for some and from the body table for the others.
  std::vector<FetchRecord> first, second;
  for (int i = 0; i < 5000; ++i) {
    first.push_back(Success("a" + std::to_string(i) + ".test",
                            "body " + std::to_string(i)));
    second.push_back(Success("b" + std::to_string(i) + ".test",
                             "body " + std::to_string(i)));
  }
  ASSERT_TRUE(store->AppendFetches(run, first).ok());
  ASSERT_TRUE(store->AppendFetches(run, second).ok());
  std::int64_t fetches = 0, bodies = 0;
  ASSERT_TRUE(Into(store->CountRows(), &fetches, &bodies).ok());
  EXPECT_EQ(fetches, 10000);
  EXPECT_EQ(bodies, 5000);
  // Every fetch points at its own body text ("aN.test" and "bN.test" at
  // "body N"), whichever way its id was found.
  EXPECT_EQ(Query("SELECT count(*) FROM latest_fetch WHERE CAST(body AS TEXT) "
                  "= 'body ' || substr(domain, 2, length(domain) - 6)"),
            std::vector<std::string>{"10000"});
}

TEST_F(CrawlStoreTest, RolledBackBatchLeavesNoBodyBehindForTheNext) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  FetchRecord invalid = Success("b.test", "x");
  invalid.access = static_cast<robots::AccessClass>(3);  // No such class.
  // The batch inserts the body "fresh", then fails and is rolled back.
  ASSERT_FALSE(
      store
          ->AppendFetches(run, std::vector{Success("a.test", "fresh"), invalid})
          .ok());
  // The same body in the next batch must be inserted again, not refer to
  // the rolled-back row.
  const Status s =
      store->AppendFetches(run, std::vector{Success("c.test", "fresh")});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(Query("SELECT domain, body FROM latest_fetch"),
            std::vector<std::string>{"c.test|fresh"});
  EXPECT_EQ(Query("PRAGMA foreign_key_check"), std::vector<std::string>{});
}

TEST_F(CrawlStoreTest, HasFetchesTurnsTrueWithTheFirstCommittedBatch) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  bool any = true;
  ASSERT_TRUE(Into(store->HasFetches(), &any).ok());
  EXPECT_FALSE(any);
  std::int64_t run = 0;
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t")), &run).ok());
  ASSERT_TRUE(Into(store->HasFetches(), &any).ok());
  EXPECT_FALSE(any) << "a run without fetches is still an empty crawl";
  ASSERT_TRUE(
      store->AppendFetches(run, std::vector{Success("a.test", "x")}).ok());
  ASSERT_TRUE(Into(store->HasFetches(), &any).ok());
  EXPECT_TRUE(any);
}

TEST_F(CrawlStoreTest, ErrorPageBodiesAreNotKept) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  FetchRecord missing = Success("a.test", "<html>not found</html>");
  missing.http_status = 404;
  missing.access = robots::AccessClass::kUnavailable;
  ASSERT_TRUE(store->AppendFetches(run, std::vector{missing}).ok());
  EXPECT_EQ(Query("SELECT http_status, access, body IS NULL FROM latest_fetch"),
            std::vector<std::string>{"404|unavailable|1"});
}

TEST_F(CrawlStoreTest, CompressedBodiesRoundTrip) {
  StoreOptions options;
  options.compress_bodies = true;
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run, options);
  ASSERT_NE(store, nullptr);
  const std::string body(100000, 'a');
  ASSERT_TRUE(
      store->AppendFetches(run, std::vector{Success("z.test", body)}).ok());
  EXPECT_EQ(Query("SELECT body IS NULL, body_compression, bytes, "
                  "length(b.data) < 1000 FROM latest_fetch "
                  "JOIN body b ON lower(hex(b.sha256)) = body_sha256"),
            std::vector<std::string>{"1|zstd|100000|1"});
  const auto id = Query("SELECT fetch_id FROM latest_fetch");
  ASSERT_EQ(id.size(), 1u);
  std::string read;
  ASSERT_TRUE(Into(store->ReadBody(std::stoll(id[0])), &read).ok());
  EXPECT_EQ(read, body);
}

TEST_F(CrawlStoreTest, NotModifiedReusesThePreviousBody) {
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  std::int64_t run1 = 0, run2 = 0;
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t1")), &run1).ok());
  ASSERT_TRUE(
      store->AppendFetches(run1, std::vector{Success("a.test", "rules")}).ok());
  std::optional<PreviousFetch> previous;
  ASSERT_TRUE(Into(store->FindLatestFetch("a.test"), &previous).ok());
  ASSERT_TRUE(previous.has_value());
  ASSERT_TRUE(Into(store->BeginRun(RunStartedAt("t2")), &run2).ok());
  FetchRecord r = Success("a.test", "");
  r.http_status = 304;
  r.not_modified = true;
  r.body_from_fetch_id = previous->fetch_id;
  ASSERT_TRUE(store->AppendFetches(run2, std::vector{r}).ok());
  EXPECT_EQ(Query("SELECT http_status, not_modified, body FROM latest_fetch"),
            std::vector<std::string>{"304|1|rules"});
}

TEST_F(CrawlStoreTest, DuplicateDomainInOneRunRollsBackTheWholeBatch) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  const std::vector<FetchRecord> batch = {
      Success("a.test", "1"), Success("b.test", "2"), Success("a.test", "3")};
  const Status s = store->AppendFetches(run, batch);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.message();
  EXPECT_EQ(Query("SELECT count(*) FROM fetch"), std::vector<std::string>{"0"});
  EXPECT_EQ(Query("SELECT count(*) FROM domain"),
            std::vector<std::string>{"0"});
}

TEST_F(CrawlStoreTest, DiskFullFailsLoudlyAndKeepsCommittedBatches) {
  StoreOptions options;
  options.max_page_count = 64;  // 64 pages of 4 KiB: fills quickly.
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run, options);
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(
      store->AppendFetches(run, std::vector{Success("first.test", "x")}).ok());
  std::vector<FetchRecord> big;
  for (int i = 0; i < 20; ++i) {
    big.push_back(Success("big" + std::to_string(i) + ".test",
                          std::string(20000, static_cast<char>('a' + i))));
  }
  const Status s = store->AppendFetches(run, big);
  EXPECT_EQ(s.code(), Status::Code::kDiskFull) << s.message();
  store.reset();

  auto reopened = OpenStore();
  ASSERT_NE(reopened, nullptr);
  bool ok = false;
  std::string report;
  ASSERT_TRUE(Into(reopened->CheckIntegrity(), &ok, &report).ok());
  EXPECT_TRUE(ok) << report;
  EXPECT_EQ(Query("SELECT domain FROM latest_fetch"),
            std::vector<std::string>{"first.test"});
}

TEST_F(CrawlStoreTest, RefusesADatabaseFromANewerVersion) {
  { ASSERT_NE(OpenStore(), nullptr); }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  auto store = CrawlStore::Open(path_, {});
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Status::Code::kSchemaTooNew);
  StoreOptions read_only;
  read_only.read_only = true;
  auto reader = CrawlStore::Open(path_, read_only);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), Status::Code::kSchemaTooNew);
  EXPECT_NE(reader.status().message().find(path_), std::string::npos)
      << reader.status().message();
}

TEST_F(CrawlStoreTest, ReopeningKeepsDataAndDoesNotRemigrate) {
  {
    std::int64_t run = 0;
    auto store = OpenStoreWithRun(&run);
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(
        store->AppendFetches(run, std::vector{Success("a.test", "x")}).ok());
  }
  auto store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(Query("SELECT count(*) FROM latest_fetch"),
            std::vector<std::string>{"1"});
}

TEST_F(CrawlStoreTest, ReaderSeesCommittedBatchesOfAConcurrentWriter) {
  auto writer = OpenStore();
  ASSERT_NE(writer, nullptr);
  StoreOptions read_only;
  read_only.read_only = true;
  auto reader = OpenStore(read_only);
  ASSERT_NE(reader, nullptr);
  std::optional<PreviousFetch> previous;
  ASSERT_TRUE(Into(reader->FindLatestFetch("a.test"), &previous).ok());
  EXPECT_FALSE(previous.has_value());
  std::int64_t run = 0;
  ASSERT_TRUE(Into(writer->BeginRun(RunStartedAt("t")), &run).ok());
  ASSERT_TRUE(
      writer->AppendFetches(run, std::vector{Success("a.test", "x")}).ok());
  ASSERT_TRUE(Into(reader->FindLatestFetch("a.test"), &previous).ok());
  EXPECT_TRUE(previous.has_value());
}

// Classes are written by their names in the one name table
// (fetch_classes.h); a value outside it is refused before anything is
// written.
TEST_F(CrawlStoreTest, RejectsARecordWithoutAccessClass) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  FetchRecord r = Success("a.test", "x");
  r.access = static_cast<robots::AccessClass>(3);
  EXPECT_EQ(store->AppendFetches(run, std::vector{r}).code(),
            Status::Code::kInvalidArgument);
  r.access = static_cast<robots::AccessClass>(255);
  EXPECT_EQ(store->AppendFetches(run, std::vector{r}).code(),
            Status::Code::kInvalidArgument);
}

TEST_F(CrawlStoreTest, RejectsAnUnknownErrorClass) {
  std::int64_t run = 0;
  auto store = OpenStoreWithRun(&run);
  ASSERT_NE(store, nullptr);
  FetchRecord r = Success("a.test", "x");
  r.access = robots::AccessClass::kUnreachable;
  r.error_class = static_cast<ErrorClass>(200);
  Status s = store->AppendFetches(run, std::vector{r});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("unknown error class"), std::string::npos)
      << s.message();
  // In a step too.
  r.error_class = ErrorClass::kDnsNxdomain;
  r.steps[0].error_class = static_cast<ErrorClass>(200);
  s = store->AppendFetches(run, std::vector{r});
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("step 1"), std::string::npos) << s.message();
  r.steps[0].error_class = ErrorClass::kNone;
  EXPECT_TRUE(store->AppendFetches(run, std::vector{r}).ok());
  EXPECT_EQ(Query("SELECT access, error FROM latest_fetch"),
            std::vector<std::string>{"unreachable|dns_nxdomain"});
}

}  // namespace
}  // namespace robotscan::storage
