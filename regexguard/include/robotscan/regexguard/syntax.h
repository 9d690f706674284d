// The regex syntax tree regexguard analyzes, and the parser that builds it.
//
// ParsePattern() reads a pattern in one of the dialects of dialect.h and
// returns a tree in which every node keeps the byte span of the source text
// it came from, so that findings can point at the exact quantifier. Case
// folding, `.` and the shorthand classes are resolved at parse time into
// explicit sets of code points, so later stages never look at flags again.
//
// Usage:
//   Result<ParsedPattern> parsed = ParsePattern("^(a+)+$", {});
//   if (!parsed) { /* parsed.status().code(), .message, .span */ }
//   const Node& root = *parsed->root;
//
// Syntax the analyzer cannot model (recursion, conditionals, backtracking
// verbs, branch reset, \K, set operations in classes) is rejected with
// StatusCode::kUnsupported and a "cannot analyse: ..." message; it is
// never silently treated as harmless.
//
// Worst case: time and memory linear in the pattern length; nesting deeper
// than ParseOptions::max_nesting is rejected instead of recursing further.
//
// Thread safety: ParsePattern is reentrant; a ParsedPattern is immutable
// after construction and may be shared between threads for reading.
#ifndef ROBOTSCAN_REGEXGUARD_SYNTAX_H_
#define ROBOTSCAN_REGEXGUARD_SYNTAX_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard {

inline constexpr char32_t kMaxCodePoint = 0x10FFFF;

struct CodePointRange {
  char32_t first = 0;
  char32_t last = 0;  // inclusive
  friend bool operator==(const CodePointRange&,
                         const CodePointRange&) = default;
};

// A set of Unicode code points as sorted, disjoint, non-adjacent ranges.
class CodePointSet {
 public:
  CodePointSet() = default;
  static CodePointSet Single(char32_t c) { return Range(c, c); }
  static CodePointSet Range(char32_t first, char32_t last);
  static CodePointSet All() { return Range(0, kMaxCodePoint); }

  void Add(char32_t first, char32_t last);
  void Add(const CodePointSet& other);
  CodePointSet Complement() const;
  CodePointSet Intersect(const CodePointSet& other) const;

  bool Contains(char32_t c) const;
  bool Intersects(const CodePointSet& other) const;
  bool empty() const { return ranges_.empty(); }
  const std::vector<CodePointRange>& ranges() const { return ranges_; }

  friend bool operator==(const CodePointSet&, const CodePointSet&) = default;

 private:
  std::vector<CodePointRange> ranges_;
};

enum class NodeKind {
  kEmpty,          // matches the empty string
  kCharacters,     // one character from a set: literal, class, `.`, \d ...
  kSequence,       // children in order
  kAlternation,    // children tried left to right
  kRepeat,         // child repeated [min, max] times
  kGroup,          // capturing, non-capturing or atomic group
  kLookaround,     // (?=...) (?!...) (?<=...) (?<!...)
  kBackReference,  // \1, \k<name>, (?P=name)
  kAssertion,      // ^ $ \A \z \Z \b \B \G
};

enum class Greediness { kGreedy, kLazy, kPossessive };
enum class GroupKind { kCapturing, kNonCapturing, kAtomic };

enum class AssertionKind {
  kStartOfText,              // \A, ^ without multiline
  kStartOfLine,              // ^ with multiline (always in Ruby)
  kEndOfText,                // \z, JavaScript $ without multiline
  kEndOfTextOrFinalNewline,  // \Z, PCRE/Python/Java $ without multiline
  kEndOfLine,                // $ with multiline (always in Ruby)
  kWordBoundary,             // \b
  kNotWordBoundary,          // \B
  kStartOfSearch,            // \G
};

inline constexpr int kUnbounded = -1;

struct Node {
  NodeKind kind = NodeKind::kEmpty;
  SourceSpan span;
  std::vector<std::unique_ptr<Node>> children;

  // kCharacters: the code points matched. kAssertion kStartOfLine and
  // kEndOfLine: the line terminators of the dialect (\n, plus \r, U+2028
  // and U+2029 in JavaScript and Java). `approximate` is set when the set
  // only approximates the real one (Unicode properties beyond the built-in
  // tables); `pcre2_text` is an equivalent PCRE2 (UTF mode) spelling.
  CodePointSet chars;
  bool approximate = false;
  std::string pcre2_text;

  // kRepeat.
  int min = 0;
  int max = kUnbounded;
  Greediness greediness = Greediness::kGreedy;

  // kGroup.
  GroupKind group_kind = GroupKind::kNonCapturing;
  int capture_index = 0;  // 1-based, for kCapturing
  std::string name;       // named groups

  // kLookaround.
  bool lookbehind = false;
  bool negated = false;

  // kBackReference: the 1-based group number it refers to.
  int group_index = 0;

  // kAssertion.
  AssertionKind assertion = AssertionKind::kStartOfText;
};

struct ParseOptions {
  Dialect dialect = Dialect::kPcre;
  PatternFlags flags;
  // Groups, lookarounds and quantifiers nested deeper than this are rejected
  // (PCRE2's own default limit is 250).
  int max_nesting = 250;
  // Counted repetitions above this bound are invalid (PCRE2: 65535).
  int max_repeat_count = 65535;
};

struct ParsedPattern {
  std::unique_ptr<Node> root;
  int capture_count = 0;
  Dialect dialect = Dialect::kPcre;
  // True when every match must start at the start of the subject (`^`
  // without multiline, `\A`), so search semantics add no start positions.
  bool anchored_at_start = false;
  // Line terminators after which every match must start (`^` in multiline
  // mode leading every alternative); empty otherwise. A search then only
  // restarts after one of them, so search-restart attacks put one in the
  // pump.
  CodePointSet line_start_terminators;
};

Result<ParsedPattern> ParsePattern(std::string_view pattern,
                                   const ParseOptions& options);

// Spells the tree as a PCRE2 pattern (to be compiled with PCRE2_UTF and no
// other option) that matches exactly what the original matches in its own
// dialect and backtracks the same way. This is how patterns from other
// dialects are run on PCRE2 to prove an attack.
std::string ToPcre2Pattern(const Node& root);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_SYNTAX_H_
