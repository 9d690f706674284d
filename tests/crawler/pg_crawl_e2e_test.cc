// End-to-end tests of the scaled-out crawl on a real PostgreSQL 15 (the test
// run's own cluster, tests/pg): the built `robotscan enqueue` and several
// `robotscan crawl --worker` processes against the loopback fault server,
// with workers killed (SIGKILL), stopped (SIGTERM) and joining late; and
// `robotscan migrate` + `robotscan report` giving the same report from the
// SQLite and the PostgreSQL copy of one crawl. Suites named Pg* skip
// visibly without PostgreSQL.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crawl_test_util.h"
#include "pg_test_server.h"
#include "test_http_server.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

const std::string kBinary = ROBOTSCAN_BINARY;

struct Expected {
  const char* domain;
  // http_status|access|error|redirects|truncated|bytes|final_url
  const char* row;
};

// A part of the fault matrix (crawl_e2e_test.cc has all of it, on
// SQLite): each worker must record exactly what a single crawl records.
// Left out: the bodies the crawler cuts at the cap (huge, bomb), where the
// server goes on writing after the crawler closed and released its slot,
// so that the server's count of open connections would exceed what the
// crawler had in flight.
// (The same rows, same order: the expected values are those of
// CrawlE2eTest's table.)
const Expected kFaults[] = {
    {"ok.test", "200|success|NULL|0|0|33|https://ok.test/robots.txt"},
    {"s404.test", "404|unavailable|NULL|0|0|0|https://s404.test/robots.txt"},
    {"s429.test", "429|unavailable|NULL|0|0|0|https://s429.test/robots.txt"},
    {"s503.test", "503|unreachable|NULL|0|0|0|https://s503.test/robots.txt"},
    {"redir5.test", "200|success|NULL|5|0|33|https://redir5.test/hop5"},
    {"redir6.test",
     "302|unavailable|too_many_redirects|6|0|0|https://redir6.test/hop5"},
    {"loop.test",
     "301|unavailable|redirect_loop|2|0|0|https://loop.test/again"},
    {"cross.test", "200|success|NULL|1|0|33|http://ok.test/robots.txt"},
    {"gzip.test", "200|success|NULL|0|0|33|https://gzip.test/robots.txt"},
    {"badgzip.test",
     "200|unreachable|protocol|0|0|0|https://badgzip.test/robots.txt"},
    {"resetbefore.test", "NULL|unreachable|reset|0|0|0|NULL"},
    {"badchunk.test",
     "200|unreachable|protocol|0|0|0|https://badchunk.test/robots.txt"},
    {"latin1.test", "200|success|NULL|0|0|30|https://latin1.test/robots.txt"},
    {"empty.test", "200|success|NULL|0|0|0|https://empty.test/robots.txt"},
    {"notls.test", "200|success|NULL|0|0|33|http://notls.test/robots.txt"},
};

