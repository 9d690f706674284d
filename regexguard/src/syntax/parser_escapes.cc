// Backslash escapes: single characters, shorthand classes and Unicode
// properties, assertions, back references and \Q...\E (parser_internal.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"

namespace robotscan::regexguard::internal::parsing {

std::optional<char32_t> Parser::ReadHex(std::size_t min_digits,
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

std::optional<char32_t> Parser::ReadBracedHex() {
  // At '{': \x{HHH} or \u{HHH}.
  ++pos_;
  std::optional<char32_t> value = ReadHex(1, 8);
  if (!value || AtEnd() || Peek() != '}') return std::nullopt;
  ++pos_;
  return value;
}

Parser::EscapedCharacter Parser::ParseCharacterEscape(bool in_class) {
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
        // Java and Ruby refuse a \x without a hex digit ("Illegal
        // hexadecimal escape sequence", "invalid hex escape"); PCRE reads
        // it as U+0000.
        value = ReadHex(Has(Feature::kHexEscapeNeedsDigit) ? 1 : 0, 2);
      }
      if (!value) {
        Fail(StatusCode::kInvalidInput, "bad \\x escape", start, pos_);
        return {};
      }
      return {true, *value};
    }
    case 'u': {
      if (!Has(Feature::kEscapeU)) {
        if (!Has(Feature::kEscapeUIsError)) break;
        Fail(StatusCode::kInvalidInput,
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
        Fail(StatusCode::kInvalidInput, "bad \\u escape", start, pos_);
        return {};
      }
      if (!IsEncodable(*value)) {
        Fail(StatusCode::kUnsupported, "lone surrogate code point", start,
             pos_);
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
          Fail(StatusCode::kInvalidInput, "bad \\U escape", start, pos_);
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
      Fail(StatusCode::kInvalidInput, "bad \\c escape", start, pos_ + 1);
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
          Fail(StatusCode::kInvalidInput, "bad \\o escape", start, pos_);
          return {};
        }
        ++pos_;
        return {true, value};
      }
      break;
    case 'N':
      if (Has(Feature::kNamedCharacters) && Peek(1) == '{') {
        Fail(StatusCode::kUnsupported, "named characters \\N{...}", start,
             pos_ + 1);
        return {};
      }
      return {};
    default:
      break;
  }
  if (c >= '1' && c <= '7' && in_class && Has(Feature::kOctalInClass)) {
    // Octal in classes (PCRE, Python); back references are not allowed.
    std::uint32_t value = 0;
    for (int i = 0; i < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7'; ++i) {
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

bool Parser::ParseClassEscape(ClassBuilder* cls, bool* handled) {
  *handled = true;
  const std::size_t start = pos_ - 1;
  const char32_t c = Peek();
  CodePointSet set;
  bool negate = false;
  switch (c) {
    case 'd':
      set = DigitSet();
      break;
    case 'D':
      set = DigitSet();
      negate = true;
      break;
    case 'w':
      set = WordSet();
      break;
    case 'W':
      set = WordSet();
      negate = true;
      break;
    case 's':
      set = SpaceSet(dialect_);
      break;
    case 'S':
      set = SpaceSet(dialect_);
      negate = true;
      break;
    case 'h':
      if (Has(Feature::kHIsHexDigit)) {
        set = PosixClass("xdigit").value();
        break;
      }
      if (!Has(Feature::kSpaceByDirection)) {
        *handled = false;
        return true;
      }
      set = HorizontalSpaceSet();
      break;
    case 'H':
      if (Has(Feature::kHIsHexDigit)) {
        // Ruby's \H: any character but a hex digit.
        set = PosixClass("xdigit").value();
        negate = true;
        break;
      }
      if (!Has(Feature::kSpaceByDirection)) {
        *handled = false;
        return true;
      }
      set = HorizontalSpaceSet();
      negate = true;
      break;
    case 'v':
      if (!Has(Feature::kSpaceByDirection)) {
        *handled = false;
        return true;
      }
      set = VerticalSpaceSet();
      break;
    case 'V':
      if (!Has(Feature::kSpaceByDirection)) {
        *handled = false;
        return true;
      }
      set = VerticalSpaceSet();
      negate = true;
      break;
    case 'p':
    case 'P': {
      if (!Has(Feature::kUnicodeProperties)) {
        if (Has(Feature::kIdentityEscapes)) {  // Annex B: \p is just 'p'
          *handled = false;
          return true;
        }
        Fail(StatusCode::kInvalidInput, "bad escape \\p", start, pos_ + 1);
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
          Fail(StatusCode::kInvalidInput, "missing } in \\p{...}", start, pos_);
          return false;
        }
        ++pos_;
      } else if (!AtEnd() && IsAsciiLetter(Peek())) {
        AppendUtf8(Peek(), &name);
        ++pos_;
      } else {
        Fail(StatusCode::kInvalidInput, "malformed \\p escape", start, pos_);
        return false;
      }
      (void)name_start;
      std::string value_name = name;
      if (const std::size_t eq = name.find('='); eq != std::string::npos) {
        value_name = name.substr(eq + 1);  // General_Category=L, Script=Latin
      }
      std::optional<PropertySet> property = UnicodeProperty(value_name);
      if (!property) {
        Fail(StatusCode::kUnsupported,
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

std::unique_ptr<Node> Parser::ParseEscape(const InlineFlags& flags) {
  const std::size_t start = pos_;
  ++pos_;  // backslash
  if (AtEnd()) {
    return FailNull(StatusCode::kInvalidInput, "pattern ends with \\", start,
                    pos_);
  }
  const char32_t c = Peek();
  // Assertions.
  auto assertion = [&](AssertionKind kind) {
    ++pos_;
    auto node = MakeNode(NodeKind::kAssertion, start, pos_);
    node->assertion = kind;
    if (kind == AssertionKind::kEndOfTextOrFinalNewline) {
      // Java's \Z and $ also stop before a final \r, \r\n, U+0085...
      node->chars = LineTerminatorSet(dialect_);
    }
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
        return FailNull(StatusCode::kUnsupported, "\\K (reset match start)",
                        start, pos_ + 1);
      }
      break;
    case 'X':
      if (Has(Feature::kGraphemeClusters)) {
        return FailNull(StatusCode::kUnsupported,
                        "extended grapheme clusters \\X", start, pos_ + 1);
      }
      break;
    case 'R':
      if (Has(Feature::kNewlineSequence)) {
        // A newline sequence; only \r\n is two characters, the set below
        // covers every single-character alternative.
        ++pos_;
        auto node = MakeNode(NodeKind::kCharacters, start, pos_);
        node->chars = VerticalSpaceSet();
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
      return FailNull(StatusCode::kInvalidInput, "bad \\k<name> reference",
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
      return FailNull(StatusCode::kUnsupported, "forward relative references",
                      start, pos_);
    }
    if (braced && !relative && !AtEnd() && !IsAsciiDigit(Peek())) {
      std::optional<std::string> name = ReadName('}');
      if (!name) {
        return FailNull(StatusCode::kInvalidInput, "bad \\g{name}", start,
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
      return FailNull(StatusCode::kInvalidInput, "bad \\g reference", start,
                      pos_);
    }
    if (braced) ++pos_;
    if (relative) number = captures_seen_ + 1 - number;
    if (number <= 0) {
      return FailNull(StatusCode::kInvalidInput, "bad relative reference",
                      start, pos_);
    }
    auto node = MakeNode(NodeKind::kBackReference, start, pos_);
    node->group_index = number;
    numbered_references_.push_back(node.get());
    return node;
  }
  if (c >= '1' && c <= '9') {
    if (!Has(Feature::kBackReferences)) {
      return FailNull(StatusCode::kInvalidInput,
                      "back references are not supported by Go", start,
                      pos_ + 1);
    }
    // A back reference when the number is below 10 or names a group;
    // otherwise an octal escape.
    std::size_t end = pos_;
    while (end < chars_.size() && IsAsciiDigit(chars_[end]) && end - pos_ < 5) {
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
            StatusCode::kInvalidInput,
            "reference to non-existent group " + std::to_string(number), start,
            pos_ + used);
      }
      pos_ += used;
      auto node = MakeNode(NodeKind::kBackReference, start, pos_);
      node->group_index = number;
      numbered_references_.push_back(node.get());
      return node;
    }
    // Octal escape.
    std::uint32_t value = 0;
    for (int i = 0; i < 3 && !AtEnd() && Peek() >= '0' && Peek() <= '7'; ++i) {
      value = value * 8 + (Peek() - '0');
      ++pos_;
    }
    if (pos_ == start + 1) {
      return FailNull(StatusCode::kInvalidInput, "bad escape", start, pos_ + 1);
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
  return FailNull(StatusCode::kInvalidInput,
                  "unrecognised escape \\" +
                      std::string(1, static_cast<char>(c < 0x80 ? c : '?')),
                  start, pos_ + 1);
}

std::unique_ptr<Node> Parser::ParseQuotedLiteral(const InlineFlags& flags) {
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

}  // namespace robotscan::regexguard::internal::parsing
