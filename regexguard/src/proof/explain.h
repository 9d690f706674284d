// Private: turns a confirmed attack candidate into culprit spans, a sentence
// saying why the pattern explodes, and mechanical fix hints.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_EXPLAIN_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_EXPLAIN_H_

#include <string>

#include "automaton/ambiguity.h"
#include "automaton/nfa.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::internal {

void Explain(const Nfa& nfa, const AttackCandidate& candidate,
             AnalysisReport* report);

// `text` in double quotes with C-style escapes for control characters.
std::string Quote(const std::string& text);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_EXPLAIN_H_
