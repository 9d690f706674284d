#include "proof/version_verdicts.h"

#include <optional>
#include <string>

namespace robotscan::regexguard::internal {
namespace {

bool IsFinding(const AnalysisReport& report) {
  return report.verdict == Verdict::kExponential ||
         report.verdict == Verdict::kPolynomial;
}

// "exponential", "polynomial (degree 2)".
std::string GrowthOf(const AnalysisReport& report) {
  if (report.verdict == Verdict::kExponential) return "exponential";
  return "polynomial (degree " + std::to_string(report.degree) + ")";
}

std::string GrowthOf(const ConfigVerdict& verdict) {
  if (verdict.growth == Growth::kExponential) return "exponential";
  return "polynomial (degree " + std::to_string(verdict.degree) + ")";
}

const DefenceReach* DefenceOf(const AnalysisReport& report,
                              EngineDefence defence) {
  for (const DefenceReach& reach : report.defences) {
    if (reach.defence == defence) return &reach;
  }
  return nullptr;
}

// Why a covered pattern's finding still does not turn linear: Ruby's match
// cache lives for one search, so a finding made of many searches (the
// unanchored search restarting, or every match of a global use) is not
// claimed linear. Empty when the finding is one match's backtracking.
std::string ManySearchesReason(const AnalyzeOptions& options,
                               const AnalysisReport& report) {
  if (report.cause == Cause::kSearchRestart) {
    return "the work comes from the search restarting at every position, "
           "which memoization is not claimed to remove";
  }
  if (options.parse.flags.global) {
    return "global use runs one search per match, and memoization is only "
           "claimed within one";
  }
  return "";
}

void JudgeRuby(const AnalyzeOptions& options, AnalysisReport* report) {
  const DefenceReach* memo =
      DefenceOf(*report, EngineDefence::kRubyMemoization);
  if (memo == nullptr) return;
  const std::string growth = GrowthOf(*report);
  const std::string many_searches = ManySearchesReason(options, *report);
  const std::optional<EngineVersion>& asked = options.engine_versions.ruby;
  if (!memo->reached_from) {
    report->versions = growth +
                       (asked ? " on Ruby " + EngineVersionText(*asked)
                              : std::string(" on every Ruby version")) +
                       " (memoization does not apply: " + memo->obstacle + ")";
    return;
  }
  const std::string from = EngineVersionText(*memo->reached_from);
  if (!many_searches.empty() && (!asked || *asked >= *memo->reached_from)) {
    // Measured on the backtracker only: neither the finding nor linearity
    // is claimed for the versions that memoize.
    report->versions = growth + " on Ruby < " + from +
                       "; not claimed linear on Ruby " +
                       (asked ? EngineVersionText(*asked) : ">= " + from) +
                       " (" + many_searches + ")";
    return;
  }
  if (!asked) {
    report->versions = growth + " on Ruby < " + from +
                       "; linear on Ruby >= " + from + " (memoization)";
    return;
  }
  const std::string version = EngineVersionText(*asked);
  if (*asked < *memo->reached_from) {
    report->versions = growth + " on Ruby " + version +
                       (many_searches.empty()
                            ? " (linear from Ruby " + from + " on: memoization)"
                            : std::string());
    return;
  }
  // The engine asked for memoizes this pattern: the backtracker's finding
  // does not happen there. What it would do stays in `configs`.
  report->versions = "linear on Ruby " + version + " (memoization); " + growth +
                     " on Ruby < " + from;
  report->explanation =
      "Ruby " + version +
      " memoizes the backtracking of this pattern (Regexp.linear_time? is "
      "true from Ruby " +
      from + " on): matching is linear in the input. Before Ruby " + from +
      " it is " + growth + ".";
  report->verdict = Verdict::kSafe;
  report->degree = 0;
  report->cause = Cause::kNone;
  report->attack.reset();
  report->culprits.clear();
  report->fix_hints.clear();
  report->defended_by = EngineDefence::kRubyMemoization;
}

// Opt-in defences (V8's l flag, .NET's NonBacktracking) never change the
// verdict of a pattern that does not ask for them; they say what would.
// `how` is how a program asks, or empty when the defence's name says it.
void JudgeOptIn(const DefenceReach& reach, std::string_view engine_name,
                std::string_view backtracker, std::string_view defence_name,
                std::string_view how, const std::optional<EngineVersion>& asked,
                AnalysisReport* report) {
  const std::string engine(engine_name);
  std::string versions = GrowthOf(*report) + " with " +
                         std::string(backtracker) + " (" +
                         (asked ? engine + " " + EngineVersionText(*asked)
                                : "every " + engine + " version") +
                         "); ";
  const std::string from = EngineVersionText(reach.available_from);
  if (asked && *asked < reach.available_from) {
    versions += std::string(defence_name) + " needs " + engine + " >= " + from;
  } else if (reach.reached_from) {
    versions += "linear with " + std::string(defence_name) + " (" + engine +
                " >= " + from + (how.empty() ? "" : ": " + std::string(how)) +
                ")";
  } else {
    versions += reach.obstacle;
  }
  report->versions = std::move(versions);
}

// PCRE's two engines are configurations of one version: say which of them
// the finding holds for when only one explodes and the other's own search
// was exhausted.
void JudgePcre(AnalysisReport* report) {
  if (report->configs.size() < 2) return;
  const ConfigVerdict& interpreter = report->configs[0];
  const ConfigVerdict& jit = report->configs[1];
  auto survives = [](const ConfigVerdict& v) {
    return !v.Explodes() && v.coverage == SearchCoverage::kExhausted;
  };
  if (interpreter.Explodes() && survives(jit)) {
    report->versions = GrowthOf(interpreter) +
                       " with the PCRE2 interpreter (pcre2_match); linear "
                       "with the PCRE2 JIT (early fail)";
  } else if (jit.Explodes() && survives(interpreter)) {
    report->versions = GrowthOf(jit) +
                       " with the PCRE2 JIT; linear with the PCRE2 "
                       "interpreter (pcre2_match)";
  }
}

// Java's memo is measured: the verdict is for the releases the program
// was measured as. With the memo (Java 9 and later) a verdict that is not a
// finding says so, since Java 8 may still explode; a finding there holds
// for Java 8 too, the memo only removing work.
void JudgeJava(const AnalyzeOptions& options, AnalysisReport* report) {
  const DefenceReach* memo = DefenceOf(*report, EngineDefence::kJavaLoopMemo);
  if (memo == nullptr || !memo->reached_from) return;
  const std::optional<EngineVersion>& asked = options.engine_versions.java;
  const std::string from = EngineVersionText(*memo->reached_from);
  if (asked && *asked < *memo->reached_from) {
    if (IsFinding(*report)) {
      report->versions = GrowthOf(*report) + " on Java " +
                         EngineVersionText(*asked) +
                         " (no loop memo before Java " + from + ")";
    }
    return;
  }
  const std::string on =
      asked ? "Java " + EngineVersionText(*asked) : "Java >= " + from;
  if (IsFinding(*report)) {
    report->versions = GrowthOf(*report) + " on " + on +
                       " (with its loop memo); at least that on Java < " +
                       from + ", which has none";
  } else if (report->verdict == Verdict::kSafe) {
    report->versions = "linear on " + on + " (with its loop memo); Java < " +
                       from + " has none: --engine-version java=8 judges it";
  } else if (report->verdict == Verdict::kUnknown && !report->error) {
    report->versions = "no attack confirmed on " + on +
                       " (with its loop memo); Java < " + from +
                       " has none: --engine-version java=8 judges it";
  }
}

}  // namespace

void JudgeEngineVersions(const AnalyzeOptions& options,
                         AnalysisReport* report) {
  if (report->dialect == Dialect::kJava) {
    JudgeJava(options, report);
    return;
  }
  if (!IsFinding(*report)) return;
  switch (report->dialect) {
    case Dialect::kRuby:
      JudgeRuby(options, report);
      break;
    case Dialect::kJavaScript:
      if (const DefenceReach* reach =
              DefenceOf(*report, EngineDefence::kV8LinearEngine)) {
        JudgeOptIn(*reach, "Node", "V8's backtracking engine",
                   "V8's linear engine",
                   "the l flag, under --enable-experimental-regexp-engine",
                   options.engine_versions.node, report);
      }
      break;
    case Dialect::kDotNet:
      if (const DefenceReach* reach =
              DefenceOf(*report, EngineDefence::kDotNetNonBacktracking)) {
        JudgeOptIn(*reach, ".NET", ".NET's backtracking engines",
                   "RegexOptions.NonBacktracking", "",
                   options.engine_versions.dotnet, report);
      }
      break;
    case Dialect::kPcre:
      JudgePcre(report);
      break;
    default:
      break;
  }
}

bool ReportLinearFlag(const AnalyzeOptions& options, AnalysisReport* report) {
  if (!options.parse.flags.linear) return false;
  auto refuse = [&](std::string message, std::optional<SourceSpan> span) {
    const Status error(StatusCode::kInvalidInput, std::move(message), span);
    report->verdict = Verdict::kUnknown;
    report->error = error;
    report->unknown_reason = error.message();
    report->unknown_code = error.code();
  };
  const DefenceReach* reach =
      DefenceOf(*report, EngineDefence::kV8LinearEngine);
  if (report->dialect != Dialect::kJavaScript || reach == nullptr) {
    refuse("the l flag (V8's linear engine) exists only in JavaScript",
           std::nullopt);
    return true;
  }
  const std::string from = EngineVersionText(reach->available_from);
  const std::optional<EngineVersion>& node = options.engine_versions.node;
  if (node && *node < reach->available_from) {
    refuse("Node " + EngineVersionText(*node) +
               " has no l flag (V8's linear engine came with Node " + from +
               ")",
           std::nullopt);
    return true;
  }
  if (!reach->reached_from) {
    // What V8 itself says, with the construct it refuses.
    refuse("Invalid regular expression: Cannot be executed in linear time (" +
               reach->obstacle + ")",
           reach->obstacle_span);
    return true;
  }
  report->verdict = Verdict::kSafe;
  report->defended_by = EngineDefence::kV8LinearEngine;
  report->versions =
      "linear with V8's linear engine (Node >= " + from +
      ", under --enable-experimental-regexp-engine); a SyntaxError elsewhere";
  report->explanation =
      "V8 runs a pattern with the l flag on its linear engine, which never "
      "backtracks: matching is linear in the input.";
  return true;
}

}  // namespace robotscan::regexguard::internal
