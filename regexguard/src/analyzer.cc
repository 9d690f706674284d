// AnalyzePattern: parse -> automaton -> candidates -> PCRE2 proof -> report.
//
// The proof runs per engine configuration. For the pcre dialect PCRE2 is the
// engine itself, so it runs the pattern exactly as written (not a
// re-spelling, which would hide PCRE2's own optimisations, e.g. `.*`
// anchoring at line starts) and the interpreter and the JIT each get their
// own attack search: their start-up optimisations differ, so an attack one
// survives may still break the other. Other dialects search on the naive
// backtracker, their engines' model.
#include "robotscan/regexguard/analyzer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "automaton/ambiguity.h"
#include "automaton/nfa.h"
#include "proof/explain.h"
#include "proof/growth.h"
#include "proof/pcre2_engine.h"
#include "proof/re2_engine.h"
#include "robotscan/base/parallel_for.h"
#include "syntax/unicode.h"

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

std::string_view SearchCoverageName(SearchCoverage coverage) {
  switch (coverage) {
    case SearchCoverage::kExhausted:
      return "exhausted";
    case SearchCoverage::kCutShort:
      return "cut-short";
    case SearchCoverage::kOtherAttack:
      return "other-attack";
    case SearchCoverage::kUnavailable:
      return "unavailable";
  }
  return "other-attack";
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

std::string ToUtf8(const std::u32string& text) {
  std::string out;
  for (const char32_t c : text) internal::AppendUtf8(c, &out);
  return out;
}

bool Explodes(const EngineMeasurement& m) {
  return m.growth == Growth::kExponential || m.growth == Growth::kPolynomial;
}

// Growth ordering used to keep the worst confirmed attack.
int Severity(const EngineMeasurement& m) {
  if (m.growth == Growth::kExponential) return 1000;
  if (m.growth == Growth::kPolynomial) return m.degree;
  return 0;
}

// What PCRE2 compiles for a dialect. PCRE patterns are PCRE2's own syntax:
// compiling them as written keeps every optimisation PCRE2 derives from the
// text. Other dialects (and a PCRE pattern PCRE2 itself refuses) use the
// tree's PCRE2 spelling, which matches what their own engine matches.
struct EngineProgram {
  std::string text;
  std::uint32_t options = 0;
  bool original = false;  // `text` is the pattern as written
};

EngineProgram ProgramFor(std::string_view pattern, const ParseOptions& parse,
                         const std::string& spelled) {
  if (parse.dialect != Dialect::kPcre) return {spelled, 0, false};
  std::uint32_t options = 0;
  if (parse.flags.case_insensitive) options |= PCRE2_CASELESS;
  if (parse.flags.multiline) options |= PCRE2_MULTILINE;
  if (parse.flags.dot_all) options |= PCRE2_DOTALL;
  if (parse.flags.extended) options |= PCRE2_EXTENDED;
  if (internal::CompiledPcre2::Compile(pattern, EngineConfig::kPcre2Naive,
                                       options)) {
    return {std::string(pattern), options, true};
  }
  return {spelled, 0, false};
}

// One way to turn a candidate into an input, with what the probes saw.
struct Attempt {
  Attack attack;
  const internal::AttackCandidate* candidate = nullptr;
  std::uint64_t probe_steps = 0;
  std::size_t probe_length = 0;
  bool exponential_plausible = false;
  double probe_exponent = 0;  // local growth exponent between probes
};

// Every way to turn a candidate into an input: each failing suffix; for the
// search loop also with that character in front (so no earlier alternative
// matches at the start) and, after `^` in multiline mode, with a line
// terminator starting each pump.
std::vector<Attempt> BuildAttempts(const internal::AmbiguityResult& ambiguity,
                                   const ParsedPattern& parsed) {
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
    for (const CodePointRange& range : parsed.line_start_terminators.ranges()) {
      for (char32_t c = range.first; c <= range.last && c < range.first + 4;
           ++c) {
        std::string terminator;
        internal::AppendUtf8(c, &terminator);
        attempts.push_back(
            {Attack{prefix, terminator + pump, blocker}, &candidate});
      }
    }
  }
  return attempts;
}

