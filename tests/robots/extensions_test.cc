#include "extensions.h"

#include <gtest/gtest.h>

#include <cmath>

#include "robotscan/robots/robots.h"
#include "test_data.h"

namespace robotscan::robots {
namespace {

// Measured; see TextingRobotsOther below. The 3 differences, by design:
//  * test_robot_retrieve_crawl_delay#4: "Crawl-Delay: -1.25" is invalid, so
//    the group has no delay (texting_robots reports the next group's 8).
//  * test_robot_crawl_evil_utf8#3: a Sitemap value that is not a URL is
//    kept as written (the linter flags it); texting_robots drops it.
//  * test_forgiveness_sitemap_variations#1: "site map" with a space is not
//    a key Google accepts, so that line is an unknown directive.
constexpr int kTextingOtherAgreement = 40;

TEST(ParseCrawlDelay, AcceptsFractionalSecondsOnly) {
  EXPECT_EQ(internal::ParseCrawlDelay("10"), 10.0);
  EXPECT_EQ(internal::ParseCrawlDelay(" 0.5 "), 0.5);
  EXPECT_EQ(internal::ParseCrawlDelay("2s"), 2.0);
  EXPECT_EQ(internal::ParseCrawlDelay("-1"), std::nullopt);
  EXPECT_EQ(internal::ParseCrawlDelay("word"), std::nullopt);
  EXPECT_EQ(internal::ParseCrawlDelay("nan"), std::nullopt);
  EXPECT_EQ(internal::ParseCrawlDelay("5 minutes"), std::nullopt);
  EXPECT_TRUE(std::isinf(*internal::ParseCrawlDelay("1e999")));
}

TEST(ParseRequestRate, ReadsRequestsPerPeriod) {
  auto r = internal::ParseRequestRate("1/5", 3);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->requests, 1);
  EXPECT_DOUBLE_EQ(r->seconds, 5);
  EXPECT_EQ(r->line, 3);
  r = internal::ParseRequestRate("3/2h 0600-0700", 1);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->seconds, 7200);
  EXPECT_FALSE(internal::ParseRequestRate("1/0", 1));
  EXPECT_FALSE(internal::ParseRequestRate("fast", 1));
  EXPECT_FALSE(internal::ParseRequestRate("1/5x", 1));
}

TEST(ParseVisitTime, ReadsUtcWindows) {
  auto v = internal::ParseVisitTime("0600-0845", 1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->start_minute, 360);
  EXPECT_EQ(v->end_minute, 525);
  v = internal::ParseVisitTime("22:00 - 02:30", 1);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->end_minute, 150);
  EXPECT_FALSE(internal::ParseVisitTime("2500-0100", 1));
  EXPECT_FALSE(internal::ParseVisitTime("morning", 1));
}

TEST(ParseCleanParam, ReadsParametersAndPath) {
  auto c = internal::ParseCleanParam("sid&sort /forum/", 2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->params, (std::vector<std::string>{"sid", "sort"}));
  EXPECT_EQ(c->path_prefix, "/forum/");
  c = internal::ParseCleanParam("ref", 2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->path_prefix, "");
  EXPECT_FALSE(internal::ParseCleanParam("&&", 2));
}

// texting_robots' crawl-delay and sitemap assertions: how many we share.
// Differences are by design (Google's grouping: crawl-delay does not end a
// group; a negative delay is invalid, not 0) and pinned so changes show.
TEST(TextingRobotsOther, CrawlDelayAndSitemapAgreementIsMeasured) {
  int agree = 0;
  int total = 0;
  for (const auto& record :
       testing::ReadJsonLines("texting-robots-other.jsonl")) {
    const auto& input = record.at("input");
    std::string body = input.at("robots_txt").get<std::string>();
    if (record.contains("encoding")) body = testing::Base64Decode(body);
    const std::string agent = input.at("user_agent").get<std::string>();
    const RobotsTxt robots = RobotsTxt::Parse(body);
    const auto& expected = record.at("expected");
    bool same = false;
    if (record.at("kind") == "sitemaps") {
      std::vector<std::string> urls;
      for (const Sitemap& s : robots.sitemaps()) urls.push_back(s.url);
      same = expected == nlohmann::json(urls);
    } else {
      const auto delay = robots.ExtensionsFor(agent).crawl_delay;
      if (expected.is_null()) {
        same = !delay.has_value();
      } else if (expected.is_object()) {
        same = delay && *delay > expected.at("greater_than").get<double>();
      } else {
        same = delay && *delay == expected.get<double>();
      }
    }
    agree += same;
    ++total;
    if (!same) std::printf("differs: %s\n", record.at("id").dump().c_str());
  }
  EXPECT_EQ(total, 43);
  EXPECT_EQ(agree, kTextingOtherAgreement);
  std::printf("texting_robots crawl-delay/sitemap cases: %d/%d agree\n", agree,
              total);
}

}  // namespace
}  // namespace robotscan::robots
