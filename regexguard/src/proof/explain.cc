#include "proof/explain.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace robotscan::regexguard {
namespace internal {
namespace {

std::string Slice(const std::string& pattern, SourceSpan span) {
  if (span.begin >= pattern.size() || span.end <= span.begin) return "";
  return pattern.substr(span.begin,
                        std::min(span.end, pattern.size()) - span.begin);
}

// Shows a string the way a reader can type it back.
std::string QuoteText(const std::string& text) {
  std::string out = "\"";
  for (const unsigned char c : text) {
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
          out += buffer;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  return out + "\"";
}

// The loop responsible for a group of states: the innermost repetition that
// encloses most of them; of loops with as many votes, the first in the
// pattern. (Ties were once broken by the nodes' heap addresses, so the
// culprit named could differ between two runs.)
const Node* LoopOf(const Nfa& nfa, const std::vector<int>& states) {
  std::map<const Node*, int> votes;
  for (const int s : states) {
    if (s <= 0 || static_cast<std::size_t>(s) >= nfa.states.size()) continue;
    const auto& loops = nfa.states[s].loops;
    if (!loops.empty()) ++votes[loops.back()];
  }
  const Node* best = nullptr;
  int best_votes = 0;
  for (const auto& [node, count] : votes) {
    const bool earlier =
        best != nullptr && (node->span.begin < best->span.begin ||
                            (node->span.begin == best->span.begin &&
                             node->span.end < best->span.end));
    if (count > best_votes || (count == best_votes && earlier)) {
      best = node;
      best_votes = count;
    }
  }
  return best;
}

// The repetition enclosing `loop`, if any (for nested quantifiers).
const Node* EnclosingLoop(const Nfa& nfa, const std::vector<int>& states,
                          const Node* loop) {
  for (const int s : states) {
    if (s <= 0 || static_cast<std::size_t>(s) >= nfa.states.size()) continue;
    const auto& loops = nfa.states[s].loops;
    auto it = std::find(loops.begin(), loops.end(), loop);
    if (it != loops.end() && it != loops.begin()) return *(it - 1);
  }
  return nullptr;
}

// PCRE2's auto-possessification (pcre2_auto_possess.c) turns a greedy
// repeat of one character class into a possessive one when nothing that can
// follow it can also be matched by it: `\d+` before `!`, `[^)]*` before
// `\)`. On the automaton: the loop's position repeats on itself and no other
// position it can be followed by reads a character it reads.
bool AutoPossessified(const Nfa& nfa, const Node* loop) {
  if (loop == nullptr || loop->kind != NodeKind::kRepeat ||
      loop->greediness != Greediness::kGreedy || loop->children.empty() ||
      loop->children.front()->kind != NodeKind::kCharacters) {
    return false;
  }
  for (std::size_t s = 1; s < nfa.states.size(); ++s) {
    const NfaState& state = nfa.states[s];
    if (state.origin != loop->children.front().get()) continue;
    if (nfa.accepting[s]) return false;
    for (const int next : state.next) {
      if (static_cast<std::size_t>(next) == s) continue;
      if (nfa.states[next].chars.Intersects(state.chars)) return false;
    }
    return true;
  }
  return false;
}

bool Explodes(const AnalysisReport& report, EngineConfig config) {
  for (const ConfigVerdict& v : report.configs) {
    if (v.config == config) return v.Explodes();
  }
  return false;
}

}  // namespace

std::string Quote(const std::string& text) { return QuoteText(text); }

void Explain(const Nfa& nfa, const AttackCandidate& candidate,
             AnalysisReport* report) {
  const std::string& pattern = report->pattern;
  const std::string pump = report->attack ? report->attack->pump : "";
  std::vector<const Node*> loops;
  for (const auto& group : candidate.loop_states) {
    const Node* loop = LoopOf(nfa, group);
    if (loop != nullptr &&
        std::find(loops.begin(), loops.end(), loop) == loops.end()) {
      loops.push_back(loop);
    }
  }
  std::string names;
  for (std::size_t i = 0; i < loops.size(); ++i) {
    if (i > 0) names += i + 1 == loops.size() ? " and " : ", ";
    names += "`" + Slice(pattern, loops[i]->span) + "`";
  }
  const bool dialect_has_possessive =
      report->dialect == Dialect::kPcre || report->dialect == Dialect::kJava ||
      report->dialect == Dialect::kRuby || report->dialect == Dialect::kPython;

  if (report->verdict == Verdict::kExponential) {
    const Node* inner = loops.empty() ? nullptr : loops.front();
    const Node* outer =
        inner && !candidate.loop_states.empty()
            ? EnclosingLoop(nfa, candidate.loop_states.front(), inner)
            : nullptr;
    if (inner) report->culprits.push_back({inner->span, "inner loop"});
    if (outer) report->culprits.push_back({outer->span, "outer loop"});
    report->explanation =
        "Inside " + (outer ? "`" + Slice(pattern, outer->span) + "`" : names) +
        " the pump " + Quote(pump) +
        " can be matched in more than one way, so every extra repetition "
        "multiplies the ways backtracking must try before the suffix makes "
        "the match fail.";
    if (inner && outer) {
      report->fix_hints.push_back(
          "remove the nested quantifier: `" + Slice(pattern, inner->span) +
          "` already repeats inside `" + Slice(pattern, outer->span) + "`");
    }
    report->fix_hints.push_back(
        "make the alternatives/loops inside the repetition disjoint so each "
        "input character has exactly one way to be matched");
  } else {
    int index = 0;
    for (const Node* loop : loops) {
      report->culprits.push_back(
          {loop->span, "loop " + std::to_string(++index) + " of " +
                           std::to_string(loops.size())});
    }
    if (report->cause == Cause::kSearchRestart) {
      report->explanation =
          "The unanchored search retries at every start position, and from "
          "each one " +
          (names.empty() ? std::string("the pattern") : names) +
          " runs over the rest of the " + Quote(pump) +
          " repetitions before failing: quadratic work in total.";
      report->fix_hints.push_back(
          "anchor the pattern (`^`/`\\A`) if it must match at the start, or "
          "require something the pump does not contain before the loop");
    } else {
      report->explanation =
          names + (loops.size() > 1 ? " can all match " : " can match ") +
          Quote(pump) +
          " and follow one another, so a run of n pumps can be split between "
          "them in about n^" +
          std::to_string(std::max(report->degree, 2)) +
          " ways, each tried before the match fails.";
      report->fix_hints.push_back(
          "make adjacent repetitions disjoint: exclude " + Quote(pump) +
          " from one of " + (names.empty() ? std::string("them") : names));
      report->fix_hints.push_back(
          "bound the repetitions (`{0,N}`) when inputs have a known maximum");
    }
  }
  // PCRE: say what the engine already does, and advise only what changes
  // something there.
  std::vector<const Node*> possessive, giving_back;
  for (const Node* loop : loops) {
    (report->dialect == Dialect::kPcre && AutoPossessified(nfa, loop)
         ? possessive
         : giving_back)
        .push_back(loop);
  }
  // Loops spelled alike are told apart by where they start.
  auto spell = [&](const std::vector<const Node*>& list) {
    std::string text;
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i > 0) text += i + 1 == list.size() ? " and " : ", ";
      const std::string slice = Slice(pattern, list[i]->span);
      text += "`" + slice + "`";
      const bool ambiguous =
          std::count_if(loops.begin(), loops.end(), [&](const Node* other) {
            return Slice(pattern, other->span) == slice;
          }) > 1;
      if (ambiguous) {
        text += " (at offset " + std::to_string(list[i]->span.begin) + ")";
      }
    }
    return text;
  };
  if (!possessive.empty()) {
    report->fix_hints.push_back(
        "PCRE2's auto-possessification already makes " + spell(possessive) +
        " possessive here (nothing that can follow " +
        (possessive.size() > 1 ? "them" : "it") + " can also be matched by " +
        (possessive.size() > 1 ? "them" : "it") + "), so " +
        (possessive.size() > 1 ? "they never give" : "it never gives") +
        " back; " +
        (giving_back.empty()
             ? std::string("the work left is the scan of the run repeated "
                           "from every start position")
             : "the remaining overlap is in " + spell(giving_back)));
  }
  if (dialect_has_possessive && !giving_back.empty()) {
    report->fix_hints.push_back(
        "use a possessive quantifier (`*+`, `++`) or an atomic group "
        "`(?>...)` on " +
        spell(giving_back) + " so it never gives back what it matched");
  }
  if (report->dialect == Dialect::kPcre &&
      Explodes(*report, EngineConfig::kPcre2Default) &&
      !Explodes(*report, EngineConfig::kPcre2Jit)) {
    report->fix_hints.push_back(
        "PCRE2's JIT (pcre2_jit_compile; PHP's default) is linear on this "
        "attack: its early fail skips start positions inside a run a "
        "leading repeat already scanned. The interpreter (no JIT, "
        "pcre2test, PHP with pcre.jit=0) is not");
  }
  if (report->re2.accepted) {
    report->fix_hints.push_back(
        "RE2 accepts this pattern and matches it in linear time: use RE2 (or "
        "Go/Rust regex) for untrusted input");
  } else if (!report->re2.refusal.empty()) {
    report->fix_hints.push_back("RE2 refuses this pattern (" +
                                report->re2.refusal +
                                "): it cannot move to a linear engine as is");
  }
}

}  // namespace internal