// PCRE2's start-up checks reject a subject before any backtracking when it
// lacks the pattern's required code unit, and the automaton's failing
// suffixes never contain it (they are chosen so nothing can match): add it
// after the failure point, where it cannot rescue the attempt. Also pad
// inputs that would be shorter than PCRE2's minimum match length, so the
// smallest pump counts are not rejected unseen.
// A character to pad with that no match can start with (not in PCRE2's
// start bitmap), so the padding adds no start positions of its own; the
// attack's last character when PCRE2 knows no first characters.
char PaddingUnit(const internal::StartupFacts& facts, const Attack& attack) {
  for (const char c : {'\x01', '\x7f', '!', '~', ' '}) {
    const auto unit = static_cast<unsigned char>(c);
    if (facts.first_unit && *facts.first_unit == unit) continue;
    if (facts.required_unit && *facts.required_unit == unit) continue;
    if (facts.first_units && (*facts.first_units)[unit]) continue;
    if (!facts.first_unit && !facts.first_units) break;
    return c;
  }
  return attack.suffix.empty() ? '\x01' : attack.suffix.back();
}

std::vector<Attempt> WithStartupVariants(std::vector<Attempt> rejected,
                                         const internal::StartupFacts& facts) {
  std::vector<Attempt> variants;
  // Padding after the failure point, as long as the minimum match length:
  // PCRE2 stops the search when fewer characters than that remain, so
  // without it no probe of a pattern like `\w+\s*:=\x27[^\x27]{1075,}`
  // would ever reach the matcher.
  constexpr std::uint32_t kPaddedLengthCap = 8192;
  const bool pad = facts.min_length > 8 && facts.min_length <= kPaddedLengthCap;
  const bool require = facts.required_unit && *facts.required_unit < 0x80;
  const char required =
      require ? static_cast<char>(*facts.required_unit) : '\0';
  for (const Attempt& original : rejected) {
    std::vector<Attack> forms{original.attack};
    if (pad) {
      const Attack& attack = original.attack;
      forms.push_back(Attack{
          attack.prefix, attack.pump,
          attack.suffix +
              std::string(facts.min_length, PaddingUnit(facts, attack))});
    }
    for (const Attack& attack : forms) {
      if (&attack != &forms.front()) {
        variants.push_back({attack, original.candidate});
      }
      if (!require || attack.pump.find(required) != std::string::npos ||
          attack.suffix.find(required) != std::string::npos) {
        continue;
      }
      variants.push_back(
          {Attack{attack.prefix, attack.pump, attack.suffix + required},
           original.candidate});
      if (attack.suffix.empty() || attack.suffix.back() != '\n') {
        variants.push_back({Attack{attack.prefix, attack.pump,
                                   attack.suffix + '\n' + required},
                            original.candidate});
      }
    }
  }
  return variants;
}

// Different candidates can spell the same input.
std::vector<Attempt> Deduplicated(std::vector<Attempt> attempts) {
  std::set<std::string> seen;
  std::vector<Attempt> unique;
  for (Attempt& attempt : attempts) {
    const std::string key = attempt.attack.prefix + '\0' + attempt.attack.pump +
                            '\0' + attempt.attack.suffix;
    if (seen.insert(key).second) unique.push_back(std::move(attempt));
  }
  return unique;
}

