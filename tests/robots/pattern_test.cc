// Differential tests: the fast matcher (greedy segments + prefix trie)
// against simple references, on random patterns, paths and whole files.
#include "pattern.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>
#include <thread>
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
using internal::SegmentFilterPolicy;
using internal::SegmentFinder;

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

// A rule for `pattern` (which must outlive it) as RobotsTxt makes them:
// priority is the pattern's length.
IndexedRule RuleFor(const std::string& pattern, int id, bool allow = false) {
  IndexedRule r;
  r.pattern = CompilePattern(pattern);
  r.priority = static_cast<std::uint32_t>(pattern.size());
  r.rule_id = static_cast<std::uint32_t>(id);
  r.allow = allow;
  return r;
}

// The best rule for `path` by a linear scan in priority order with the
// position-set reference matcher (`storage[rule_id]` is each rule's text).
const IndexedRule* LinearScanBest(const std::vector<IndexedRule>& rules,
                                  const std::vector<std::string>& storage,
                                  const std::string& path) {
  const IndexedRule* best = nullptr;
  for (const IndexedRule& r : rules) {
    if (r.priority == 0) continue;
    if (!ReferencePatternMatches(path, storage[r.rule_id])) continue;
    if (best == nullptr || internal::Beats(r, *best)) best = &r;
  }
  return best;
}

// Equal-ranked rules are interchangeable to a linear scan; compare rank and
// verdict.
void ExpectSameRank(const IndexedRule* actual, const IndexedRule* expected,
                    const std::string& path) {
  ASSERT_EQ(actual == nullptr, expected == nullptr) << path;
  if (actual == nullptr) return;
  EXPECT_EQ(actual->priority, expected->priority) << path;
  EXPECT_EQ(actual->allow, expected->allow) << path;
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
      rules.push_back(RuleFor(storage.back(), i, rng() % 2 == 0));
    }
    const RuleIndex index(rules);
    for (int q = 0; q < 20; ++q) {
      const std::string path = "/" + RandomString(rng, "ab", 6);
      ExpectSameRank(index.BestMatch(path),
                     LinearScanBest(rules, storage, path), path);
    }
  }
}

// Paths long enough that a segment search takes memmem's branch rather than
// the short first-byte scan (FindFrom switches at 2,048 byte comparisons).
TEST(PatternMatches, LongPathsAgreeWithThePositionSetReference) {
  std::mt19937 rng(20261201);
  int matches = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string pattern = "/" + RandomString(rng, "ab*$", 40);
    const std::string path = "/" + RandomString(rng, "aab", 600);
    const bool expected = ReferencePatternMatches(path, pattern);
    ASSERT_EQ(PatternMatches(CompilePattern(pattern), path), expected)
        << "pattern=" << pattern << " path=" << path;
    matches += expected;
  }
  EXPECT_GT(matches, 100);
  EXPECT_LT(matches, 2900);
}

// Runs of many wildcard rules at one trie node go through RuleBlocks (rules
// filed under one of their byte pairs); the answer must not change. Rules
// share the prefix "/" like a file full of "/*/word" lines, with long
// enough segments that pairs tell them apart, over more than 64 rules so
// that a run spans several blocks.
TEST(RuleIndex, BlocksOfWildcardRulesEqualALinearScan) {
  std::mt19937 rng(11);
  std::vector<std::string> storage;
  int decided = 0;
  for (int round = 0; round < 300; ++round) {
    storage.clear();
    const int n = 32 + static_cast<int>(rng() % 150);
    storage.reserve(static_cast<std::size_t>(n));
    std::vector<IndexedRule> rules;
    for (int i = 0; i < n; ++i) {
      std::string segment;
      for (int k = 0; k < 3; ++k) segment += "abc/"[rng() % 4];
      std::string pattern = "/*" + segment + RandomString(rng, "abc/", 3);
      if (rng() % 3 == 0) pattern += "*" + RandomString(rng, "abc", 3);
      if (rng() % 4 == 0) pattern = "/" + RandomString(rng, "abc", 4);
      if (rng() % 5 == 0) pattern += "$";
      storage.push_back(pattern);
      rules.push_back(RuleFor(storage.back(), i, rng() % 2 == 0));
    }
    const RuleIndex index(rules);
    ASSERT_GT(index.block_count(), 0u) << "round " << round;
    for (int q = 0; q < 40; ++q) {
      const std::string path = "/" + RandomString(rng, "abc/", 14);
      const IndexedRule* actual = index.BestMatch(path);
      ExpectSameRank(actual, LinearScanBest(rules, storage, path), path);
      decided += actual != nullptr;
    }
  }
  EXPECT_GT(decided, 2000);  // Most lookups have a match to get right.
  EXPECT_LT(decided, 12000);
}

