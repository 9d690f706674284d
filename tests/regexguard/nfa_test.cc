// Position automaton: sizes, acceptance, and edge multiplicity of nested
// loops (the ambiguity a backtracker pays for).
#include "automaton/nfa.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace robotscan::regexguard::internal {
namespace {

Nfa Build(const std::string& pattern) {
  Result<ParsedPattern> parsed = ParsePattern(pattern, {});
  EXPECT_TRUE(parsed) << pattern;
  // The tree must outlive the automaton's origin pointers only while the
  // test inspects sets, which are copied; keep the tree alive anyway.
  static std::vector<ParsedPattern> keep;
  keep.push_back(std::move(parsed.value()));
  Result<Nfa> nfa = BuildNfa(*keep.back().root, {});
  EXPECT_TRUE(nfa) << pattern;
  return std::move(nfa.value());
}

// Runs the automaton as a recogniser of whole strings.
bool Accepts(const Nfa& nfa, const std::u32string& text) {
  std::vector<int> current{0};
  for (const char32_t c : text) {
    std::vector<int> next;
    for (const int s : current) {
      for (const int t : nfa.states[s].next) {
        if (nfa.states[t].chars.Contains(c) &&
            std::find(next.begin(), next.end(), t) == next.end()) {
          next.push_back(t);
        }
      }
    }
    current = next;
  }
  return std::any_of(current.begin(), current.end(),
                     [&](int s) { return nfa.accepting[s]; });
}

TEST(NfaTest, OneStatePerCharacterPosition) {
  const Nfa nfa = Build("ab|c*");
  EXPECT_EQ(nfa.states.size(), 4u);  // initial + a, b, c
  EXPECT_TRUE(nfa.accepting[0]);     // c* accepts the empty string
}

TEST(NfaTest, RecognisesTheSameStrings) {
  const Nfa nfa = Build("a(b|cd)*e{2,3}");
  EXPECT_TRUE(Accepts(nfa, U"aee"));
  EXPECT_TRUE(Accepts(nfa, U"abcdbeee"));
  EXPECT_FALSE(Accepts(nfa, U"ae"));
  EXPECT_FALSE(Accepts(nfa, U"aeeee"));
  EXPECT_FALSE(Accepts(nfa, U"acee"));
}

TEST(NfaTest, CountedRepetitionIsExpandedWithoutAmbiguity) {
  const Nfa nfa = Build("a{0,3}");
  EXPECT_EQ(nfa.states.size(), 4u);
  for (const NfaState& state : nfa.states) {
    for (const unsigned char m : state.multiplicity) EXPECT_EQ(m, 1);
  }
}

TEST(NfaTest, NestedLoopsDeriveTheSelfLoopTwice) {
  const Nfa nfa = Build("(a+)+");
  ASSERT_EQ(nfa.states.size(), 2u);
  const NfaState& a = nfa.states[1];
  ASSERT_EQ(a.next, std::vector<int>{1});
  EXPECT_EQ(a.multiplicity[0], 2);
  const Nfa single = Build("a+");
  EXPECT_EQ(single.states[1].multiplicity[0], 1);
}

TEST(NfaTest, StateBudgetIsEnforced) {
  Result<ParsedPattern> parsed = ParsePattern(std::string(500, 'a'), {});
  ASSERT_TRUE(parsed);
  NfaBudget budget;
  budget.max_states = 100;
  Result<Nfa> nfa = BuildNfa(*parsed->root, budget);
  ASSERT_FALSE(nfa);
  EXPECT_EQ(nfa.status().code(), StatusCode::kBudgetExceeded);
}

TEST(NfaTest, HugeCountedRepetitionIsApproximated) {
  Result<ParsedPattern> parsed = ParsePattern("(ab){1000,60000}", {});
  ASSERT_TRUE(parsed);
  Result<Nfa> nfa = BuildNfa(*parsed->root, {});
  ASSERT_TRUE(nfa);
  EXPECT_LT(nfa->states.size(), 1000u);
  EXPECT_FALSE(nfa->approximations.empty());
}

}  // namespace
}  // namespace robotscan::regexguard::internal
