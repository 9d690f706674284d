// The C API, exercised from C++ here; tests/install builds a real C program
// against the installed package.
#include "robotscan/robots/robots_c.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

TEST(CApi, ParseCheckAndExtensions) {
  const std::string body =
      "User-agent: *\nDisallow: /private\nCrawl-delay: 1.5\n"
      "Sitemap: https://e.com/s.xml\n";
  robots_txt* robots =
      robots_parse(body.data(), body.size(), ROBOTS_COMPAT_RFC9309);
  ASSERT_NE(robots, nullptr);
  robots_match match;
  const char* url = "https://e.com/private/x";
  EXPECT_EQ(robots_check(robots, "bot", 3, url, std::strlen(url), &match), 0);
  EXPECT_EQ(match.allowed, 0);
  EXPECT_EQ(match.decision, ROBOTS_DECISION_RULE_MATCHED);
  EXPECT_EQ(match.line, 2);
  EXPECT_EQ(match.rule_is_allow, 0);
  EXPECT_EQ(std::string(match.pattern, match.pattern_len), "/private");
  EXPECT_EQ(robots_check(robots, "bot", 3, "/public", 7, nullptr), 1);
  EXPECT_DOUBLE_EQ(robots_crawl_delay(robots, "bot", 3), 1.5);
  ASSERT_EQ(robots_sitemap_count(robots), 1u);
  size_t len = 0;
  const char* sitemap = robots_sitemap(robots, 0, &len);
  EXPECT_EQ(std::string(sitemap, len), "https://e.com/s.xml");
  EXPECT_EQ(robots_sitemap(robots, 1, &len), nullptr);
  robots_free(robots);
}

TEST(CApi, MatcherAnswersLikeCheckAndOutlivesItsRobots) {
  std::string body = "User-agent: bot\nDisallow: /private\nAllow: /*.css$\n";
  for (int i = 0; i < 30; ++i)
    body += "Disallow: /*/w" + std::to_string(i) + "\n";
  robots_txt* robots =
      robots_parse(body.data(), body.size(), ROBOTS_COMPAT_RFC9309);
  ASSERT_NE(robots, nullptr);
  robots_matcher* trie = robots_matcher_new(robots, "bot", 3, 0);
  robots_matcher* automaton = robots_matcher_new(robots, "bot", 3, 1000000);
  ASSERT_NE(trie, nullptr);
  ASSERT_NE(automaton, nullptr);
  const char* urls[] = {"https://e.com/private/x",
                        "/private/a.css",
                        "/a/w7",
                        "/a/w7x",
                        "/public",
                        "/%70rivate"};
  int disallowed = 0;
  for (const char* url : urls) {
    robots_match expected, by_trie, by_automaton;
    const int allowed =
        robots_check(robots, "bot", 3, url, std::strlen(url), &expected);
    EXPECT_EQ(robots_matcher_check(trie, url, std::strlen(url), &by_trie),
              allowed)
        << url;
    EXPECT_EQ(
        robots_matcher_check(automaton, url, std::strlen(url), &by_automaton),
        allowed)
        << url;
    EXPECT_EQ(by_trie.line, expected.line) << url;
    EXPECT_EQ(by_automaton.line, expected.line) << url;
    disallowed += allowed == 0;
  }
  EXPECT_EQ(disallowed, 5);  // All but "/public" ("/%70rivate" is "/private").
  // The batch, every URL many times over (across its chunks of 256).
  std::vector<const char*> batch;
  std::vector<size_t> lengths;
  for (int copy = 0; copy < 100; ++copy) {
    for (const char* url : urls) {
      batch.push_back(url);
      lengths.push_back(std::strlen(url));
    }
  }
  for (robots_matcher* matcher : {trie, automaton}) {
    std::vector<unsigned char> allowed(batch.size(), 2);
    robots_matcher_check_many(matcher, batch.data(), lengths.data(),
                              batch.size(), allowed.data());
    for (std::size_t i = 0; i < batch.size(); ++i) {
      ASSERT_EQ(allowed[i],
                robots_matcher_check(matcher, batch[i], lengths[i], nullptr))
          << batch[i] << " at " << i;
    }
  }
  robots_free(robots);  // The matchers keep what they need.
  EXPECT_EQ(robots_matcher_check(automaton, "/private", 8, nullptr), 0);
  robots_matcher_free(trie);
  robots_matcher_free(automaton);
  robots_matcher_free(nullptr);
}

TEST(CApi, HttpOutcomesBecomePolicies) {
  robots_txt* unreachable =
      robots_from_http(503, 0, nullptr, 0, ROBOTS_COMPAT_RFC9309, 0);
  robots_match match;
  EXPECT_EQ(robots_check(unreachable, "bot", 3, "/", 1, &match), 0);
  EXPECT_EQ(match.decision, ROBOTS_DECISION_DISALLOW_ALL_POLICY);
  EXPECT_EQ(match.pattern, nullptr);
  robots_free(unreachable);
  robots_txt* too_many =
      robots_from_http(429, 0, nullptr, 0, ROBOTS_COMPAT_GOOGLE, 1);
  EXPECT_EQ(robots_check(too_many, "bot", 3, "/", 1, nullptr), 0);
  robots_free(too_many);
  robots_free(nullptr);  // Like free(): a no-op.
  EXPECT_STREQ(robots_version(), ROBOTSCAN_EXPECTED_VERSION);
}

}  // namespace
