// Part 8: a crawl compared with an older one, as a second database and as
// an earlier run of the same database (figures derived by hand below).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report_fixture.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"

namespace robotscan::report {
namespace {

using testing::MakeFetch;

std::size_t O(Outcome outcome) { return static_cast<std::size_t>(outcome); }

std::vector<storage::FetchRecord> OlderCrawl() {
  return {
      MakeFetch("a.com", 1, 200,
                "User-agent: *\nDisallow: /x\nSitemap: https://a.com/s1.xml\n"),
      MakeFetch("b.com", 2, 200, "User-agent: GPTBot\nDisallow: /\n"),
      MakeFetch("c.com", 3, 200, "User-agent: *\nDisallow: /y\n"),
      MakeFetch("d.com", 4, 404),
      MakeFetch("e.com", 5, 200, "User-agent: *\nDisallow: /z\n"),
      MakeFetch("gone.com", 6, 200, "User-agent: *\nDisallow: /g\n"),
  };
}

std::vector<storage::FetchRecord> NewerCrawl() {
  return {
      // Sitemaps: s1 removed, s2 and s3 added.
      MakeFetch("a.com", 1, 200,
                "User-agent: *\nDisallow: /x\nSitemap: https://a.com/s2.xml\n"
                "Sitemap: https://a.com/s3.xml\n"),
      // Stops fully blocking GPTBot.
      MakeFetch("b.com", 2, 200, "User-agent: *\nDisallow: /b\n"),
      // A file with rules becomes a 403.
      MakeFetch("c.com", 3, 403),
      // A 404 becomes a file that fully blocks GPTBot.
      MakeFetch("d.com", 4, 200, "User-agent: GPTBot\nDisallow: /\n"),
      MakeFetch("e.com", 5, 200, "User-agent: *\nDisallow: /z\n"),
      MakeFetch("new.com", 7, 404),
  };
}

const Comparison::Crawler& GptBot(const Comparison& comparison) {
  for (const auto& crawler : comparison.crawlers) {
    if (crawler.agent == "GPTBot") return crawler;
  }
  ADD_FAILURE() << "no GPTBot";
  return comparison.crawlers.front();
}

TEST(ComparisonTest, AgainstASecondDatabase) {
  const std::string dir = testing::MakeTempDir();
  testing::AppendRun(dir + "/older.sqlite", OlderCrawl(),
                     "2026-10-01T00:00:00.000Z");
  testing::AppendRun(dir + "/newer.sqlite", NewerCrawl(),
                     "2026-11-01T00:00:00.000Z");
  ReportOptions options;
  options.compare = ComparisonSource{dir + "/older.sqlite", 0, std::nullopt};
  const Report report = testing::BuildReport(dir + "/newer.sqlite", options);
  const Comparison& c = report.comparison;
  ASSERT_TRUE(c.computed);
  EXPECT_EQ(c.older, dir + "/older.sqlite");
  EXPECT_EQ(c.older_first_fetched_at, "2026-10-01T00:00:00.000Z");
  EXPECT_EQ(c.older_domains, 6);
  EXPECT_EQ(c.domains_in_both, 5);
  EXPECT_EQ(c.new_domains, 1);
  EXPECT_EQ(c.gone_domains, 1);
  EXPECT_EQ(c.transitions[O(Outcome::kWithRules)][O(Outcome::kWithRules)], 3);
  EXPECT_EQ(c.transitions[O(Outcome::kWithRules)][O(Outcome::kHttpForbidden)],
            1);
  EXPECT_EQ(c.transitions[O(Outcome::kAllowAll)][O(Outcome::kWithRules)], 1);
  EXPECT_EQ(c.files_in_both, 3);  // a, b, e.
  EXPECT_EQ(c.files_changed.count, 2);
  EXPECT_EQ(c.files_changed.denominator, 3);
  ASSERT_EQ(c.changed_files.size(), 2u);
  EXPECT_EQ(c.changed_files[0].domain, "a.com");
  EXPECT_EQ(c.changed_files[1].domain, "b.com");
  EXPECT_EQ(c.changed_files[1].rules_before, 1);
  const Comparison::Crawler& gptbot = GptBot(c);
  EXPECT_EQ(gptbot.full_before, 1);
  EXPECT_EQ(gptbot.full_after, 1);
  EXPECT_EQ(gptbot.started.count, 1);
  EXPECT_EQ(gptbot.started.denominator, 5);
  ASSERT_EQ(gptbot.started_by.size(), 1u);
  EXPECT_EQ(gptbot.started_by[0].domain, "d.com");
  ASSERT_EQ(gptbot.stopped_by.size(), 1u);
  EXPECT_EQ(gptbot.stopped_by[0].domain, "b.com");
  EXPECT_EQ(c.sitemaps_added.count, 1);
  EXPECT_EQ(c.sitemaps_removed.count, 1);
  EXPECT_EQ(c.sitemap_urls_added, 2);
  EXPECT_EQ(c.sitemap_urls_removed, 1);
  ASSERT_EQ(c.sitemap_changes.size(), 1u);
  EXPECT_EQ(c.sitemap_changes[0].example_added, "https://a.com/s2.xml");
  EXPECT_EQ(c.sitemap_changes[0].example_removed, "https://a.com/s1.xml");
  // The rest of the report is this crawl's alone.
  EXPECT_EQ(report.domains, 6);
  EXPECT_EQ(report.facts.files, 4);
}

TEST(ComparisonTest, AgainstAnEarlierRunOfTheSameDatabase) {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::AppendRun(path, OlderCrawl(), "2026-10-01T00:00:00.000Z");
  testing::AppendRun(path, NewerCrawl(), "2026-11-01T00:00:00.000Z");
  ReportOptions options;
  options.compare = ComparisonSource{"", 1, std::nullopt};
  const Report report = testing::BuildReport(path, options);
  const Comparison& c = report.comparison;
  // gone.com was not fetched again: its newest fetch is still run 1's, on
  // both sides.
  EXPECT_EQ(c.older, "run 1 of " + path);
  EXPECT_EQ(c.domains_in_both, 6);
  EXPECT_EQ(c.gone_domains, 0);
  EXPECT_EQ(c.new_domains, 1);
  EXPECT_EQ(c.transitions[O(Outcome::kWithRules)][O(Outcome::kWithRules)], 4);
  EXPECT_EQ(c.files_changed.count, 2);
  EXPECT_EQ(GptBot(c).started.count, 1);
  EXPECT_EQ(GptBot(c).stopped.count, 1);
  // Run 2 against itself changes nothing.
  options.compare = ComparisonSource{"", 2, std::nullopt};
  const Comparison same = testing::BuildReport(path, options).comparison;
  EXPECT_EQ(same.files_changed.count, 0);
  EXPECT_EQ(same.transitions[O(Outcome::kWithRules)][O(Outcome::kWithRules)],
            5);  // a, b, d, e, gone.
  EXPECT_EQ(GptBot(same).started.count, 0);
}

TEST(ComparisonTest, ARunThatDoesNotExistIsAnError) {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::AppendRun(path, OlderCrawl(), "2026-10-01T00:00:00.000Z");
  ReportOptions options;
  options.compare = ComparisonSource{"", 5, std::nullopt};
  Report report;
  const storage::Status status =
      BuildReportFromDatabase(path, options, &report);
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("no crawl run 5"), std::string::npos);
}

TEST(ComparisonTest, EveryFormatShowsIt) {
  const std::string dir = testing::MakeTempDir();
  testing::AppendRun(dir + "/older.sqlite", OlderCrawl(), "2026-10-01T00:00Z");
  testing::AppendRun(dir + "/newer.sqlite", NewerCrawl(), "2026-11-01T00:00Z");
  ReportOptions options;
  options.compare = ComparisonSource{dir + "/older.sqlite", 0, std::nullopt};
  const Report report = testing::BuildReport(dir + "/newer.sqlite", options);
  for (const Format format :
       {Format::kText, Format::kMarkdown, Format::kHtml}) {
    const std::string text = RenderReport(report, format);
    EXPECT_NE(text.find("8. Change since the older crawl"), std::string::npos);
    EXPECT_NE(text.find("robots.txt with rules"), std::string::npos);
    // Started (Markdown escapes the '#').
    EXPECT_NE(
        text.find(format == Format::kMarkdown ? "d.com (\\#4)" : "d.com (#4)"),
        std::string::npos)
        << static_cast<int>(format);
  }
  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  const auto& c = json["comparison"];
  EXPECT_EQ(c["domains_in_both"], 5);
  EXPECT_EQ(c["files_changed"]["count"], 2);
  bool forbidden = false;
  for (const auto& t : c["outcome_transitions"]) {
    forbidden = forbidden ||
                (t["from"] == "robots-txt-with-rules" &&
                 t["to"] == "http-forbidden" && t["domains"]["count"] == 1);
  }
  EXPECT_TRUE(forbidden);
  EXPECT_EQ(c["crawlers"][5]["agent"], "GPTBot");
  EXPECT_EQ(c["crawlers"][5]["started_by"][0]["domain"], "d.com");
  EXPECT_EQ(c["sitemap_urls_added"], 2);
}

}  // namespace
}  // namespace robotscan::report