// Probes every attempt once at a moderate size: a super-linear attack
// already does far more work there than a linear one, and full measurements
// are the expensive part.
void Probe(internal::CompiledPcre2& engine, bool anchored, bool global,
           const internal::RunLimits& probe_limits, Attempt* attempt) {
  const bool exponential =
      attempt->candidate->growth == internal::SuspectedGrowth::kExponential;
  const std::size_t pump_length =
      std::max<std::size_t>(attempt->attack.pump.size(), 1);
  const std::size_t n =
      exponential ? 12 : std::max<std::size_t>(4, 128 / pump_length);
  const std::string subject = attempt->attack.Build(n);
  attempt->probe_length = subject.size();
  const internal::StepCount at_n =
      engine.CountSteps(subject, anchored, global, probe_limits);
  attempt->probe_steps = at_n.steps;
  // A second probe at half the pumps gives a local growth exponent to rank
  // by; when the first hit the cap, step down until one fits.
  std::size_t high = n;
  internal::StepCount high_count = at_n;
  for (int down = 0; down < 2 && high_count.budget_exceeded && high > 2;
       ++down) {
    high /= 2;
    high_count = engine.CountSteps(attempt->attack.Build(high), anchored,
                                   global, probe_limits);
  }
  if (high >= 2) {
    const internal::StepCount low_count = engine.CountSteps(
        attempt->attack.Build(high / 2), anchored, global, probe_limits);
    const double ratio =
        static_cast<double>(std::max<std::uint64_t>(high_count.steps, 1)) /
        static_cast<double>(std::max<std::uint64_t>(low_count.steps, 1));
    // Still over the cap after stepping down: the pump is too long to
    // measure a trend with, so such attempts go last.
    attempt->probe_exponent =
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
    const internal::StepCount more =
        engine.CountSteps(attempt->attack.Build(18), anchored, global, second);
    attempt->exponential_plausible =
        more.budget_exceeded ||
        (attempt->probe_steps >= 64 && more.steps >= 6 * attempt->probe_steps);
  }
}

// A linear attack does a few steps per character; any super-linear one does
// far more already at the probe size.
bool Promising(const Attempt& a) { return a.probe_steps >= 4 * a.probe_length; }

struct SearchOutcome {
  // The attempts as probed, most promising first (a model that only removes
  // work, the JIT's, need not look at the others).
  std::vector<Attempt> probed;
  std::optional<EngineMeasurement> best;
  std::optional<Attack> attack;
  const internal::AttackCandidate* candidate = nullptr;
  bool out_of_time = false;
  bool cut_short = false;  // exponential candidates skipped by the cap
  std::size_t measured = 0;
  std::size_t shapes = 0;
};

// The attack search on one configuration: probe every attempt, then measure
// the most promising ones in order until one is proven or none is left.
SearchOutcome SearchAttack(internal::CompiledPcre2& engine,
                           std::vector<Attempt> attempts,
                           const internal::StartupFacts& startup, bool anchored,
                           bool global, const internal::GrowthLimits& limits,
                           const internal::CpuBudget& deadline) {
  SearchOutcome outcome;
  internal::RunLimits probe_limits = limits.run;
  probe_limits.max_steps = std::min<std::uint64_t>(limits.run.max_steps, 20000);
  std::set<std::string> seen;
  auto key = [](const Attack& a) {
    return a.prefix + '\0' + a.pump + '\0' + a.suffix;
  };
  for (const Attempt& attempt : attempts) seen.insert(key(attempt.attack));
  // Attempts PCRE2 rejects before matching (no work at all: a missing
  // required code unit, too short) get variants that pass its start-up
  // checks, probed in turn.
  std::vector<Attempt> rejected;
  for (Attempt& attempt : attempts) {
    if (deadline.Exhausted()) {
      outcome.out_of_time = true;
      return outcome;
    }
    Probe(engine, anchored, global, probe_limits, &attempt);
    if (attempt.probe_steps == 0) rejected.push_back(attempt);
  }
  for (Attempt& variant : WithStartupVariants(std::move(rejected), startup)) {
    if (!seen.insert(key(variant.attack)).second) continue;
    if (deadline.Exhausted()) {
      outcome.out_of_time = true;
      return outcome;
    }
    Probe(engine, anchored, global, probe_limits, &variant);
    attempts.push_back(std::move(variant));
  }
  outcome.shapes = attempts.size();
  auto suspected_exponential = [](const Attempt& a) {
    return a.exponential_plausible;
  };
  // Steeply growing probes first: most attacks that will be confirmed show
  // an exponent well above 1 already between the two probes.
  auto steep = [](const Attempt& a) { return a.probe_exponent >= 1.15; };
  std::stable_sort(attempts.begin(), attempts.end(),
                   [&](const Attempt& a, const Attempt& b) {
                     if (Promising(a) != Promising(b)) return Promising(a);
                     if (suspected_exponential(a) != suspected_exponential(b)) {
                       return suspected_exponential(a);
                     }
                     if (steep(a) != steep(b)) return steep(a);
                     if (a.probe_exponent != b.probe_exponent) {
                       return a.probe_exponent > b.probe_exponent;
                     }
                     return a.probe_steps > b.probe_steps;
                   });

  std::uint64_t best_probe_steps = 0;
  int measured_after_best = 0;
  int exponential_tries = 0;
  for (Attempt& attempt : attempts) {
    if (deadline.Exhausted()) {
      outcome.out_of_time = true;
      break;
    }
    if (!Promising(attempt)) break;  // sorted: none of the rest is
    if (suspected_exponential(attempt) && ++exponential_tries > 6) {
      outcome.cut_short = true;
      continue;
    }
    if (outcome.best) {
      // Only an exponential or a clearly steeper attack can beat what is
      // already proven.
      if (outcome.best->growth == Growth::kExponential) break;
      if (!suspected_exponential(attempt)) {
        if (attempt.probe_steps < 4 * best_probe_steps) continue;
        if (++measured_after_best > 2) break;
      }
    }
    EngineMeasurement m = internal::MeasureGrowth(engine, attempt.attack,
                                                  anchored, global, limits);
    ++outcome.measured;
    if (Explodes(m) &&
        (!outcome.best || Severity(m) > Severity(*outcome.best))) {
      outcome.best = std::move(m);
      outcome.attack = attempt.attack;
      outcome.candidate = attempt.candidate;
      best_probe_steps = attempt.probe_steps;
    }
  }
  // A measurement the budget stopped proves nothing: say so.
  if (deadline.Exhausted()) outcome.out_of_time = true;
  outcome.probed = std::move(attempts);
  return outcome;
}

