// AnalyzePattern: the pipeline, as named stages. Each stage consumes what
// the one before produced; a stage that can already decide finishes the
// report and ends the pipeline.
//
//   1. syntax      ParseStage: pattern text -> syntax tree (syntax/)
//                  ProgramFor: tree -> what PCRE2 runs
//   2. automaton   AutomatonStage: tree -> position automaton -> attack
//                  candidates (automaton/)
//   3. engines     CompileEngines: program -> the PCRE2 configurations
//   4. proof       SearchEachConfiguration: candidates -> a verdict per
//                  searched configuration (proof/attack_search.h)
//   5. verdict     ReportUnconfirmed, or ReportConfirmed + CauseOf +
//                  CompareOnRe2 + Explain (proof/)
//   6. versions    JudgeEngineVersions: the engine versions for which the
//                  verdict holds (proof/version_verdicts.h)
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
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "automaton/ambiguity.h"
#include "automaton/nfa.h"
#include "proof/attack_search.h"
#include "proof/cpu_budget.h"
#include "proof/engine_shortcuts.h"
#include "proof/explain.h"
#include "proof/growth.h"
#include "proof/jit_model.h"
#include "proof/onigmo_prefilter.h"
#include "proof/pcre2_engine.h"
#include "proof/re2_engine.h"
#include "proof/version_verdicts.h"
#include "robotscan/base/parallel_for.h"
#include "syntax/pcre2_text.h"

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

using internal::Attempt;
using internal::Explodes;
using internal::GrowthRank;

// ---- 1. syntax -------------------------------------------------------------

// Consumes the pattern text and the parse options; produces the syntax
// tree. An invalid or unsupported pattern finishes the report (kUnknown,
// with the parser's error and its code) and yields nullopt.
std::optional<ParsedPattern> ParseStage(std::string_view pattern,
                                        const AnalyzeOptions& options,
                                        AnalysisReport* report) {
  Result<ParsedPattern> parsed = ParsePattern(pattern, options.parse);
  if (!parsed) {
    report->verdict = Verdict::kUnknown;
    report->error = parsed.status();
    report->unknown_reason = parsed.status().message();
    report->unknown_code = parsed.status().code();
    return std::nullopt;
  }
  return std::move(*parsed);
}

