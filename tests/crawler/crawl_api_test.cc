// The library's crawl API in-process, against the loopback test server:
// a CrawlHandle cancels a running crawl from another thread (the library
// installs no signal handlers), a Cancel() before the start stops at once,
// and progress reports the retries that wait.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "crawl_test_util.h"
#include "robotscan/crawler/crawler.h"
#include "test_http_server.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

class CrawlApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_dir_ = new TempDir();
    server_ = new TestHttpServer(server_dir_->path());
    libraries_ = new crawler::NetworkLibraries();
  }
  static void TearDownTestSuite() {
    delete libraries_;
    delete server_;
    delete server_dir_;
  }

  crawler::CrawlOptions Options(const std::string& list) {
    WriteFile(dir_.File("list.csv"), list);
    crawler::CrawlOptions o;
    o.list_path = dir_.File("list.csv");
    o.db_path = dir_.File("crawl.sqlite");
    o.connect_to = {":80:127.0.0.1:" + std::to_string(server_->http_port())};
    o.schemes = {"http"};
    o.allow_private_addresses = true;
    o.progress_interval = 50ms;
    return o;
  }

  static TempDir* server_dir_;
  static TestHttpServer* server_;
  static crawler::NetworkLibraries* libraries_;
  TempDir dir_;
};

TempDir* CrawlApiTest::server_dir_ = nullptr;
TestHttpServer* CrawlApiTest::server_ = nullptr;
crawler::NetworkLibraries* CrawlApiTest::libraries_ = nullptr;

TEST_F(CrawlApiTest, CancelFromAnotherThreadStopsTheCrawl) {
  crawler::CrawlOptions o =
      Options("1,ok.test\n2,stall2.test\n3,stall3.test\n");
  o.total_timeout = 20s;
  crawler::CrawlHandle handle;
  crawler::CrawlSummary summary;
  std::atomic<bool> ok_fetched{false};
  crawler::CrawlCallbacks callbacks;
  callbacks.on_fetch = [&](const storage::FetchRecord& r) {
    if (r.domain == "ok.test") ok_fetched = true;
  };
  std::thread canceller([&] {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!ok_fetched && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(10ms);
    }
    std::this_thread::sleep_for(300ms);  // ok.test committed (200 ms batch).
    handle.Cancel();
  });
  const auto started = std::chrono::steady_clock::now();
  const Status status = crawler::RunCrawl(o, callbacks, &summary, &handle);
  canceller.join();
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_TRUE(summary.cancelled);
  EXPECT_TRUE(handle.cancelled());
  EXPECT_LT(std::chrono::steady_clock::now() - started, 8s)
      << "stalled transfers are abandoned, not waited for";
  EXPECT_EQ(QueryOne(o.db_path, "SELECT status FROM crawl_run"), "interrupted");
  EXPECT_EQ(
      QueryOne(o.db_path, "SELECT group_concat(domain) FROM latest_fetch"),
      "ok.test");
}

TEST_F(CrawlApiTest, CancelBeforeTheStartStopsAtOnce) {
  crawler::CrawlOptions o = Options("1,stall1.test\n");
  o.total_timeout = 20s;
  crawler::CrawlHandle handle;
  handle.Cancel();
  crawler::CrawlSummary summary;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_TRUE(crawler::RunCrawl(o, {}, &summary, &handle).ok());
  EXPECT_TRUE(summary.cancelled);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_EQ(QueryOne(o.db_path, "SELECT count(*) FROM fetch"), "0");
}

// "35 waiting to retry, next in 12 s": the progress says what the tail of a
// crawl is waiting for.
TEST_F(CrawlApiTest, ProgressCountsWaitingRetries) {
  crawler::CrawlOptions o = Options("1,s503.test\n2,ok.test\n");
  o.retries = 1;
  o.retry_delay = 1500ms;  // Retry-After: 1 is shorter; the delay rules.
  crawler::CrawlSummary summary;
  std::mutex mutex;
  std::int64_t most_waiting = 0;
  double soonest = -1;
  crawler::CrawlCallbacks callbacks;
  callbacks.on_progress = [&](const crawler::CrawlProgress& p) {
    std::lock_guard<std::mutex> lock(mutex);
    if (p.waiting_retries > most_waiting) {
      most_waiting = p.waiting_retries;
      soonest = p.next_retry_in_seconds;
    }
  };
  ASSERT_TRUE(crawler::RunCrawl(o, callbacks, &summary).ok());
  EXPECT_EQ(most_waiting, 1);
  EXPECT_GT(soonest, 0);
  EXPECT_LE(soonest, 2.25) << "at most 1.5x the retry delay";
  EXPECT_EQ(summary.progress.waiting_retries, 0) << "none left at the end";
  EXPECT_EQ(QueryOne(o.db_path,
                     "SELECT attempts FROM latest_fetch WHERE domain = "
                     "'s503.test'"),
            "2");
}

}  // namespace
}  // namespace robotscan::testing
