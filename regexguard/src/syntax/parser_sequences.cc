// Alternations, sequences, quantifiers and atoms (parser_internal.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"

namespace robotscan::regexguard::internal::parsing {

std::unique_ptr<Node> Parser::ParseAlternation(InlineFlags flags) {
  const std::size_t start = pos_;
  std::vector<std::unique_ptr<Node>> branches;
  branches.push_back(ParseSequence(&flags));
  if (error_) return nullptr;
  while (!AtEnd() && Peek() == '|') {
    ++pos_;
    nothing_but_global_flags_yet_ = false;
    branches.push_back(ParseSequence(&flags));
    if (error_) return nullptr;
  }
  if (branches.size() == 1) return std::move(branches.front());
  auto node = MakeNode(NodeKind::kAlternation, start, pos_);
  node->children = std::move(branches);
  return node;
}

std::unique_ptr<Node> Parser::ParseSequence(InlineFlags* flags) {
  const std::size_t start = pos_;
  std::vector<std::unique_ptr<Node>> items;
  while (true) {
    SkipExtendedWhitespace(*flags);
    if (AtEnd() || Peek() == '|' || Peek() == ')') break;
    std::unique_ptr<Node> atom = ParseQuantified(flags);
    if (error_) return nullptr;
    if (atom) {
      nothing_but_global_flags_yet_ = false;
      items.push_back(std::move(atom));
    }
  }
  if (items.empty()) return MakeNode(NodeKind::kEmpty, start, pos_);
  if (items.size() == 1) return std::move(items.front());
  auto node = MakeNode(NodeKind::kSequence, start, pos_);
  node->children = std::move(items);
  return node;
}

std::unique_ptr<Node> Parser::ParseQuantified(InlineFlags* flags) {
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
    } else if (c == '{' && Has(Feature::kBraceMustBeCount)) {
      // java.util.regex's PatternSyntaxException for `a{`, `a{,3}`.
      return FailNull(StatusCode::kInvalidInput, "Illegal repetition",
                      quantifier_start, quantifier_start + 1);
    } else {
      return atom;
    }
    if (atom->kind == NodeKind::kRepeat && !Has(Feature::kRepeatOfAnyRepeat) &&
        !(chars_[quantifier_start] == '{' &&
          Has(Feature::kRepeatOfCountedRepeat))) {
      // `a**` is an error everywhere; Java reads `a{2}{3}` as a repeat of
      // a repeat.
      return FailNull(StatusCode::kInvalidInput,
                      "quantifier does not follow a repeatable item",
                      quantifier_start, pos_);
    }
    if (atom->kind == NodeKind::kAssertion &&
        (atom->assertion == AssertionKind::kStartOfText ||
         atom->assertion == AssertionKind::kStartOfLine ||
         atom->assertion == AssertionKind::kWordBoundary) &&
        Has(Feature::kAnchorsNotRepeatable)) {
      return FailNull(StatusCode::kInvalidInput, "nothing to repeat",
                      quantifier_start, pos_);
    }
    Greediness greediness = Greediness::kGreedy;
    if (!AtEnd() && Peek() == '?') {
      greediness = Greediness::kLazy;
      ++pos_;
    } else if (!AtEnd() && Peek() == '+' &&
               Has(Feature::kPossessiveQuantifiers) &&
               !(chars_[quantifier_start] == '{' &&
                 Has(Feature::kRepeatOfAnyRepeat))) {
      // Onigmo: `{n,m}+` is a repeat of the repeat, not possessive (that
      // reading is its Java syntax's only).
      greediness = Greediness::kPossessive;
      ++pos_;
    }
    if (++depth_ > options_.max_nesting) {
      return FailNull(StatusCode::kUnsupported,
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
    if (Has(Feature::kNestedRepeatsReduced)) ReduceNestedRepeat(&atom);
    --depth_;
  }
}

namespace {

// Onigmo's numbering of the "popular" quantifiers (regparse.c):
// ? * + ?? *? +?, or -1 for any other (counted, possessive).
int PopularQuantifier(const Node& repeat) {
  const bool unbounded = repeat.max == kUnbounded;
  int base = -1;
  if (repeat.min == 0 && repeat.max == 1) base = 0;
  if (repeat.min == 0 && unbounded) base = 1;
  if (repeat.min == 1 && unbounded) base = 2;
  if (base < 0) return -1;
  switch (repeat.greediness) {
    case Greediness::kGreedy:
      return base;
    case Greediness::kLazy:
      return base + 3;
    case Greediness::kPossessive:
      return -1;
  }
  return -1;
}

// What Onigmo makes of a popular quantifier on a popular quantifier:
// the table of onig_reduce_nested_quantifier, as Ruby 3.1's warnings name
// each of the 36 pairs ("redundant nested repeat operator", "... was
// replaced with '*'").
enum class Reduction {
  kAsIs,
  kChild,               // the inner quantifier alone: (?:a*)+ is a*
  kStar,                // a*
  kLazyStar,            // a*?
  kLazyOptional,        // a??
  kLazyOptionalOfPlus,  // (?:a+)??
};

constexpr Reduction kReductions[6][6] = {
    // parent:  ?                   *                   +
    //          ??                  *?                  +?
    /* ? */ {Reduction::kChild, Reduction::kStar, Reduction::kStar,
             Reduction::kLazyOptional, Reduction::kLazyStar, Reduction::kAsIs},
    /* * */
    {Reduction::kChild, Reduction::kChild, Reduction::kChild,
     Reduction::kLazyOptionalOfPlus, Reduction::kLazyOptionalOfPlus,
     Reduction::kChild},
    /* + */
    {Reduction::kStar, Reduction::kStar, Reduction::kChild, Reduction::kAsIs,
     Reduction::kLazyOptionalOfPlus, Reduction::kChild},
    /* ?? */
    {Reduction::kChild, Reduction::kLazyStar, Reduction::kLazyStar,
     Reduction::kChild, Reduction::kLazyStar, Reduction::kLazyStar},
    /* *? */
    {Reduction::kChild, Reduction::kChild, Reduction::kChild, Reduction::kChild,
     Reduction::kChild, Reduction::kChild},
    /* +? */
    {Reduction::kAsIs, Reduction::kAsIs, Reduction::kAsIs, Reduction::kLazyStar,
     Reduction::kLazyStar, Reduction::kChild},
};

}  // namespace

// Onigmo rewrites a quantifier whose target is itself a quantifier, which
// a non-capturing group `(?:...)` holding only a quantifier is (it leaves no
// node of its own), when it parses it (regparse.c set_quantifier): the
// table above for two popular quantifiers, and (?:a*){n,m} / (?:a+){n,m}
// with m finite become {n,n} ({0,1} for n = 0). So on Ruby 3.1 `(?:a+)+$`,
// `(?:a*)*b` and `(?:a+){1,3}b` are linear and `(?:a+){2,3}b` quadratic,
// where their capturing forms are exponential or cubic (measured; the
// onigmo_prefilter_test and parser_test rows). The tree is the one Onigmo
// runs.
void Parser::ReduceNestedRepeat(std::unique_ptr<Node>* node) {
  Node& parent = **node;
  if (parent.children.empty()) return;
  // Where the inner quantifier sits: right under the parent (`a**`), or
  // alone in a `(?:...)` under it.
  std::unique_ptr<Node>* slot = &parent.children[0];
  if ((*slot)->kind != NodeKind::kRepeat) {
    Node& group = **slot;
    const std::size_t at = group.span.begin;
    if (group.kind != NodeKind::kGroup ||
        group.group_kind != GroupKind::kNonCapturing ||
        at + 2 >= chars_.size() || chars_[at] != '(' || chars_[at + 1] != '?' ||
        chars_[at + 2] != ':' || group.children.empty() ||
        group.children[0]->kind != NodeKind::kRepeat) {
      return;
    }
    slot = &group.children[0];
  }
  const int p = PopularQuantifier(parent);
  const int c = PopularQuantifier(**slot);
  if (c < 0) return;
  if (p < 0) {
    if ((c == 1 || c == 2) && parent.max != kUnbounded && parent.max > 1 &&
        parent.greediness == Greediness::kGreedy) {
      parent.max = parent.min == 0 ? 1 : parent.min;
    }
    return;
  }
  std::unique_ptr<Node> inner = std::move(*slot);
  const SourceSpan span = parent.span;
  auto quantify_body = [&](int min, int max, Greediness greediness) {
    parent.min = min;
    parent.max = max;
    parent.greediness = greediness;
    parent.children[0] = std::move(inner->children[0]);
  };
  switch (kReductions[c][p]) {
    case Reduction::kAsIs:
      *slot = std::move(inner);
      return;
    case Reduction::kChild:
      inner->span = span;
      *node = std::move(inner);
      return;
    case Reduction::kStar:
      quantify_body(0, kUnbounded, Greediness::kGreedy);
      return;
    case Reduction::kLazyStar:
      quantify_body(0, kUnbounded, Greediness::kLazy);
      return;
    case Reduction::kLazyOptional:
      quantify_body(0, 1, Greediness::kLazy);
      return;
    case Reduction::kLazyOptionalOfPlus:
      inner->min = 1;
      inner->max = kUnbounded;
      inner->greediness = Greediness::kGreedy;
      parent.min = 0;
      parent.max = 1;
      parent.greediness = Greediness::kLazy;
      *slot = std::move(inner);
      return;
  }
}

bool Parser::ParseCountedQuantifier(int* min, int* max) {
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
    Fail(
        StatusCode::kInvalidInput,
        "number too big in {} quantifier (limit " + std::to_string(limit) + ")",
        pos_, i + 1);
    return true;
  }
  if (high != kUnbounded && high < low) {
    Fail(StatusCode::kInvalidInput, "numbers out of order in {} quantifier",
         pos_, i + 1);
    return true;
  }
  *min = static_cast<int>(low);
  *max = static_cast<int>(high);
  pos_ = i + 1;
  return true;
}

