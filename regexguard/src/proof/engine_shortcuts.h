// Private: attacks that survive the shortcuts of the engine that runs the
// dialect, where PCRE2 (which proves the attack) takes none (issue 27,
// item 1).
//
// V8 compiles each regex twice, for one-byte (Latin-1) and for two-byte
// subjects, and in the one-byte code a character the subject cannot hold is
// a certain failure that V8 prunes with everything that leads to it: with
// `(元|\d+)年` the attack "0"×n + "a" runs flat on Node 20, since no
// one-byte subject holds 年, and the same pump with a suffix outside
// Latin-1 is quadratic (4.5 -> 18.9 -> 65 ms for n = 2k/4k/8k). A
// JavaScript attack for a pattern with such a character is therefore made
// two-byte.
//
// V8 also checks, before it tries an alternative or a loop iteration, that
// the next few characters (up to four) are ones the rest of the pattern can
// read, looking past lookaheads, which read nothing ("quick checks"). An
// attack whose work is a lookahead's scan must then put, after the point
// where the lookahead is tried, the characters the pattern reads next, and
// then one it cannot read, so that the match still fails: ua-parser-js's
// `yandex…bot(?!.+mirror)…\/([\w.]+)` is flat on V8 with the pump
// "yandexbot" and quadratic with "yandexbot//".
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_

#include <optional>
#include <vector>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

// For a pattern with a character set that holds no Latin-1 code point (a
// literal 年, a class [あ-ん]) and an attack that is all Latin-1: the
// attack with one code point above U+00FF appended to its suffix, chosen
// among a few that no set of the pattern matches when one is (so it
// neither extends nor starts a match). nullopt when V8 would run the
// attack on its two-byte code anyway, or the pattern needs none. The
// caller measures the new attack before it replaces the old one.
std::optional<Attack> TwoByteAttackForV8(const Node& root,
                                         const Attack& attack);

// For a pattern with a negative lookahead that scans (an unbounded
// repetition inside): pumps that pass V8's quick check after it, the attack's
// pump followed by the first character the pattern reads after each lookahead
// and then one it cannot read next (pump + "//" for the yandex pattern), then
// by that first character alone. Empty when the pattern has no lookahead or
// what follows one cannot be told from the tree (an optional or alternative
// continuation). The caller measures each and keeps the first that explodes as
// much.
std::vector<Attack> QuickCheckAttacksForV8(const Node& root,
                                           const Attack& attack);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_