// The automaton (rule_dfa.h) must give BestMatch's answer: the same rule,
// not only the same rank, since the caller reports its line. Random rule
// sets over a small alphabet with '*', '$', duplicates and ties.
TEST(RuleDfa, GivesBestMatchsRuleOnRandomRuleSets) {
  std::mt19937 rng(2026);
  std::vector<std::string> storage;
  int built = 0;
  int matched = 0;
  for (int round = 0; round < 1500; ++round) {
    storage.clear();
    const int n = 1 + static_cast<int>(rng() % 40);
    storage.reserve(static_cast<std::size_t>(n));
    std::vector<IndexedRule> rules;
    for (int i = 0; i < n; ++i) {
      storage.push_back((rng() % 6 == 0 ? "" : "/") +
                        RandomString(rng, "ab/*$", 6));
      rules.push_back(RuleFor(storage.back(), i, rng() % 2 == 0));
    }
    const RuleIndex index(rules);
    if (!index.PrepareAutomaton(std::size_t{1} << 22)) continue;
    ++built;
    for (int q = 0; q < 30; ++q) {
      const std::string path = "/" + RandomString(rng, "ab/", 10);
      const IndexedRule* expected = index.BestMatch(path);
      const IndexedRule* actual = index.BestMatchByAutomaton(path);
      ASSERT_EQ(actual, expected) << "round " << round << " path " << path;
      matched += expected != nullptr;
    }
  }
  EXPECT_GT(built, 1400);  // Small sets always fit the budget.
  EXPECT_GT(matched, 10000);
  EXPECT_LT(matched, 44000);
}

TEST(RuleDfa, StopsAtMarkedBytesAndOtherwiseAgrees) {
  std::vector<std::string> storage = {"/a*b", "/a$", "/*xy", "/ab/cd"};
  std::vector<IndexedRule> rules;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    rules.push_back(RuleFor(storage[i], static_cast<int>(i), i % 2 == 0));
  }
  const RuleIndex index(rules);
  ASSERT_TRUE(index.PrepareAutomaton(std::size_t{1} << 20));
  std::array<bool, 256> stop{};
  stop['%'] = true;
  const IndexedRule* best = nullptr;
  // "/ab/cd" decides before the '%' is reached: nothing can beat it.
  ASSERT_TRUE(
      index.BestMatchByAutomatonUnlessStopped("/ab/cd%zz", stop, &best));
  EXPECT_EQ(best, index.BestMatch("/ab/cd%zz"));
  EXPECT_NE(best, nullptr);
  // "/a%" could still become "/a*b" or "/*xy": the walk must give up.
  EXPECT_FALSE(index.BestMatchByAutomatonUnlessStopped("/a%b", stop, &best));
  for (const char* path : {"/a", "/ab", "/axy", "/b", "/ab/cd", "/q"}) {
    ASSERT_TRUE(index.BestMatchByAutomatonUnlessStopped(path, stop, &best));
    EXPECT_EQ(best, index.BestMatch(path)) << path;
  }
}

// Rules of several segments ("/*x*y") are served by a second trie beside
// the automaton; a path with a byte to normalise anywhere is then refused
// (the trie reads all of it), and answers still equal BestMatch's.
TEST(RuleDfa, SeveralSegmentRulesGoToTheSecondTrie) {
  std::vector<std::string> storage = {"/a*b", "/*x*y", "/ab/cd", "/*y"};
  std::vector<IndexedRule> rules;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    rules.push_back(RuleFor(storage[i], static_cast<int>(i), i == 1));
  }
  const RuleIndex index(rules);
  ASSERT_TRUE(index.PrepareAutomaton(std::size_t{1} << 20));
  std::array<bool, 256> stop{};
  stop['%'] = true;
  const IndexedRule* best = nullptr;
  EXPECT_FALSE(
      index.BestMatchByAutomatonUnlessStopped("/ab/cd%zz", stop, &best));
  for (const char* path : {"/axy", "/xy", "/ab/cd", "/q", "/y", "/ab"}) {
    ASSERT_TRUE(index.BestMatchByAutomatonUnlessStopped(path, stop, &best));
    EXPECT_EQ(best, index.BestMatch(path)) << path;
    EXPECT_EQ(index.BestMatchByAutomaton(path), index.BestMatch(path)) << path;
  }
  EXPECT_EQ(index.BestMatch("/axy")->rule_id, 1u);  // The two-segment rule.
}

