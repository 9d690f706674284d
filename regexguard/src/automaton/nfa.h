// Private: the epsilon-free position automaton (Glushkov NFA) of a pattern.
//
// State 0 is the initial state; every other state is one character position
// of the (repetition-expanded) pattern and is entered by reading a character
// from its set. Assertions, lookarounds and back references consume nothing
// and are modelled as the empty string, which over-approximates the language:
// ambiguity found here is only a suspicion until PCRE2 confirms it, and
// `approximations` says what was simplified.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_NFA_H_
#define ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_NFA_H_

#include <cstddef>
#include <string>
#include <vector>

#include "robotscan/regexguard/status.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

struct NfaState {
  CodePointSet chars;            // what entering this state reads
  const Node* origin = nullptr;  // the kCharacters node it copies
  // Unbounded or counted repeats enclosing this position, outermost first.
  std::vector<const Node*> loops;
  std::vector<int> next;  // sorted, unique
  // multiplicity[i]: in how many ways (capped at 2) the construction
  // derives the edge to next[i]. Nested loops such as (a+)+ derive the same
  // edge twice; this is the ambiguity a backtracker pays for, which a plain
  // set of edges would hide.
  std::vector<unsigned char> multiplicity;
};

struct Nfa {
  std::vector<NfaState> states;  // states[0] is the initial state
  std::vector<bool> accepting;
  std::vector<std::string> approximations;  // e.g. "lookaround ignored"
  // Lookaround bodies that contain unbounded repetition: their own work is
  // not modelled by this automaton.
  bool has_unmodelled_loops = false;
  std::size_t edge_count = 0;
};

struct NfaBudget {
  std::size_t max_states = 3000;
  std::size_t max_edges = 300000;
  // A counted repetition is expanded into copies while it adds at most this
  // many positions; beyond that {n,m} is approximated by {min(n,k),}.
  std::size_t max_positions_per_repeat = 400;
};

Result<Nfa> BuildNfa(const Node& root, const NfaBudget& budget);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_AUTOMATON_NFA_H_