// A linear-time engine (Go's RE2) needs no further stage.
void ReportLinearEngine(AnalysisReport* report) {
  report->verdict = Verdict::kSafe;
  report->explanation =
      "Go's regexp (RE2) never backtracks: matching is linear in the input "
      "for every pattern.";
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

// Finishes the report as kUnknown because `why` (a budget ran out): the
// reason is the status as text ("budget exceeded: ..."), the code its code.
void ReportUnknown(const Status& why, AnalysisReport* report) {
  report->verdict = Verdict::kUnknown;
  report->unknown_reason = why.ToString();
  report->unknown_code = why.code();
}

// ---- 2. automaton ----------------------------------------------------------

// What the automaton stage found: the position automaton and the ambiguity
// search's attack candidates, most dangerous first (never empty).
struct StaticFindings {
  internal::Nfa nfa;
  internal::AmbiguityResult ambiguity;
};

// Consumes the syntax tree; produces the automaton and its attack
// candidates. When there is no candidate the stage decides alone and
// yields nullopt: safe (no two loops share a word), or unknown when a
// budget ran out (the automaton's or the ambiguity search's) or a
// lookaround's loops are not modelled.
std::optional<StaticFindings> AutomatonStage(const ParsedPattern& parsed,
                                             const AnalyzeOptions& options,
                                             AnalysisReport* report) {
  internal::NfaBudget nfa_budget;
  nfa_budget.max_states = options.max_nfa_states;
  nfa_budget.max_edges = options.max_nfa_edges;
  Result<internal::Nfa> nfa = internal::BuildNfa(*parsed.root, nfa_budget);
  if (!nfa) {
    ReportUnknown(nfa.status(), report);
    return std::nullopt;
  }
  report->nfa_states = nfa->states.size();
  const bool search_loop = !options.anchored && !parsed.anchored_at_start;

  internal::AmbiguityBudget ambiguity_budget;
  ambiguity_budget.max_candidates = options.max_candidates;
  internal::AmbiguityResult ambiguity =
      internal::FindAmbiguity(*nfa, search_loop, ambiguity_budget);
  if (!ambiguity.candidates.empty()) {
    return StaticFindings{std::move(*nfa), std::move(ambiguity)};
  }
  if (ambiguity.budget_exhausted) {
    ReportUnknown(Status(StatusCode::kBudgetExceeded, "ambiguity analysis"),
                  report);
  } else if (nfa->has_unmodelled_loops) {
    report->verdict = Verdict::kUnknown;
    report->unknown_reason =
        "a lookaround contains repetition, which the automaton does not "
        "model";
    report->unknown_code = StatusCode::kUnsupported;
  } else {
    report->verdict = Verdict::kSafe;
    report->explanation =
        "No two loops of the pattern's automaton can share a word, so no "
        "input makes backtracking super-linear.";
  }
  return std::nullopt;
}

// ---- 3. engines ------------------------------------------------------------

// The PCRE2 configurations of one analysis, each compiled on first use.
class Engines {
 public:
  // `program` must outlive the engines.
  Engines(const EngineProgram& program, const Node* tree,
          std::vector<EngineConfig> searched, internal::CompiledPcre2 primary)
      : program_(program), tree_(tree), searched_(std::move(searched)) {
    engines_[Index(searched_.front())] = std::move(primary);
  }

  // The configurations that get their own attack search, the first one
  // compiled already.
  const std::vector<EngineConfig>& searched() const { return searched_; }

  // nullptr when PCRE2 refuses the program in `config`.
  internal::CompiledPcre2* Get(EngineConfig config) {
    std::optional<internal::CompiledPcre2>& engine = engines_[Index(config)];
    if (!engine) {
      Result<internal::CompiledPcre2> compiled =
          internal::CompiledPcre2::Compile(program_.text, config,
                                           program_.options, tree_);
      if (!compiled) return nullptr;
      engine = std::move(*compiled);
    }
    return &*engine;
  }

 private:
  static std::size_t Index(EngineConfig config) {
    return static_cast<std::size_t>(config);
  }

  const EngineProgram& program_;
  const Node* tree_;  // for the JIT's model; null unless `original`
  std::vector<EngineConfig> searched_;
  std::array<std::optional<internal::CompiledPcre2>, 3> engines_;
};

// Consumes what PCRE2 runs; produces the engines with the first searched
// configuration compiled: for PCRE the interpreter and the JIT as shipped,
// for the others the naive backtracker that models their engines. When
// PCRE2 refuses the program, finishes the report (kUnknown with PCRE2's
// error) and yields nullopt.
std::optional<Engines> CompileEngines(EngineProgram& program, const Node& root,
                                      const AnalyzeOptions& options,
                                      AnalysisReport* report,
                                      int* counts_capped_at) {
  std::vector<EngineConfig> searched;
  if (options.parse.dialect == Dialect::kPcre) {
    searched.push_back(EngineConfig::kPcre2Default);
    if (options.measure_jit) searched.push_back(EngineConfig::kPcre2Jit);
  } else if (options.parse.dialect == Dialect::kRuby) {
    // Onigmo optimises like PCRE2 as shipped (it makes `a*b` possessive,
    // anchors `.*`, checks required characters first), not like a naive
    // backtracker: measured on Ruby 3.1, attacks the naive search found
    // reproduced for 73%, those of this search for more (bench/RESULTS.md).
    searched.push_back(EngineConfig::kPcre2Default);
  } else {
    searched.push_back(EngineConfig::kPcre2Naive);
  }
  const Node* tree = program.original ? &root : nullptr;
  Result<internal::CompiledPcre2> primary = internal::CompiledPcre2::Compile(
      program.text, searched.front(), program.options, tree);
  // Nested counted repeats can exceed PCRE2's compiled size; measure on
  // the spelling with the counts capped (pcre2_text.h says why its work is
  // part of the original's), the largest cap PCRE2 accepts.
  // Not for pcre, whose engine refuses the pattern too, nor java, whose
  // loop memo is spelled on the original tree's nodes.
  const Dialect dialect = options.parse.dialect;
  if (!primary &&
      primary.status().message().find("is too large") != std::string::npos &&
      dialect != Dialect::kPcre && dialect != Dialect::kJava) {
    for (int cap : {64, 32, 16, 8, 4}) {
      std::string capped = internal::ToPcre2PatternWithCountsCapped(root, cap);
      if (options.parse.dialect == Dialect::kRuby) {
        capped = internal::OnigmoStartAnchor(root) + capped;
      }
      Result<internal::CompiledPcre2> retry = internal::CompiledPcre2::Compile(
          capped, searched.front(), 0, nullptr);
      if (retry) {
        program = EngineProgram{std::move(capped), 0, false};
        tree = nullptr;
        *counts_capped_at = cap;
        primary = std::move(retry);
        break;
      }
    }
  }
  if (primary && options.parse.dialect == Dialect::kRuby) {
    primary->set_prefilter(internal::OnigmoPrefilter::For(root));
  }
  if (!primary) {
    report->verdict = Verdict::kUnknown;
    report->error = primary.status();
    report->unknown_reason = primary.status().message();
    report->unknown_code = primary.status().code();
    return std::nullopt;
  }
  return Engines(program, tree, std::move(searched), std::move(*primary));
}

// ---- 4. proof --------------------------------------------------------------

// How the proof runs: the kind of match, the budgets.
struct ProofSettings {
  bool anchored = false;
  bool global = false;
  internal::GrowthLimits limits;
  // Secondary measurements (another configuration's attack, the cause) use
  // a quarter of the budget: enough points to classify, a quarter the time.
  internal::GrowthLimits secondary_limits;
  internal::CpuBudget deadline;
};

ProofSettings SettingsFor(const AnalyzeOptions& options,
                          const internal::CpuBudget& deadline) {
  ProofSettings settings;
  settings.anchored = options.anchored;
  settings.global = options.parse.flags.global;
  settings.limits.run.max_steps = options.max_steps_per_run;
  settings.limits.run.heap_limit_kib = options.pcre2_heap_limit_kib;
  settings.limits.run.depth_limit = options.pcre2_depth_limit;
  settings.limits.max_subject_length = options.max_subject_length;
  settings.limits.run.deadline = deadline;
  settings.secondary_limits = settings.limits;
  settings.secondary_limits.run.max_steps =
      std::max<std::uint64_t>(settings.limits.run.max_steps / 4, 10000);
  settings.deadline = deadline;
  return settings;
}

// What the searches found: a verdict per searched configuration, in
// search order, and the candidate behind each verdict's attack.
struct SearchResults {
  std::vector<ConfigVerdict> verdicts;
  std::vector<const internal::AttackCandidate*> candidates_of;  // parallel
  std::size_t shapes = 0;    // attack shapes of the largest search
  bool out_of_time = false;  // some search ran out of time
};

// Consumes the attempts and the engines; produces each searched
// configuration's verdict: first the attack already proven on an earlier
// one (cheap, and usually enough), then its own search.
SearchResults SearchEachConfiguration(Engines& engines,
                                      const std::vector<Attempt>& base_attempts,
                                      const ProofSettings& settings) {
  SearchResults results;
  std::vector<ConfigVerdict>& verdicts = results.verdicts;
  std::vector<const internal::AttackCandidate*>& candidates_of =
      results.candidates_of;
  std::optional<internal::SearchOutcome> interpreter_search;
  for (const EngineConfig config : engines.searched()) {
    internal::CompiledPcre2* engine = engines.Get(config);
    if (engine == nullptr) {
      verdicts.push_back(internal::Unavailable(config));
      candidates_of.push_back(nullptr);
      continue;
    }
    std::optional<ConfigVerdict> from_other;
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      if (!verdicts[i].attack) continue;
      EngineMeasurement m = internal::MeasureGrowth(
          *engine, *verdicts[i].attack, settings.anchored, settings.global,
          settings.secondary_limits);
      if (Explodes(m)) {
        from_other = internal::FromMeasurement(config, *verdicts[i].attack,
                                               std::move(m));
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
    std::vector<Attempt> attempts = internal::Deduplicated(base_attempts);
    if (config == EngineConfig::kPcre2Jit && interpreter_search) {
      if (!interpreter_search->out_of_time && !interpreter_search->best) {
        ConfigVerdict implied =
            internal::FromSearch(config, *interpreter_search);
        implied.shapes_measured = 0;
        implied.implied_by_interpreter = true;
        verdicts.push_back(std::move(implied));
        candidates_of.push_back(nullptr);
        continue;
      }
      attempts.clear();
      for (const Attempt& attempt : interpreter_search->probed) {
        if (internal::Promising(attempt)) attempts.push_back(attempt);
      }
    }
    internal::SearchOutcome outcome = internal::SearchAttack(
        *engine, std::move(attempts), engine->startup_facts(),
        settings.anchored, settings.global, settings.limits, settings.deadline);
    results.shapes = std::max(results.shapes, outcome.shapes);
    results.out_of_time = results.out_of_time || outcome.out_of_time;
    verdicts.push_back(internal::FromSearch(config, outcome));
    candidates_of.push_back(outcome.candidate);
    if (config == EngineConfig::kPcre2Default) {
      interpreter_search = std::move(outcome);
    }
  }
  return results;
}

// The worst exploding verdict of the searches (the first among equals), or
// the verdicts' size when none explodes.
std::size_t ProvingVerdict(const SearchResults& results) {
  std::size_t worst = results.verdicts.size();
  for (std::size_t i = 0; i < results.verdicts.size(); ++i) {
    const ConfigVerdict& v = results.verdicts[i];
    if (!v.Explodes()) continue;
    if (worst == results.verdicts.size() ||
        GrowthRank(v.measurement) >
            GrowthRank(results.verdicts[worst].measurement)) {
      worst = i;
    }
  }
  return worst;
}

// ---- 5. verdict ------------------------------------------------------------

std::string GrowthWords(const EngineMeasurement& m) {
  return m.growth == Growth::kExponential
             ? std::string("exponentially")
             : "polynomially (degree " + std::to_string(m.degree) + ")";
}

// No configuration exploded: finishes the report as kUnknown, saying why
// (time ran out, or what was tried), every configuration's verdict in a
// fixed order and, for PCRE, whether a naive backtracker explodes where
// PCRE2's optimisations save the pattern.
void ReportUnconfirmed(SearchResults results, bool pcre, Engines& engines,
                       const std::vector<Attempt>& base_attempts,
                       const ProofSettings& settings, AnalysisReport* report) {
  std::vector<ConfigVerdict>& verdicts = results.verdicts;
  if (results.out_of_time) {
    ReportUnknown(Status(StatusCode::kBudgetExceeded,
                         "time ran out before an attack was confirmed"),
                  report);
  } else {
    report->verdict = Verdict::kUnknown;
    report->unknown_reason =
        "the automaton is ambiguous, but no attack was confirmed on "
        "PCRE2 (" +
        std::to_string(report->candidates_tried) + " candidates, " +
        std::to_string(results.shapes) + " attack shapes tried)";
  }
  bool all_exhausted = true;
  for (const ConfigVerdict& v : verdicts) {
    if (v.coverage != SearchCoverage::kExhausted) all_exhausted = false;
  }
  if (pcre && !results.out_of_time) {
    // PCRE2's optimisations may be what saves the pattern: say so when the
    // naive backtracker (Python, JavaScript, Java) explodes on it, and say
    // "survives" only when every configuration's search was exhausted.
    internal::CompiledPcre2* naive = engines.Get(EngineConfig::kPcre2Naive);
    std::vector<std::pair<std::uint64_t, const Attempt*>> ranked;
    internal::RunLimits probe_limits = settings.limits.run;
    probe_limits.max_steps =
        std::min<std::uint64_t>(settings.limits.run.max_steps, 20000);
    for (const Attempt& attempt : base_attempts) {
      if (naive == nullptr) break;
      const std::size_t n = std::max<std::size_t>(
          4, 128 / std::max<std::size_t>(attempt.attack.pump.size(), 1));
      ranked.emplace_back(
          naive
              ->CountSteps(attempt.attack.Build(n), settings.anchored,
                           settings.global, probe_limits)
              .steps,
          &attempt);
    }
    std::stable_sort(
        ranked.begin(), ranked.end(),
        [](const auto& a, const auto& b) { return a.first > b.first; });
    int tries = 0;
    for (const auto& [probe_steps, ranked_attempt] : ranked) {
      const Attempt& attempt = *ranked_attempt;
      if (++tries > 3 || settings.deadline.Exhausted()) break;
      EngineMeasurement m =
          internal::MeasureGrowth(*naive, attempt.attack, settings.anchored,
                                  settings.global, settings.limits);
      if (!Explodes(m)) continue;
      report->unknown_reason +=
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
      verdicts.push_back(internal::FromMeasurement(
          EngineConfig::kPcre2Naive, attempt.attack, std::move(m)));
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
      report->configs.push_back(*it);
    } else {
      ConfigVerdict not_run;
      not_run.config = config;
      not_run.measurement.config = config;
      report->configs.push_back(std::move(not_run));
    }
  }
}

// `proving` exploded: the verdict, its attack, and that attack measured on
// every configuration with each configuration's own verdict (the proving
// one first).
void ReportConfirmed(const ConfigVerdict& proving,
                     const std::vector<ConfigVerdict>& verdicts,
                     Engines& engines, const AnalyzeOptions& options,
                     const ProofSettings& settings, AnalysisReport* report) {
  const Attack attack = *proving.attack;
  report->verdict = proving.growth == Growth::kExponential
                        ? Verdict::kExponential
                        : Verdict::kPolynomial;
  report->degree = proving.growth == Growth::kPolynomial ? proving.degree : 0;
  report->attack = attack;
  report->exploding_configs.push_back(proving.config);
  report->measurements.push_back(proving.measurement);

  for (const EngineConfig config :
       {EngineConfig::kPcre2Default, EngineConfig::kPcre2Jit,
        EngineConfig::kPcre2Naive}) {
    auto searched_verdict = std::find_if(
        verdicts.begin(), verdicts.end(),
        [&](const ConfigVerdict& v) { return v.config == config; });
    if (config == proving.config) {
      report->configs.push_back(*searched_verdict);
      continue;
    }
    if (config == EngineConfig::kPcre2Jit && !options.measure_jit) {
      report->configs.push_back(internal::Unavailable(config));
      continue;
    }
    internal::CompiledPcre2* engine = engines.Get(config);
    EngineMeasurement m;
    m.config = config;
    if (engine == nullptr) {
      m.available = false;
    } else if (searched_verdict != verdicts.end() &&
               searched_verdict->attack == attack) {
      m = searched_verdict->measurement;
    } else {
      m = internal::MeasureGrowth(*engine, attack, settings.anchored,
                                  settings.global, settings.secondary_limits);
    }
    report->measurements.push_back(m);
    if (searched_verdict != verdicts.end()) {
      report->configs.push_back(*searched_verdict);
      if (searched_verdict->Explodes())
        report->exploding_configs.push_back(config);
    } else if (engine == nullptr) {
      report->configs.push_back(internal::Unavailable(config));
    } else {
      if (Explodes(m)) report->exploding_configs.push_back(config);
      report->configs.push_back(internal::FromMeasurement(config, attack, m));
    }
  }
}

// Whether `measured` grows at least as fast as `proving` did.
bool GrowsAsMuch(const EngineMeasurement& measured,
                 const ConfigVerdict& proving) {
  return measured.growth == proving.growth &&
         (measured.growth != Growth::kPolynomial ||
          measured.degree >= proving.degree);
}

// V8 takes shortcuts PCRE2 does not (proof/engine_shortcuts.h): its quick
// checks skip a lookahead whose continuation the next characters cannot
// start, and it runs a Latin-1 subject on code where a character above
// U+00FF is a certain failure. The proving attack is rebuilt to pass both
// and measured again; a rebuilt attack replaces the old one only when it
// still explodes as much.
void SurviveV8Shortcuts(const Node& root, Engines& engines,
                        const ProofSettings& settings, ConfigVerdict* proving) {
  internal::CompiledPcre2& engine = *engines.Get(proving->config);
  auto adopt_if_as_bad = [&](const Attack& attack) {
    EngineMeasurement measured = internal::MeasureGrowth(
        engine, attack, settings.anchored, settings.global, settings.limits);
    if (!GrowsAsMuch(measured, *proving)) return false;
    proving->attack = attack;
    proving->measurement = std::move(measured);
    return true;
  };
  for (const Attack& attack :
       internal::QuickCheckAttacksForV8(root, *proving->attack)) {
    if (adopt_if_as_bad(attack)) break;
  }
  if (const std::optional<Attack> two_byte =
          internal::TwoByteAttackForV8(root, *proving->attack)) {
    adopt_if_as_bad(*two_byte);
  }
}

// The cause of a confirmed polynomial: does the growth survive a match
// anchored at the attack's start? Exponential growth and anchored use are
// backtracking by definition.
Cause CauseOf(const AnalysisReport& report, const ConfigVerdict& proving,
              Engines& engines, const ProofSettings& settings) {
  if (report.verdict == Verdict::kExponential || settings.anchored) {
    return Cause::kBacktracking;
  }
  const EngineMeasurement anchored_run =
      internal::MeasureGrowth(*engines.Get(proving.config), *proving.attack,
                              true, settings.global, settings.secondary_limits);
  return Explodes(anchored_run) ? Cause::kBacktracking : Cause::kSearchRestart;
}

// The proving attack's inputs (those within the step budget) run through
// RE2 with the tree's PCRE2 spelling: does RE2 accept it, and agree?
Re2Comparison CompareOnRe2(const std::string& spelled,
                           const ConfigVerdict& proving, bool anchored) {
  std::vector<internal::Re2Input> inputs;
  for (const GrowthPoint& p : proving.measurement.points) {
    if (p.step_budget_exceeded) continue;
    inputs.push_back({proving.attack->Build(p.pump_count), p.matched});
  }
  return internal::CompareWithRe2(spelled, inputs, anchored);
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

namespace {

// Stages 1 to 5: the verdict on the dialect's backtracker.
AnalysisReport AnalyzeOnBacktracker(std::string_view pattern,
                                    const AnalyzeOptions& options) {
  const internal::CpuBudget deadline =
      internal::CpuBudget::FromNow(options.time_budget_seconds);
  AnalysisReport report;
  report.pattern = std::string(pattern);
  report.dialect = options.parse.dialect;

  // 1. Syntax.
  const std::optional<ParsedPattern> parsed =
      ParseStage(pattern, options, &report);
  if (!parsed) return report;
  report.defences = JudgeEngineDefences(*parsed->root, options.parse.dialect,
                                        options.parse.flags);
  if (internal::ReportLinearFlag(options, &report)) return report;
  if (IsLinearTimeEngine(options.parse.dialect)) {
    ReportLinearEngine(&report);
    return report;
  }
  const Node& root = *parsed->root;
  const std::string spelled = ToPcre2Pattern(root);
  // Java remembers where its loops failed (jit_model.h: JavaLoopMemo): the
  // spelling PCRE2 counts marks those loops' iterations for the callout to
  // replay it. RE2 gets the plain spelling.
  // Java before 9 has no memo: `--engine-version java=8` runs the plain
  // spelling.
  const bool java_loop_memo =
      options.parse.dialect == Dialect::kJava &&
      !(options.engine_versions.java &&
        *options.engine_versions.java < EngineVersion{9, 0});
  EngineProgram program =
      ProgramFor(pattern, options.parse,
                 java_loop_memo ? internal::ToPcre2PatternWithCallouts(
                                      root, internal::JavaLoopMemo(root))
                                : spelled);
  // Onigmo tries fewer starts than PCRE2 derives from the same text
  // (onigmo_prefilter.h: OnigmoStartAnchor).
  if (options.parse.dialect == Dialect::kRuby) {
    program.text = internal::OnigmoStartAnchor(root) + program.text;
  }

  // 2. Automaton.
  const std::optional<StaticFindings> findings =
      AutomatonStage(*parsed, options, &report);
  if (!findings) return report;

  // 3. Engines.
  int counts_capped_at = 0;
  std::optional<Engines> engines =
      CompileEngines(program, root, options, &report, &counts_capped_at);
  if (!engines) return report;

  // 4. Proof.
  const ProofSettings settings = SettingsFor(options, deadline);
  const std::vector<Attempt> base_attempts =
      internal::BuildAttempts(findings->ambiguity, *parsed);
  report.candidates_tried = findings->ambiguity.candidates.size();
  SearchResults results =
      SearchEachConfiguration(*engines, base_attempts, settings);

  // 5. Verdict.
  const std::size_t worst = ProvingVerdict(results);
  if (worst == results.verdicts.size()) {
    ReportUnconfirmed(std::move(results),
                      options.parse.dialect == Dialect::kPcre, *engines,
                      base_attempts, settings, &report);
    if (counts_capped_at > 0) {
      report.unknown_reason +=
          " (measured with every counted repeat capped at " +
          std::to_string(counts_capped_at) +
          ": PCRE2 cannot compile it as written)";
    }
    return report;
  }
  if (options.parse.dialect == Dialect::kJavaScript) {
    SurviveV8Shortcuts(root, *engines, settings, &results.verdicts[worst]);
  }
  const ConfigVerdict proving = results.verdicts[worst];
  ReportConfirmed(proving, results.verdicts, *engines, options, settings,
                  &report);
  report.cause = CauseOf(report, proving, *engines, settings);
  if (options.compare_re2) {
    report.re2 = CompareOnRe2(spelled, proving, options.anchored);
  }
  internal::Explain(findings->nfa, *results.candidates_of[worst], &report);
  if (counts_capped_at > 0) {
    report.explanation +=
        (report.explanation.empty() ? "" : " ") +
        std::string("(Measured with every counted repeat capped at ") +
        std::to_string(counts_capped_at) +
        ": PCRE2 cannot compile the pattern as written, its nested counts "
        "being too large; the uncapped pattern backtracks at least as "
        "much on an attack it does not match.)";
  }
  return report;
}

}  // namespace

AnalysisReport AnalyzePattern(std::string_view pattern,
                              const AnalyzeOptions& options) {
  AnalysisReport report = AnalyzeOnBacktracker(pattern, options);
  // 6. Versions.
  internal::JudgeEngineVersions(options, &report);
  return report;
}

}  // namespace robotscan::regexguard
