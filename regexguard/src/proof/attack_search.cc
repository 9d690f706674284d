#include "proof/attack_search.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "syntax/unicode.h"

namespace robotscan::regexguard::internal {
namespace {

std::string ToUtf8(const std::u32string& text) {
  std::string out;
  for (const char32_t c : text) AppendUtf8(c, &out);
  return out;
}

}  // namespace

bool Explodes(const EngineMeasurement& m) {
  return m.growth == Growth::kExponential || m.growth == Growth::kPolynomial;
}

int GrowthRank(const EngineMeasurement& m) {
  if (m.growth == Growth::kExponential) return 1000;
  if (m.growth == Growth::kPolynomial) return m.degree;
  return 0;
}

// Every way to turn a candidate into an input: each failing suffix; for the
// search loop also with that character in front (so no earlier alternative
// matches at the start) and, after `^` in multiline mode, with a line
// terminator starting each pump.
std::vector<Attempt> BuildAttempts(const AmbiguityResult& ambiguity,
                                   const ParsedPattern& parsed) {
  std::vector<Attempt> attempts;
  for (const AttackCandidate& candidate : ambiguity.candidates) {
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
        AppendUtf8(c, &terminator);
        attempts.push_back(
            {Attack{prefix, terminator + pump, blocker}, &candidate});
      }
    }
  }
  return attempts;
}

namespace {

// PCRE2's start-up checks reject a subject before any backtracking when it
// lacks the pattern's required code unit, and the automaton's failing
// suffixes never contain it (they are chosen so nothing can match): add it
// after the failure point, where it cannot rescue the attempt. Also pad
// inputs that would be shorter than PCRE2's minimum match length, so the
// smallest pump counts are not rejected unseen.
// A character to pad with that no match can start with (not in PCRE2's
// start bitmap), so the padding adds no start positions of its own; the
// attack's last character when PCRE2 knows no first characters.
char PaddingUnit(const StartupFacts& facts, const Attack& attack) {
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
                                         const StartupFacts& facts) {
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
      // Strings the modelled engine wants before it matches at all
      // (Onigmo), after the failure point like PCRE2's required unit.
      const std::string missing = facts.prefilter.MissingFrom(
          attack.prefix + attack.pump + attack.suffix);
      if (!missing.empty()) {
        variants.push_back(
            {Attack{attack.prefix, attack.pump, attack.suffix + missing},
             original.candidate});
        variants.push_back(
            {Attack{attack.prefix, attack.pump, attack.suffix + '\n' + missing},
             original.candidate});
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

}  // namespace

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

namespace {

// Probes every attempt once at a moderate size: a super-linear attack
// already does far more work there than a linear one, and full measurements
// are the expensive part.
void Probe(CompiledPcre2& engine, bool anchored, bool global,
           const RunLimits& probe_limits, Attempt* attempt) {
  const bool exponential =
      attempt->candidate->growth == SuspectedGrowth::kExponential;
  const std::size_t pump_length =
      std::max<std::size_t>(attempt->attack.pump.size(), 1);
  const std::size_t n =
      exponential ? 12 : std::max<std::size_t>(4, 128 / pump_length);
  const std::string subject = attempt->attack.Build(n);
  attempt->probe_length = subject.size();
  const StepCount at_n =
      engine.CountSteps(subject, anchored, global, probe_limits);
  attempt->probe_steps = at_n.steps;
  // A second probe at half the pumps gives a local growth exponent to rank
  // by; when the first hit the cap, step down until one fits.
  std::size_t high = n;
  StepCount high_count = at_n;
  for (int down = 0; down < 2 && high_count.budget_exceeded && high > 2;
       ++down) {
    high /= 2;
    high_count = engine.CountSteps(attempt->attack.Build(high), anchored,
                                   global, probe_limits);
  }
  if (high >= 2) {
    const StepCount low_count = engine.CountSteps(
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
    RunLimits second = probe_limits;
    second.max_steps = 4 * probe_limits.max_steps;
    const StepCount more =
        engine.CountSteps(attempt->attack.Build(18), anchored, global, second);
    attempt->exponential_plausible =
        more.budget_exceeded ||
        (attempt->probe_steps >= 64 && more.steps >= 6 * attempt->probe_steps);
  }
}

}  // namespace

// A linear attack does a few steps per character; any super-linear one does
// far more already at the probe size.
bool Promising(const Attempt& a) { return a.probe_steps >= 4 * a.probe_length; }

// The attack search on one configuration: probe every attempt, then measure
// the most promising ones in order until one is proven or none is left.
SearchOutcome SearchAttack(CompiledPcre2& engine, std::vector<Attempt> attempts,
                           const StartupFacts& startup, bool anchored,
                           bool global, const GrowthLimits& limits,
                           const CpuBudget& deadline) {
  SearchOutcome outcome;
  RunLimits probe_limits = limits.run;
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
    EngineMeasurement m =
        MeasureGrowth(engine, attempt.attack, anchored, global, limits);
    ++outcome.measured;
    if (Explodes(m) &&
        (!outcome.best || GrowthRank(m) > GrowthRank(*outcome.best))) {
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

}  // namespace robotscan::regexguard::internal
