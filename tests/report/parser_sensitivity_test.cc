// Part 7: the headline findings under the RFC 9309, Google and CPython
// urllib.robotparser readings, on hand-written files that each read
// differently in one way (figures derived by hand, below).
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

constexpr std::size_t kRfc = 0, kGoogle = 1, kUrllib = 2;

std::vector<storage::FetchRecord> ReadingFixture() {
  return {
      // urllib: "obot" is a substring of "robotscangenericcrawler", not of
      // "googlebot": a walled garden only there.
      MakeFetch("a.com", 1, 200, "User-agent: oBot\nDisallow: /\n"),
      // urllib misses the first line behind the BOM: no * group.
      MakeFetch("b.com", 2, 200,
                "\xEF\xBB\xBFUser-agent: *\nDisallow: /\n\n"
                "User-agent: Googlebot\nAllow: /\n"),
      // urllib ends the group at the empty line.
      MakeFetch("c.com", 3, 200, "User-agent: *\n\nDisallow: /\n"),
      // urllib reads only the first * group.
      MakeFetch("d.com", 4, 200,
                "User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n"),
      // Read alike everywhere (the token differs: mj / mj12bot).
      MakeFetch("e.com", 5, 200, "User-agent: MJ12bot\nDisallow: /\n"),
      // urllib: the first matching rule decides, Allow: /public is never
      // reached, so everything is refused.
      MakeFetch("f.com", 6, 200,
                "User-agent: *\nDisallow: /\nAllow: /public\n"),
      // A walled garden in every reading.
      MakeFetch("g.com", 7, 200,
                "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\n"
                "Disallow: /\n"),
  };
}

const ParserSensitivity::Crawler& CrawlerIn(const ParserSensitivity& s,
                                            const std::string& agent) {
  for (const auto& crawler : s.crawlers) {
    if (crawler.agent == agent) return crawler;
  }
  ADD_FAILURE() << agent;
  return s.crawlers.front();
}

class ParserSensitivityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = testing::MakeTempDir() + "/crawl.sqlite";
    testing::WriteDatabase(path_, ReadingFixture());
    report_ = testing::BuildReport(path_);
  }
  std::string path_;
  Report report_;
};

TEST_F(ParserSensitivityTest, WalledGardensAreOtherFilesInUrllib) {
  const ParserSensitivity& s = report_.sensitivity;
  ASSERT_TRUE(s.computed);
  EXPECT_EQ(s.files, 7);
  // b and g; b and g; a and g: the same count, not the same files.
  EXPECT_EQ(s.walled_gardens[kRfc].count, 2);
  EXPECT_EQ(s.walled_gardens[kGoogle].count, 2);
  EXPECT_EQ(s.walled_gardens[kUrllib].count, 2);
  EXPECT_EQ(s.walled_gardens[kUrllib].denominator, 7);
  EXPECT_EQ(s.walled_gardens_differ, 2);
  // The main part 2 is the default (RFC 9309) reading.
  EXPECT_EQ(report_.walled_gardens.sites.count, 2);
  EXPECT_EQ(report_.walled_gardens.best_ranked[0].domain, "b.com");
}

TEST_F(ParserSensitivityTest, CrawlerMatrixByReading) {
  const ParserSensitivity& s = report_.sensitivity;
  const auto& gptbot = CrawlerIn(s, "GPTBot");
  // rfc/google: b, c, d, g; urllib: f, g.
  EXPECT_EQ(gptbot.full[kRfc].count, 4);
  EXPECT_EQ(gptbot.full[kGoogle].count, 4);
  EXPECT_EQ(gptbot.full[kUrllib].count, 2);
  EXPECT_EQ(gptbot.full_differ, 4);
  EXPECT_EQ(gptbot.singled_out[kUrllib].count, 0);
  const auto& mj = CrawlerIn(s, "MJ12bot");
  EXPECT_EQ(mj.full[kRfc].count, 5);     // b, c, d, e, g.
  EXPECT_EQ(mj.full[kUrllib].count, 3);  // e, f, g.
  EXPECT_EQ(mj.singled_out[kRfc].count, 1);
  EXPECT_EQ(mj.singled_out[kUrllib].count, 1);
  EXPECT_EQ(mj.singled_out_differ, 0);
  // The primary figures of part 4 are the rfc column.
  for (const CrawlerBlocking& crawler : report_.blocking.crawlers) {
    EXPECT_EQ(crawler.full.count, CrawlerIn(s, crawler.agent).full[kRfc].count)
        << crawler.agent;
  }
}

TEST_F(ParserSensitivityTest, MostBannedTokensAndChangedFiles) {
  const ParserSensitivity& s = report_.sensitivity;
  ASSERT_EQ(s.most_banned[kRfc].size(), 2u);
  EXPECT_EQ(s.most_banned[kRfc][0].token, "mj");
  EXPECT_EQ(s.most_banned[kRfc][1].token, "obot");
  ASSERT_EQ(s.most_banned[kUrllib].size(), 2u);
  EXPECT_EQ(s.most_banned[kUrllib][0].token, "mj12bot");
  EXPECT_EQ(s.most_banned[kUrllib][0].full_ban.count, 1);
  EXPECT_EQ(s.files_differ, 5);  // a, b, c, d, f.
  std::vector<std::string> domains;
  for (const ReadingChange& change : s.changes)
    domains.push_back(change.domain);
  EXPECT_EQ(domains, (std::vector<std::string>{"a.com", "b.com", "c.com",
                                               "d.com", "f.com"}));
  ASSERT_FALSE(s.changes[0].findings.empty());
  EXPECT_EQ(s.changes[0].findings[0].what, "walled garden");
  EXPECT_EQ(s.changes[0].findings[0].by_reading,
            (std::array<bool, kReadingCount>{false, false, true}));
}

TEST_F(ParserSensitivityTest, EveryFormatShowsIt) {
  for (const Format format :
       {Format::kText, Format::kMarkdown, Format::kHtml}) {
    const std::string text = RenderReport(report_, format);
    EXPECT_NE(text.find("7. Parser sensitivity"), std::string::npos);
    EXPECT_NE(text.find("mj12bot"), std::string::npos);
    EXPECT_NE(text.find("2 / 2 / 2"), std::string::npos);  // Headline card.
  }
  const auto json = nlohmann::json::parse(RenderReport(report_, Format::kJson));
  const auto& s = json["parser_sensitivity"];
  EXPECT_EQ(s["walled_gardens"]["urllib"]["count"], 2);
  EXPECT_EQ(s["walled_gardens_files_differ"], 2);
  EXPECT_EQ(s["most_banned"]["urllib"][0]["token"], "mj12bot");
  EXPECT_EQ(s["changes"][0]["findings"][0]["by_reading"]["urllib"], true);
}

TEST_F(ParserSensitivityTest, CanBeLeftOutAndTheReportReadAsUrllib) {
  ReportOptions options;
  options.compare_readings = false;
  EXPECT_FALSE(testing::BuildReport(path_, options).sensitivity.computed);
  options.compat = robots::Compat::kUrllib;
  const Report urllib = testing::BuildReport(path_, options);
  EXPECT_EQ(urllib.walled_gardens.sites.count, 2);
  EXPECT_EQ(urllib.walled_gardens.best_ranked[0].domain, "a.com");
  ASSERT_FALSE(urllib.banned_agents.most_banned.empty());
  EXPECT_EQ(urllib.banned_agents.most_banned[0].token, "mj12bot");
  EXPECT_NE(
      RenderReport(urllib, Format::kText).find("CPython's urllib.robotparser"),
      std::string::npos);
}

}  // namespace
}  // namespace robotscan::report
