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

namespace {

std::string KeyAt(const char* key, size_t len) {
  return key == nullptr ? "<null>" : std::string(key, len);
}

// attach-05's form in the * group, Cloudflare's line, an RSL licence; the
// preferences outlive the robots_txt, and none apply where crawling is not
// allowed.
TEST(CApi, PreferencesForAnAgentAndUrl) {
  const std::string body =
      "License: https://e.com/license.xml\n"
      "User-agent: *\n"
      "Content-Usage: train-ai=n, search=y\n"
      "Content-Usage: /blog/ train-ai=y\n"
      "Content-Signal: ai-train=no, search=yes\n"
      "Disallow: /private\n";
  robots_txt* robots =
      robots_parse(body.data(), body.size(), ROBOTS_COMPAT_RFC9309);
  ASSERT_NE(robots, nullptr);
  const char* url = "https://e.com/page";
  robots_preferences* p =
      robots_preferences_for(robots, "GPTBot", 6, url, std::strlen(url));
  robots_free(robots);  // The preferences keep what they need.
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(robots_preferences_crawl_allowed(p), 1);
  ASSERT_EQ(robots_preferences_usage_count(p), 2u);
  size_t len = 0;
  int allowed = -1, line = -1;
  const char* key = robots_preferences_usage(p, 0, &len, &allowed, &line);
  EXPECT_EQ(KeyAt(key, len), "search");
  EXPECT_EQ(allowed, 1);
  EXPECT_EQ(line, 3);
  key = robots_preferences_usage(p, 1, &len, &allowed, &line);
  EXPECT_EQ(KeyAt(key, len), "train-ai");
  EXPECT_EQ(allowed, 0);
  EXPECT_EQ(robots_preferences_usage(p, 2, &len, nullptr, nullptr), nullptr);
  ASSERT_EQ(robots_preferences_signal_count(p), 2u);
  key = robots_preferences_signal(p, 0, &len, &allowed, &line);
  EXPECT_EQ(KeyAt(key, len), "ai-train");
  EXPECT_EQ(allowed, 0);
  EXPECT_EQ(line, 5);
  key = robots_preferences_license(p, &len, &line);
  EXPECT_EQ(KeyAt(key, len), "https://e.com/license.xml");
  EXPECT_EQ(line, 1);
  robots_preferences_free(p);

  // The longer path wins for /blog/: train-ai=y there.
  robots = robots_parse(body.data(), body.size(), ROBOTS_COMPAT_RFC9309);
  const char* blog = "https://e.com/blog/post";
  p = robots_preferences_for(robots, "GPTBot", 6, blog, std::strlen(blog));
  ASSERT_EQ(robots_preferences_usage_count(p), 1u);
  key = robots_preferences_usage(p, 0, &len, &allowed, &line);
  EXPECT_EQ(KeyAt(key, len), "train-ai");
  EXPECT_EQ(allowed, 1);
  EXPECT_EQ(line, 4);
  robots_preferences_free(p);

  // Disallowed: no preference is implied.
  const char* hidden = "https://e.com/private/x";
  p = robots_preferences_for(robots, "GPTBot", 6, hidden, std::strlen(hidden));
  EXPECT_EQ(robots_preferences_crawl_allowed(p), 0);
  EXPECT_EQ(robots_preferences_usage_count(p), 0u);
  EXPECT_EQ(robots_preferences_signal_count(p), 0u);
  robots_preferences_free(p);
  robots_free(robots);

  // A file without these lines.
  robots = robots_parse("", 0, ROBOTS_COMPAT_RFC9309);
  p = robots_preferences_for(robots, "a", 1, "/", 1);
  EXPECT_EQ(robots_preferences_license(p, &len, &line), nullptr);
  robots_preferences_free(p);
  robots_free(robots);
}

}  // namespace
