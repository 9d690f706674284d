// Private: what Onigmo (Ruby 3.1) must find in a subject before it tries
// any start position, so that the ruby configuration counts no work where
// Ruby does none, and the attack search can add what an attack lacks.
//
// Before matching, Onigmo searches the subject for one thing every match
// must contain (regcomp.c's optimisation info): a literal string (its
// "exact" info, a Boyer-Moore search) or a set of characters one of which
// must occur (its "map" info), chosen by its own scoring among the
// candidates on the pattern's mandatory path. Across an alternation it
// merges the alternatives' candidates (the common prefix of their strings,
// the union of their maps), so an alternation still requires one of its
// branches' characters. When the subject holds none, the search fails at
// once: `\d+\s*(mm|cm|h)` costs Ruby nothing on digits and "a", and is
// quadratic on digits and "am"; `^(…[\r\n]*ITINERARY OK|NEEDS AIR|CHECK…)`
// is flat on newlines unless an I, N or C follows (measured on Ruby 3.1.2).
//
// The model does not replay Onigmo's scoring. It keeps every candidate:
// literal runs, character sets and alternations of them on the mandatory
// path (not under an optional or zero-minimum repeat, a lookaround or a
// back reference), and admits a subject only when it holds all of them, an
// alternation counting as held when some branch holds all of its own.
// Whatever Onigmo picks is then present. (Its position window is not
// modelled: what the attack search appends after the failure point lies
// where any start can reach it, since the parts before it are unbounded in
// every attack that needs it; a bounded prefix is already in the attack.)
//
// Thread safety: immutable after For(); const methods may be called
// concurrently.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_ONIGMO_PREFILTER_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_ONIGMO_PREFILTER_H_

#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

class OnigmoPrefilter {
 public:
  // An empty prefilter: admits every subject (the other engines).
  OnigmoPrefilter() = default;

  // The prefilter for the pattern parsed as `root` in the ruby dialect.
  static OnigmoPrefilter For(const Node& root);

  bool empty() const { return items_.empty(); }

  // True when the subject holds everything Onigmo may search for first,
  // so that it goes on to try start positions.
  bool Admits(std::string_view subject) const;

  // Text that, appended to `subject`, makes Admits() true: the missing
  // literals, one character of each missing set, and for a missing
  // alternation what its cheapest branch lacks. Empty when admitted.
  std::string MissingFrom(std::string_view subject) const;

  // Test hook: the candidates as text, e.g. `"ab" [0-9] (…|…)`.
  std::string Describe() const;

  // One candidate. Exactly one of the three is set.
  struct Item {
    std::string literal;  // ASCII run (lower case when case-folded)
    bool fold_case = false;
    CodePointSet chars;                           // one character of these
    std::vector<std::vector<Item>> alternatives;  // all of one branch
  };

 private:
  explicit OnigmoPrefilter(std::vector<Item> items)
      : items_(std::move(items)) {}

  std::vector<Item> items_;
};

// Where Onigmo lets a search try a match, from the left end of the pattern
// (regcomp.c's left anchor): a leading `^` or `\A`, also after zero-width
// lookarounds and word boundaries (`(?=.*\d)(?=.*[a-z])^[\w!@$#.+-]{8,64}$`
// is linear on Ruby 3.1, tried only at line starts), and a leading greedy
// `.*`, `.+` or `.{n,}` (a failure at one start fails the rest of its line;
// with the dot taking newlines, the search tries its first start only).
// An alternation keeps only what all its branches have.
enum class OnigmoStart { kAnywhere, kLineStart, kTextStart, kSearchStart };

// The PCRE2 text to put before the pattern's spelling so that PCRE2 tries
// the starts Onigmo tries: "(?m:^)", "\A", "\G", or "" where PCRE2 already
// derives the anchoring itself or there is none. For an anchor proper and
// a leading `.+`, the starts left out are ones where no match can begin (a
// failure of `.+X` at one start implies it at later starts of the line).
// After a lookahead Onigmo's choice depends on its scoring, which is not
// modelled: `(?=.*b)^x?$` and `(?=a).+\.x` are quadratic on Ruby 3.1 while
// `(?=.*b)^[ab]{3}$` and `(?=.*\.).+\.x` are linear. The model anchors all
// of them: it may miss the first two, and never counts work on starts
// Onigmo skips.
std::string OnigmoStartAnchor(const Node& root);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_ONIGMO_PREFILTER_H_