ConfigVerdict FromSearch(EngineConfig config, const SearchOutcome& outcome) {
  ConfigVerdict verdict;
  verdict.config = config;
  verdict.shapes_measured = outcome.measured;
  verdict.coverage = outcome.out_of_time || outcome.cut_short
                         ? SearchCoverage::kCutShort
                         : SearchCoverage::kExhausted;
  if (outcome.best) {
    verdict.measurement = *outcome.best;
    verdict.growth = outcome.best->growth;
    verdict.degree = outcome.best->degree;
    verdict.attack = outcome.attack;
  } else {
    verdict.growth = verdict.coverage == SearchCoverage::kExhausted
                         ? Growth::kLinear
                         : Growth::kUndetermined;
  }
  return verdict;
}

ConfigVerdict FromMeasurement(EngineConfig config, const Attack& attack,
                              EngineMeasurement m) {
  ConfigVerdict verdict;
  verdict.config = config;
  verdict.coverage = SearchCoverage::kOtherAttack;
  verdict.growth = m.growth;
  verdict.degree = m.degree;
  if (Explodes(m)) verdict.attack = attack;
  verdict.measurement = std::move(m);
  verdict.shapes_measured = 1;
  return verdict;
}

ConfigVerdict Unavailable(EngineConfig config) {
  ConfigVerdict verdict;
  verdict.config = config;
  verdict.coverage = SearchCoverage::kUnavailable;
  verdict.measurement.config = config;
  verdict.measurement.available = false;
  return verdict;
}

std::string GrowthWords(const EngineMeasurement& m) {
  return m.growth == Growth::kExponential
             ? std::string("exponentially")
             : "polynomially (degree " + std::to_string(m.degree) + ")";
}

}  // namespace

std::vector<AnalysisReport> AnalyzePatterns(
    const std::vector<std::string>& patterns,
    const std::vector<AnalyzeOptions>& options, unsigned jobs) {
  std::vector<AnalysisReport> reports(patterns.size());
  ParallelFor(patterns.size(), jobs, [&](std::size_t i) {
    reports[i] = AnalyzePattern(patterns[i], options[i]);
  });
  return reports;
}

