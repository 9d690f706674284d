// Output formats of `regexguard check` (JSON Lines, SARIF 2.1.0; text is
// the library's FormatTextReport) and of `regexguard scan` (JSON Lines,
// SARIF 2.1.0).
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
// culprits, explanation, fix_hints, reason, error, id and line when known;
// versions (the engine versions the verdict holds for, or null),
// defended_by (the engine defence that made it safe, or null) and defences
// (each defence of the dialect's engine and its reach: engine_versions.h).
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "input.h"
#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/scan.h"

namespace robotscan::regexguard::cli {

nlohmann::json ReportToJson(const AnalysisReport& report,
                            const PatternInput& input);

nlohmann::json ReportsToSarif(const std::vector<AnalysisReport>& reports,
                              const std::vector<PatternInput>& inputs,
                              const std::string& artifact_uri);

// One JSON Lines row of `regexguard scan --format json`: every literal
// found, reported or not ("baselined" only when a baseline was applied).
nlohmann::json FindingToJson(const Finding& finding, bool with_baseline);

// SARIF 2.1.0 log of `regexguard scan`: one run, every rule, and a result
// per reported finding, in order.
nlohmann::json FindingsToSarif(const std::vector<Finding>& findings);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_OUTPUT_H_
