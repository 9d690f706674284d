// Scanning source trees for dangerous regexes: the library behind
// `regexguard scan` (docs/regexguard.md, "Scanning source trees").
//
// ScanSources lists the source files (git's listing of a work tree, or the
// staged files), extracts their regex literals (extract.h), analyzes each
// distinct (pattern, flags, dialect, anchored use) once, reusing the
// persistent cache, classifies every literal into a severity and a rule,
// and matches the findings against a baseline. What is printed, and how, is
// the caller's: the command line turns a ScanReport into text, JSON Lines
// or SARIF and an exit status.
//
// Severities and rule ids (the ids are SARIF rule ids, see ScanRules):
//   error    regexguard/exponential      exponential backtracking
//   warning  regexguard/polynomial       polynomial inside one match
//                                        (polynomial_severity: error)
//   warning  regexguard/search-restart   quadratic only via the search loop
//   warning  regexguard/budget-exceeded  analysis ran out: not proven safe
//   note     regexguard/naive-only       PCRE2 as shipped survives, a naive
//                                        backtracker does not
//   note     regexguard/unknown          undecided: ambiguous without a
//                                        confirmed attack, or bad syntax
//   note     regexguard/info             linear engine (Go/RE2): no ReDoS
//   error    regexguard/injection        a pattern built from a request
//                                        value without escaping
//                                        (injection.h); a warning for Go,
//                                        whose engine cannot backtrack
// Notes other than naive-only are reported only with show_info.
//
// Settings come from ScanOptions, then the configuration file
// (.regexguard.toml or .regexguard.yaml, found upward from the current
// directory), then the defaults: fail level error, polynomial warning,
// 1 second per distinct pattern.
//
// Usage:
//   robotscan::regexguard::ScanOptions options;
//   options.paths = {"src"};
//   options.jobs = 2;
//   const auto report = robotscan::regexguard::ScanSources(options);
//   if (!report) { /* report.status().message(): bad config, unreadable path */
//   } for (const auto& finding : report->findings) {
//     if (finding.reported) { /* finding.path, .line, .rule, .message */ }
//   }
//   return report->failing ? 1 : 0;
//
// Cost: extraction is linear in the sources; each distinct pattern is
// analyzed at most once per run (bounded by its time budget, see
// analyzer.h), in `jobs` threads; a cached verdict costs one small file read.
//
// Thread safety: ScanSources may run concurrently with itself; it reads the
// current directory, runs git and writes the cache folder (each entry
// written whole under a temporary name, so concurrent scans are safe).
#ifndef ROBOTSCAN_REGEXGUARD_SCAN_H_
#define ROBOTSCAN_REGEXGUARD_SCAN_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/extract.h"
#include "robotscan/regexguard/injection.h"
#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard {

// Ordered so that `severity >= threshold` reads naturally.
enum class Severity { kNone, kNote, kWarning, kError };

// "error", "warning", "note", "none".
std::string_view SeverityName(Severity severity);
// "error", "warning", "note"; nullopt for anything else.
std::optional<Severity> SeverityFromName(std::string_view name);

// What a scan needs of one analysis, and what the cache keeps of it.
struct PatternVerdict {
  Verdict verdict = Verdict::kUnknown;
  int degree = 0;
  Cause cause = Cause::kNone;
  std::optional<Attack> attack;
  std::string reason;  // why unknown (unknown_reason or the error message)
  // AnalysisReport::unknown_code. Not kept by the analysis cache, which
  // never stores a verdict whose budget ran out.
  StatusCode reason_code = StatusCode::kOk;
  // A PCRE pattern PCRE2 as shipped (interpreter and JIT, both searches
  // exhausted) survives but a naive backtracker does not: the growth there
  // ("exponential", "polynomial degree 2") and its attack.
  std::string naive_only_growth;
  std::optional<Attack> naive_only_attack;
  // AnalysisReport::versions: the engine versions (or options) for which
  // the verdict holds, when not every one.
  std::string versions;

  // True when the analysis ran out of its budget (reason_code
  // kBudgetExceeded; the reason then starts "budget exceeded").
  bool BudgetExceeded() const;
};

PatternVerdict VerdictOf(const AnalysisReport& report);

// The severity, rule and wording of an analyzed literal; severity kNone
// (empty rule) for a safe one.
struct Classification {
  Severity severity = Severity::kNone;
  std::string rule;     // "regexguard/exponential", ...
  std::string message;  // "exponential backtracking (ReDoS)", ...
};