class PgCrawlE2eTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ROBOTSCAN_SKIP_WITHOUT_PG();
    std::string error;
    db_ = PgTestCluster::Get().CreateDatabase(
        ::testing::UnitTest::GetInstance()->current_test_info()->name(),
        &error);
    ASSERT_FALSE(db_.empty()) << error;
    server_ = std::make_unique<TestHttpServer>(server_dir_.path());
    counting_server_ = std::make_unique<TestHttpServer>(counting_dir_.path());
  }

  // Flags that send every host to the fault server; with `counted`, the
  // hosts in it to a second server (same IP, so under the same per-IP
  // cap) that counts their connections: the cap's measure. The counted
  // hosts are not in the servers' certificate (it names the fault hosts
  // only): --insecure, else each https try fails its handshake and falls
  // back to http, and the server counts the failed connection a moment
  // after the crawler gave it up.
  std::vector<std::string> ToTestServer(
      const std::vector<std::string>& counted = {}) const {
    std::vector<std::string> flags;
    if (!counted.empty()) {
      flags.push_back("--insecure");
      for (const std::string& host : counted) {
        flags.insert(flags.end(),
                     {"--connect-to",
                      host + ":80:127.0.0.1:" +
                          std::to_string(counting_server_->http_port()),
                      "--connect-to",
                      host + ":443:127.0.0.1:" +
                          std::to_string(counting_server_->https_port())});
      }
    }
    flags.insert(flags.end(),
                 {"--connect-to",
                  ":80:127.0.0.1:" + std::to_string(server_->http_port()),
                  "--connect-to",
                  ":443:127.0.0.1:" + std::to_string(server_->https_port()),
                  "--allow-private-addresses", "--cacert", CaBundle()});
    return flags;
  }

  // Both servers' certificates.
  std::string CaBundle() const {
    const std::string bundle = server_dir_.path() + "/bundle.pem";
    WriteFile(bundle, ReadFile(server_->cert_file()) +
                          ReadFile(counting_server_->cert_file()));
    return bundle;
  }

  std::string Sql(const std::string& sql) {
    std::string error;
    const std::string out = PgTestCluster::Query(db_, sql, &error);
    EXPECT_EQ(error, "") << sql;
    return out;
  }

  pid_t StartWorker(const std::string& name,
                    const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"crawl",
                                     "--worker",
                                     "--db",
                                     db_,
                                     "--timeout",
                                     "3s",
                                     "--connect-timeout",
                                     "2s",
                                     "--retries",
                                     "0",
                                     "--concurrency",
                                     "4"};
    for (const std::string& f : ToTestServer(counted_hosts_)) {
      args.push_back(f);
    }
    args.insert(args.end(), extra.begin(), extra.end());
    return StartProcess(kBinary, args, dir_.File(name + ".out"),
                        dir_.File(name + ".err"));
  }

  std::string WorkerLog(const std::string& name) {
    return "\n--- " + name + " stdout:\n" + ReadFile(dir_.File(name + ".out")) +
           "\n--- " + name + " stderr:\n" + ReadFile(dir_.File(name + ".err"));
  }

  TempDir server_dir_;
  TempDir counting_dir_;
  std::unique_ptr<TestHttpServer> server_;
  std::unique_ptr<TestHttpServer> counting_server_;
  std::vector<std::string> counted_hosts_;
  TempDir dir_;
  std::string db_;
};

