// regexguard's analyzer: decides whether a regex can take super-linear time
// in a backtracking engine, and proves it.
//
// Pipeline: ParsePattern (syntax.h) -> an epsilon-free position automaton
// (Glushkov NFA, classes as code-point ranges) -> static ambiguity analysis
// (EDA: two distinct loops on one word => exponential; IDA: a chain of k loops
// joined by one word => degree k; the unanchored search loop counts as a loop,
// which is the "search-restart" quadratic) -> attack candidates
// prefix . pump^n . suffix -> dynamic proof: PCRE2 runs each candidate for
// growing n, counting matcher steps with callouts summed over all start
// positions, and the growth is fitted from those counts. A regex is reported
// vulnerable only when the counted steps confirm the growth on at least one
// PCRE2 configuration that models the dialect's engine; static suspicions
// without a confirmed attack are kUnknown, never claimed.
//
// Usage:
//   AnalyzeOptions options;
//   options.parse.dialect = Dialect::kPython;
//   AnalysisReport report = AnalyzePattern(R"(^(\w+\s?)+$)", options);
//   if (report.verdict == Verdict::kExponential) {
//     std::string input = report.attack->Build(30);  // blows up
//   }
//
// Determinism: verdicts, degrees and attacks depend only on counted steps
// and fixed budgets, never on wall-clock time, except that running out of
// `time_budget_seconds` (CPU time of the calling thread, so a busy machine
// does not change it) yields kUnknown with unknown_code kBudgetExceeded.
//
// Thread safety: AnalyzePattern is reentrant and keeps no global state; call
// it from as many threads as you like.
#ifndef ROBOTSCAN_REGEXGUARD_ANALYZER_H_
#define ROBOTSCAN_REGEXGUARD_ANALYZER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/engine_versions.h"
#include "robotscan/regexguard/status.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {

enum class Verdict { kSafe, kPolynomial, kExponential, kUnknown };
std::string_view VerdictName(Verdict verdict);  // "safe", "polynomial", ...

enum class Cause {
  kNone,
  kBacktracking,   // blow-up inside one match attempt
  kSearchRestart,  // only the unanchored search loop makes it super-linear
};
std::string_view CauseName(Cause cause);  // "", "backtracking", ...

// The attack input is prefix + pump * n + suffix.
struct Attack {
  std::string prefix;
  std::string pump;
  std::string suffix;
  std::string Build(std::size_t pump_count) const;
  friend bool operator==(const Attack&, const Attack&) = default;
};

enum class EngineConfig {
  kPcre2Default,  // as shipped: auto-possessification, start optimisations
  kPcre2Naive,    // NO_AUTO_POSSESS | NO_START_OPTIMIZE | NO_DOTSTAR_ANCHOR
  kPcre2Jit,      // the JIT, default options
};
std::string_view EngineConfigName(EngineConfig config);

enum class Growth { kLinear, kPolynomial, kExponential, kUndetermined };

// One measured run: counted matcher steps on prefix + pump*n + suffix.
struct GrowthPoint {
  std::size_t pump_count = 0;
  std::size_t subject_length = 0;
  std::uint64_t steps = 0;            // callouts seen, all start positions
  bool step_budget_exceeded = false;  // `steps` is then a lower bound
  bool matched = false;
  // Wall time of the run, for information only: verdicts never use it.
  double seconds = 0;
};

struct EngineMeasurement {
  EngineConfig config = EngineConfig::kPcre2Default;
  bool available = true;  // false e.g. when the JIT is not built in
  std::vector<GrowthPoint> points;
  Growth growth = Growth::kUndetermined;
  double fitted_exponent = 0;  // local exponent k of steps ~ n^k
  int degree = 0;              // for kPolynomial
};

// How thoroughly one configuration was examined.
enum class SearchCoverage {
  // Its own attack search measured every promising attack shape within the
  // budget: "survives" is a claim about all shapes the automaton suggests.
  kExhausted,
  // Its own search stopped early (time budget, or the cap on exponential
  // candidates): a survival says nothing.
  kCutShort,
  // Not searched: only another configuration's attack was measured on it.
  kOtherAttack,
  // Not run: the JIT is unavailable, or PCRE2 refused the pattern.
  kUnavailable,
};
std::string_view SearchCoverageName(SearchCoverage coverage);

// The verdict of one engine configuration, with the attack that shows it.
struct ConfigVerdict {
  EngineConfig config = EngineConfig::kPcre2Default;
  Growth growth = Growth::kUndetermined;  // of `measurement`
  int degree = 0;                         // for kPolynomial
  std::optional<Attack> attack;           // set when growth is super-linear
  EngineMeasurement measurement;          // of `attack` (or the last tried)
  SearchCoverage coverage = SearchCoverage::kOtherAttack;
  std::size_t shapes_measured = 0;  // full growth measurements made
  // JIT only: not searched because the interpreter's exhausted search found
  // nothing, which covers the JIT (its early fail only removes work).
  bool implied_by_interpreter = false;
  bool Explodes() const {
    return growth == Growth::kExponential || growth == Growth::kPolynomial;
  }
};