// `polynomial` is the severity of polynomial backtracking inside one match
// (search-restart polynomials are always warnings).
Classification ClassifyVerdict(const PatternVerdict& verdict,
                               Severity polynomial);

// One rule of the catalogue above, as SARIF describes rules.
struct RuleDescription {
  std::string_view id;    // "regexguard/exponential"
  std::string_view name;  // "ExponentialBacktracking"
  std::string_view summary;
  Severity default_severity = Severity::kNote;
};

// Every rule `scan` and `check` report, in a fixed order.
std::span<const RuleDescription> ScanRules();

struct ScanOptions {
  // Files or directories; empty means ".". With `staged`, pathspecs that
  // limit the staged files.
  std::vector<std::string> paths;
  bool staged = false;  // the staged content of the git index
  bool use_git = true;  // list directories with git ls-files when able
  // Unset values come from the configuration file, then the defaults.
  std::optional<Severity> fail_level;           // default kError
  std::optional<Severity> polynomial_severity;  // default kWarning
  // Severity of regex injection (kError, kWarning, or kNone: not looked
  // for); default kError. Go's are at most warnings.
  std::optional<Severity> injection_severity;
  std::optional<double> timeout_seconds;  // default 1
  unsigned jobs = 1;                      // threads for reading and analyzing
  bool show_info = false;   // report notes (Go/RE2 literals, unknowns)
  std::string config_file;  // empty: search .regexguard.toml upward
  bool no_config = false;
  std::string baseline;        // empty: the configuration's, if any
  std::string write_baseline;  // record the findings here instead
  std::string cache_dir;       // empty: DefaultCacheDirectory()
  bool no_cache = false;
  // The engine releases to judge for (AnalyzeOptions::engine_versions);
  // each engine set here overrides the configuration's `engine-versions`,
  // and an engine set in neither means every version.
  EngineVersions engine_versions;
};

// One regex literal found, whether reported or not, or one regex injection
// (then `injection` is set, and `literal` holds the pattern argument as
// written in `pattern`, the sink in `call`, its dialect and suppression).
struct Finding {
  std::string path;        // as listed (relative to the current directory)
  std::size_t line = 0;    // 1-based, of the literal's start
  std::size_t column = 0;  // 1-based, in bytes
  RegexLiteral literal;    // pattern, flags, dialect, call, suppression
  Severity severity = Severity::kNone;
  std::string rule;  // empty for kNone
  // The sentence the finding is reported with: "exponential backtracking
  // (ReDoS) in regex \"^(a+)+$\" (re.compile, python)"; empty for kNone.
  std::string message;
  // The analysis, absent for suppressed and informational literals.
  std::optional<PatternVerdict> verdict;
  // The attack that proves the finding (for naive-only notes, the naive
  // backtracker's), and whether it is that one.
  std::optional<Attack> attack;
  bool attack_on_naive_backtracker = false;
  // A regex-injection finding (rule regexguard/injection): where the
  // request value comes from and which call compiles it.
  std::optional<RegexInjection> injection;
  // Stable when lines move: a hash of the normalised path, pattern, flags
  // and dialect (SARIF partialFingerprints).
  std::string fingerprint;
  bool baselined = false;  // a warning or error the baseline accepts
  // Shown to the user: a severity, not baselined, and a note only with
  // show_info (naive-only notes always).
  bool reported = false;
};

// "attack: \"prefix\" + \"pump\" * n + \"suffix\"" (with " (naive
// backtracker)" for that attack), or "" when the finding has no attack.
std::string DescribeAttack(const Finding& finding);

struct ScanReport {
  // Every literal in file order and position order within a file
  // (informational literals only with show_info).
  std::vector<Finding> findings;
  bool failing = false;  // a reported finding at or above the fail level
  bool baseline_applied = false;  // findings were matched against one
  // With ScanOptions::write_baseline: the number of findings written (no
  // baseline is then applied and nothing fails).
  std::optional<std::size_t> baseline_written;
  std::size_t files = 0;     // source files read
  std::size_t distinct = 0;  // distinct analyses needed
  std::size_t cache_hits = 0;
  std::size_t errors = 0;  // reported findings per severity
  std::size_t warnings = 0;
  std::size_t notes = 0;
  std::size_t baselined = 0;
};

// Errors: kInvalidArgument for a bad configuration file, kIoError for an
// unreadable path, a failed git listing (staged mode), or a baseline that
// cannot be read, parsed or written.
Result<ScanReport> ScanSources(const ScanOptions& options);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_SCAN_H_
