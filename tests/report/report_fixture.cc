#include "report_fixture.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace robotscan::report::testing {

storage::FetchRecord MakeFetch(std::string domain, std::int64_t rank,
                               int http_status, std::string body,
                               std::string content_type,
                               storage::ErrorClass error) {
  storage::FetchRecord record;
  record.url = "https://" + domain + "/robots.txt";
  record.final_url = record.url;
  record.domain = std::move(domain);
  record.rank = rank;
  record.http_status = http_status;
  record.error_class = error;
  using robots::AccessClass;
  using storage::ErrorClass;
  if (http_status >= 200 && http_status <= 299) {
    record.access = AccessClass::kSuccess;
  } else if (http_status == 0 || http_status >= 500 ||
             error != ErrorClass::kNone) {
    record.access = error == ErrorClass::kTooManyRedirects ||
                            error == ErrorClass::kRedirectLoop
                        ? AccessClass::kUnavailable
                        : AccessClass::kUnreachable;
  } else {
    record.access = AccessClass::kUnavailable;
  }
  record.body = std::move(body);
  record.content_type = std::move(content_type);
  record.fetched_at = "2026-11-30T12:00:00.000Z";
  return record;
}

namespace {

std::filesystem::path TempRoot() {
  const char* base = std::getenv("TEST_TMPDIR");
  return std::filesystem::path(base != nullptr ? base : "/tmp") /
         ("robotscan_report_" + std::to_string(::getpid()));
}

// Removes every directory MakeTempDir made once the tests are over.
class RemoveTempRoot : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::remove_all(TempRoot(), ignored);
  }
};

[[maybe_unused]] const ::testing::Environment* const kRemoveTempRoot =
    ::testing::AddGlobalTestEnvironment(new RemoveTempRoot);

}  // namespace

std::string MakeTempDir() {
  static std::atomic<int> counter{0};
  const std::filesystem::path dir = TempRoot() / std::to_string(counter++);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

void WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

void WriteDatabase(const std::string& path,
                   const std::vector<storage::FetchRecord>& records,
                   bool compress_bodies) {
  storage::StoreOptions options;
  options.compress_bodies = compress_bodies;
  auto store = storage::CrawlStore::Open(path, options);
  ASSERT_TRUE(store.ok()) << store.status().message();
  std::int64_t run = 0;
  storage::RunInfo info;
  info.started_at = "2026-11-30T12:00:00Z";
  info.tool_version = "test";
  {
    const auto begun = store.value()->BeginRun(info);
    ASSERT_TRUE(begun.ok());
    run = *begun;
  }
  const storage::Status status = store.value()->AppendFetches(run, records);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(
      store.value()->FinishRun(run, "finished", "2026-11-30T12:01:00Z").ok());
}

void AppendRun(const std::string& path,
               std::vector<storage::FetchRecord> records,
               const std::string& fetched_at) {
  auto store = storage::CrawlStore::Open(path, {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  std::int64_t run = 0;
  storage::RunInfo info;
  info.started_at = fetched_at;
  info.tool_version = "test";
  {
    const auto begun = store.value()->BeginRun(info);
    ASSERT_TRUE(begun.ok());
    run = *begun;
  }
  for (storage::FetchRecord& record : records) record.fetched_at = fetched_at;
  const storage::Status status = store.value()->AppendFetches(run, records);
  ASSERT_TRUE(status.ok()) << status.message();
  ASSERT_TRUE(store.value()->FinishRun(run, "finished", fetched_at).ok());
}

Report BuildReport(const std::string& path, const ReportOptions& options) {
  Report report;
  const storage::Status status =
      BuildReportFromDatabase(path, options, &report);
  EXPECT_TRUE(status.ok()) << status.message();
  return report;
}

std::vector<storage::FetchRecord> StudyFixture() {
  const std::string shared_body =
      "User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\n"
      "Disallow: /private\n\nUser-agent: *\nAllow: /\n"
      "# We're hiring!\n#   Visit our careers page\n";
  std::string big = "User-agent: *\nDisallow: /a\n";
  while (big.size() < 512000) big += "# padding line of the big file\n";
  big.resize(512000);
  std::vector<storage::FetchRecord> rows = {
      MakeFetch("a.com", 1, 200,
                "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n"
                "Allow: /\n"),
      MakeFetch("b.com", 2, 200, shared_body),
      MakeFetch("c.com", 50, 404, "not found", "text/html"),
      MakeFetch("d.com", 500, 0, "", "", storage::ErrorClass::kDnsNxdomain),
      MakeFetch("e.com", 2000, 403, "", "text/html"),
      MakeFetch("f.com", 20000, 503, "", "text/html"),
      MakeFetch("g.com", 200000, 200,
                "<!DOCTYPE html><html><body>Welcome</body></html>",
                "text/html; charset=utf-8"),
      MakeFetch("h.com", 3000, 200,
                "# just a comment\nSitemap: https://h.com/s.xml\n"),
      MakeFetch("i.com", 0, 0, "", "", storage::ErrorClass::kTimeout),
      MakeFetch("j.com", 1500, 301, "", "",
                storage::ErrorClass::kTooManyRedirects),
      MakeFetch("k.com", 4000, 200, shared_body),
      MakeFetch("jobs.ch", 6000, 200,
                "\xEF\xBB\xBF# jobs.ch robots file\r\nUser-agent: *\r\n"
                "Disallow: /admin\r\nCrawl-delay: 10\r\n"),
      MakeFetch("m.com", 7000, 200,
                "User-agent: *\rDisallow: /tmp\rHost: m.com\r"
                "Clean-param: ref /\rFoo: bar\r# caf\xE9\r"),
      MakeFetch("n.com", 8000, 200, big),
  };
  rows.back().truncated = true;
  rows.back().fetched_at = "2026-11-30T12:30:00.000Z";
  rows[3].fetched_at = "2026-11-30T11:00:00.000Z";
  rows[9].redirects = 6;
  return rows;
}

}  // namespace robotscan::report::testing
