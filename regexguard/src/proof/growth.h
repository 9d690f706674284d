// Private: runs an attack for growing pump counts and fits the growth of the
// counted PCRE2 steps. Decisions use only step counts, never time.
//
// Doubling phase: n = 1, 2, 4, ... until a run exceeds the step budget or the
// subject would exceed the length limit. When the budget is hit at small n
// (fast growth), a linear phase measures consecutive n to tell exponential
// (the per-pump ratio stays constant) from high-degree polynomial (the
// per-pump ratio decays like 1 + k/n).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_GROWTH_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_GROWTH_H_

#include <chrono>
#include <cstddef>
#include <vector>

#include "proof/pcre2_engine.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::internal {

struct GrowthLimits {
  RunLimits run;  // run.deadline bounds the whole measurement
  std::size_t max_subject_length = 20000;
};

// Measures `attack` on `engine`; fills points, growth, exponent and degree.
EngineMeasurement MeasureGrowth(CompiledPcre2& engine, const Attack& attack,
                                bool anchored, bool global,
                                const GrowthLimits& limits);

// Classifies already measured points (exposed for tests).
void ClassifyGrowth(EngineMeasurement* measurement);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_GROWTH_H_