namespace {

std::string ConfigDescription(EngineConfig config) {
  switch (config) {
    case EngineConfig::kPcre2Default:
      return "PCRE2 interpreter as shipped";
    case EngineConfig::kPcre2Jit:
      return "PCRE2 JIT as shipped";
    case EngineConfig::kPcre2Naive:
      return "naive backtracker: Python, JavaScript, Java, Ruby, .NET";
  }
  return "";
}

// What one configuration's verdict rests on: a survival is claimed only
// after its own attack search was exhausted.
std::string ConfigVerdictText(const ConfigVerdict& v) {
  std::string growth;
  switch (v.growth) {
    case Growth::kExponential:
      growth = "exponential";
      break;
    case Growth::kPolynomial:
      growth = "polynomial degree " + std::to_string(v.degree);
      break;
    case Growth::kLinear:
      growth = "linear";
      break;
    case Growth::kUndetermined:
      growth = "undetermined";
      break;
  }
  switch (v.coverage) {
    case SearchCoverage::kExhausted:
      if (v.Explodes()) return growth + " (its own attack search)";
      if (v.implied_by_interpreter) {
        return "survives: the interpreter's exhausted search covers it (the "
               "JIT's early fail only removes work)";
      }
      if (v.shapes_measured == 0) {
        return "survives: its own attack search found no shape whose probes "
               "grew faster than the input";
      }
      return "survives: its own attack search measured every promising "
             "attack shape (" +
             std::to_string(v.shapes_measured) + " measured in full)";
    case SearchCoverage::kCutShort:
      if (v.Explodes()) return growth + " (its own attack search)";
      return "not proven safe: its attack search was cut short by the "
             "budget";
    case SearchCoverage::kOtherAttack:
      if (v.measurement.points.empty()) return "not searched";
      return growth + " on the reported attack (not searched on its own)";
    case SearchCoverage::kUnavailable:
      return "not available (no JIT, or PCRE2 refused the pattern)";
  }
  return growth;
}

}  // namespace

