// Recursive-descent parser for PCRE2-style syntax with dialect switches.
// Grammar: alternation := sequence ('|' sequence)*; sequence := quantified*;
// quantified := atom quantifier?. Inline flags `(?i)` change the flags for
// the rest of the enclosing group, as in PCRE, Python and Java.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dialect_features.h"
#include "pcre2_text.h"
#include "robotscan/regexguard/syntax.h"
#include "unicode.h"

namespace robotscan::regexguard {
namespace {

using internal::AppendUtf8;
using internal::DecodeUtf8;
using internal::Feature;

struct InlineFlags {
  bool case_insensitive = false;
  bool multiline = false;
  bool dot_all = false;
  bool extended = false;
  bool unicode = false;  // JavaScript u, Java UNICODE_CASE (?u)
  bool ascii = false;    // Python re.ASCII (?a), bytes patterns
};

bool IsAsciiDigit(char32_t c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char32_t c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int HexValue(char32_t c) {
  if (IsAsciiDigit(c)) return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  return static_cast<int>(c - 'A' + 10);
}
bool IsAsciiLetter(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool IsNameChar(char32_t c) {
  return IsAsciiLetter(c) || IsAsciiDigit(c) || c == '_';
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
        features_(internal::SyntaxFeaturesOf(options.dialect, options.flags)) {}

  Result<ParsedPattern> Parse() {
    // Decode once so that every later step works on code points with byte
    // offsets for spans.
    for (std::size_t offset = 0; offset < pattern_.size();) {
      const internal::DecodedCodePoint decoded = DecodeUtf8(pattern_, offset);
      if (decoded.length == 0) {
        return Error{ErrorCode::kInvalidPattern, "pattern is not valid UTF-8",
                     SourceSpan{offset, offset + 1}};
      }
      chars_.push_back(decoded.code_point);
      offsets_.push_back(offset);
      offset += decoded.length;
    }
    offsets_.push_back(pattern_.size());
    total_captures_ = CountCapturingGroups();

    InlineFlags flags;
    flags.case_insensitive = options_.flags.case_insensitive;
    flags.multiline = options_.flags.multiline;
    flags.dot_all = options_.flags.dot_all;
    flags.extended = options_.flags.extended;
    flags.unicode = options_.flags.unicode;
    flags.ascii = options_.flags.ascii;
    std::unique_ptr<Node> root = ParseAlternation(flags);
    if (error_) return *error_;
    if (pos_ < chars_.size()) {
      // Only an unbalanced ')' stops the top-level alternation early.
      return Fail(ErrorCode::kInvalidPattern, "unmatched ')'", pos_, pos_ + 1);
    }
    for (const auto& [node, name] : pending_named_references_) {
      auto it = group_names_.find(name);
      if (it == group_names_.end()) {
        return Error{ErrorCode::kInvalidPattern,
                     "reference to undefined group name '" + name + "'",
                     node->span};
      }
      node->group_index = it->second;
    }
    for (const Node* node : numbered_references_) {
      if (node->group_index > captures_seen_) {
        return Error{ErrorCode::kInvalidPattern,
                     "reference to non-existent group " +
                         std::to_string(node->group_index),
                     node->span};
      }
    }
    ParsedPattern parsed;
    parsed.root = std::move(root);
    parsed.capture_count = captures_seen_;
    parsed.dialect = dialect_;
    parsed.anchored_at_start = StartsAnchored(*parsed.root);
    if (const Node* anchor = LeadingLineAnchor(*parsed.root)) {
      parsed.line_start_terminators = anchor->chars;
    }
    return parsed;
  }

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

  Error Fail(ErrorCode code, std::string message, std::size_t first,
             std::size_t last) {
    if (code == ErrorCode::kUnsupportedSyntax) {
      message = "cannot analyse: " + message;
    }
    Error error{code, std::move(message), SpanOf(first, last)};
    if (!error_) error_ = error;
    return error;
  }
  std::nullptr_t FailNull(ErrorCode code, std::string message,
                          std::size_t first, std::size_t last) {
    Fail(code, std::move(message), first, last);
    return nullptr;
  }

  // Whether the dialect (with its flags) has the syntax `feature`.
  bool Has(Feature feature) const { return features_.Has(feature); }

  std::unique_ptr<Node> MakeNode(NodeKind kind, std::size_t first,
                                 std::size_t last) const {
    auto node = std::make_unique<Node>();
    node->kind = kind;
    node->span = SpanOf(first, last);
    return node;
  }

  // The case folding the dialect's engine applies under these flags, or
  // nullopt when matching is case-sensitive.
  std::optional<internal::CaseFolding> Fold(const InlineFlags& flags) const {
    if (!flags.case_insensitive) return std::nullopt;
    return internal::CaseFoldingFor(dialect_, flags.unicode, flags.ascii);
  }

  std::unique_ptr<Node> MakeCharacters(
      ClassBuilder cls, std::optional<internal::CaseFolding> folding,
      std::size_t first, std::size_t last) {
    auto node = MakeNode(NodeKind::kCharacters, first, last);
    if (folding) cls.set = internal::AddCaseVariants(cls.set, *folding);
    CodePointSet members = cls.set;
    members.Add(cls.property_set);
    node->chars = cls.negated ? members.Complement() : members;
    node->approximate = cls.approximate;
    node->pcre2_text = cls.property_items.empty()
                           ? internal::SetToPcre2(node->chars)
                           : internal::ClassWithPropertiesToPcre2(
                                 cls.set, cls.property_items, cls.negated);
    return node;
  }

  std::unique_ptr<Node> MakeLiteral(
      char32_t c, std::optional<internal::CaseFolding> folding,
      std::size_t first, std::size_t last) {
    ClassBuilder cls;
    cls.set = CodePointSet::Single(c);
    return MakeCharacters(std::move(cls), folding, first, last);
  }

  // Counts capturing groups up front so that `\10` can be told from an
  // octal escape the way PCRE does (a back reference when that many groups
  // exist anywhere in the pattern).
  int CountCapturingGroups() const {
    int count = 0;
    bool in_class = false;
    for (std::size_t i = 0; i < chars_.size(); ++i) {
      const char32_t c = chars_[i];
      if (c == '\\') {
        ++i;
        continue;
      }
      if (in_class) {
        if (c == ']') in_class = false;
        continue;
      }
      if (c == '[') {
        in_class = true;
        if (i + 1 < chars_.size() && chars_[i + 1] == '^') ++i;
        if (i + 1 < chars_.size() && chars_[i + 1] == ']' &&
            Has(Feature::kLeadingBracketIsLiteral)) {
          ++i;
        }
        continue;
      }
      if (c != '(') continue;
      if (i + 1 >= chars_.size() || chars_[i + 1] != '?') {
        if (i + 1 < chars_.size() && chars_[i + 1] == '*') continue;
        ++count;
        continue;
      }
      // Named groups: (?<name> (?'name' (?P<name>, but not lookbehind.
      if (i + 2 < chars_.size()) {
        const char32_t k = chars_[i + 2];
        if ((k == '<' && i + 3 < chars_.size() && chars_[i + 3] != '=' &&
             chars_[i + 3] != '!') ||
            k == '\'' ||
            (k == 'P' && i + 3 < chars_.size() && chars_[i + 3] == '<')) {
          ++count;
        }
      }
    }
    return count;
  }

  void SkipExtendedWhitespace(const InlineFlags& flags) {
    if (!flags.extended) return;
    while (!AtEnd()) {
      const char32_t c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
          c == '\v') {
        ++pos_;
      } else if (c == '#') {
        while (!AtEnd() && Peek() != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  // ---- grammar -----------------------------------------------------------
  std::unique_ptr<Node> ParseAlternation(InlineFlags flags) {
    const std::size_t start = pos_;
    std::vector<std::unique_ptr<Node>> branches;
    branches.push_back(ParseSequence(&flags));
    if (error_) return nullptr;
    while (!AtEnd() && Peek() == '|') {
      ++pos_;
      branches.push_back(ParseSequence(&flags));
      if (error_) return nullptr;
    }
    if (branches.size() == 1) return std::move(branches.front());
    auto node = MakeNode(NodeKind::kAlternation, start, pos_);
    node->children = std::move(branches);
    return node;
  }

  std::unique_ptr<Node> ParseSequence(InlineFlags* flags) {
    const std::size_t start = pos_;
    std::vector<std::unique_ptr<Node>> items;
    while (true) {
      SkipExtendedWhitespace(*flags);
      if (AtEnd() || Peek() == '|' || Peek() == ')') break;
      std::unique_ptr<Node> atom = ParseQuantified(flags);
      if (error_) return nullptr;
      if (atom) items.push_back(std::move(atom));
    }
    if (items.empty()) return MakeNode(NodeKind::kEmpty, start, pos_);
    if (items.size() == 1) return std::move(items.front());
    auto node = MakeNode(NodeKind::kSequence, start, pos_);
    node->children = std::move(items);
    return node;
  }

  std::unique_ptr<Node> ParseQuantified(InlineFlags* flags) {
    const std::size_t start = pos_;
    std::unique_ptr<Node> atom = ParseAtom(flags);
    if (error_ || !atom) return atom;
    while (true) {
      SkipExtendedWhitespace(*flags);
      if (AtEnd()) return atom;
      int min = 0;
      int max = kUnbounded;
      const std::size_t quantifier_start = pos_;
      const char32_t c = Peek();
      if (c == '*') {
        ++pos_;
      } else if (c == '+') {
        min = 1;
        ++pos_;
      } else if (c == '?') {
        max = 1;
        ++pos_;
      } else if (c == '{' && ParseCountedQuantifier(&min, &max)) {
        if (error_) return nullptr;
      } else {
        return atom;
      }
      if (atom->kind == NodeKind::kRepeat &&
          !(chars_[quantifier_start] == '{' &&
            Has(Feature::kRepeatOfCountedRepeat))) {
        // `a**` is an error everywhere; Java reads `a{2}{3}` as a repeat of
        // a repeat.
        return FailNull(ErrorCode::kInvalidPattern,
                        "quantifier does not follow a repeatable item",
                        quantifier_start, pos_);
      }
      if (atom->kind == NodeKind::kAssertion &&
          (atom->assertion == AssertionKind::kStartOfText ||
           atom->assertion == AssertionKind::kStartOfLine ||
           atom->assertion == AssertionKind::kWordBoundary) &&
          Has(Feature::kAnchorsNotRepeatable)) {
        return FailNull(ErrorCode::kInvalidPattern, "nothing to repeat",
                        quantifier_start, pos_);
      }
      Greediness greediness = Greediness::kGreedy;
      if (!AtEnd() && Peek() == '?') {
        greediness = Greediness::kLazy;
        ++pos_;
      } else if (!AtEnd() && Peek() == '+' &&
                 Has(Feature::kPossessiveQuantifiers)) {
        greediness = Greediness::kPossessive;
        ++pos_;
      }
      if (++depth_ > options_.max_nesting) {
        return FailNull(ErrorCode::kUnsupportedSyntax,
                        "quantifiers nested deeper than " +
                            std::to_string(options_.max_nesting),
                        quantifier_start, pos_);
      }
      auto repeat = MakeNode(NodeKind::kRepeat, start, pos_);
      repeat->min = min;
      repeat->max = max;
      repeat->greediness = greediness;
      repeat->children.push_back(std::move(atom));
      atom = std::move(repeat);
      --depth_;
    }
  }

  // Parses {n}, {n,}, {n,m} (and Python's {,m}); returns false, consuming
  // nothing, when the brace is a literal.
  bool ParseCountedQuantifier(int* min, int* max) {
    std::size_t i = pos_ + 1;
    auto read_number = [&](std::int64_t* value) {
      const std::size_t begin = i;
      std::int64_t v = 0;
      while (i < chars_.size() && IsAsciiDigit(chars_[i])) {
        v = std::min<std::int64_t>(v * 10 + (chars_[i] - '0'), 1 << 30);
        ++i;
      }
      *value = v;
      return i > begin;
    };
    std::int64_t low = 0, high = kUnbounded;
    const bool has_low = read_number(&low);
    bool has_comma = false;
    if (i < chars_.size() && chars_[i] == ',') {
      has_comma = true;
      ++i;
      std::int64_t value = 0;
      if (read_number(&value)) high = value;
    } else {
      high = low;
    }
    if (i >= chars_.size() || chars_[i] != '}') return false;
    if (!has_low && !(has_comma && Has(Feature::kOmittedMinimumCount) &&
                      high != kUnbounded)) {
      return false;  // `{,5}` is a literal outside Python
    }
    // RE2 (Go) refuses counts above 1000.
    const std::int64_t limit =
        Has(Feature::kCountLimit1000) ? 1000 : options_.max_repeat_count;
    if (low > limit || high > limit) {
      Fail(ErrorCode::kInvalidPattern,
           "number too big in {} quantifier (limit " + std::to_string(limit) +
               ")",
           pos_, i + 1);
      return true;
    }
    if (high != kUnbounded && high < low) {
      Fail(ErrorCode::kInvalidPattern, "numbers out of order in {} quantifier",
           pos_, i + 1);
      return true;
    }
    *min = static_cast<int>(low);
    *max = static_cast<int>(high);
    pos_ = i + 1;
    return true;
  }

  std::unique_ptr<Node> ParseAtom(InlineFlags* flags) {
    const std::size_t start = pos_;
    const char32_t c = Peek();
    switch (c) {
      case '(':
        return ParseGroup(flags);
      case '[':
        return ParseClass(*flags);
      case '.': {
        ++pos_;
        ClassBuilder cls;
        cls.set = flags->dot_all
                      ? CodePointSet::All()
                      : internal::LineTerminatorSet(dialect_).Complement();
        return MakeCharacters(std::move(cls), std::nullopt, start, pos_);
      }
      case '^': {
        ++pos_;
        auto node = MakeNode(NodeKind::kAssertion, start, pos_);
        node->assertion =
            (flags->multiline || Has(Feature::kAnchorsMatchAtLines))
                ? AssertionKind::kStartOfLine
                : AssertionKind::kStartOfText;
        if (node->assertion == AssertionKind::kStartOfLine) {
          node->chars = internal::LineTerminatorSet(dialect_);
        }
        return node;
      }
      case '$': {
        ++pos_;
        auto node = MakeNode(NodeKind::kAssertion, start, pos_);
        if (flags->multiline || Has(Feature::kAnchorsMatchAtLines)) {
          node->assertion = AssertionKind::kEndOfLine;
          node->chars = internal::LineTerminatorSet(dialect_);
        } else if (Has(Feature::kDollarIsEndOfText)) {
          node->assertion = AssertionKind::kEndOfText;
        } else {
          node->assertion = AssertionKind::kEndOfTextOrFinalNewline;
        }
        return node;
      }
      case '\\':
        return ParseEscape(*flags);
      case '*':
      case '+':
      case '?':
        return FailNull(ErrorCode::kInvalidPattern,
                        "quantifier does not follow a repeatable item", pos_,
                        pos_ + 1);
      case '{': {
        int min = 0, max = 0;
        const std::size_t saved = pos_;
        if (ParseCountedQuantifier(&min, &max)) {
          if (error_) return nullptr;
          if (!Has(Feature::kLiteralQuantifierBraces)) {
            return FailNull(ErrorCode::kInvalidPattern,
                            "quantifier does not follow a repeatable item",
                            saved, pos_);
          }
          pos_ = saved;
        }
        if (Has(Feature::kStrictBraces)) {
          return FailNull(ErrorCode::kInvalidPattern, "lone '{'", pos_,
                          pos_ + 1);
        }
        ++pos_;
        return MakeLiteral('{', Fold(*flags), start, pos_);
      }
      case ']':
      case '}':
        if (Has(Feature::kStrictBraces)) {
          return FailNull(ErrorCode::kInvalidPattern, "lone bracket", pos_,
                          pos_ + 1);
        }
        ++pos_;
        return MakeLiteral(c, Fold(*flags), start, pos_);
      default:
        ++pos_;
        return MakeLiteral(c, Fold(*flags), start, pos_);
    }
  }

  std::optional<std::string> ReadName(char32_t terminator) {
    std::string name;
    while (!AtEnd() && Peek() != terminator) {
      if (!IsNameChar(Peek())) return std::nullopt;
      AppendUtf8(Peek(), &name);
      ++pos_;
    }
    if (AtEnd() || name.empty() ||
        IsAsciiDigit(static_cast<char32_t>(name[0]))) {
      return std::nullopt;
    }
    ++pos_;  // terminator
    return name;
  }

  bool ParseFlagLettersInline(InlineFlags* target, bool* scoped) {
    // At the letters after "(?": [a-zA-Z]* ('-' [a-zA-Z]*)? then ')' or ':'.
    bool on = true;
    InlineFlags flags = *target;
    while (!AtEnd()) {
      const char32_t c = Peek();
      if (c == ')' || c == ':') {
        *scoped = c == ':';
        ++pos_;
        *target = flags;
        return true;
      }
      if (c == '-') {
        on = false;
      } else if (c == 'i') {
        flags.case_insensitive = on;
      } else if (c == 'm') {
        if (Has(Feature::kMIsDotAll)) {
          flags.dot_all = on;  // Ruby's m is dot-all
        } else {
          flags.multiline = on;
        }
      } else if (c == 's') {
        flags.dot_all = on;
      } else if (c == 'x' && Has(Feature::kExtendedFlag)) {
        flags.extended = on;
      } else if (c == 'u' && Has(Feature::kInlineUnicodeFlag)) {
        // Java (?u): UNICODE_CASE; Python (?u): Unicode matching.
        flags.unicode = on;
        if (on) flags.ascii = false;
      } else if (c == 'a' && Has(Feature::kInlineAsciiFlag)) {
        flags.ascii = on;
      } else if (c == 'u' || c == 'a' || c == 'L' || c == 'U' || c == 'n' ||
                 c == 'J' || c == 'd') {
        // Unicode/ASCII/locale/ungreedy/no-capture modes. Ungreedy changes
        // backtracking order: refuse it rather than analyse the wrong thing.
        if (c == 'U' && !Has(Feature::kUFlagIsUnicode)) return false;
        if (c == 'n' || c == 'J') return false;
      } else {
        return false;
      }
      ++pos_;
    }
    return false;
  }

  std::unique_ptr<Node> ParseGroup(InlineFlags* outer_flags) {
    const std::size_t start = pos_;
    ++pos_;  // '('
    if (++depth_ > options_.max_nesting) {
      return FailNull(
          ErrorCode::kUnsupportedSyntax,
          "groups nested deeper than " + std::to_string(options_.max_nesting),
          start, pos_);
    }
    InlineFlags flags = *outer_flags;
    NodeKind kind = NodeKind::kGroup;
    GroupKind group_kind = GroupKind::kCapturing;
    bool lookbehind = false, negated = false;
    std::string name;
    if (Peek() == '*' && Has(Feature::kBacktrackingVerbs)) {
      return FailNull(ErrorCode::kUnsupportedSyntax,
                      "backtracking control verbs like (*SKIP)", start,
                      pos_ + 1);
    }
    if (Peek() == '?') {
      ++pos_;
      const char32_t k = Peek();
      if (k == ':') {
        ++pos_;
        group_kind = GroupKind::kNonCapturing;
      } else if (k == '>' && Has(Feature::kAtomicGroups)) {
        ++pos_;
        group_kind = GroupKind::kAtomic;
      } else if (k == '=' || k == '!') {
        if (!Has(Feature::kLookaround)) {
          return FailNull(ErrorCode::kInvalidPattern,
                          "lookahead is not supported by Go", start, pos_ + 1);
        }
        ++pos_;
        kind = NodeKind::kLookaround;
        negated = k == '!';
      } else if (k == '<' && (Peek(1) == '=' || Peek(1) == '!')) {
        if (!Has(Feature::kLookaround)) {
          return FailNull(ErrorCode::kInvalidPattern,
                          "lookbehind is not supported by Go", start, pos_);
        }
        kind = NodeKind::kLookaround;
        lookbehind = true;
        negated = Peek(1) == '!';
        pos_ += 2;
      } else if (k == '<' || (k == '\'' && Has(Feature::kQuotedGroupNames)) ||
                 (k == 'P' && Peek(1) == '<' &&
                  Has(Feature::kPythonGroupNames))) {
        if (k == 'P') ++pos_;
        const char32_t terminator = Peek() == '\'' ? '\'' : '>';
        ++pos_;
        std::optional<std::string> read = ReadName(terminator);
        if (!read) {
          return FailNull(ErrorCode::kInvalidPattern, "bad group name", start,
                          pos_);
        }
        name = *read;
      } else if (k == 'P' && Peek(1) == '=' &&
                 Has(Feature::kPythonNamedBackrefs)) {
        pos_ += 2;
        std::optional<std::string> read = ReadName(')');
        if (!read) {
          return FailNull(ErrorCode::kInvalidPattern, "bad group name", start,
                          pos_);
        }
        --depth_;
        auto node = MakeNode(NodeKind::kBackReference, start, pos_);
        pending_named_references_.emplace_back(node.get(), *read);
        return node;
      } else if (k == '#' && Has(Feature::kInlineComments)) {
        while (!AtEnd() && Peek() != ')') ++pos_;
        if (AtEnd()) {
          return FailNull(ErrorCode::kInvalidPattern, "missing ) after comment",
                          start, pos_);
        }
        ++pos_;
        --depth_;
        return nullptr;  // a comment matches nothing and adds no node
      } else if (k == '|' || k == '(' || k == 'R' || k == '&' || k == 'C' ||
                 IsAsciiDigit(k) || k == '+' || (k == 'P' && Peek(1) == '>') ||
                 (k == '-' && IsAsciiDigit(Peek(1)))) {
        return FailNull(ErrorCode::kUnsupportedSyntax,
                        k == '|'   ? "branch reset groups (?|...)"
                        : k == '(' ? "conditional groups (?(...)...)"
                        : k == 'C' ? "callouts (?C...)"
                                   : "recursion and subroutine calls",
                        start, pos_ + 1);
      } else {
        bool scoped = false;
        if (!ParseFlagLettersInline(&flags, &scoped)) {
          return FailNull(Has(Feature::kUnknownGroupIsInvalid)
                              ? ErrorCode::kInvalidPattern
                              : ErrorCode::kUnsupportedSyntax,
                          "unrecognised group syntax after (?", start,
                          std::min(pos_ + 1, chars_.size()));
        }
        if (!scoped) {
          // (?i) applies to the rest of the enclosing group.
          *outer_flags = flags;
          --depth_;
          return nullptr;
        }
        group_kind = GroupKind::kNonCapturing;
      }
    }
    int capture_index = 0;
    if (kind == NodeKind::kGroup && group_kind == GroupKind::kCapturing) {
      capture_index = ++captures_seen_;
      if (!name.empty()) {
        if (group_names_.count(name) != 0 &&
            !Has(Feature::kDuplicateGroupNames)) {
          return FailNull(ErrorCode::kInvalidPattern,
                          "duplicate group name '" + name + "'", start, pos_);
        }
        group_names_.emplace(name, capture_index);
      }
    }
    std::unique_ptr<Node> body = ParseAlternation(flags);
    if (error_) return nullptr;
    if (AtEnd() || Peek() != ')') {
      return FailNull(ErrorCode::kInvalidPattern, "missing )", start, pos_);
    }
    ++pos_;
    --depth_;
    if (lookbehind && !LookbehindLengthAllowed(*body)) {
      return FailNull(ErrorCode::kInvalidPattern,
                      "lookbehind assertion is not fixed length", start, pos_);
    }
    auto node = MakeNode(kind, start, pos_);
    node->group_kind = group_kind;
    node->capture_index = capture_index;
    node->name = name;
    node->lookbehind = lookbehind;
    node->negated = negated;
    node->children.push_back(std::move(body));
    return node;
  }

  // Reads exactly `digits` hex digits (or up to `digits` when !exact).
  std::optional<char32_t> ReadHex(std::size_t min_digits,
                                  std::size_t max_digits) {
    std::uint32_t value = 0;
    std::size_t count = 0;
    while (count < max_digits && !AtEnd() && IsHexDigit(Peek())) {
      value = value * 16 + static_cast<std::uint32_t>(HexValue(Peek()));
      if (value > kMaxCodePoint) return std::nullopt;
      ++pos_;
      ++count;
    }
    if (count < min_digits) return std::nullopt;
    return static_cast<char32_t>(value);
  }

  std::optional<char32_t> ReadBracedHex() {
    // At '{': \x{HHH} or \u{HHH}.
    ++pos_;
    std::optional<char32_t> value = ReadHex(1, 8);
    if (!value || AtEnd() || Peek() != '}') return std::nullopt;
    ++pos_;
    return value;
  }

  // An escape that denotes one code point, shared by atoms and classes.
  // Returns nullopt (with error_ set when invalid) if it is not one.
  struct EscapedCharacter {
    bool is_character = false;
    char32_t value = 0;
  };
  EscapedCharacter ParseCharacterEscape(bool in_class) {
    // pos_ is after the backslash.
    const std::size_t start = pos_ - 1;
    const char32_t c = Peek();
    auto single = [&](char32_t value) {
      ++pos_;
      return EscapedCharacter{true, value};
    };
    switch (c) {
      case 't':
        return single('\t');
      case 'n':
        return single('\n');
      case 'r':
        return single('\r');
      case 'f':
        return single('\f');
      case 'a':
        if (!Has(Feature::kEscapeBell)) break;
        return single('\a');
      case 'e':
        if (!Has(Feature::kEscapeEscape)) break;
        return single(0x1B);
      case 'v':
        if (!Has(Feature::kEscapeVerticalTab)) break;
        return single('\v');
      case 'b':
        if (in_class) return single('\b');
        return {};
      case '0': {
        ++pos_;
        std::uint32_t value = 0;
        for (int i = 0; i < 2 && !AtEnd() && Peek() >= '0' && Peek() <= '7';
             ++i) {
          value = value * 8 + (Peek() - '0');
          ++pos_;
        }
        return {true, value};
      }
      case 'x': {
        ++pos_;
        std::optional<char32_t> value;
        if (Peek() == '{' && Has(Feature::kBracedHex)) {
          value = ReadBracedHex();
        } else if (Has(Feature::kTwoDigitHex)) {
          value = ReadHex(2, 2);
          if (!value && Has(Feature::kIdentityEscapes)) {
            return {true, 'x'};  // Annex B identity escape
          }
        } else {
          value = ReadHex(0, 2);
        }
        if (!value) {
          Fail(ErrorCode::kInvalidPattern, "bad \\x escape", start, pos_);
          return {};
        }
        return {true, *value};
      }
      case 'u': {
        if (!Has(Feature::kEscapeU)) {
          if (!Has(Feature::kEscapeUIsError)) break;
          Fail(ErrorCode::kInvalidPattern,
               "\\u is not supported in this dialect (use \\x{...})", start,
               pos_ + 1);
          return {};
        }
        ++pos_;
        std::optional<char32_t> value;
        if (Peek() == '{' && Has(Feature::kBracedUnicodeEscape)) {
          value = ReadBracedHex();
        } else {
          value = ReadHex(4, 4);
          // A surrogate pair written as two \u escapes is one code point.
          if (value && *value >= 0xD800 && *value <= 0xDBFF && Peek() == '\\' &&
              Peek(1) == 'u') {
            const std::size_t saved = pos_;
            pos_ += 2;
            std::optional<char32_t> low = ReadHex(4, 4);
            if (low && *low >= 0xDC00 && *low <= 0xDFFF) {
              value = 0x10000 + ((*value - 0xD800) << 10) + (*low - 0xDC00);
            } else {
              pos_ = saved;
            }
          }
        }
        if (!value) {
          if (Has(Feature::kIdentityEscapes)) return {true, 'u'};
          Fail(ErrorCode::kInvalidPattern, "bad \\u escape", start, pos_);
          return {};
        }
        if (!internal::IsEncodable(*value)) {
          Fail(ErrorCode::kUnsupportedSyntax, "lone surrogate code point",
               start, pos_);
          return {};
        }
        return {true, *value};
      }
      case 'U':
        if (!Has(Feature::kEscapeLongU)) break;
        {
          ++pos_;
          std::optional<char32_t> value = ReadHex(8, 8);
          if (!value) {
            Fail(ErrorCode::kInvalidPattern, "bad \\U escape", start, pos_);
            return {};
          }
          return {true, *value};
        }
      case 'c':
        if (!Has(Feature::kControlEscape)) break;
        if (HasAhead(1) && IsAsciiLetter(Peek(1))) {
          const char32_t letter = Peek(1);
          pos_ += 2;
          return {true, static_cast<char32_t>(letter & 0x1F)};
        }
        if (Has(Feature::kBadControlEscapeIsBackslash)) return {true, '\\'};
        Fail(ErrorCode::kInvalidPattern, "bad \\c escape", start, pos_ + 1);
        return {};
      case 'o':
        if (!Has(Feature::kOctalBraces)) break;
        if (Peek(1) == '{') {
          pos_ += 2;
          std::uint32_t value = 0;
          std::size_t count = 0;
          while (!AtEnd() && Peek() >= '0' && Peek() <= '7') {
            value = value * 8 + (Peek() - '0');
            if (value > kMaxCodePoint) break;
            ++pos_;
            ++count;
          }
          if (count == 0 || AtEnd() || Peek() != '}') {
            Fail(ErrorCode::kInvalidPattern, "bad \\o escape", start, pos_);
            return {};
          }
          ++pos_;
          return {true, value};
        }
        break;
      case 'N':
        if (Has(Feature::kNamedCharacters) && Peek(1) == '{') {
          Fail(ErrorCode::kUnsupportedSyntax, "named characters \\N{...}",
               start, pos_ + 1);
          return {};
        }
        return {};
      default:
        break;
    }
    if (c >= '1' && c <= '7' && in_class && Has(Feature::kOctalInClass)) {
      // Octal in classes (PCRE, Python); back references are not allowed.
      std::uint32_t value = 0;
      for (int i = 0; i < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7';
           ++i) {
        value = value * 8 + (Peek() - '0');
        ++pos_;
      }
      return {true, value};
    }
    if (IsAsciiLetter(c) || IsAsciiDigit(c)) return {};  // not a char escape
    // Escaped punctuation or other symbol: the character itself.
    ++pos_;
    return {true, c};
  }

  // Shorthand class escapes: \d \D \w \W \s \S \h \H \v \V \R \p{..} \P{..}.
  bool ParseClassEscape(ClassBuilder* cls, bool* handled) {
    *handled = true;
    const std::size_t start = pos_ - 1;
    const char32_t c = Peek();
    CodePointSet set;
    bool negate = false;
    switch (c) {
      case 'd':
        set = internal::DigitSet();
        break;
      case 'D':
        set = internal::DigitSet();
        negate = true;
        break;
      case 'w':
        set = internal::WordSet();
        break;
      case 'W':
        set = internal::WordSet();
        negate = true;
        break;
      case 's':
        set = internal::SpaceSet(dialect_);
        break;
      case 'S':
        set = internal::SpaceSet(dialect_);
        negate = true;
        break;
      case 'h':
        if (Has(Feature::kHIsHexDigit)) {
          set = internal::PosixClass("xdigit").value();
          break;
        }
        if (!Has(Feature::kSpaceByDirection)) {
          *handled = false;
          return true;
        }
        set = internal::HorizontalSpaceSet();
        break;
      case 'H':
        if (!Has(Feature::kSpaceByDirection)) {
          *handled = false;
          return true;
        }
        set = internal::HorizontalSpaceSet();
        negate = true;
        break;
      case 'v':
        if (!Has(Feature::kSpaceByDirection)) {
          *handled = false;
          return true;
        }
        set = internal::VerticalSpaceSet();
        break;
      case 'V':
        if (!Has(Feature::kSpaceByDirection)) {
          *handled = false;
          return true;
        }
        set = internal::VerticalSpaceSet();
        negate = true;
        break;
      case 'p':
      case 'P': {
        if (!Has(Feature::kUnicodeProperties)) {
          if (Has(Feature::kIdentityEscapes)) {  // Annex B: \p is just 'p'
            *handled = false;
            return true;
          }
          Fail(ErrorCode::kInvalidPattern, "bad escape \\p", start, pos_ + 1);
          return false;
        }
        negate = c == 'P';
        ++pos_;
        std::string name;
        const std::size_t name_start = pos_;
        if (Peek() == '{') {
          ++pos_;
          if (Peek() == '^') {
            negate = !negate;
            ++pos_;
          }
          while (!AtEnd() && Peek() != '}') {
            AppendUtf8(Peek(), &name);
            ++pos_;
          }
          if (AtEnd()) {
            Fail(ErrorCode::kInvalidPattern, "missing } in \\p{...}", start,
                 pos_);
            return false;
          }
          ++pos_;
        } else if (!AtEnd() && IsAsciiLetter(Peek())) {
          AppendUtf8(Peek(), &name);
          ++pos_;
        } else {
          Fail(ErrorCode::kInvalidPattern, "malformed \\p escape", start, pos_);
          return false;
        }
        (void)name_start;
        std::string value_name = name;
        if (const std::size_t eq = name.find('='); eq != std::string::npos) {
          value_name = name.substr(eq + 1);  // General_Category=L, Script=Latin
        }
        std::optional<internal::PropertySet> property =
            internal::UnicodeProperty(value_name);
        if (!property) {
          Fail(ErrorCode::kUnsupportedSyntax,
               "unknown Unicode property '" + name + "'", start, pos_);
          return false;
        }
        // Keep the exact PCRE2 spelling for the proof; the set is what the
        // automaton analysis uses.
        cls->property_items.push_back(std::string(negate ? "\\P{" : "\\p{") +
                                      value_name + "}");
        cls->approximate = cls->approximate || property->approximate;
        cls->property_set.Add(negate ? property->set.Complement()
                                     : property->set);
        return true;
      }
      default:
        *handled = false;
        return true;
    }
    ++pos_;
    cls->set.Add(negate ? set.Complement() : set);
    return true;
  }

  std::unique_ptr<Node> ParseEscape(const InlineFlags& flags) {
    const std::size_t start = pos_;
    ++pos_;  // backslash
    if (AtEnd()) {
      return FailNull(ErrorCode::kInvalidPattern, "pattern ends with \\", start,
                      pos_);
    }
    const char32_t c = Peek();
    // Assertions.
    auto assertion = [&](AssertionKind kind) {
      ++pos_;
      auto node = MakeNode(NodeKind::kAssertion, start, pos_);
      node->assertion = kind;
      return node;
    };
    switch (c) {
      case 'b':
        return assertion(AssertionKind::kWordBoundary);
      case 'B':
        return assertion(AssertionKind::kNotWordBoundary);
      case 'A':
        if (!Has(Feature::kEscapeStartOfText)) break;
        return assertion(AssertionKind::kStartOfText);
      case 'z':
        if (!Has(Feature::kEscapeEndOfText)) break;
        return assertion(AssertionKind::kEndOfText);
      case 'Z':
        if (!Has(Feature::kEscapeEndOfTextOrNewline)) break;
        // Python's \Z is the true end of text.
        return assertion(Has(Feature::kUpperZIsEndOfText)
                             ? AssertionKind::kEndOfText
                             : AssertionKind::kEndOfTextOrFinalNewline);
      case 'G':
        if (!Has(Feature::kEscapeStartOfSearch)) break;
        return assertion(AssertionKind::kStartOfSearch);
      case 'K':
        if (Has(Feature::kResetMatchStart)) {
          return FailNull(ErrorCode::kUnsupportedSyntax,
                          "\\K (reset match start)", start, pos_ + 1);
        }
        break;
      case 'X':
        if (Has(Feature::kGraphemeClusters)) {
          return FailNull(ErrorCode::kUnsupportedSyntax,
                          "extended grapheme clusters \\X", start, pos_ + 1);
        }
        break;
      case 'R':
        if (Has(Feature::kNewlineSequence)) {
          // A newline sequence; only \r\n is two characters, the set below
          // covers every single-character alternative.
          ++pos_;
          auto node = MakeNode(NodeKind::kCharacters, start, pos_);
          node->chars = internal::VerticalSpaceSet();
          node->approximate = true;
          node->pcre2_text = "\\R";
          return node;
        }
        break;
      case 'Q':
        if (Has(Feature::kQuotedLiterals)) return ParseQuotedLiteral(flags);
        break;
      case 'E':
        if (Has(Feature::kIgnoresStrayEndQuote)) {
          ++pos_;  // a stray \E is ignored
          return nullptr;
        }
        break;
      default:
        break;
    }
    // Back references.
    if ((c == 'k' && (Peek(1) == '<' || Peek(1) == '{' || Peek(1) == '\'')) &&
        Has(Feature::kNamedBackrefK)) {
      const char32_t open = Peek(1);
      const char32_t close = open == '<' ? '>' : open == '{' ? '}' : '\'';
      pos_ += 2;
      std::optional<std::string> name = ReadName(close);
      if (!name) {
        return FailNull(ErrorCode::kInvalidPattern, "bad \\k<name> reference",
                        start, pos_);
      }
      auto node = MakeNode(NodeKind::kBackReference, start, pos_);
      pending_named_references_.emplace_back(node.get(), *name);
      return node;
    }
    if (c == 'g' && Has(Feature::kBackrefG)) {
      ++pos_;
      bool braced = Peek() == '{';
      if (braced) ++pos_;
      bool relative = false;
      if (Peek() == '-') {
        relative = true;
        ++pos_;
      } else if (Peek() == '+') {
        return FailNull(ErrorCode::kUnsupportedSyntax,
                        "forward relative references", start, pos_);
      }
      if (braced && !relative && !AtEnd() && !IsAsciiDigit(Peek())) {
        std::optional<std::string> name = ReadName('}');
        if (!name) {
          return FailNull(ErrorCode::kInvalidPattern, "bad \\g{name}", start,
                          pos_);
        }
        auto node = MakeNode(NodeKind::kBackReference, start, pos_);
        pending_named_references_.emplace_back(node.get(), *name);
        return node;
      }
      int number = 0;
      std::size_t digits = 0;
      while (!AtEnd() && IsAsciiDigit(Peek()) && digits < 6) {
        number = number * 10 + static_cast<int>(Peek() - '0');
        ++pos_;
        ++digits;
      }
      if (digits == 0 || (braced && (AtEnd() || Peek() != '}'))) {
        return FailNull(ErrorCode::kInvalidPattern, "bad \\g reference", start,
                        pos_);
      }
      if (braced) ++pos_;
      if (relative) number = captures_seen_ + 1 - number;
      if (number <= 0) {
        return FailNull(ErrorCode::kInvalidPattern, "bad relative reference",
                        start, pos_);
      }
      auto node = MakeNode(NodeKind::kBackReference, start, pos_);
      node->group_index = number;
      numbered_references_.push_back(node.get());
      return node;
    }
    if (c >= '1' && c <= '9') {
      if (!Has(Feature::kBackReferences)) {
        return FailNull(ErrorCode::kInvalidPattern,
                        "back references are not supported by Go", start,
                        pos_ + 1);
      }
      // A back reference when the number is below 10 or names a group;
      // otherwise an octal escape.
      std::size_t end = pos_;
      while (end < chars_.size() && IsAsciiDigit(chars_[end]) &&
             end - pos_ < 5) {
        ++end;
      }
      int number = 0;
      std::size_t used = 0;
      for (std::size_t i = pos_; i < end; ++i) {
        const int next = number * 10 + static_cast<int>(chars_[i] - '0');
        // JavaScript drops digits until the number names a group; PCRE,
        // Python and Java read the whole number.
        if (Has(Feature::kJavaScriptBackrefDigits) && used > 0 &&
            next > total_captures_) {
          break;
        }
        number = next;
        ++used;
      }
      if (number <= total_captures_ || number < 10) {
        if (number > total_captures_) {
          if (Has(Feature::kIdentityEscapes)) {
            // Annex B: \8 is '8', \1 without groups is octal \x01.
            ++pos_;
            if (c >= '8') return MakeLiteral(c, Fold(flags), start, pos_);
            return MakeLiteral(c - '0', Fold(flags), start, pos_);
          }
          return FailNull(
              ErrorCode::kInvalidPattern,
              "reference to non-existent group " + std::to_string(number),
              start, pos_ + used);
        }
        pos_ += used;
        auto node = MakeNode(NodeKind::kBackReference, start, pos_);
        node->group_index = number;
        numbered_references_.push_back(node.get());
        return node;
      }
      // Octal escape.
      std::uint32_t value = 0;
      for (int i = 0; i < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7';
           ++i) {
        value = value * 8 + (Peek() - '0');
        ++pos_;
      }
      if (pos_ == start + 1) {
        return FailNull(ErrorCode::kInvalidPattern, "bad escape", start,
                        pos_ + 1);
      }
      return MakeLiteral(value, Fold(flags), start, pos_);
    }
    // Shorthand classes.
    ClassBuilder cls;
    bool handled = false;
    if (!ParseClassEscape(&cls, &handled)) return nullptr;
    if (handled) {
      return MakeCharacters(std::move(cls), Fold(flags), start, pos_);
    }
    // Single characters.
    const EscapedCharacter escaped = ParseCharacterEscape(false);
    if (error_) return nullptr;
    if (escaped.is_character) {
      return MakeLiteral(escaped.value, Fold(flags), start, pos_);
    }
    if (Has(Feature::kIdentityEscapes)) {
      // Annex B identity escape: \q is 'q'.
      ++pos_;
      return MakeLiteral(c, Fold(flags), start, pos_);
    }
    return FailNull(ErrorCode::kInvalidPattern,
                    "unrecognised escape \\" +
                        std::string(1, static_cast<char>(c < 0x80 ? c : '?')),
                    start, pos_ + 1);
  }

  std::unique_ptr<Node> ParseQuotedLiteral(const InlineFlags& flags) {
    // At 'Q' after a backslash: everything up to \E is literal.
    const std::size_t start = pos_ - 1;
    ++pos_;
    std::vector<std::unique_ptr<Node>> items;
    while (!AtEnd() && !(Peek() == '\\' && Peek(1) == 'E')) {
      items.push_back(MakeLiteral(Peek(), Fold(flags), pos_, pos_ + 1));
      ++pos_;
    }
    if (!AtEnd()) pos_ += 2;
    if (items.empty()) return nullptr;
    if (items.size() == 1) return std::move(items.front());
    auto node = MakeNode(NodeKind::kSequence, start, pos_);
    node->children = std::move(items);
    return node;
  }

  std::unique_ptr<Node> ParseClass(const InlineFlags& flags) {
    const std::size_t start = pos_;
    ++pos_;  // '['
    bool negated = false;
    if (Peek() == '^') {
      negated = true;
      ++pos_;
    }
    ClassBuilder cls;
    bool first = true;
    std::optional<char32_t> previous;  // last single character, for ranges
    while (true) {
      if (AtEnd()) {
        return FailNull(ErrorCode::kInvalidPattern, "missing ] for class",
                        start, pos_);
      }
      const char32_t c = Peek();
      if (c == ']' && !(first && Has(Feature::kLeadingBracketIsLiteral))) {
        ++pos_;
        break;
      }
      first = false;
      // POSIX class [:name:] or [:^name:]; without them (JavaScript,
      // Python) "[[:alpha:]]" is a plain set of characters.
      if (c == '[' && Peek(1) == ':' && Has(Feature::kPosixClasses)) {
        std::size_t end = pos_ + 2;
        while (end < chars_.size() && chars_[end] != ':' &&
               chars_[end] != ']') {
          ++end;
        }
        if (end + 1 < chars_.size() && chars_[end] == ':' &&
            chars_[end + 1] == ']') {
          std::string name;
          bool posix_negated = false;
          for (std::size_t i = pos_ + 2; i < end; ++i) {
            if (i == pos_ + 2 && chars_[i] == '^') {
              posix_negated = true;
              continue;
            }
            AppendUtf8(chars_[i], &name);
          }
          std::optional<CodePointSet> set = internal::PosixClass(name);
          if (!set) {
            return FailNull(ErrorCode::kInvalidPattern,
                            "unknown POSIX class name '" + name + "'", pos_,
                            end + 2);
          }
          cls.set.Add(posix_negated ? set->Complement() : *set);
          pos_ = end + 2;
          previous.reset();
          continue;
        }
      }
      if (c == '[' && Has(Feature::kClassSetOperations)) {
        return FailNull(ErrorCode::kUnsupportedSyntax,
                        "nested character classes", pos_, pos_ + 1);
      }
      if (c == '&' && Peek(1) == '&' && Has(Feature::kClassSetOperations)) {
        return FailNull(ErrorCode::kUnsupportedSyntax, "class intersection &&",
                        pos_, pos_ + 2);
      }
      // One item: a character or a shorthand class.
      std::optional<char32_t> item;
      const std::size_t item_start = pos_;
      if (c == '\\') {
        ++pos_;
        if (AtEnd()) {
          return FailNull(ErrorCode::kInvalidPattern, "pattern ends with \\",
                          item_start, pos_);
        }
        if (Peek() == 'Q' && Has(Feature::kQuotedLiteralsInClass)) {
          ++pos_;
          while (!AtEnd() && !(Peek() == '\\' && Peek(1) == 'E')) {
            cls.set.Add(Peek(), Peek());
            ++pos_;
          }
          if (!AtEnd()) pos_ += 2;
          previous.reset();
          continue;
        }
        if (Peek() == 'E' && Has(Feature::kQuotedLiteralsInClass)) {
          ++pos_;
          continue;
        }
        bool handled = false;
        if (!ParseClassEscape(&cls, &handled)) return nullptr;
        if (handled) {
          previous.reset();
          if (Peek() == '-' && Peek(1) != ']' &&
              Has(Feature::kRangeFromShorthandIsError)) {
            return FailNull(ErrorCode::kInvalidPattern,
                            "invalid range in character class", item_start,
                            pos_ + 1);
          }
          continue;
        }
        const EscapedCharacter escaped = ParseCharacterEscape(true);
        if (error_) return nullptr;
        if (!escaped.is_character) {
          if (Has(Feature::kIdentityEscapes)) {
            item = Peek();
            ++pos_;
          } else {
            return FailNull(ErrorCode::kInvalidPattern,
                            "unrecognised escape in character class",
                            item_start, pos_ + 1);
          }
        } else {
          item = escaped.value;
        }
      } else {
        item = c;
        ++pos_;
      }
      // A range "x-y" when the '-' is followed by something other than ']'.
      if (Peek() == '-' && HasAhead(1) && Peek(1) != ']') {
        const std::size_t dash = pos_;
        ++pos_;
        std::optional<char32_t> last;
        if (Peek() == '\\') {
          ++pos_;
          bool handled = false;
          ClassBuilder probe;
          const std::size_t saved = pos_;
          if (!ParseClassEscape(&probe, &handled)) return nullptr;
          if (handled) {
            // "a-\d": a literal '-' in most engines; PCRE rejects it.
            if (Has(Feature::kRangeToShorthandIsError)) {
              return FailNull(ErrorCode::kInvalidPattern,
                              "invalid range in character class", item_start,
                              pos_);
            }
            cls.set.Add(*item, *item);
            cls.set.Add('-', '-');
            cls.set.Add(probe.set);
            continue;
          }
          pos_ = saved;
          const EscapedCharacter escaped = ParseCharacterEscape(true);
          if (error_) return nullptr;
          if (!escaped.is_character) {
            if (Has(Feature::kIdentityEscapes)) {
              last = Peek();
              ++pos_;
            } else {
              return FailNull(ErrorCode::kInvalidPattern,
                              "unrecognised escape in character class", dash,
                              pos_ + 1);
            }
          } else {
            last = escaped.value;
          }
        } else if (Peek() == '[' && Peek(1) == ':' &&
                   Has(Feature::kPosixClasses)) {
          return FailNull(ErrorCode::kInvalidPattern,
                          "invalid range in character class", item_start, pos_);
        } else {
          last = Peek();
          ++pos_;
        }
        if (*last < *item) {
          return FailNull(ErrorCode::kInvalidPattern,
                          "range out of order in character class", item_start,
                          pos_);
        }
        cls.set.Add(*item, *last);
        previous.reset();
        continue;
      }
      cls.set.Add(*item, *item);
      previous = item;
    }
    cls.negated = negated;
    return MakeCharacters(std::move(cls), Fold(flags), start, pos_);
  }

  // True when every match must start at the subject's start. A lookaround
  // before the anchor still runs at every start position of a search in
  // PCRE2, Python and Java; V8 looks through it (its
  // RegExpTree::IsAnchoredAtStart skips every item that matches nothing, so
  // `(?=.*\d)^\w+$` is tried at position 0 only).
  bool StartsAnchored(const Node& node) const {
    switch (node.kind) {
      case NodeKind::kAssertion:
        return node.assertion == AssertionKind::kStartOfText ||
               node.assertion == AssertionKind::kStartOfSearch;
      case NodeKind::kSequence:
        for (const auto& child : node.children) {
          if (StartsAnchored(*child)) return true;
          if (!IsZeroWidth(*child)) return false;
          // A lookaround before the anchor still runs at every start
          // position of a search.
          if (child->kind == NodeKind::kLookaround &&
              !Has(Feature::kAnchorLooksThroughLookaround)) {
            return false;
          }
        }
        return false;
      case NodeKind::kAlternation:
        for (const auto& child : node.children) {
          if (!StartsAnchored(*child)) return false;
        }
        return true;
      case NodeKind::kGroup:
        return StartsAnchored(*node.children[0]);
      case NodeKind::kRepeat:
        return node.min >= 1 && StartsAnchored(*node.children[0]);
      default:
        return false;
    }
  }
  // Length in characters of every string `node` matches, if fixed.
  static std::optional<long> FixedLength(const Node& node) {
    switch (node.kind) {
      case NodeKind::kCharacters:
        return node.pcre2_text == "\\R" ? std::nullopt : std::optional<long>(1);
      case NodeKind::kEmpty:
      case NodeKind::kAssertion:
      case NodeKind::kLookaround:
        return 0;
      case NodeKind::kBackReference:
        return std::nullopt;
      case NodeKind::kGroup:
        return FixedLength(*node.children[0]);
      case NodeKind::kRepeat: {
        if (node.max != node.min) return std::nullopt;
        const std::optional<long> child = FixedLength(*node.children[0]);
        if (!child) return std::nullopt;
        return *child * node.min;
      }
      case NodeKind::kSequence: {
        long total = 0;
        for (const auto& child : node.children) {
          const std::optional<long> length = FixedLength(*child);
          if (!length) return std::nullopt;
          total += *length;
        }
        return total;
      }
      case NodeKind::kAlternation: {
        std::optional<long> common;
        for (const auto& child : node.children) {
          const std::optional<long> length = FixedLength(*child);
          if (!length || (common && *common != *length)) return std::nullopt;
          common = length;
        }
        return common;
      }
    }
    return std::nullopt;
  }

  // PCRE2 10.42 needs each top-level branch of a lookbehind to have a fixed
  // length; Python needs one length for the whole body. JavaScript, Java and
  // .NET accept variable-length lookbehind.
  bool LookbehindLengthAllowed(const Node& body) const {
    if (Has(Feature::kLookbehindBranchesFixed)) {
      if (body.kind == NodeKind::kAlternation) {
        return std::all_of(
            body.children.begin(), body.children.end(),
            [](const auto& child) { return FixedLength(*child).has_value(); });
      }
      return FixedLength(body).has_value();
    }
    if (Has(Feature::kLookbehindFixedLength)) {
      return FixedLength(body).has_value();
    }
    return true;
  }

  // The multiline `^` every match starts with, if there is one.
  static const Node* LeadingLineAnchor(const Node& node) {
    switch (node.kind) {
      case NodeKind::kAssertion:
        return node.assertion == AssertionKind::kStartOfLine ? &node : nullptr;
      case NodeKind::kSequence:
        return node.children.empty() ? nullptr
                                     : LeadingLineAnchor(*node.children[0]);
      case NodeKind::kAlternation: {
        const Node* first = nullptr;
        for (const auto& child : node.children) {
          const Node* anchor = LeadingLineAnchor(*child);
          if (anchor == nullptr) return nullptr;
          if (first == nullptr) first = anchor;
        }
        return first;
      }
      case NodeKind::kGroup:
        return LeadingLineAnchor(*node.children[0]);
      default:
        return nullptr;
    }
  }

  static bool IsZeroWidth(const Node& node) {
    switch (node.kind) {
      case NodeKind::kEmpty:
      case NodeKind::kAssertion:
      case NodeKind::kLookaround:
        return true;
      case NodeKind::kGroup:
        return IsZeroWidth(*node.children[0]);
      case NodeKind::kSequence:
        return std::all_of(
            node.children.begin(), node.children.end(),
            [](const auto& child) { return IsZeroWidth(*child); });
      default:
        return false;
    }
  }

  std::string_view pattern_;
  ParseOptions options_;
  Dialect dialect_;
  internal::FeatureSet features_;
  std::vector<char32_t> chars_;
  std::vector<std::size_t> offsets_;  // byte offset of each code point
  std::size_t pos_ = 0;
  int depth_ = 0;
  int total_captures_ = 0;
  int captures_seen_ = 0;
  std::map<std::string, int> group_names_;
  std::vector<std::pair<Node*, std::string>> pending_named_references_;
  std::vector<const Node*> numbered_references_;
  std::optional<Error> error_;
};

}  // namespace

Result<ParsedPattern> ParsePattern(std::string_view pattern,
                                   const ParseOptions& options) {
  Parser parser(pattern, options);
  return parser.Parse();
}

}  // namespace robotscan::regexguard