AnalysisReport AnalyzePattern(std::string_view pattern,
                              const AnalyzeOptions& options) {
  const internal::CpuBudget deadline =
      internal::CpuBudget::FromNow(options.time_budget_seconds);
  AnalysisReport report;
  report.pattern = std::string(pattern);
  report.dialect = options.parse.dialect;

  Result<ParsedPattern> parsed = ParsePattern(pattern, options.parse);
  if (!parsed) {
    report.verdict = Verdict::kUnknown;
    report.error = parsed.status();
    report.unknown_reason = parsed.status().message();
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
  const std::string spelled = ToPcre2Pattern(root);
  const EngineProgram program = ProgramFor(pattern, options.parse, spelled);

  internal::NfaBudget nfa_budget;
  nfa_budget.max_states = options.max_nfa_states;
  nfa_budget.max_edges = options.max_nfa_edges;
  Result<internal::Nfa> nfa = internal::BuildNfa(root, nfa_budget);
  if (!nfa) {
    report.verdict = Verdict::kUnknown;
    report.unknown_reason = "budget exceeded: " + nfa.status().message();
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

  // The configurations that get their own attack search: for PCRE the
  // interpreter and the JIT as shipped, for the others the naive
  // backtracker that models their engines.
  const bool pcre = options.parse.dialect == Dialect::kPcre;
  std::vector<EngineConfig> searched;
  if (pcre) {
    searched.push_back(EngineConfig::kPcre2Default);
    if (options.measure_jit) searched.push_back(EngineConfig::kPcre2Jit);
  } else {
    searched.push_back(EngineConfig::kPcre2Naive);
  }
  const Node* tree = program.original ? &root : nullptr;
  Result<internal::CompiledPcre2> primary = internal::CompiledPcre2::Compile(
      program.text, searched.front(), program.options, tree);
  if (!primary) {
    report.verdict = Verdict::kUnknown;
    report.error = primary.status();
    report.unknown_reason = primary.status().message();
    return report;
  }
  internal::GrowthLimits limits;
  limits.run.max_steps = options.max_steps_per_run;
  limits.run.heap_limit_kib = options.pcre2_heap_limit_kib;
  limits.run.depth_limit = options.pcre2_depth_limit;
  limits.max_subject_length = options.max_subject_length;
  limits.run.deadline = deadline;
  // Secondary measurements (another configuration's attack, the cause) use
  // a quarter of the budget: enough points to classify, a quarter the time.
  internal::GrowthLimits secondary_limits = limits;
  secondary_limits.run.max_steps =
      std::max<std::uint64_t>(limits.run.max_steps / 4, 10000);

  const std::vector<Attempt> base_attempts = BuildAttempts(ambiguity, *parsed);
  report.candidates_tried = ambiguity.candidates.size();

  // Each searched configuration: first the attack already proven elsewhere
  // (cheap, and usually enough), then its own search.
  std::vector<ConfigVerdict> verdicts;
  std::optional<internal::CompiledPcre2> engines[3];
  auto engine_for = [&](EngineConfig config) -> internal::CompiledPcre2* {
    const int index = static_cast<int>(config);
    if (!engines[index]) {
      if (config == searched.front()) {
        engines[index] = std::move(*primary);
      } else {
        Result<internal::CompiledPcre2> compiled =
            internal::CompiledPcre2::Compile(program.text, config,
                                             program.options, tree);
        if (!compiled) return nullptr;
        engines[index] = std::move(*compiled);
      }
    }
    return &*engines[index];
  };
  // The candidate behind each verdict's attack, parallel to `verdicts`.
  std::vector<const internal::AttackCandidate*> candidates_of;
  std::optional<SearchOutcome> interpreter_search;
  std::size_t shapes = 0;
  bool out_of_time = false;
  for (const EngineConfig config : searched) {
    internal::CompiledPcre2* engine = engine_for(config);
    if (engine == nullptr) {
      verdicts.push_back(Unavailable(config));
      candidates_of.push_back(nullptr);
      continue;
    }
    std::optional<ConfigVerdict> from_other;
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      if (!verdicts[i].attack) continue;
      EngineMeasurement m = internal::MeasureGrowth(
          *engine, *verdicts[i].attack, anchored, global, secondary_limits);
      if (Explodes(m)) {
        from_other = FromMeasurement(config, *verdicts[i].attack, std::move(m));
        candidates_of.push_back(candidates_of[i]);
        break;
      }
    }
    if (from_other) {
      verdicts.push_back(std::move(*from_other));
      continue;
    }
    // The JIT model only ever removes work from the interpreter's runs
    // (early fail makes some attempts fail sooner), so what the
    // interpreter's exhausted search found linear is linear on the JIT: it
    // searches only what the interpreter's probes found promising.
    std::vector<Attempt> attempts = Deduplicated(base_attempts);
    if (config == EngineConfig::kPcre2Jit && interpreter_search) {
      if (!interpreter_search->out_of_time && !interpreter_search->best) {
        ConfigVerdict implied = FromSearch(config, *interpreter_search);
        implied.shapes_measured = 0;
        implied.implied_by_interpreter = true;
        verdicts.push_back(std::move(implied));
        candidates_of.push_back(nullptr);
        continue;
      }
      attempts.clear();
      for (const Attempt& attempt : interpreter_search->probed) {
        if (Promising(attempt)) attempts.push_back(attempt);
      }
    }
    SearchOutcome outcome =
        SearchAttack(*engine, std::move(attempts), engine->startup_facts(),
                     anchored, global, limits, deadline);
    shapes = std::max(shapes, outcome.shapes);
    out_of_time = out_of_time || outcome.out_of_time;
    verdicts.push_back(FromSearch(config, outcome));
    candidates_of.push_back(outcome.candidate);
    if (config == EngineConfig::kPcre2Default) {
      interpreter_search = std::move(outcome);
    }
  }

  // The verdict: the worst of the searched configurations.
  const ConfigVerdict* worst = nullptr;
  const internal::AttackCandidate* proving_candidate = nullptr;
  for (std::size_t i = 0; i < verdicts.size(); ++i) {
    const ConfigVerdict& v = verdicts[i];
    if (!v.Explodes()) continue;
    if (!worst || Severity(v.measurement) > Severity(worst->measurement)) {
      worst = &v;
      proving_candidate = candidates_of[i];
    }
  }

  if (!worst) {
    report.verdict = Verdict::kUnknown;
    report.unknown_reason =
        out_of_time
            ? "budget exceeded: time ran out before an attack was confirmed"
            : "the automaton is ambiguous, but no attack was confirmed on "
              "PCRE2 (" +
                  std::to_string(report.candidates_tried) + " candidates, " +
                  std::to_string(shapes) + " attack shapes tried)";
    bool all_exhausted = true;
    for (const ConfigVerdict& v : verdicts) {
      if (v.coverage != SearchCoverage::kExhausted) all_exhausted = false;
    }
    if (pcre && !out_of_time) {
      // PCRE2's optimisations may be what saves the pattern: say so when the
      // naive backtracker (Python, JavaScript, Java) explodes on it, and say
      // "survives" only when every configuration's search was exhausted.
      internal::CompiledPcre2* naive = engine_for(EngineConfig::kPcre2Naive);
      std::vector<std::pair<std::uint64_t, const Attempt*>> ranked;
      internal::RunLimits probe_limits = limits.run;
      probe_limits.max_steps =
          std::min<std::uint64_t>(limits.run.max_steps, 20000);
      for (const Attempt& attempt : base_attempts) {
        if (naive == nullptr) break;
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
        if (++tries > 3 || deadline.Exhausted()) break;
        EngineMeasurement m = internal::MeasureGrowth(*naive, attempt.attack,
                                                      anchored, global, limits);
        if (!Explodes(m)) continue;
        report.unknown_reason +=
            std::string(all_exhausted
                            ? "; PCRE2 as shipped survives (interpreter and "
                              "JIT: every promising attack shape measured)"
                            : "; PCRE2 as shipped survived what was tried, "
                              "but its search was cut short") +
            ", but a naive backtracker (Python, JavaScript, Java) grows " +
            GrowthWords(m) + " on prefix " +
            internal::Quote(attempt.attack.prefix) + " + pump " +
            internal::Quote(attempt.attack.pump) + " * n + " + "suffix " +
            internal::Quote(attempt.attack.suffix) +
            ": analyse with that language's --dialect";
        verdicts.push_back(FromMeasurement(EngineConfig::kPcre2Naive,
                                           attempt.attack, std::move(m)));
        break;
      }
    }
    // Every configuration listed, in a fixed order.
    for (const EngineConfig config :
         {EngineConfig::kPcre2Default, EngineConfig::kPcre2Jit,
          EngineConfig::kPcre2Naive}) {
      auto it = std::find_if(
          verdicts.begin(), verdicts.end(),
          [&](const ConfigVerdict& v) { return v.config == config; });
      if (it != verdicts.end()) {
        report.configs.push_back(*it);
      } else {
        ConfigVerdict not_run;
        not_run.config = config;
        not_run.measurement.config = config;
        report.configs.push_back(std::move(not_run));
      }
    }
    return report;
  }

  const ConfigVerdict proving = *worst;
  const Attack attack = *proving.attack;
  report.verdict = proving.growth == Growth::kExponential
                       ? Verdict::kExponential
                       : Verdict::kPolynomial;
  report.degree = proving.growth == Growth::kPolynomial ? proving.degree : 0;
  report.attack = attack;
  report.exploding_configs.push_back(proving.config);
  report.measurements.push_back(proving.measurement);

  // The verdict attack on every other configuration, and each
  // configuration's own verdict.
  for (const EngineConfig config :
       {EngineConfig::kPcre2Default, EngineConfig::kPcre2Jit,
        EngineConfig::kPcre2Naive}) {
    auto searched_verdict = std::find_if(
        verdicts.begin(), verdicts.end(),
        [&](const ConfigVerdict& v) { return v.config == config; });
    if (config == proving.config) {
      report.configs.push_back(*searched_verdict);
      continue;
    }
    if (config == EngineConfig::kPcre2Jit && !options.measure_jit) {
      report.configs.push_back(Unavailable(config));
      continue;
    }
    internal::CompiledPcre2* engine = engine_for(config);
    EngineMeasurement m;
    m.config = config;
    if (engine == nullptr) {
      m.available = false;
    } else if (searched_verdict != verdicts.end() &&
               searched_verdict->attack == attack) {
      m = searched_verdict->measurement;
    } else {
      m = internal::MeasureGrowth(*engine, attack, anchored, global,
                                  secondary_limits);
    }
    report.measurements.push_back(m);
    if (searched_verdict != verdicts.end()) {
      report.configs.push_back(*searched_verdict);
      if (searched_verdict->Explodes())
        report.exploding_configs.push_back(config);
    } else if (engine == nullptr) {
      report.configs.push_back(Unavailable(config));
    } else {
      if (Explodes(m)) report.exploding_configs.push_back(config);
      report.configs.push_back(FromMeasurement(config, attack, m));
    }
  }

  // Cause: does the growth survive a match anchored at the attack's start?
  if (report.verdict == Verdict::kExponential || anchored) {
    report.cause = Cause::kBacktracking;
  } else {
    const EngineMeasurement anchored_run = internal::MeasureGrowth(
        *engine_for(proving.config), attack, true, global, secondary_limits);
    report.cause =
        Explodes(anchored_run) ? Cause::kBacktracking : Cause::kSearchRestart;
  }

  if (options.compare_re2) {
    std::vector<internal::Re2Input> inputs;
    for (const GrowthPoint& p : proving.measurement.points) {
      if (p.step_budget_exceeded) continue;
      inputs.push_back({attack.Build(p.pump_count), p.matched});
    }
    report.re2 = internal::CompareWithRe2(spelled, inputs, anchored);
  }
  internal::Explain(*nfa, *proving_candidate, &report);
  return report;
}

}  // namespace robotscan::regexguard