// The issue's test: four workers, one killed mid-batch, one stopped, one
// joining late; exactly one record per domain, each as the fault matrix
// says, no domain fetched twice unless its lease expired, and the
// crawl-wide per-IP cap never exceeded as the server counts connections.
TEST_F(PgCrawlE2eTest, WorkersSurviveKillStopAndLateJoin) {
  constexpr int kSlowDomains = 100;  // 300 ms each: keeps batches in hand.
  // (Only these are counted for the cap: the fault server's own count can
  // run one over with a single-process crawl too, for answers such as a
  // 429 or a redirect hop.)
  constexpr int kPerIpCap = 4;  // All domains are one IP (loopback).
  std::string list;
  int rank = 0;
  for (const Expected& e : kFaults) {
    list += std::to_string(++rank) + "," + e.domain + "\n";
  }
  for (int i = 0; i < kSlowDomains; ++i) {
    const std::string host = "delay300-w" + std::to_string(i) + ".test";
    list += std::to_string(++rank) + "," + host + "\n";
    counted_hosts_.push_back(host);
  }
  list += std::to_string(++rank) + ",ok.test\n";  // A duplicate.
  const int domains = rank - 1;
  WriteFile(dir_.File("list.csv"), list);
  const ProcessResult enqueued = RunProcess(
      kBinary,
      {"enqueue", dir_.File("list.csv"), "--db", db_, "--per-ip-limit",
       std::to_string(kPerIpCap), "--lease", "2", "--batch-size", "5"},
      dir_.path(), 30s);
  ASSERT_EQ(enqueued.exit_code, 0) << enqueued.err;
  EXPECT_NE(enqueued.out.find(std::to_string(domains) +
                              " domains (1 duplicates dropped)"),
            std::string::npos)
      << enqueued.out;

  const pid_t killed = StartWorker("killed");
  const pid_t stopped = StartWorker("stopped");
  const pid_t steady = StartWorker("steady");
  // Kill the first mid-batch: once it has committed records and still
  // holds leases.
  const std::string holds_leases =
      "SELECT count(*) FROM crawl_batch b JOIN crawl_worker w ON w.id = "
      "b.worker_id WHERE b.state = 'leased' AND w.fetched > 0 AND w.pid = " +
      std::to_string(killed);
  const auto start = std::chrono::steady_clock::now();
  while (Sql(holds_leases) == "0" &&
         std::chrono::steady_clock::now() - start < 20s) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_NE(Sql(holds_leases), "0") << WorkerLog("killed");
  ASSERT_EQ(::kill(killed, SIGKILL), 0);
  bool timed_out = false;
  EXPECT_EQ(WaitProcess(killed, 10s, &timed_out), 128 + SIGKILL);
  const std::string killed_leases = Sql(
      "SELECT count(*) FROM crawl_frontier f JOIN crawl_batch b ON b.id = "
      "f.batch_id JOIN crawl_worker w ON w.id = b.worker_id WHERE f.state = "
      "'leased' AND w.pid = " +
      std::to_string(killed));
  // A new worker joins, asking for a per-IP cap of its own: it says that
  // it follows the crawl's (the server's count below shows it did). It
  // joins while most of the list is still to do: joining after the stop
  // below, it sometimes found every remaining domain leased by the others
  // already (on a loaded machine) and fetched nothing.
  const std::string pending_at_join =
      Sql("SELECT count(*) FROM crawl_frontier WHERE state = 'pending'");
  const pid_t late = StartWorker("late", {"--per-ip-limit", "99"});
  // Stop the second: it finishes its transfers and gives back the rest.
  std::this_thread::sleep_for(300ms);
  ASSERT_EQ(::kill(stopped, SIGTERM), 0);
  EXPECT_EQ(WaitProcess(stopped, 30s, &timed_out), 128 + SIGTERM)
      << WorkerLog("stopped");
  EXPECT_FALSE(timed_out);
  EXPECT_EQ(WaitProcess(steady, 90s, &timed_out), 0) << WorkerLog("steady");
  EXPECT_EQ(WaitProcess(late, 90s, &timed_out), 0) << WorkerLog("late");
  EXPECT_NE(ReadFile(dir_.File("late.err"))
                .find("--per-ip-limit ignored: a worker follows its crawl's"),
            std::string::npos)
      << WorkerLog("late");

  EXPECT_EQ(Sql("SELECT status FROM crawl_run"), "finished");
  // Exactly one record per domain of the crawl, every domain done.
  EXPECT_EQ(Sql("SELECT count(*), count(DISTINCT domain_id) FROM \"fetch\""),
            std::to_string(domains) + "|" + std::to_string(domains));
  EXPECT_EQ(Sql("SELECT count(*) FROM crawl_frontier WHERE state <> 'done'"),
            "0");
  EXPECT_EQ(Sql("SELECT count(*) FROM crawl_frontier WHERE fetch_id IS NULL"),
            "0");
  for (const Expected& e : kFaults) {
    EXPECT_EQ(Sql(std::string("SELECT coalesce(http_status::text, 'NULL') || "
                              "'|' || access || '|' || coalesce(error, "
                              "'NULL') || '|' || redirects || '|' || "
                              "truncated || '|' || bytes || '|' || "
                              "coalesce(final_url, 'NULL') FROM latest_fetch "
                              "WHERE domain = '") +
                  e.domain + "'"),
              e.row)
        << e.domain;
  }
  EXPECT_EQ(Sql("SELECT count(*) FROM latest_fetch WHERE domain LIKE "
                "'delay300-w%' AND access = 'success'"),
            std::to_string(kSlowDomains));
  // A domain requested more than once was taken over from an expired
  // lease (the killed worker's): counted in the frontier.
  std::set<std::string> taken_over;
  {
    const std::string rows =
        Sql("SELECT domain FROM crawl_frontier WHERE expired_leases > 0");
    for (std::size_t p = 0; p < rows.size();) {
      std::size_t q = rows.find('\n', p);
      if (q == std::string::npos) q = rows.size();
      taken_over.insert(rows.substr(p, q - p));
      p = q + 1;
    }
  }
  EXPECT_FALSE(taken_over.empty())
      << "the killed worker held " << killed_leases << " leased domains";
  int refetched = 0;
  for (int i = 0; i < kSlowDomains; ++i) {
    const std::string host = "delay300-w" + std::to_string(i) + ".test";
    const int requests = counting_server_->RequestsFor(host);
    EXPECT_GE(requests, 1) << host;
    if (requests > 1) {
      ++refetched;
      EXPECT_EQ(taken_over.count(host), 1u)
          << host << " was fetched " << requests
          << " times without its lease expiring";
    }
  }
  // The crawl-wide per-IP cap held across all workers, and was reached.
  EXPECT_LE(counting_server_->max_concurrent_connections(), kPerIpCap);
  EXPECT_GE(counting_server_->max_concurrent_connections(), kPerIpCap - 1);
  // What each worker says, and what --status shows.
  const auto worker_status = [&](pid_t pid) {
    return Sql("SELECT status FROM crawl_worker WHERE pid = " +
               std::to_string(pid));
  };
  EXPECT_EQ(worker_status(killed), "running");  // It could not say more.
  EXPECT_EQ(worker_status(stopped), "interrupted");
  EXPECT_EQ(worker_status(steady), "finished");
  EXPECT_EQ(worker_status(late), "finished");
  EXPECT_NE(Sql("SELECT fetched FROM crawl_worker WHERE pid = " +
                std::to_string(late)),
            "0")
      << pending_at_join << " domains were pending when it joined"
      << WorkerLog("late");
  const ProcessResult status =
      RunProcess(kBinary, {"crawl", "--status", "--db", db_}, dir_.path(), 30s);
  ASSERT_EQ(status.exit_code, 0) << status.err;
  EXPECT_NE(status.out.find("(finished): " + std::to_string(domains) + " of " +
                            std::to_string(domains) + " domains done"),
            std::string::npos)
      << status.out;
  EXPECT_NE(status.out.find("lost (no heartbeat"), std::string::npos)
      << status.out;
  EXPECT_NE(status.out.find("taken over from expired leases: " +
                            std::to_string(taken_over.size()) + " domains"),
            std::string::npos)
      << status.out;
  RecordProperty("refetched_after_expiry", refetched);
}

