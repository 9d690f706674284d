// Private: the attack search on one PCRE2 configuration, the proof stage of
// AnalyzePattern (analyzer.cc).
//
// The ambiguity search's candidates (automaton/ambiguity.h) become attempts,
// concrete inputs prefix + pump * n + suffix: each failing suffix, and
// variants that get past PCRE2's start-up checks. Every attempt is probed
// once at a moderate size in counted steps; the promising ones are then
// measured for growing n (growth.h), steepest first, until one is proven or
// none is left. Decisions use counted steps only; the CPU-time budget only
// cuts a search short (SearchOutcome::out_of_time).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_ATTACK_SEARCH_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_ATTACK_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "automaton/ambiguity.h"
#include "proof/cpu_budget.h"
#include "proof/growth.h"
#include "proof/pcre2_engine.h"
#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

// True for exponential and polynomial growth.
bool Explodes(const EngineMeasurement& m);

// Growth ordering used to keep the worst confirmed attack: exponential
// above every polynomial, polynomials by degree.
int GrowthRank(const EngineMeasurement& m);

// One way to turn a candidate into an input, with what the probes saw.
struct Attempt {
  Attack attack;
  const AttackCandidate* candidate = nullptr;
  std::uint64_t probe_steps = 0;
  std::size_t probe_length = 0;
  bool exponential_plausible = false;
  double probe_exponent = 0;  // local growth exponent between probes
};

// Every way to turn the candidates into inputs, in candidate order.
std::vector<Attempt> BuildAttempts(const AmbiguityResult& ambiguity,
                                   const ParsedPattern& parsed);

// The attempts without repeated inputs (different candidates can spell the
// same one), first occurrence kept.
std::vector<Attempt> Deduplicated(std::vector<Attempt> attempts);

// True when the probe did far more work than a linear attack would.
bool Promising(const Attempt& a);

// What one configuration's search found.
struct SearchOutcome {
  // The attempts as probed, most promising first (a model that only removes
  // work, the JIT's, need not look at the others).
  std::vector<Attempt> probed;
  std::optional<EngineMeasurement> best;
  std::optional<Attack> attack;
  const AttackCandidate* candidate = nullptr;
  bool out_of_time = false;
  bool cut_short = false;  // exponential candidates skipped by the cap
  std::size_t measured = 0;
  std::size_t shapes = 0;
};

// The attack search on `engine`: probes every attempt (and start-up
// variants of those PCRE2 rejects unseen), then measures the most promising
// ones in order until one is proven or none is left.
SearchOutcome SearchAttack(CompiledPcre2& engine, std::vector<Attempt> attempts,
                           const StartupFacts& startup, bool anchored,
                           bool global, const GrowthLimits& limits,
                           const CpuBudget& deadline);

// A configuration's verdict from its own search.
ConfigVerdict FromSearch(EngineConfig config, const SearchOutcome& outcome);
// A configuration's verdict from one measurement of another's attack.
ConfigVerdict FromMeasurement(EngineConfig config, const Attack& attack,
                              EngineMeasurement m);
// A configuration that could not be run (no JIT, or PCRE2 refused it).
ConfigVerdict Unavailable(EngineConfig config);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_ATTACK_SEARCH_H_