std::string FormatTextReport(const AnalysisReport& report) {
  std::string out;
  out += "pattern: " + report.pattern + "\n";
  out += "dialect: " + std::string(DialectName(report.dialect)) + "\n";
  out += "verdict: " + std::string(VerdictName(report.verdict));
  if (report.verdict == Verdict::kPolynomial) {
    out += " (degree " + std::to_string(report.degree) + ")";
  }
  if (report.cause != Cause::kNone) {
    out += ", cause: " + std::string(CauseName(report.cause));
  }
  out += "\n";
  if (report.error) {
    out += "error: " + report.error->message() + "\n";
    if (report.error->span()) {
      const SourceSpan span = *report.error->span();
      out += "  " + report.pattern + "\n  " + std::string(span.begin, ' ') +
             std::string(std::max<std::size_t>(span.end - span.begin, 1), '^') +
             "\n";
    }
  } else if (report.verdict == Verdict::kUnknown) {
    out += "reason: " + report.unknown_reason + "\n";
  }
  // For which engine versions (or options) the verdict holds.
  if (!report.versions.empty()) out += "versions: " + report.versions + "\n";
  if (report.attack) {
    out += "attack: prefix " + internal::Quote(report.attack->prefix) +
           " + pump " + internal::Quote(report.attack->pump) +
           " * n + suffix " + internal::Quote(report.attack->suffix) + "\n";
    for (const EngineMeasurement& m : report.measurements) {
      out += "  " + std::string(EngineConfigName(m.config)) + ": ";
      if (!m.available) {
        out += "not available\n";
        continue;
      }
      switch (m.growth) {
        case Growth::kExponential:
          out += "exponential";
          break;
        case Growth::kPolynomial:
          out += "polynomial degree " + std::to_string(m.degree);
          break;
        case Growth::kLinear:
          out += "linear";
          break;
        case Growth::kUndetermined:
          out += "undetermined";
          break;
      }
      out += "; steps";
      for (const GrowthPoint& p : m.points) {
        out += " n=" + std::to_string(p.pump_count) + ":" +
               (p.step_budget_exceeded ? ">" : "") + std::to_string(p.steps);
      }
      out += "\n";
    }
    if (report.re2.accepted) {
      out += "  re2: linear-time engine, " +
             std::string(report.re2.same_result ? "same" : "DIFFERENT") +
             " match results on " + std::to_string(report.re2.inputs_compared) +
             " inputs\n";
    } else if (!report.re2.refusal.empty()) {
      out += "  re2: refuses the pattern (" + report.re2.refusal + ")\n";
    }
  }
  if (!report.configs.empty()) {
    out += "engines:\n";
    for (const ConfigVerdict& v : report.configs) {
      out += "  " + std::string(EngineConfigName(v.config)) + " (" +
             ConfigDescription(v.config) + "): " + ConfigVerdictText(v) + "\n";
    }
  }
  if (!report.culprits.empty()) {
    out += "  " + report.pattern + "\n";
    for (const Culprit& culprit : report.culprits) {
      const std::size_t width =
          std::max<std::size_t>(culprit.span.end - culprit.span.begin, 1);
      out += "  " + std::string(culprit.span.begin, ' ') +
             std::string(width, '^') + " " + culprit.role + "\n";
    }
  }
  if (!report.explanation.empty()) out += "why: " + report.explanation + "\n";
  for (const std::string& hint : report.fix_hints) out += "fix: " + hint + "\n";
  return out;
}

}  // namespace robotscan::regexguard
