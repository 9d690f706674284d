// AnalyzePattern: parse -> automaton -> candidates -> PCRE2 proof -> report.
#include "robotscan/regexguard/analyzer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "ambiguity.h"
#include "explain.h"
#include "growth.h"
#include "nfa.h"
#include "pcre2_engine.h"
#include "re2_engine.h"
#include "unicode.h"

namespace robotscan::regexguard {

std::string_view VerdictName(Verdict verdict) {
  switch (verdict) {
    case Verdict::kSafe:
      return "safe";
    case Verdict::kPolynomial:
      return "polynomial";
    case Verdict::kExponential:
      return "exponential";
    case Verdict::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view CauseName(Cause cause) {
  switch (cause) {
    case Cause::kNone:
      return "";
    case Cause::kBacktracking:
      return "backtracking";
    case Cause::kSearchRestart:
      return "search-restart";
  }
  return "";
}

std::string_view EngineConfigName(EngineConfig config) {
  switch (config) {
    case EngineConfig::kPcre2Default:
      return "pcre2";
    case EngineConfig::kPcre2Naive:
      return "pcre2-naive";
    case EngineConfig::kPcre2Jit:
      return "pcre2-jit";
  }
  return "pcre2";
}

std::string Attack::Build(std::size_t pump_count) const {
  std::string text;
  text.reserve(prefix.size() + pump.size() * pump_count + suffix.size());
  text += prefix;
  for (std::size_t i = 0; i < pump_count; ++i) text += pump;
  text += suffix;
  return text;
}

namespace {

using Clock = std::chrono::steady_clock;

std::string ToUtf8(const std::u32string& text) {
  std::string out;
  for (const char32_t c : text) internal::AppendUtf8(c, &out);
  return out;
}

bool Explodes(const EngineMeasurement& m) {
  return m.growth == Growth::kExponential || m.growth == Growth::kPolynomial;
}

// The configuration that models the dialect's engine: PCRE/PHP run PCRE2 as
// shipped; the others behave like a backtracker without its optimisations.
EngineConfig PrimaryConfig(Dialect dialect) {
  return dialect == Dialect::kPcre ? EngineConfig::kPcre2Default
                                   : EngineConfig::kPcre2Naive;
}

// Growth ordering used to keep the worst confirmed attack.
int Severity(const EngineMeasurement& m) {
  if (m.growth == Growth::kExponential) return 1000;
  if (m.growth == Growth::kPolynomial) return m.degree;
  return 0;
}

}  // namespace

AnalysisReport AnalyzePattern(std::string_view pattern,
                              const AnalyzeOptions& options) {
  const auto deadline =
      Clock::now() +
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
          std::max(options.time_budget_seconds, 0.0)));
  AnalysisReport report;
  report.pattern = std::string(pattern);
  report.dialect = options.parse.dialect;

  Result<ParsedPattern> parsed = ParsePattern(pattern, options.parse);
  if (!parsed) {
    report.verdict = Verdict::kUnknown;
    report.error = parsed.error();
    report.unknown_reason = parsed.error().message;
    return report;
  }
  if (IsLinearTimeEngine(options.parse.dialect)) {
    report.verdict = Verdict::kSafe;
    report.explanation =
        "Go's regexp (RE2) never backtracks: matching is linear in the input "
        "for every pattern.";
    return report;
  }
  const Node& root = *parsed->root;
  const std::string pcre2_pattern = ToPcre2Pattern(root);

  internal::NfaBudget nfa_budget;
  nfa_budget.max_states = options.max_nfa_states;
  nfa_budget.max_edges = options.max_nfa_edges;
  Result<internal::Nfa> nfa = internal::BuildNfa(root, nfa_budget);
  if (!nfa) {
    report.verdict = Verdict::kUnknown;
    report.unknown_reason = "budget exceeded: " + nfa.error().message;
    return report;
  }
  report.nfa_states = nfa->states.size();
  const bool anchored = options.anchored;
  const bool global = options.parse.flags.global;
  const bool search_loop = !anchored && !parsed->anchored_at_start;

  internal::AmbiguityBudget ambiguity_budget;
  ambiguity_budget.max_candidates = options.max_candidates;
  internal::AmbiguityResult ambiguity =
      internal::FindAmbiguity(*nfa, search_loop, ambiguity_budget);

  if (ambiguity.candidates.empty()) {
    if (ambiguity.budget_exhausted) {
      report.verdict = Verdict::kUnknown;
      report.unknown_reason = "budget exceeded: ambiguity analysis";
    } else if (nfa->has_unmodelled_loops) {
      report.verdict = Verdict::kUnknown;
      report.unknown_reason =
          "a lookaround contains repetition, which the automaton does not "
          "model";
    } else {
      report.verdict = Verdict::kSafe;
      report.explanation =
          "No two loops of the pattern's automaton can share a word, so no "
          "input makes backtracking super-linear.";
    }
    return report;
  }

  // Dynamic proof on the configuration that models the dialect.
  const EngineConfig primary = PrimaryConfig(options.parse.dialect);
  Result<internal::CompiledPcre2> engine =
      internal::CompiledPcre2::Compile(pcre2_pattern, primary);
  if (!engine) {
    report.verdict = Verdict::kUnknown;
    report.error = engine.error();
    report.unknown_reason = engine.error().message;
    return report;
  }
  internal::GrowthLimits limits;
  limits.run.max_steps = options.max_steps_per_run;
  limits.run.heap_limit_kib = options.pcre2_heap_limit_kib;
  limits.run.depth_limit = options.pcre2_depth_limit;
  limits.max_subject_length = options.max_subject_length;
  limits.run.deadline = deadline;

  // Every way to turn a candidate into an input: each failing suffix; for
  // the search loop also with that character in front (so no earlier
  // alternative matches at the start) and, after `^` in multiline mode,
  // with a line terminator starting each pump.
  struct Attempt {
    Attack attack;
    const internal::AttackCandidate* candidate = nullptr;
    std::uint64_t probe_steps = 0;
    std::size_t probe_length = 0;
    bool exponential_plausible = false;
    double probe_exponent = 0;  // local growth exponent between probes
  };
  std::vector<Attempt> attempts;
  for (const internal::AttackCandidate& candidate : ambiguity.candidates) {
    const std::string prefix = ToUtf8(candidate.prefix);
    const std::string pump = ToUtf8(candidate.pump);
    for (const std::u32string& suffix : candidate.suffixes) {
      attempts.push_back({Attack{prefix, pump, ToUtf8(suffix)}, &candidate});
    }
    if (!candidate.suffixes.empty()) {
      for (const std::u32string& alternative : candidate.alternative_prefixes) {
        attempts.push_back({Attack{ToUtf8(alternative), pump,
                                   ToUtf8(candidate.suffixes.front())},
                            &candidate});
      }
    }
    if (!candidate.uses_search_loop || candidate.suffixes.empty()) continue;
    const std::string blocker = ToUtf8(candidate.suffixes.front());
    attempts.push_back({Attack{blocker + prefix, pump, blocker}, &candidate});
    for (const CodePointRange& range :
         parsed->line_start_terminators.ranges()) {
      for (char32_t c = range.first; c <= range.last && c < range.first + 4;
           ++c) {
        std::string terminator;
        internal::AppendUtf8(c, &terminator);
        attempts.push_back(
            {Attack{prefix, terminator + pump, blocker}, &candidate});
      }
    }
  }
  // Different candidates can spell the same input.
  {
    std::set<std::string> seen;
    std::vector<Attempt> unique;
    for (Attempt& attempt : attempts) {
      const std::string key = attempt.attack.prefix + '\0' +
                              attempt.attack.pump + '\0' +
                              attempt.attack.suffix;
      if (seen.insert(key).second) unique.push_back(std::move(attempt));
    }
    attempts = std::move(unique);
  }
  report.candidates_tried = ambiguity.candidates.size();

  // Probe every attempt once at a moderate size and measure the most
  // promising first: a super-linear attack already does far more work
  // there than a linear one, and full measurements are the expensive part.
  internal::RunLimits probe_limits = limits.run;
  probe_limits.max_steps = std::min<std::uint64_t>(limits.run.max_steps, 20000);
  for (Attempt& attempt : attempts) {
    const bool exponential =
        attempt.candidate->growth == internal::SuspectedGrowth::kExponential;
    const std::size_t pump_length =
        std::max<std::size_t>(attempt.attack.pump.size(), 1);
    const std::size_t n =
        exponential ? 12 : std::max<std::size_t>(4, 128 / pump_length);
    const std::string subject = attempt.attack.Build(n);
    attempt.probe_length = subject.size();
    const internal::StepCount at_n =
        engine->CountSteps(subject, anchored, global, probe_limits);
    attempt.probe_steps = at_n.steps;
    // A second probe at half the pumps gives a local growth exponent to
    // rank by; when the first hit the cap, step down until one fits.
    std::size_t high = n;
    internal::StepCount high_count = at_n;
    for (int down = 0; down < 2 && high_count.budget_exceeded && high > 2;
         ++down) {
      high /= 2;
      high_count = engine->CountSteps(attempt.attack.Build(high), anchored,
                                      global, probe_limits);
    }
    if (high >= 2) {
      const internal::StepCount low_count = engine->CountSteps(
          attempt.attack.Build(high / 2), anchored, global, probe_limits);
      const double ratio =
          static_cast<double>(std::max<std::uint64_t>(high_count.steps, 1)) /
          static_cast<double>(std::max<std::uint64_t>(low_count.steps, 1));
      // Still over the cap after stepping down: the pump is too long to
      // measure a trend with, so such attempts go last.
      attempt.probe_exponent =
          high_count.budget_exceeded
              ? 0.5
              : std::log2(ratio) / std::log2(static_cast<double>(high) /
                                             static_cast<double>(high / 2));
    }
    if (exponential) {
      // Six more pumps multiply an exponential's work by at least ~6 (base
      // 1.35); a polynomial of degree below 5 grows less from 12 to 18.
      internal::RunLimits second = probe_limits;
      second.max_steps = 4 * probe_limits.max_steps;
      const internal::StepCount more = engine->CountSteps(
          attempt.attack.Build(18), anchored, global, second);
      attempt.exponential_plausible =
          more.budget_exceeded ||
          (attempt.probe_steps >= 64 && more.steps >= 6 * attempt.probe_steps);
    }
  }
  auto promising = [](const Attempt& a) {
    // A linear attack does a few steps per character; any super-linear one
    // does far more already at the probe size.
    return a.probe_steps >= 4 * a.probe_length;
  };
  auto suspected_exponential = [](const Attempt& a) {
    return a.exponential_plausible;
  };
  // Steeply growing probes first: most attacks that will be confirmed show
  // an exponent well above 1 already between the two probes.
  auto steep = [](const Attempt& a) { return a.probe_exponent >= 1.15; };
  std::stable_sort(attempts.begin(), attempts.end(),
                   [&](const Attempt& a, const Attempt& b) {
                     if (promising(a) != promising(b)) return promising(a);
                     if (suspected_exponential(a) != suspected_exponential(b)) {
                       return suspected_exponential(a);
                     }
                     if (steep(a) != steep(b)) return steep(a);
                     if (a.probe_exponent != b.probe_exponent) {
                       return a.probe_exponent > b.probe_exponent;
                     }
                     return a.probe_steps > b.probe_steps;
                   });

  std::optional<EngineMeasurement> best;
  std::optional<Attack> best_attack;
  const internal::AttackCandidate* best_candidate = nullptr;
  std::uint64_t best_probe_steps = 0;
  int measured_after_best = 0;
  int exponential_tries = 0;
  bool out_of_time = false;
  for (Attempt& attempt : attempts) {
    if (Clock::now() > deadline) {
      out_of_time = true;
      break;
    }
    if (!promising(attempt)) break;  // sorted: none of the rest is
    if (suspected_exponential(attempt) && ++exponential_tries > 6) continue;
    if (best) {
      // Only an exponential or a clearly steeper attack can beat what is
      // already proven.
      if (best->growth == Growth::kExponential) break;
      if (!suspected_exponential(attempt)) {
        if (attempt.probe_steps < 4 * best_probe_steps) continue;
        if (++measured_after_best > 2) break;
      }
    }
    EngineMeasurement m = internal::MeasureGrowth(*engine, attempt.attack,
                                                  anchored, global, limits);
    if (Explodes(m) && (!best || Severity(m) > Severity(*best))) {
      best = std::move(m);
      best_attack = attempt.attack;
      best_candidate = attempt.candidate;
      best_probe_steps = attempt.probe_steps;
    }
  }

  if (!best) {
    report.verdict = Verdict::kUnknown;
    report.unknown_reason =
        out_of_time
            ? "budget exceeded: time ran out before an attack was confirmed"
            : "the automaton is ambiguous, but no attack was confirmed on "
              "PCRE2 (" +
                  std::to_string(report.candidates_tried) + " candidates, " +
                  std::to_string(attempts.size()) + " attack shapes tried)";
    if (!out_of_time && primary == EngineConfig::kPcre2Default) {
      // PCRE2's optimisations may be what saves the pattern: say so when the
      // naive backtracker (Python, JavaScript, Java) explodes on it.
      Result<internal::CompiledPcre2> naive = internal::CompiledPcre2::Compile(
          pcre2_pattern, EngineConfig::kPcre2Naive);
      // Rank the shapes again, by the naive backtracker's work at 128 chars.
      std::vector<std::pair<std::uint64_t, const Attempt*>> ranked;
      for (const Attempt& attempt : attempts) {
        if (!naive) break;
        const std::size_t n = std::max<std::size_t>(
            4, 128 / std::max<std::size_t>(attempt.attack.pump.size(), 1));
        ranked.emplace_back(naive
                                ->CountSteps(attempt.attack.Build(n), anchored,
                                             global, probe_limits)
                                .steps,
                            &attempt);
      }
      std::stable_sort(
          ranked.begin(), ranked.end(),
          [](const auto& a, const auto& b) { return a.first > b.first; });
      int tries = 0;
      for (const auto& [probe_steps, ranked_attempt] : ranked) {
        const Attempt& attempt = *ranked_attempt;
        if (++tries > 3 || Clock::now() > deadline) break;
        const EngineMeasurement m = internal::MeasureGrowth(
            *naive, attempt.attack, anchored, global, limits);
        if (!Explodes(m)) continue;
        const std::string growth =
            m.growth == Growth::kExponential
                ? std::string("exponentially")
                : "polynomially (degree " + std::to_string(m.degree) + ")";
        report.unknown_reason +=
            "; PCRE2 as shipped survives, but a naive backtracker (Python, "
            "JavaScript, Java) grows " +
            growth + " on prefix " + internal::Quote(attempt.attack.prefix) +
            " + pump " + internal::Quote(attempt.attack.pump) + " * n + " +
            "suffix " + internal::Quote(attempt.attack.suffix) +
            ": analyse with that language's --dialect";
        break;
      }
    }
    return report;
  }

  report.verdict = best->growth == Growth::kExponential ? Verdict::kExponential
                                                        : Verdict::kPolynomial;
  report.degree = best->growth == Growth::kPolynomial ? best->degree : 0;
  report.attack = best_attack;
  report.exploding_configs.push_back(primary);
  report.measurements.push_back(*best);

  // The same attack on the other configurations, reported separately, with
  // a quarter of the budget: enough points to classify, a quarter the time.
  internal::GrowthLimits secondary_limits = limits;
  secondary_limits.run.max_steps =
      std::max<std::uint64_t>(limits.run.max_steps / 4, 10000);
  for (const EngineConfig config :
       {EngineConfig::kPcre2Default, EngineConfig::kPcre2Naive,
        EngineConfig::kPcre2Jit}) {
    if (config == primary) continue;
    if (config == EngineConfig::kPcre2Jit && !options.measure_jit) continue;
    Result<internal::CompiledPcre2> other =
        internal::CompiledPcre2::Compile(pcre2_pattern, config);
    EngineMeasurement m;
    m.config = config;
    if (!other) {
      m.available = false;
    } else {
      m = internal::MeasureGrowth(*other, *best_attack, anchored, global,
                                  secondary_limits);
      if (Explodes(m)) report.exploding_configs.push_back(config);
    }
    report.measurements.push_back(std::move(m));
  }

  // Cause: does the growth survive a match anchored at the attack's start?
  if (report.verdict == Verdict::kExponential || anchored) {
    report.cause = Cause::kBacktracking;
  } else {
    const EngineMeasurement anchored_run = internal::MeasureGrowth(
        *engine, *best_attack, true, global, secondary_limits);
    report.cause =
        Explodes(anchored_run) ? Cause::kBacktracking : Cause::kSearchRestart;
  }

  if (options.compare_re2) {
    std::vector<internal::Re2Input> inputs;
    for (const GrowthPoint& p : best->points) {
      if (p.step_budget_exceeded) continue;
      inputs.push_back({best_attack->Build(p.pump_count), p.matched});
    }
    report.re2 = internal::CompareWithRe2(pcre2_pattern, inputs, anchored);
  }
  internal::Explain(*nfa, *best_candidate, &report);
  return report;
}

}  // namespace robotscan::regexguard
