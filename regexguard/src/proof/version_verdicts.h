// Private: the last stage of AnalyzePattern, which says for which engine
// versions (or options) a verdict holds, and the `l` flag, which puts a
// JavaScript pattern on V8's linear engine instead of its backtracker
// (engine_versions.h has the defences and their reach).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_VERSION_VERDICTS_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_VERSION_VERDICTS_H_

#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::internal {

// Fills report->versions for a finding from report->defences (or, for PCRE,
// from the interpreter's and the JIT's own verdicts), and turns the finding
// into kSafe when options.engine_versions names a Ruby whose memoization
// covers it. A finding is only called linear where the defence covers one
// match of the pattern: a search-restart or global-use finding comes from
// many searches, and is left as it is. Java's verdict is measured with its
// loop memo (or without, for java=8) and says which.
void JudgeEngineVersions(const AnalyzeOptions& options, AnalysisReport* report);

// For a pattern with the `l` flag, after parsing (report->defences set):
// kSafe when V8's linear engine takes it, else the error V8 raises (an
// invalid pattern, as V8 refuses to compile it). Returns false when the
// pattern has no `l` flag and the analysis goes on.
bool ReportLinearFlag(const AnalyzeOptions& options, AnalysisReport* report);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_VERSION_VERDICTS_H_
