// Private: spelling code-point sets and syntax trees as PCRE2 patterns.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PCRE2_TEXT_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PCRE2_TEXT_H_

#include <map>
#include <string>
#include <vector>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

// A PCRE2 (UTF mode) atom matching exactly one code point of `set`.
std::string SetToPcre2(const CodePointSet& set);

// A class with Unicode property items ("\\p{L}", "\\P{Lu}") kept verbatim so
// that PCRE2 uses its own tables, plus the other members in `plain`.
std::string ClassWithPropertiesToPcre2(
    const CodePointSet& plain, const std::vector<std::string>& property_items,
    bool negated);

// ToPcre2Pattern, with an explicit callout `(?C<n>)` opening every
// iteration of each repeat in `iteration_callouts` (repeat node -> n,
// 1..254): the points an engine model wants PCRE2 to report (Java's loop
// memo, proof/jit_model.h). The repeats keep their meaning.
std::string ToPcre2PatternWithCallouts(
    const Node& root, const std::map<const Node*, int>& iteration_callouts);

// ToPcre2Pattern with every counted repeat's bounds capped at `cap`
// ({0,100} -> {0,cap}, {150,} -> {cap,}): PCRE2 compiles a counted repeat
// by copying its body, and nested ones (semver-regex's `{0,100}` inside
// `{1,200}`) exceed its compiled-size limit ("regular expression is too
// large"). The capped spelling matches a subset of the strings, and its
// backtracking is a part of the original's (each capped path is one the
// uncapped engine also takes); the analyzer measures on it only when PCRE2
// refuses the full spelling, and says so.
std::string ToPcre2PatternWithCountsCapped(const Node& root, int cap);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PCRE2_TEXT_H_
