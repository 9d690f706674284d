// Static analysis: which patterns yield exponential / polynomial candidates,
// and which yield none.
#include "automaton/ambiguity.h"

#include <gtest/gtest.h>

#include <string>

namespace robotscan::regexguard::internal {
namespace {

struct Case {
  const char* pattern;
  // Expected strongest suspicion: "exponential", "polynomial", "none".
  const char* expected;
  int min_degree;
};

std::string Strongest(const char* pattern, int* degree) {
  ParseOptions options;
  options.dialect = Dialect::kJavaScript;
  Result<ParsedPattern> parsed = ParsePattern(pattern, options);
  EXPECT_TRUE(parsed) << pattern;
  Result<Nfa> nfa = BuildNfa(*parsed->root, {});
  EXPECT_TRUE(nfa) << pattern;
  const AmbiguityResult result =
      FindAmbiguity(*nfa, !parsed->anchored_at_start, {});
  EXPECT_FALSE(result.budget_exhausted) << pattern;
  *degree = 0;
  std::string strongest = "none";
  for (const AttackCandidate& c : result.candidates) {
    EXPECT_FALSE(c.pump.empty()) << pattern;
    EXPECT_FALSE(c.suffixes.empty()) << pattern;
    if (c.growth == SuspectedGrowth::kExponential) return "exponential";
    strongest = "polynomial";
    *degree = std::max(*degree, c.degree);
  }
  return strongest;
}

TEST(AmbiguityTest, FindsTheKnownShapes) {
  const Case cases[] = {
      {"^(a+)+$", "exponential", 0},
      {"^(a|a)*$", "exponential", 0},
      {"^(\\w+\\s?)+$", "exponential", 0},
      {"^([a-z][a-z]?[a-z]?\\.)*$", "exponential", 0},  // word "aa."
      {"^\\d+\\d+$", "polynomial", 2},
      {"^a*a*a*$", "polynomial", 3},
      {"\\s+$", "polynomial", 2},  // search-restart
      {"^abc$", "none", 0},
      {"^[a-z]+@[0-9]+$", "none", 0},
      {"^(ab)*$", "none", 0},
  };
  for (const Case& c : cases) {
    int degree = 0;
    EXPECT_EQ(Strongest(c.pattern, &degree), c.expected) << c.pattern;
    EXPECT_GE(degree, c.min_degree) << c.pattern;
  }
}

TEST(AmbiguityTest, ExponentialCandidateCarriesPrefixAndPump) {
  Result<ParsedPattern> parsed = ParsePattern("^x(ab|a|b)*!$", {});
  ASSERT_TRUE(parsed);
  Result<Nfa> nfa = BuildNfa(*parsed->root, {});
  ASSERT_TRUE(nfa);
  const AmbiguityResult result = FindAmbiguity(*nfa, false, {});
  ASSERT_FALSE(result.candidates.empty());
  const AttackCandidate& first = result.candidates.front();
  EXPECT_EQ(first.growth, SuspectedGrowth::kExponential);
  EXPECT_EQ(first.prefix.substr(0, 1), U"x");
  EXPECT_NE(first.pump.find(U'b'), std::u32string::npos);
}

}  // namespace
}  // namespace robotscan::regexguard::internal
