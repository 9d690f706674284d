// Private: runs the same attack inputs through RE2 (a linear-time automaton
// engine) to show the regex can be moved to one, or that RE2 refuses it.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_RE2_ENGINE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_RE2_ENGINE_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::internal {

struct Re2Input {
  std::string subject;
  bool pcre2_matched = false;
};

// `pattern` is the PCRE2 spelling from ToPcre2Pattern; RE2 accepts most of
// it and refuses back references, lookaround, atomic groups, \Z and counts
// above 1000, which is exactly what cannot move to a linear engine as is.
Re2Comparison CompareWithRe2(const std::string& pattern,
                             const std::vector<Re2Input>& inputs,
                             bool anchored);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_RE2_ENGINE_H_
