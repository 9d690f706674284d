// Output formats of `regexguard check` (text, JSON Lines, SARIF 2.1.0) and
// the SARIF log of `regexguard scan`.
//
// JSON Lines contract (one object per input pattern, in input order):
//   pattern  string   the pattern as given
//   verdict  string   "exponential" | "polynomial" | "safe" | "unknown"
//   degree   int|null polynomial degree (2 = quadratic), else null
//   attack   {prefix, pump, suffix} strings, or null
//   steps    {config: [{n, length, steps, exceeded, matched, seconds}]}
//            PCRE2 steps per pump count, for "pcre2", "pcre2-naive",
//            "pcre2-jit" (seconds: informational wall time)
// plus complexity ("polynomial(2)", ...), cause, dialect, engines, re2,
// culprits, explanation, fix_hints, reason, error, id and line when known.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "input.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::cli {

nlohmann::json ReportToJson(const AnalysisReport& report,
                            const PatternInput& input);

nlohmann::json ReportsToSarif(const std::vector<AnalysisReport>& reports,
                              const std::vector<PatternInput>& inputs,
                              const std::string& artifact_uri);

// One finding of `regexguard scan`, as SARIF needs it.
struct ScanResult {
  std::string rule_id;  // "regexguard/exponential", ... (see ScanRules)
  std::string level;    // "error" | "warning" | "note"
  std::string message;  // includes the attack when there is one
  std::string path;     // as reported; becomes a relative or file:// URI
  std::size_t line = 0;
  std::size_t column = 0;
  std::string fingerprint;  // stable when lines move (the baseline key)
};

// SARIF 2.1.0 log with one run, every scan rule, and `results` in order.
nlohmann::json ScanResultsToSarif(const std::vector<ScanResult>& results);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_
