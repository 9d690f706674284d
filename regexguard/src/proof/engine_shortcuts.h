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
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_

#include <optional>

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

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_ENGINE_SHORTCUTS_H_
