// The report on a database written by the real `robotscan crawl` against
// the crawler's loopback fault-injecting server (tests/crawler): the host
// name picks the answer, so every category below is known in advance.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
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

// Part 8 on two real crawls of the loopback server whose files differ
// between them: as two databases, and as two runs of one database.
TEST(ReportOnCrawledDatabaseTest, TwoCrawlsWhoseFilesDiffer) {
  robotscan::testing::TempDir dir;
  robotscan::testing::TestHttpServer server(dir.path());
  const std::string list = dir.path() + "/top.csv";
  robotscan::testing::WriteFile(
      list, "1,v1.test\n2,v2.test\n3,v3.test\n4,v4.test\n5,v5.test\n");
  auto crawl = [&](const std::string& db, std::vector<std::string> extra) {
    std::vector<std::string> args = {
        "crawl",
        "--db",
        db,
        list,
        "--quiet",
        "--retries",
        "0",
        "--timeout",
        "5s",
        "--connect-timeout",
        "2s",
        "--connect-to",
        ":80:127.0.0.1:" + std::to_string(server.http_port()),
        "--connect-to",
        ":443:127.0.0.1:" + std::to_string(server.https_port()),
        "--allow-private-addresses",
        "--insecure"};
    args.insert(args.end(), extra.begin(), extra.end());
    const robotscan::testing::ProcessResult result =
        robotscan::testing::RunProcess(ROBOTSCAN_BINARY, args, dir.path(), 60s);
    ASSERT_EQ(result.exit_code, 0) << result.err;
  };
  auto report_json = [&](const std::string& db, const std::string& older) {
    const robotscan::testing::ProcessResult result =
        robotscan::testing::RunProcess(
            ROBOTSCAN_BINARY,
            {"report", "--db", db, "--compare", older, "--format", "json"},
            dir.path(), 60s);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return nlohmann::json::parse(result.out);
  };

  server.SetAnswer(
      "v1", 200,
      "User-agent: *\nDisallow: /x\nSitemap: https://v1.test/a.xml\n");
  server.SetAnswer("v2", 200, "User-agent: GPTBot\nDisallow: /\n");
  server.SetAnswer("v3", 200, "User-agent: *\nDisallow: /y\n");
  server.SetAnswer("v4", 404, "not here");
  server.SetAnswer("v5", 200, "User-agent: *\nDisallow: /z\n");
  const std::string older = dir.path() + "/older.sqlite";
  const std::string runs = dir.path() + "/runs.sqlite";
  crawl(older, {});
  crawl(runs, {});

  server.SetAnswer(
      "v1", 200,
      "User-agent: *\nDisallow: /x\nSitemap: https://v1.test/b.xml\n");
  server.SetAnswer("v2", 200, "User-agent: *\nDisallow: /b\n");
  server.SetAnswer("v3", 403, "forbidden");
  server.SetAnswer("v4", 200, "User-agent: GPTBot\nDisallow: /\n");
  const std::string newer = dir.path() + "/newer.sqlite";
  crawl(newer, {});
  crawl(runs, {"--recrawl-older-than", "0s"});

  for (const auto& [db, against] :
       {std::pair{newer, older}, std::pair{runs, std::string("1")}}) {
    const auto json = report_json(db, against);
    const auto& c = json["comparison"];
    EXPECT_EQ(c["domains_in_both"], 5) << db;
    EXPECT_EQ(c["files_in_both"], 3) << db;           // v1, v2, v5.
    EXPECT_EQ(c["files_changed"]["count"], 2) << db;  // v1, v2.
    std::map<std::string, int> transitions;
    for (const auto& t : c["outcome_transitions"]) {
      transitions[t["from"].get<std::string>() + ">" +
                  t["to"].get<std::string>()] = t["domains"]["count"];
    }
    EXPECT_EQ(transitions["robots-txt-with-rules>http-forbidden"], 1) << db;
    EXPECT_EQ(transitions["allow-all>robots-txt-with-rules"], 1) << db;
    EXPECT_EQ(transitions["robots-txt-with-rules>robots-txt-with-rules"], 3);
    const auto& gptbot = c["crawlers"][5];
    ASSERT_EQ(gptbot["agent"], "GPTBot");
    EXPECT_EQ(gptbot["started_by"][0]["domain"], "v4.test") << db;
    EXPECT_EQ(gptbot["stopped_by"][0]["domain"], "v2.test") << db;
    EXPECT_EQ(c["sitemap_urls_added"], 1) << db;
    EXPECT_EQ(c["sitemap_urls_removed"], 1) << db;
    EXPECT_EQ(c["sitemap_changes"][0]["example_added"],
              "https://v1.test/b.xml");
  }
}

}  // namespace
}  // namespace robotscan::report