// A crawl into SQLite (two runs: history), copied with `robotscan
// migrate`, gives the same report from both copies.
TEST_F(PgCrawlE2eTest, MigratedCopyReportsTheSameAsSqlite) {
  std::string list;
  int rank = 0;
  for (const Expected& e : kFaults) {
    list += std::to_string(++rank) + "," + e.domain + "\n";
  }
  WriteFile(dir_.File("list.csv"), list);
  const std::string sqlite = dir_.File("crawl.sqlite");
  std::vector<std::string> crawl = {
      "crawl", dir_.File("list.csv"), "--db", sqlite, "--timeout",
      "3s",    "--retries",           "0"};
  for (const std::string& f : ToTestServer()) crawl.push_back(f);
  ProcessResult run = RunProcess(kBinary, crawl, dir_.path(), 60s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // A second run: history (the report reads each domain's newest).
  server_->SetAnswer("ok", 200, "User-agent: *\nDisallow: /changed\n");
  crawl.insert(crawl.end(), {"--recrawl-older-than", "0s"});
  run = RunProcess(kBinary, crawl, dir_.path(), 60s);
  ASSERT_EQ(run.exit_code, 0) << run.err;

  const ProcessResult migrated = RunProcess(
      kBinary, {"migrate", "--from", sqlite, "--db", db_}, dir_.path(), 60s);
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err;
  EXPECT_NE(migrated.out.find("2 runs"), std::string::npos) << migrated.out;
  for (const char* format : {"json", "text"}) {
    const ProcessResult from_sqlite =
        RunProcess(kBinary, {"report", "--db", sqlite, "--format", format},
                   dir_.path(), 60s);
    const ProcessResult from_pg = RunProcess(
        kBinary, {"report", "--db", db_, "--format", format}, dir_.path(), 60s);
    ASSERT_EQ(from_sqlite.exit_code, 0) << from_sqlite.err;
    ASSERT_EQ(from_pg.exit_code, 0) << from_pg.err;
    EXPECT_GT(from_pg.out.size(), 1000u);
    EXPECT_EQ(from_pg.out, from_sqlite.out) << format;
  }
  // --compare against the first run works on the copy too.
  const ProcessResult compare_sqlite = RunProcess(
      kBinary, {"report", "--db", sqlite, "--compare", "1", "--format", "json"},
      dir_.path(), 60s);
  const ProcessResult compare_pg = RunProcess(
      kBinary, {"report", "--db", db_, "--compare", "1", "--format", "json"},
      dir_.path(), 60s);
  ASSERT_EQ(compare_pg.exit_code, 0) << compare_pg.err;
  // The same but for the name of what was compared ("run 1 of <db>").
  std::string pg_compared = compare_pg.out;
  for (std::size_t at; (at = pg_compared.find(db_)) != std::string::npos;) {
    pg_compared.replace(at, db_.size(), sqlite);
  }
  EXPECT_NE(compare_pg.out.find("run 1 of postgresql://"), std::string::npos);
  EXPECT_EQ(pg_compared, compare_sqlite.out);
  // Migrating into a database that has crawls is refused.
  const ProcessResult again = RunProcess(
      kBinary, {"migrate", "--from", sqlite, "--db", db_}, dir_.path(), 60s);
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("already has crawls"), std::string::npos)
      << again.err;
}

