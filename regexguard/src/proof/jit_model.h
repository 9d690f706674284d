// Private: what PCRE2's JIT (10.42, as Debian 12 ships it) does that its
// interpreter does not, so that the JIT configuration can be measured in
// counted steps like the others.
//
// The JIT cannot be counted directly: callouts make it compile different
// code (without the optimisation below), and its match limit does not see
// the characters a repeat scans. The one thing it does that changes the
// growth of the work is "early fail" (pcre2_jit_compile.c,
// detect_early_fail): for an unanchored pattern, the first few character
// repeats (`\s*`, `[^)]+`, `.*?`) that can only be preceded by fixed-length
// single characters remember where their last scan ended, and a later start
// position that reaches such a repeat inside the stretch it already scanned
// fails at once, because it could only repeat the earlier failure. That is
// why `\s*\n` or `\([^)]*\)` on a long run is quadratic on the interpreter
// and linear on the JIT.
//
// JitEarlyFailRepeats() finds those repeats in the syntax tree following the
// JIT's own rules: the walk over each top-level alternative passes zero-width
// assertions, single characters, `?` and bounded repeats of single
// characters, and groups that are neither quantified nor the target of a
// back reference (at most four deep); at most three repeats get the
// optimisation, the first (when nothing variable precedes it) as a plain
// "fail at or before the last end" check, later ones as a "fail inside the
// last range" check. The interpreter then replays it from its callouts
// (pcre2_engine.h), which report the pattern offset of every item.
//
// Thread safety: pure functions on immutable input.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_JIT_MODEL_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_JIT_MODEL_H_

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

struct EarlyFailRepeat {
  std::size_t pattern_offset = 0;  // where the quantified item starts
  // Where the item after it starts: the interpreter's callout there comes
  // just after the repeat matched, at the position it reached.
  std::size_t next_offset = 0;
  // false: fail when entered at or before the end of its previous scan;
  // true: fail when entered (after `exact` characters) inside the range
  // [start, end] of its previous scan.
  bool ranged = false;
  // A lazy repeat records its entry position and every position it
  // extends to (the JIT stores at the label its backtracking jumps back
  // to); a greedy one the end of its first scan.
  bool lazy = false;
  int exact = 0;  // characters matched before the ranged check
};

// The repeats the JIT optimises, sorted by pattern offset. `pattern` is the
// text PCRE2 compiled (spans of `root` index into it); `compiled_anchored`
// is PCRE2_INFO_ALLOPTIONS' PCRE2_ANCHORED (anchored patterns get none).
std::vector<EarlyFailRepeat> JitEarlyFailRepeats(const Node& root,
                                                 std::string_view pattern,
                                                 bool compiled_anchored);

// java.util.regex (JDK 9 and later, so OpenJDK 17) stops exponential
// backtracking itself: a greedy unbounded repeat of a group whose body is
// not fixed (Pattern compiles it to a `Loop`, not a `GroupCurly`) remembers,
// for one find(), each position where one more iteration failed, and at
// such a position goes straight on to what follows (Pattern.Loop.match,
// `localsPos`). The compiler gives this memo only to loops no quantified
// group encloses (its "top closure nodes"), and to none at all when the
// pattern has a back reference (`hasGroupRef`). `^(a+)+$` is quadratic on
// Java, `^(a|a)*$` linear, `^((a+)+)+$` still exponential.
//
// JavaLoopMemo() returns those repeats, numbered 1..254: the analyzer spells
// each iteration of them with an explicit callout (?C<n>)
// (ToPcre2PatternWithCallouts), and the counting callout (pcre2_engine.cc)
// fails an iteration that starts where the same loop already started one in
// this pcre2_match call, as Java's memo does. (Java remembers a position
// once an iteration from it has failed; in a search that ends in failure,
// as every attack does, an iteration begun again at a position has failed
// there before, unless it matched nothing, which PCRE2 ends anyway.)
std::map<const Node*, int> JavaLoopMemo(const Node& root);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_JIT_MODEL_H_
