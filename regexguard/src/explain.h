// Private: turns a confirmed attack candidate into culprit spans, a sentence
// saying why the pattern explodes, and mechanical fix hints.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_EXPLAIN_H_
#define ROBOTSCAN_REGEXGUARD_SRC_EXPLAIN_H_

#include "ambiguity.h"
#include "nfa.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::internal {

void Explain(const Nfa& nfa, const AttackCandidate& candidate,
             AnalysisReport* report);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_EXPLAIN_H_
