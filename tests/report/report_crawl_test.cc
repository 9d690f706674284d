// The report on a database written by the real `robotscan crawl` against
// the crawler's loopback fault-injecting server (tests/crawler): the host
// name picks the answer, so every category below is known in advance.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "crawl_test_util.h"
#include "robotscan/report/report.h"
#include "test_http_server.h"

namespace robotscan::report {
namespace {

using namespace std::chrono_literals;

std::size_t O(Outcome outcome) { return static_cast<std::size_t>(outcome); }

TEST(ReportOnCrawledDatabaseTest, CategoriesAndFactsMatchTheServedFaults) {
  robotscan::testing::TempDir dir;
  robotscan::testing::TestHttpServer server(dir.path());
  const std::string list = dir.path() + "/top.csv";
  const std::string db = dir.path() + "/crawl.sqlite";
  robotscan::testing::WriteFile(
      list,
      "1,ok.test\n2,s204.test\n3,s403.test\n4,s404.test\n5,s429.test\n"
      "6,s503.test\n7,redir6.test\n8,loop.test\n9,soft404.test\n"
      "10,bom.test\n11,cronly.test\n12,latin1.test\n13,empty.test\n"
      "14,huge.test\n15,resetbefore.test\n");
  const robotscan::testing::ProcessResult crawl =
      robotscan::testing::RunProcess(
          ROBOTSCAN_BINARY,
          {"crawl", "--db", db, list, "--quiet", "--retries", "0", "--timeout",
           "5s", "--connect-timeout", "2s", "--connect-to",
           ":80:127.0.0.1:" + std::to_string(server.http_port()),
           "--connect-to",
           ":443:127.0.0.1:" + std::to_string(server.https_port()),
           "--allow-private-addresses", "--cacert", server.cert_file()},
          dir.path(), 60s);
  ASSERT_EQ(crawl.exit_code, 0) << crawl.err;

  Report report;
  const storage::Status status =
      BuildReportFromDatabase(db, ReportOptions{}, &report);
  ASSERT_TRUE(status.ok()) << status.message();

  EXPECT_EQ(report.domains, 15);
  const auto& all = report.outcomes.counts[kStratumCount - 1];
  // ok, bom, cronly, latin1 have a `*` group with a disallow.
  EXPECT_EQ(all[O(Outcome::kWithRules)], 4);
  // s204 and empty are empty; huge.test's lines precede any user-agent.
  EXPECT_EQ(all[O(Outcome::kNoRules)], 3);
  EXPECT_EQ(all[O(Outcome::kHttpForbidden)], 1);
  EXPECT_EQ(all[O(Outcome::kAllowAll)], 1);
  EXPECT_EQ(all[O(Outcome::kHttpDefer)], 2);
  EXPECT_EQ(all[O(Outcome::kRedirectUnresolved)], 2);
  EXPECT_EQ(all[O(Outcome::kNotRobotsTxt)], 1);
  EXPECT_EQ(all[O(Outcome::kNoResponse)], 1);
  EXPECT_EQ(
      report.outcomes
          .no_response_by_error[kStratumCount - 1]
                               [static_cast<std::size_t>(NetworkError::kReset)],
      1);
  EXPECT_EQ(report.outcomes.domains[0], 15);  // All ranks are in the top 1k.

  const FileFacts& facts = report.facts;
  EXPECT_EQ(facts.files, 7);
  EXPECT_EQ(facts.truncated.count, 1);
  EXPECT_EQ(facts.size_max, 512000);
  EXPECT_EQ(facts.bom.count, 1);
  EXPECT_EQ(facts.cr.count, 1);
  EXPECT_EQ(facts.not_utf8.count, 1);
  // s204.test and empty.test serve the same (empty) body.
  EXPECT_EQ(facts.two_xx_bodies, 8);
  ASSERT_EQ(facts.shared_files.size(), 1u);
  EXPECT_EQ(facts.shared_files[0].domains.count, 2);
  EXPECT_EQ(facts.shared_files[0].sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");

  EXPECT_EQ(report.walled_gardens.sites.count, 0);
  for (const CrawlerBlocking& crawler : report.blocking.crawlers) {
    EXPECT_EQ(crawler.full.count, 0) << crawler.agent;
    EXPECT_EQ(crawler.partial.count, 4) << crawler.agent;
    EXPECT_EQ(crawler.partial.denominator, 7) << crawler.agent;
  }
}

}  // namespace
}  // namespace robotscan::report
