// Character classes [...]: ranges, POSIX classes, escapes inside a class
// (parser_internal.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"

namespace robotscan::regexguard::internal::parsing {

std::unique_ptr<Node> Parser::ParseClass(const InlineFlags& flags) {
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
      return FailNull(StatusCode::kInvalidInput, "missing ] for class", start,
                      pos_);
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
      while (end < chars_.size() && chars_[end] != ':' && chars_[end] != ']') {
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
        std::optional<CodePointSet> set = PosixClass(name);
        if (!set) {
          return FailNull(StatusCode::kInvalidInput,
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
      return FailNull(StatusCode::kUnsupported, "nested character classes",
                      pos_, pos_ + 1);
    }
    if (c == '&' && Peek(1) == '&' && Has(Feature::kClassSetOperations)) {
      return FailNull(StatusCode::kUnsupported, "class intersection &&", pos_,
                      pos_ + 2);
    }
    // One item: a character or a shorthand class.
    std::optional<char32_t> item;
    const std::size_t item_start = pos_;
    if (c == '\\') {
      ++pos_;
      if (AtEnd()) {
        return FailNull(StatusCode::kInvalidInput, "pattern ends with \\",
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
          return FailNull(StatusCode::kInvalidInput,
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
          return FailNull(StatusCode::kInvalidInput,
                          "unrecognised escape in character class", item_start,
                          pos_ + 1);
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
            return FailNull(StatusCode::kInvalidInput,
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
            return FailNull(StatusCode::kInvalidInput,
                            "unrecognised escape in character class", dash,
                            pos_ + 1);
          }
        } else {
          last = escaped.value;
        }
      } else if (Peek() == '[' && Peek(1) == ':' &&
                 Has(Feature::kPosixClasses)) {
        return FailNull(StatusCode::kInvalidInput,
                        "invalid range in character class", item_start, pos_);
      } else {
        last = Peek();
        ++pos_;
      }
      if (*last < *item) {
        return FailNull(StatusCode::kInvalidInput,
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

}  // namespace robotscan::regexguard::internal::parsing
