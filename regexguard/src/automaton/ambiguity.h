// Private: static ambiguity analysis of the position automaton, producing
// attack candidates for the dynamic proof.
//
// For a word w, let M_w be the graph on states with an edge p -> q for every
// path from p to q reading w (multiplicity kept up to 2). Then
//  * EDA on w (exponential): some strongly connected component of M_w has
//    more edge multiplicity than nodes, i.e. two distinct loops through one
//    state on the same word w^k;
//  * IDA on w (degree k): a chain of k nontrivial components joined by edges
//    of M_w: each extra w can be spent in any of k loops.
// Unanchored search is modelled as a loop on every word at the initial
// state, so a chain that starts there is the search-restart polynomial.
// Candidate words: every character class representative (minterm), the
// shortest cycle of every loop, and the shortest word entering every loop.
// Bounded by AmbiguityBudget; the analysis never runs longer than that.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_AMBIGUITY_H_
#define ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_AMBIGUITY_H_

#include <cstddef>
#include <string>
#include <vector>

#include "automaton/nfa.h"

namespace robotscan::regexguard::internal {

enum class SuspectedGrowth { kExponential, kPolynomial };

struct AttackCandidate {
  SuspectedGrowth growth = SuspectedGrowth::kPolynomial;
  int degree = 0;  // number of loops in the chain (polynomial)
  bool uses_search_loop = false;
  std::u32string prefix;
  std::vector<std::u32string> alternative_prefixes;  // tried after `prefix`
  std::u32string pump;
  std::vector<std::u32string> suffixes;  // best first
  // States of the loops involved, one group per loop (search loop omitted).
  std::vector<std::vector<int>> loop_states;
};

struct AmbiguityBudget {
  std::size_t max_words = 96;           // candidate words analyzed
  std::size_t max_graph_nodes = 20000;  // nodes of one M_w
  std::size_t max_work = 4000000;       // state visits over all words
  std::size_t max_candidates = 12;
};

struct AmbiguityResult {
  std::vector<AttackCandidate> candidates;  // most dangerous first
  bool budget_exhausted = false;
  std::size_t words_analyzed = 0;
};

AmbiguityResult FindAmbiguity(const Nfa& nfa, bool search_loop,
                              const AmbiguityBudget& budget);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_AMBIGUITY_H_