struct Re2Comparison {
  bool accepted = false;     // RE2 compiled the pattern
  std::string refusal;       // RE2's error when it did not
  bool same_result = false;  // same match/no-match as PCRE2 on every input
  std::size_t inputs_compared = 0;
  double microseconds_at_longest = 0;  // informational only
};

// A quantifier or alternative involved in the blow-up.
struct Culprit {
  SourceSpan span;
  std::string role;  // e.g. "loop 1 of 2", "search loop"
};

struct AnalysisReport {
  std::string pattern;
  Dialect dialect = Dialect::kPcre;
  Verdict verdict = Verdict::kUnknown;
  int degree = 0;  // for kPolynomial: 2 = quadratic, ...
  Cause cause = Cause::kNone;
  std::optional<Attack> attack;  // set iff verdict is polynomial/exponential
  // Configurations on which an attack was confirmed (the configuration
  // that proved the verdict first), and the verdict attack measured on each
  // configuration (the proving one first).
  std::vector<EngineConfig> exploding_configs;
  std::vector<EngineMeasurement> measurements;
  // Per configuration (interpreter as shipped, JIT, naive backtracker, in
  // that order): its own verdict and how it was reached. For the pcre
  // dialect the interpreter and the JIT each get their own attack search and
  // the verdict is the worse of the two (PHP runs the JIT by default); the
  // other dialects search on the naive backtracker, the model of their
  // engines, and measure the others on its attack.
  std::vector<ConfigVerdict> configs;
  Re2Comparison re2;
  std::vector<Culprit> culprits;
  std::string explanation;             // why it explodes, in words
  std::vector<std::string> fix_hints;  // mechanical fixes, if any
  std::string unknown_reason;          // for kUnknown
  // For kUnknown, why, as a code: kBudgetExceeded when a state, edge,
  // ambiguity or time budget ran out (unknown_reason then starts "budget
  // exceeded"); the error's code when `error` is set; kUnsupported when the
  // automaton cannot model the pattern's work; kOk when the pattern is
  // ambiguous but no attack was confirmed.
  StatusCode unknown_code = StatusCode::kOk;
  std::optional<Status> error;  // invalid or unsupported pattern
  std::size_t nfa_states = 0;
  std::size_t candidates_tried = 0;
  // The defences of the dialect's engine (Ruby's memoization, .NET's
  // NonBacktracking, V8's linear engine; engine_versions.h) and whether
  // each reaches this pattern. Empty for other dialects and for patterns
  // that do not parse.
  std::vector<DefenceReach> defences;
  // The engine versions (or options) for which the verdict holds, when
  // that is not simply every one: "exponential on Ruby < 3.2; linear on
  // Ruby >= 3.2 (memoization)". Empty when no engine version, option or
  // JIT changes it.
  std::string versions;
  // Set when the engine version asked for (AnalyzeOptions::engine_versions)
  // or the `l` flag puts the pattern within a defence: the verdict is then
  // kSafe, and `configs` keep what the backtracker alone would do.
  std::optional<EngineDefence> defended_by;
};

struct AnalyzeOptions {
  ParseOptions parse;
  // Analyze for a match anchored at the start of the subject (re.match,
  // sticky) instead of an unanchored search.
  bool anchored = false;
  // Hard limit on the CPU time of the calling thread for one pattern; when
  // it runs out the verdict is kUnknown. Verdicts otherwise never depend on
  // time.
  double time_budget_seconds = 1.0;
  // Automaton budget: positions after expanding counted repetitions, and
  // follow edges. Larger automata are approximated or reported kUnknown.
  std::size_t max_nfa_states = 3000;
  std::size_t max_nfa_edges = 300000;
  // Distinct attack candidates verified dynamically, at most.
  std::size_t max_candidates = 24;
  // PCRE2 work budget for one run (callouts), and the longest subject tried.
  std::uint64_t max_steps_per_run = 500000;
  std::size_t max_subject_length = 20000;
  // PCRE2 heap and depth limits for every run (bytes / backtracking depth).
  std::uint32_t pcre2_heap_limit_kib = 64 * 1024;
  std::uint32_t pcre2_depth_limit = 100000;
  bool measure_jit = true;
  bool compare_re2 = true;
  // The engine versions to judge for (`--engine-version`); an engine left
  // unset means every version, and AnalysisReport::versions names those
  // for which the verdict holds. Ruby 3.2 or later turns a finding its
  // memoization covers into kSafe.
  EngineVersions engine_versions;
};

AnalysisReport AnalyzePattern(std::string_view pattern,
                              const AnalyzeOptions& options);

// AnalyzePattern(patterns[i], options[i]) for every i (the two vectors have
// the same length), on up to `jobs` threads; reports in input order.
std::vector<AnalysisReport> AnalyzePatterns(
    const std::vector<std::string>& patterns,
    const std::vector<AnalyzeOptions>& options, unsigned jobs);

// Human-readable report: verdict, attack, per-engine growth, the pattern with
// caret lines under the culprits, explanation and fix hints.
std::string FormatTextReport(const AnalysisReport& report);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_ANALYZER_H_
