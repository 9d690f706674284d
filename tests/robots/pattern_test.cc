// Differential tests: the fast matcher (greedy segments + prefix trie)
// against simple references, on random patterns, paths and whole files.
#include "pattern.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "reference_matcher.h"
#include "robotscan/robots/robots.h"

namespace robotscan::robots {
namespace {

using internal::CompilePattern;
using internal::IndexedRule;
using internal::PatternMatches;
using internal::ReferencePatternMatches;
using internal::RuleIndex;

// Small alphabets make collisions (and so interesting matches) likely.
std::string RandomString(std::mt19937& rng, const std::string& alphabet,
                         std::size_t max_len) {
  std::uniform_int_distribution<std::size_t> len(0, max_len);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string s;
  const std::size_t n = len(rng);
  for (std::size_t i = 0; i < n; ++i) s += alphabet[pick(rng)];
  return s;
}

TEST(PatternMatches, AgreesWithThePositionSetReference) {
  std::mt19937 rng(20261130);
  int matches = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string pattern = "/" + RandomString(rng, "ab*$", 7);
    const std::string path = "/" + RandomString(rng, "ab$", 9);
    const bool expected = ReferencePatternMatches(path, pattern);
    const bool actual = PatternMatches(CompilePattern(pattern), path);
    ASSERT_EQ(actual, expected) << "pattern=" << pattern << " path=" << path;
    matches += expected;
  }
  // The generator must exercise both outcomes.
  EXPECT_GT(matches, 20000);
  EXPECT_LT(matches, 180000);
}

TEST(PatternMatches, HandlesTheCornerCases) {
  struct Case {
    const char* pattern;
    const char* path;
    bool matches;
  } cases[] = {
      {"/", "/anything", true},
      {"/a$", "/a", true},
      {"/a$", "/ab", false},
      {"/a*$", "/abc", true},
      {"*", "/", true},
      {"$", "/", false},
      {"/a$b", "/a$b", true},  // '$' is literal unless last.
      {"/*.php$", "/x.php", true},
      {"/*.php$", "/x.php?y", false},
      {"/*a*a*a", "/aa", false},
      {"/*ab*ab$", "/abab", true},
      {"/x*y*", "/xy", true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PatternMatches(CompilePattern(c.pattern), c.path), c.matches)
        << c.pattern << " vs " << c.path;
    EXPECT_EQ(ReferencePatternMatches(c.path, c.pattern), c.matches)
        << c.pattern << " vs " << c.path;
  }
}

// The index must return exactly the rule a linear scan in priority order
// would: highest priority, allow on ties.
TEST(RuleIndex, BestMatchEqualsALinearScan) {
  std::mt19937 rng(7);
  std::vector<std::string> storage;
  for (int round = 0; round < 2000; ++round) {
    storage.clear();
    std::uniform_int_distribution<int> count(0, 12);
    const int n = count(rng);
    storage.reserve(static_cast<std::size_t>(n));
    std::vector<IndexedRule> rules;
    for (int i = 0; i < n; ++i) {
      storage.push_back((rng() % 5 == 0 ? "" : "/") +
                        RandomString(rng, "ab*$", 5));
      IndexedRule r;
      r.pattern = CompilePattern(storage.back());
      r.priority = static_cast<std::uint32_t>(storage.back().size());
      r.rule_id = static_cast<std::uint32_t>(i);
      r.allow = rng() % 2 == 0;
      rules.push_back(r);
    }
    const RuleIndex index(rules);
    for (int q = 0; q < 20; ++q) {
      const std::string path = "/" + RandomString(rng, "ab", 6);
      const IndexedRule* expected = nullptr;
      for (const IndexedRule& r : rules) {
        if (r.priority == 0) continue;
        if (!ReferencePatternMatches(path, storage[r.rule_id])) continue;
        if (expected == nullptr || internal::Beats(r, *expected)) expected = &r;
      }
      const IndexedRule* actual = index.BestMatch(path);
      ASSERT_EQ(actual == nullptr, expected == nullptr) << path;
      if (actual != nullptr) {
        // Equal-ranked rules are interchangeable; compare rank and verdict.
        EXPECT_EQ(actual->priority, expected->priority) << path;
        EXPECT_EQ(actual->allow, expected->allow) << path;
      }
    }
  }
}

// Whole files: random groups, agents and rules, RobotsTxt (google mode)
// against the streaming reference.
TEST(RobotsTxtDifferential, GoogleModeEqualsTheStreamingReference) {
  std::mt19937 rng(99);
  const char* agents[] = {"foo",     "FooBot",  "bar", "*",
                          "* extra", "Foo/1.0", "008", ""};
  const char* keys[] = {"user-agent",  "allow",      "disallow", "sitemap",
                        "crawl-delay", "User-Agent", "Disallow", "Allow",
                        "useragent",   "disalow"};
  int disallowed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string body;
    std::uniform_int_distribution<int> lines(0, 14);
    const int n = lines(rng);
    for (int i = 0; i < n; ++i) {
      const std::string key = keys[rng() % 10];
      std::string value;
      if (key == "user-agent" || key == "User-Agent" || key == "useragent") {
        value = agents[rng() % 8];
      } else {
        value = (rng() % 6 == 0 ? "" : "/") + RandomString(rng, "ab*$", 5);
        if (rng() % 10 == 0) value += "/index.html";
      }
      body += key + (rng() % 8 == 0 ? " " : ": ") + value;
      body += (rng() % 4 == 0) ? "\r\n" : "\n";
    }
    ParseOptions options;
    options.compat = Compat::kGoogle;
    const RobotsTxt robots = RobotsTxt::Parse(body, options);
    for (const char* agent : {"foo", "FooBot", "bar", "other", ""}) {
      for (int q = 0; q < 8; ++q) {
        const std::string url =
            "http://example.com/" + RandomString(rng, "ab$", 6);
        const bool expected = testing::ReferenceAllowedGoogle(body, agent, url);
        ASSERT_EQ(robots.IsAllowedFor(agent, url), expected)
            << "agent=" << agent << " url=" << url << "\n"
            << body;
        disallowed += !expected;
      }
    }
  }
  EXPECT_GT(disallowed, 1000);  // Both verdicts are exercised.
}

}  // namespace
}  // namespace robotscan::robots
