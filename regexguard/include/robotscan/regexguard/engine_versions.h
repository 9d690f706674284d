// Engines that defend themselves against backtracking blow-up, from which
// version, and whether a pattern is within reach of the defence
// (docs/regexguard.md, "Version-aware verdicts").
//
// A verdict measured on a backtracker holds for the engine versions that
// backtrack that way. Three engines have a defence that makes some patterns
// linear, each with its own reach:
//
//   Ruby >= 3.2   memoization (the match cache; Regexp.linear_time? is
//                 true), automatic. Out of reach: back references, and
//                 nested counted repetitions; in 3.2 also lookarounds,
//                 atomic groups and possessive quantifiers, which 3.3
//                 allows unless a lookaround holds a capture or nests
//                 with an atomic group (Ruby's NEWS for 3.2 and 3.3,
//                 regexec.c count_num_cache_opcodes).
//   .NET >= 7     RegexOptions.NonBacktracking, opt-in. Refuses back
//                 references, lookarounds, atomic groups and \G.
//   Java >= 9     the loop memo (java.util.regex remembers where a loop
//                 iteration failed), automatic; the verdict for Java is
//                 measured with it (jit_model.h: JavaLoopMemo), and
//                 `java=8` measures without it.
//   Node >= 16    V8's linear engine: the `l` flag under
//                 --enable-experimental-regexp-engine, opt-in. Refuses
//                 back references, lookarounds, the i and u flags, and
//                 counted repetitions whose copies multiply beyond 16
//                 (V8's CanBeHandledVisitor; Node 20 measured).
//
// Reach is judged conservatively: a construct whose treatment by the
// engine is not known for certain counts as out of reach, so "linear" is
// only said where the engine's own rules guarantee it.
//
// Usage:
//   EngineVersions versions;
//   if (Status set = AddEngineVersion("ruby=3.3", &versions); !set.ok()) {
//     return;  // set.message(): "bad engine version ..."
//   }
//   ParseOptions options;
//   options.dialect = Dialect::kRuby;
//   Result<ParsedPattern> parsed = ParsePattern("^(a+)+$", options);
//   if (!parsed) return;
//   for (const DefenceReach& reach :
//        JudgeEngineDefences(*parsed->root, options.dialect, options.flags)) {
//     if (reach.reached_from && versions.ruby >= reach.reached_from) {
//       // Ruby 3.3 memoizes this pattern: matching is linear.
//     }
//   }
//
// Thread safety: free functions on values; thread-safe.
#ifndef ROBOTSCAN_REGEXGUARD_ENGINE_VERSIONS_H_
#define ROBOTSCAN_REGEXGUARD_ENGINE_VERSIONS_H_

#include <compare>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/status.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {

// A release number, "3.2" or "22": major and minor, compared in that
// order (a patch level, "3.3.1", is accepted and ignored: no defence
// changed within a minor release).
struct EngineVersion {
  int major = 0;
  int minor = 0;
  friend auto operator<=>(const EngineVersion&, const EngineVersion&) = default;
};

// "3.2", "22" (no ".0" for a major-only version).
std::string EngineVersionText(const EngineVersion& version);

// The runtimes whose version changes a verdict.
enum class VersionedEngine { kRuby, kNode, kDotNet, kJava };
std::string_view VersionedEngineName(VersionedEngine engine);  // "ruby", ...

// The versions a verdict is asked for (`--engine-version`). An engine left
// unset means every version: the verdict then names the versions for which
// it holds.
struct EngineVersions {
  std::optional<EngineVersion> ruby;
  std::optional<EngineVersion> node;
  std::optional<EngineVersion> dotnet;
  std::optional<EngineVersion> java;  // "1.8" reads as 8
  bool empty() const { return !ruby && !node && !dotnet && !java; }
};

// Reads one "engine=version" setting ("ruby=3.3", "node=22", "dotnet=8",
// "java=8";
// "v8" is not accepted: Node's version is what users know) into
// *versions. kInvalidArgument, naming the text, for anything else.
[[nodiscard]] Status AddEngineVersion(std::string_view setting,
                                      EngineVersions* versions);

// The settings back as text, "dotnet=8.0,node=22.0,ruby=3.3" (sorted), or ""
// for none: a stable key for caches.
std::string EngineVersionsText(const EngineVersions& versions);

enum class EngineDefence {
  kRubyMemoization,        // Ruby >= 3.2, automatic
  kDotNetNonBacktracking,  // .NET >= 7, RegexOptions.NonBacktracking
  kV8LinearEngine,         // Node >= 16, the `l` flag
  kJavaLoopMemo,           // Java >= 9, automatic; measured, not assumed
};
// "memoization", "non-backtracking", "linear-engine", "loop-memo".
std::string_view EngineDefenceName(EngineDefence defence);

// Whether one defence reaches one pattern.
struct DefenceReach {
  EngineDefence defence = EngineDefence::kRubyMemoization;
  VersionedEngine engine = VersionedEngine::kRuby;
  // The first release that has the defence at all (Ruby 3.2, .NET 7,
  // Node 16).
  EngineVersion available_from;
  // True when the program must ask for it (a .NET option, a V8 flag);
  // Ruby's memoization needs nothing.
  bool opt_in = false;
  // The first release whose defence covers this pattern; nullopt when none
  // does (then `obstacle` says why).
  std::optional<EngineVersion> reached_from;
  // Why the defence does not reach the pattern (in the releases before
  // `reached_from`, or in any): "a back reference (\\1)".
  std::string obstacle;
  std::optional<SourceSpan> obstacle_span;
};

// The defences of the engine of `dialect` (none for PCRE, Python, Go) and their
// reach over the parsed pattern `root` with `flags`.
std::vector<DefenceReach> JudgeEngineDefences(const Node& root, Dialect dialect,
                                              const PatternFlags& flags);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_ENGINE_VERSIONS_H_
