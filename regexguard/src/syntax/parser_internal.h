// The regex parser's class, declared once for its parts (ParsePattern,
// syntax.h, is the public entry point). Recursive descent over PCRE2-style
// syntax; every dialect difference is a question to the dialect's feature
// set (dialect_features.h). Grammar: alternation := sequence ('|'
// sequence)*; sequence := quantified*; quantified := atom quantifier?.
// Inline flags `(?i)` change the flags for the rest of the enclosing group,
// as in PCRE, Python and Java.
//
// The parts, one construct a file:
//   parser.cc            driver (decoding, group count, name resolution),
//                        node construction, errors
//   parser_sequences.cc  alternation, sequences, quantifiers, atoms
//   parser_groups.cc     groups, lookarounds, inline flags, group names
//   parser_escapes.cc    escapes: characters, shorthand classes, assertions,
//                        back references, \Q...\E
//   parser_classes.cc    character classes [...]
//   parser_anchoring.cc  facts about the tree: start anchoring, fixed
//                        lengths (lookbehind), the leading line anchor
// Private to the library. A Parser parses one pattern once; not
// thread-safe (ParsePattern makes one per call).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PARSER_INTERNAL_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PARSER_INTERNAL_H_

#include <algorithm>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "robotscan/base/ascii.h"
#include "robotscan/regexguard/syntax.h"
#include "syntax/dialect_features.h"
#include "syntax/unicode.h"

namespace robotscan::regexguard::internal::parsing {

struct InlineFlags {
  bool case_insensitive = false;
  bool multiline = false;
  bool dot_all = false;
  bool extended = false;
  bool unicode = false;  // JavaScript u, Java UNICODE_CASE (?u)
  bool ascii = false;    // Python re.ASCII (?a), bytes patterns
};

// Code-point forms of robotscan/base/ascii.h's classifiers: a code point at
// or above 0x80 is never ASCII, below it base's tables decide, so the parser
// and every other module agree on what a digit, hex digit or letter is.
inline bool IsAscii(char32_t c) { return c < 0x80; }
inline bool IsAsciiDigit(char32_t c) {
  return IsAscii(c) && ::robotscan::IsAsciiDigit(static_cast<char>(c));
}
inline bool IsHexDigit(char32_t c) {
  return IsAscii(c) && ::robotscan::IsAsciiHexDigit(static_cast<char>(c));
}
// Only for `c` with IsHexDigit(c).
inline int HexValue(char32_t c) {
  return ::robotscan::HexValue(static_cast<char>(c));
}
inline bool IsAsciiLetter(char32_t c) {
  return IsAscii(c) && ::robotscan::IsAsciiAlpha(static_cast<char>(c));
}
inline bool IsNameChar(char32_t c) {
  return IsAscii(c) &&
         (::robotscan::IsAsciiAlnum(static_cast<char>(c)) || c == '_');
}

// A class item that is not a plain range: kept so the PCRE2 spelling of a
// class with Unicode properties stays exact.
struct ClassBuilder {
  CodePointSet set;           // members other than Unicode properties
  CodePointSet property_set;  // members from \\p{..} items (approximated)
  std::vector<std::string> property_items;  // "\\p{L}", "\\P{Lu}"
  bool negated = false;
  bool approximate = false;
};

class Parser {
 public:
  Parser(std::string_view pattern, const ParseOptions& options)
      : pattern_(pattern),
        options_(options),
        dialect_(options.dialect),
        features_(SyntaxFeaturesOf(options.dialect, options.flags)) {}

  Result<ParsedPattern> Parse();

