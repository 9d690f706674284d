// Analyzer fuzzer: parse, automaton, ambiguity analysis and PCRE2 proof
// under tight budgets; must never crash, hang or claim a finding without an
// attack.
#include <cstdlib>

#include "fuzz_input.h"
#include "robotscan/regexguard/analyzer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size > 512) return 0;  // long inputs only slow the search down
  const auto input = robotscan::regexguard::fuzz::DecodeFuzzInput(data, size);
  robotscan::regexguard::AnalyzeOptions options;
  options.parse = input.options;
  options.time_budget_seconds = 0.2;
  options.max_steps_per_run = 100000;
  options.max_subject_length = 2000;
  options.max_nfa_states = 500;
  options.max_candidates = 4;
  options.measure_jit = false;
  const auto report =
      robotscan::regexguard::AnalyzePattern(input.pattern, options);
  const bool finding =
      report.verdict == robotscan::regexguard::Verdict::kExponential ||
      report.verdict == robotscan::regexguard::Verdict::kPolynomial;
  if (finding && (!report.attack || report.measurements.empty())) std::abort();
  if (!finding && report.attack) std::abort();
  (void)robotscan::regexguard::FormatTextReport(report);
  return 0;
}