// Past its budget the index keeps answering through the trie, and a larger
// budget later builds the automaton after all.
TEST(RuleDfa, GivesUpPastItsBudgetAndRetriesOnlyWithALargerOne) {
  std::mt19937 rng(3);
  std::vector<std::string> storage;
  for (int i = 0; i < 200; ++i) {
    storage.push_back("/*" + RandomString(rng, "abcdefgh", 9) + "z");
  }
  std::vector<IndexedRule> rules;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    rules.push_back(RuleFor(storage[i], static_cast<int>(i)));
  }
  const RuleIndex index(rules);
  EXPECT_FALSE(index.PrepareAutomaton(5000));
  EXPECT_FALSE(index.PrepareAutomaton(4000));  // Not retried: smaller.
  const std::string path = "/" + storage[17].substr(2);
  EXPECT_EQ(index.BestMatchByAutomaton(path), index.BestMatch(path));
  EXPECT_NE(index.BestMatch(path), nullptr);
  ASSERT_TRUE(index.PrepareAutomaton(std::size_t{1} << 24));
  EXPECT_EQ(index.BestMatchByAutomaton(path), index.BestMatch(path));
  for (int q = 0; q < 2000; ++q) {
    const std::string probe = "/" + RandomString(rng, "abcdefghz", 14);
    ASSERT_EQ(index.BestMatchByAutomaton(probe), index.BestMatch(probe))
        << probe;
  }
}

TEST(RuleIndex, NoBlocksForShortRuns) {
  std::vector<std::string> storage = {"/*a", "/*b", "/x*y", "/z"};
  std::vector<IndexedRule> rules;
  for (std::size_t i = 0; i < storage.size(); ++i) {
    rules.push_back(RuleFor(storage[i], static_cast<int>(i)));
  }
  EXPECT_EQ(RuleIndex(rules).block_count(), 0u);
}

TEST(SegmentFinder, FindsFirstAndLastStartsLikeFindAndRfind) {
  std::mt19937 rng(31);
  int present = 0, absent = 0;
  for (int round = 0; round < 3000; ++round) {
    SegmentFinder finder;
    std::vector<std::string> segments;
    std::vector<std::uint32_t> ids;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
      std::string segment = RandomString(rng, "abc", 4);
      if (segment.empty()) segment = "a";
      segments.push_back(segment);
      ids.push_back(finder.Add(segment));  // Unsorted on purpose.
    }
    finder.Build();
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n; ++j) {
        // Equal segments share an id; different ones never do.
        EXPECT_EQ(ids[static_cast<std::size_t>(i)] ==
                      ids[static_cast<std::size_t>(j)],
                  segments[static_cast<std::size_t>(i)] ==
                      segments[static_cast<std::size_t>(j)]);
      }
    }
    const std::string text = RandomString(rng, "abcd", 24);
    std::vector<SegmentFinder::Occurrences> found;
    ASSERT_TRUE(finder.Scan(text, &found));
    ASSERT_EQ(found.size(), finder.segment_count());
    for (int i = 0; i < n; ++i) {
      const std::string& segment = segments[static_cast<std::size_t>(i)];
      const auto& at = found[ids[static_cast<std::size_t>(i)]];
      const std::size_t first = text.find(segment);
      if (first == std::string::npos) {
        EXPECT_EQ(at.first, SegmentFinder::kAbsent) << segment << " " << text;
        ++absent;
      } else {
        EXPECT_EQ(at.first, first) << segment << " in " << text;
        EXPECT_EQ(at.last, text.rfind(segment)) << segment << " in " << text;
        ++present;
      }
    }
  }
  EXPECT_GT(present, 1000);
  EXPECT_GT(absent, 1000);
}

// The same differential check with the segment filter forced on for every
// lookup: it may only skip rules that cannot match.
TEST(RuleIndex, SegmentFilterNeverChangesTheAnswer) {
  std::mt19937 rng(11);
  int filtered_indexes = 0, matched = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<std::string> storage;
    std::uniform_int_distribution<int> count(1, 30);
    const int n = count(rng);
    storage.reserve(static_cast<std::size_t>(n));
    std::vector<IndexedRule> rules;
    for (int i = 0; i < n; ++i) {
      storage.push_back("/" + RandomString(rng, "abc*$", 8));
      rules.push_back(RuleFor(storage.back(), i, rng() % 2 == 0));
    }
    const RuleIndex index(rules, SegmentFilterPolicy{1, 0});
    filtered_indexes += index.has_segment_filter();
    for (int q = 0; q < 20; ++q) {
      const std::string path = "/" + RandomString(rng, "abc", 10);
      const IndexedRule* expected = nullptr;
      for (const IndexedRule& r : rules) {
        if (!ReferencePatternMatches(path, storage[r.rule_id])) continue;
        if (expected == nullptr || internal::Beats(r, *expected)) expected = &r;
      }
      const IndexedRule* actual = index.BestMatch(path);
      ASSERT_EQ(actual == nullptr, expected == nullptr)
          << path << " rules " << n;
      if (actual != nullptr) {
        ++matched;
        EXPECT_EQ(actual->priority, expected->priority) << path;
        EXPECT_EQ(actual->allow, expected->allow) << path;
      }
    }
  }
  EXPECT_GT(filtered_indexes, 2000);
  EXPECT_GT(matched, 10000);
}