std::unique_ptr<Node> Parser::ParseAtom(InlineFlags* flags) {
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
      cls.set = flags->dot_all ? CodePointSet::All()
                               : LineTerminatorSet(dialect_).Complement();
      auto dot = MakeCharacters(std::move(cls), std::nullopt, start, pos_);
      if (dot->chars == CodePointSet::Single('\n').Complement()) {
        // PCRE2's own `.` (UTF mode, newline LF) is this set; spelled so,
        // PCRE2 as shipped anchors a leading `.*` at line starts as Onigmo
        // does (the ruby configuration); the naive one turns that off.
        dot->pcre2_text = ".";
      }
      return dot;
    }
    case '^': {
      ++pos_;
      auto node = MakeNode(NodeKind::kAssertion, start, pos_);
      node->assertion = (flags->multiline || Has(Feature::kAnchorsMatchAtLines))
                            ? AssertionKind::kStartOfLine
                            : AssertionKind::kStartOfText;
      if (node->assertion == AssertionKind::kStartOfLine) {
        node->chars = LineTerminatorSet(dialect_);
      }
      return node;
    }
    case '$': {
      ++pos_;
      auto node = MakeNode(NodeKind::kAssertion, start, pos_);
      if (flags->multiline || Has(Feature::kAnchorsMatchAtLines)) {
        node->assertion = AssertionKind::kEndOfLine;
        node->chars = LineTerminatorSet(dialect_);
      } else if (Has(Feature::kDollarIsEndOfText)) {
        node->assertion = AssertionKind::kEndOfText;
      } else {
        node->assertion = AssertionKind::kEndOfTextOrFinalNewline;
        // Java's $ also matches before a final \r, \r\n, U+0085, U+2028
        // or U+2029 (its line terminators), not only before \n.
        node->chars = LineTerminatorSet(dialect_);
      }
      return node;
    }
    case '\\':
      return ParseEscape(*flags);
    case '*':
    case '+':
    case '?':
      return FailNull(StatusCode::kInvalidInput,
                      "quantifier does not follow a repeatable item", pos_,
                      pos_ + 1);
    case '{': {
      int min = 0, max = 0;
      const std::size_t saved = pos_;
      if (ParseCountedQuantifier(&min, &max)) {
        if (error_) return nullptr;
        if (!Has(Feature::kLiteralQuantifierBraces)) {
          return FailNull(StatusCode::kInvalidInput,
                          "quantifier does not follow a repeatable item", saved,
                          pos_);
        }
        pos_ = saved;
      }
      if (Has(Feature::kStrictBraces)) {
        return FailNull(StatusCode::kInvalidInput, "lone '{'", pos_, pos_ + 1);
      }
      if (Has(Feature::kBraceMustBeCount)) {
        return FailNull(StatusCode::kInvalidInput, "Illegal repetition", pos_,
                        pos_ + 1);
      }
      ++pos_;
      return MakeLiteral('{', Fold(*flags), start, pos_);
    }
    case ']':
    case '}':
      if (Has(Feature::kStrictBraces)) {
        return FailNull(StatusCode::kInvalidInput, "lone bracket", pos_,
                        pos_ + 1);
      }
      ++pos_;
      return MakeLiteral(c, Fold(*flags), start, pos_);
    default:
      ++pos_;
      return MakeLiteral(c, Fold(*flags), start, pos_);
  }
}

}  // namespace robotscan::regexguard::internal::parsing