 private:
  // ---- helpers -----------------------------------------------------------
  bool AtEnd() const { return pos_ >= chars_.size(); }
  char32_t Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < chars_.size() ? chars_[pos_ + ahead] : U'\0';
  }
  bool HasAhead(std::size_t ahead) const {
    return pos_ + ahead < chars_.size();
  }
  bool LookingAt(std::u32string_view text) const {
    if (pos_ + text.size() > chars_.size()) return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (chars_[pos_ + i] != text[i]) return false;
    }
    return true;
  }
  SourceSpan SpanOf(std::size_t first, std::size_t last) const {
    return SourceSpan{offsets_[std::min(first, chars_.size())],
                      offsets_[std::min(last, chars_.size())]};
  }

  // Records the parse's first failure (later ones are consequences of it)
  // and returns this one, for callers that return it at once.
  Status Failure(StatusCode code, std::string message, std::size_t first,
                 std::size_t last);
  // Failure() for callers that only unwind (they test error_ on the way).
  void Fail(StatusCode code, std::string message, std::size_t first,
            std::size_t last) {
    (void)Failure(code, std::move(message), first, last);
  }
  std::nullptr_t FailNull(StatusCode code, std::string message,
                          std::size_t first, std::size_t last);

  // Whether the dialect (with its flags) has the syntax `feature`.
  bool Has(Feature feature) const { return features_.Has(feature); }

  std::unique_ptr<Node> MakeNode(NodeKind kind, std::size_t first,
                                 std::size_t last) const;

  // The case folding the dialect's engine applies under these flags, or
  // nullopt when matching is case-sensitive.
  std::optional<CaseFolding> Fold(const InlineFlags& flags) const;

  std::unique_ptr<Node> MakeCharacters(ClassBuilder cls,
                                       std::optional<CaseFolding> folding,
                                       std::size_t first, std::size_t last);

  std::unique_ptr<Node> MakeLiteral(char32_t c,
                                    std::optional<CaseFolding> folding,
                                    std::size_t first, std::size_t last);

  // Counts capturing groups up front so that `\10` can be told from an
  // octal escape the way PCRE does (a back reference when that many groups
  // exist anywhere in the pattern).
  int CountCapturingGroups() const;

  void SkipExtendedWhitespace(const InlineFlags& flags);

  // ---- grammar -----------------------------------------------------------
  std::unique_ptr<Node> ParseAlternation(InlineFlags flags);

  std::unique_ptr<Node> ParseSequence(InlineFlags* flags);

  std::unique_ptr<Node> ParseQuantified(InlineFlags* flags);
  void ReduceNestedRepeat(std::unique_ptr<Node>* node);

  // Parses {n}, {n,}, {n,m} (and Python's {,m}); returns false, consuming
  // nothing, when the brace is a literal.
  bool ParseCountedQuantifier(int* min, int* max);

  std::unique_ptr<Node> ParseAtom(InlineFlags* flags);

  std::optional<std::string> ReadName(char32_t terminator);

  bool ParseFlagLettersInline(InlineFlags* target, bool* scoped);

  std::unique_ptr<Node> ParseGroup(InlineFlags* outer_flags);

  // Reads exactly `digits` hex digits (or up to `digits` when !exact).
  std::optional<char32_t> ReadHex(std::size_t min_digits,
                                  std::size_t max_digits);

  std::optional<char32_t> ReadBracedHex();

  // An escape that denotes one code point, shared by atoms and classes.
  // Returns nullopt (with error_ set when invalid) if it is not one.
  struct EscapedCharacter {
    bool is_character = false;
    char32_t value = 0;
  };
  EscapedCharacter ParseCharacterEscape(bool in_class);

  // Shorthand class escapes: \d \D \w \W \s \S \h \H \v \V \R \p{..} \P{..}.
  bool ParseClassEscape(ClassBuilder* cls, bool* handled);

  std::unique_ptr<Node> ParseEscape(const InlineFlags& flags);

  std::unique_ptr<Node> ParseQuotedLiteral(const InlineFlags& flags);

  std::unique_ptr<Node> ParseClass(const InlineFlags& flags);

  // True when every match must start at the subject's start. A lookaround
  // before the anchor still runs at every start position of a search in
  // PCRE2, Python and Java; V8 looks through it (its
  // RegExpTree::IsAnchoredAtStart skips every item that matches nothing, so
  // `(?=.*\d)^\w+$` is tried at position 0 only).
  bool StartsAnchored(const Node& node) const;
  // Length in characters of every string `node` matches, if fixed.
  static std::optional<long> FixedLength(const Node& node);

  // PCRE2 10.42 needs each top-level branch of a lookbehind to have a fixed
  // length; Python needs one length for the whole body. JavaScript, Java and
  // .NET accept variable-length lookbehind.
  bool LookbehindLengthAllowed(const Node& body) const;

  // The multiline `^` every match starts with, if there is one.
  static const Node* LeadingLineAnchor(const Node& node);

  static bool IsZeroWidth(const Node& node);

  std::string_view pattern_;
  ParseOptions options_;
  Dialect dialect_;
  FeatureSet features_;
  std::vector<char32_t> chars_;
  std::vector<std::size_t> offsets_;  // byte offset of each code point
  std::size_t pos_ = 0;
  int depth_ = 0;
  // True until the parse meets anything other than global inline flags
  // (?i) and comments at the top level: CPython 3.11 refuses global flags
  // anywhere else (Feature::kGlobalFlagsOnlyAtStart).
  bool nothing_but_global_flags_yet_ = true;
  int total_captures_ = 0;
  int captures_seen_ = 0;
  std::map<std::string, int> group_names_;
  std::vector<std::pair<Node*, std::string>> pending_named_references_;
  std::vector<const Node*> numbered_references_;
  std::optional<Status> error_;
};

}  // namespace robotscan::regexguard::internal::parsing

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_PARSER_INTERNAL_H_