TEST(RuleIndex, BuildsTheSegmentFilterOnlyForManyWildcardRules) {
  std::vector<std::string> storage;
  storage.reserve(200);
  auto index_of = [&storage](int count) {
    std::vector<IndexedRule> rules;
    storage.clear();
    for (int i = 0; i < count; ++i) {
      storage.push_back("/*ab*" + std::to_string(i));
      rules.push_back(RuleFor(storage.back(), i));
    }
    return RuleIndex(rules);
  };
  EXPECT_FALSE(index_of(10).has_segment_filter());
  const RuleIndex many = index_of(200);
  EXPECT_TRUE(many.has_segment_filter());
  // The benchmark's adversarial shape: "ab" never occurs, so nothing
  // matches, whether or not the filter ran.
  const std::string adversarial = "/0123456789b" + std::string(300, 'a');
  EXPECT_EQ(many.BestMatch(adversarial), nullptr);
  const IndexedRule* hit = many.BestMatch("/x/ab/199");
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(storage[hit->rule_id], "/*ab*199");
}

// The filter is built by whichever lookup first needs it; lookups from
// several threads at once (a shared, immutable RobotsTxt) must all see it
// whole.
TEST(RuleIndex, SegmentFilterBuiltOnceUnderConcurrentLookups) {
  std::vector<std::string> storage;
  storage.reserve(300);
  std::vector<IndexedRule> rules;
  for (int i = 0; i < 300; ++i) {
    storage.push_back("/*ab*" + std::to_string(i) + "$");
    rules.push_back(RuleFor(storage.back(), i));
  }
  for (int round = 0; round < 20; ++round) {
    const RuleIndex index(rules);
    ASSERT_TRUE(index.has_segment_filter());
    std::vector<std::thread> threads;
    std::vector<int> wrong(4, 0);
    for (int t = 0; t < 4; ++t) {
      threads.emplace_back([&index, &storage, &wrong, t] {
        for (int i = 0; i < 300; i += 7) {
          const std::string path = "/q/ab/" + std::to_string(i);
          const IndexedRule* hit = index.BestMatch(path);
          // "/*ab*N$" for N = i and for every suffix of i's digits match;
          // the longest pattern wins.
          if (hit == nullptr ||
              storage[hit->rule_id] != "/*ab*" + std::to_string(i) + "$") {
            ++wrong[static_cast<std::size_t>(t)];
          }
        }
      });
    }
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(wrong, std::vector<int>(4, 0));
  }
}

// Whole files with enough wildcard rules in one group that RobotsTxt's
// index builds its segment filter (default policy) and long enough paths
// that lookups use it: verdicts must still equal the reference's.
TEST(RobotsTxtDifferential, ManyWildcardRulesThroughTheSegmentFilter) {
  std::mt19937 rng(2026);
  int disallowed = 0, allowed = 0;
  for (int round = 0; round < 150; ++round) {
    std::string body = "User-agent: *\n";
    std::uniform_int_distribution<int> rules(64, 160);
    const int n = rules(rng);
    for (int i = 0; i < n; ++i) {
      body += rng() % 3 == 0 ? "Allow: /" : "Disallow: /";
      body += RandomString(rng, "abc*", 3) + "*" + RandomString(rng, "abc", 3) +
              "*" + RandomString(rng, "abc*$", 4) + "\n";
    }
    ParseOptions options;
    options.compat = Compat::kGoogle;
    const RobotsTxt robots = RobotsTxt::Parse(body, options);
    for (int q = 0; q < 40; ++q) {
      const std::string url =
          "http://example.com/" + RandomString(rng, "abc", 40);
      const bool expected = testing::ReferenceAllowedGoogle(body, "bot", url);
      ASSERT_EQ(robots.IsAllowedFor("bot", url), expected)
          << "url=" << url << "\n"
          << body;
      (expected ? allowed : disallowed) += 1;
    }
  }
  EXPECT_GT(disallowed, 500);
  EXPECT_GT(allowed, 500);
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
