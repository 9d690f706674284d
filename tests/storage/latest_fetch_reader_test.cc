// LatestFetchReader's queries: latest_fetch as it is, ordered by domain, as
// it was when an earlier run ended (report --compare), and each domain's
// newest capture in a window of capture time (report --period, --series).
#include "robotscan/storage/latest_fetch_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "result_into.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::storage {
namespace {

namespace fs = std::filesystem;

RunInfo RunStartedAt(std::string started_at) {
  RunInfo info;
  info.started_at = std::move(started_at);
  return info;
}

FetchRecord Fetch(std::string domain, int status, std::string body,
                  std::string fetched_at) {
  FetchRecord r;
  r.domain = std::move(domain);
  r.rank = 1;
  r.url = "https://" + r.domain + "/robots.txt";
  r.http_status = status;
  r.access = status == 200 ? robots::AccessClass::kSuccess
                           : robots::AccessClass::kUnavailable;
  r.body = std::move(body);
  r.fetched_at = std::move(fetched_at);
  return r;
}

LatestFetchQuery ByDomain(std::int64_t as_of_run = 0) {
  LatestFetchQuery query;
  query.by_domain = true;
  query.as_of_run = as_of_run;
  return query;
}

LatestFetchQuery Window(std::string from, std::string before) {
  LatestFetchQuery query = ByDomain();
  query.captured_from = std::move(from);
  query.captured_before = std::move(before);
  return query;
}

class LatestFetchReaderTest : public ::testing::TestWithParam<bool> {
 protected:
  // Run 1: c, a, b. Run 2: b changed, d new; a and c not fetched again.
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("reader_test_" + std::to_string(::getpid()) + "_" +
            std::to_string(GetParam()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "crawl.sqlite").string();
    StoreOptions options;
    options.compress_bodies = GetParam();
    auto store = CrawlStore::Open(path_, options);
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::int64_t run = 0;
    ASSERT_TRUE(Into(store.value()->BeginRun(RunStartedAt("t1")), &run).ok());
    ASSERT_TRUE(
        store.value()
            ->AppendFetches(
                run, std::vector<FetchRecord>{Fetch("c.test", 200, "c1", "1"),
                                              Fetch("a.test", 200, "a1", "1"),
                                              Fetch("b.test", 200, "b1", "1")})
            .ok());
    ASSERT_TRUE(Into(store.value()->BeginRun(RunStartedAt("t2")), &run).ok());
    ASSERT_TRUE(
        store.value()
            ->AppendFetches(
                run, std::vector<FetchRecord>{Fetch("d.test", 200, "d2", "2"),
                                              Fetch("b.test", 404, "", "2")})
            .ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // domain:status:body:fetched_at per row, in the reader's order.
  std::vector<std::string> Rows(const LatestFetchQuery& query) {
    auto reader = LatestFetchReader::Open(path_, query);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    std::vector<std::string> rows;
    if (!reader.ok()) return rows;
    LatestFetchRow row;
    for (bool has_row = true;;) {
      EXPECT_TRUE(Into(reader.value()->Next(&row), &has_row).ok());
      if (!has_row) break;
      rows.push_back(row.domain + ":" + std::to_string(row.http_status) + ":" +
                     row.body + ":" + row.fetched_at);
    }
    return rows;
  }

  fs::path dir_;
  std::string path_;
};

TEST_P(LatestFetchReaderTest, OrderedByDomain) {
  EXPECT_EQ(Rows(ByDomain()),
            (std::vector<std::string>{"a.test:200:a1:1", "b.test:404::2",
                                      "c.test:200:c1:1", "d.test:200:d2:2"}));
}

TEST_P(LatestFetchReaderTest, AsOfAnEarlierRun) {
  EXPECT_EQ(Rows(ByDomain(1)),
            (std::vector<std::string>{"a.test:200:a1:1", "b.test:200:b1:1",
                                      "c.test:200:c1:1"}));
  // The last run is latest_fetch itself.
  std::vector<std::string> latest = Rows({});
  std::sort(latest.begin(), latest.end());
  EXPECT_EQ(Rows(ByDomain(2)), latest);
}

TEST_P(LatestFetchReaderTest, ARunThatDoesNotExistIsAnError) {
  auto reader = LatestFetchReader::Open(path_, ByDomain(3));
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(reader.status().message().find("no crawl run 3"),
            std::string::npos);
}

TEST_P(LatestFetchReaderTest, NewestCaptureInAWindow) {
  // Captures "1" (run 1) and "2" (run 2): each window sees its own.
  EXPECT_EQ(Rows(Window("", "2")), Rows(ByDomain(1)));
  EXPECT_EQ(Rows(Window("2", "")),
            (std::vector<std::string>{"b.test:404::2", "d.test:200:d2:2"}));
  EXPECT_TRUE(Rows(Window("3", "")).empty());
  // as_of_run wins over a window.
  LatestFetchQuery both = Window("2", "");
  both.as_of_run = 1;
  EXPECT_EQ(Rows(both), Rows(ByDomain(1)));
}

TEST_P(LatestFetchReaderTest, NewestCaptureIsByCaptureTimeNotImportOrder) {
  // Run 3 imports an older snapshot of a.test (captured at "0", as a
  // history import writes them): latest_fetch, by id, shows it; a window
  // shows the capture that is newest in time.
  {
    auto store = CrawlStore::Open(path_, StoreOptions{});
    ASSERT_TRUE(store.ok()) << store.status().message();
    std::int64_t run = 0;
    ASSERT_TRUE(Into(store.value()->BeginRun(RunStartedAt("t3")), &run).ok());
    ASSERT_TRUE(store.value()
                    ->AppendFetches(run, std::vector<FetchRecord>{Fetch(
                                             "a.test", 200, "a0", "0")})
                    .ok());
  }
  EXPECT_EQ(Rows(Window("", "")).front(), "a.test:200:a0:0");  // The view.
  EXPECT_EQ(Rows(Window("0", "")).front(), "a.test:200:a1:1");
  EXPECT_EQ(Rows(Window("", "1")).front(), "a.test:200:a0:0");
  auto reader = LatestFetchReader::Open(path_);
  ASSERT_TRUE(reader.ok());
  CaptureSpan span;
  ASSERT_TRUE(Into(reader.value()->ReadCaptureSpan(), &span).ok());
  EXPECT_EQ(span.first, "0");
  EXPECT_EQ(span.last, "2");
}

INSTANTIATE_TEST_SUITE_P(PlainAndCompressedBodies, LatestFetchReaderTest,
                         ::testing::Bool());

}  // namespace
}  // namespace robotscan::storage