TEST_F(PgCrawlE2eTest, SingleProcessCrawlIntoPostgresKeepsThePasswordOut) {
  std::string list;
  int rank = 0;
  for (const Expected& e : kFaults) {
    list += std::to_string(++rank) + "," + e.domain + "\n";
  }
  WriteFile(dir_.File("list.csv"), list);
  // Trust authentication ignores the password; it must still appear
  // nowhere: not in the output, the JSON log or crawl_run.options.
  std::string uri = db_;
  uri.replace(uri.find("robotscan@"), 10, "robotscan:s3cr3t-pw@");
  std::vector<std::string> crawl = {"crawl",      dir_.File("list.csv"),
                                    "--db",       uri,
                                    "--timeout",  "3s",
                                    "--retries",  "0",
                                    "--log-json", dir_.File("log.jsonl")};
  for (const std::string& f : ToTestServer()) crawl.push_back(f);
  const ProcessResult run = RunProcess(kBinary, crawl, dir_.path(), 60s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const Expected& e : kFaults) {
    EXPECT_EQ(Sql(std::string("SELECT coalesce(http_status::text, 'NULL') || "
                              "'|' || access || '|' || coalesce(error, "
                              "'NULL') || '|' || redirects || '|' || "
                              "truncated || '|' || bytes || '|' || "
                              "coalesce(final_url, 'NULL') FROM latest_fetch "
                              "WHERE domain = '") +
                  e.domain + "'"),
              e.row)
        << e.domain;
  }
  EXPECT_EQ(run.out.find("s3cr3t"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.find("s3cr3t"), std::string::npos) << run.err;
  EXPECT_EQ(ReadFile(dir_.File("log.jsonl")).find("s3cr3t"), std::string::npos);
  EXPECT_NE(ReadFile(dir_.File("log.jsonl")).find("robotscan:***@"),
            std::string::npos);
  EXPECT_EQ(Sql("SELECT count(*) FROM crawl_run WHERE options LIKE "
                "'%s3cr3t%' OR input LIKE '%s3cr3t%'"),
            "0");
  // A worker on a database without an enqueued crawl says so.
  const ProcessResult worker =
      RunProcess(kBinary, {"crawl", "--worker", "--db", uri}, dir_.path(), 30s);
  EXPECT_EQ(worker.exit_code, 2);
  EXPECT_NE(worker.err.find("no enqueued crawl"), std::string::npos)
      << worker.err;
  EXPECT_EQ(worker.err.find("s3cr3t"), std::string::npos);
  // A worker on a file is a usage error; an unreachable server's error
  // does not repeat the password.
  const ProcessResult on_file =
      RunProcess(kBinary, {"crawl", "--worker", "--db", dir_.File("x.sqlite")},
                 dir_.path(), 30s);
  EXPECT_EQ(on_file.exit_code, 2);
  EXPECT_NE(on_file.err.find("needs a PostgreSQL"), std::string::npos);
  const ProcessResult unreachable = RunProcess(
      kBinary,
      {"report", "--db", "postgresql://u:s3cr3t-pw@/nope?host=/nonexistent"},
      dir_.path(), 30s);
  EXPECT_NE(unreachable.exit_code, 0);
  EXPECT_EQ(unreachable.err.find("s3cr3t"), std::string::npos)
      << unreachable.err;
}

}  // namespace
}  // namespace robotscan::testing
