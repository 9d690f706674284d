#include "extract/code_lexer.h"

namespace robotscan::regexguard::internal {

std::vector<CodeToken> CodeLexer::Run() {
  if (!Begin()) return {};
  while (pos_ < source_.size()) {
    if (!Step()) break;  // unterminated construct: skip the rest
  }
  return std::move(tokens_);
}

void CodeLexer::SkipToLineEnd() {
  while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
}

bool CodeLexer::SkipBlockComment(bool nested) {
  if (!nested) {
    const std::size_t end = source_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) return false;
    pos_ = end + 2;
    return true;
  }
  int depth = 0;
  std::size_t i = pos_;
  while (i + 1 < source_.size()) {
    if (source_[i] == '/' && source_[i + 1] == '*') {
      ++depth;
      i += 2;
    } else if (source_[i] == '*' && source_[i + 1] == '/') {
      i += 2;
      if (--depth == 0) {
        pos_ = i;
        return true;
      }
    } else {
      ++i;
    }
  }
  return false;
}

bool CodeLexer::SkipCommentOrSpace(std::string_view spaces, bool nested,
                                   bool* ok) {
  if (AtLineComment()) {
    SkipToLineEnd();
  } else if (AtBlockComment()) {
    *ok = SkipBlockComment(nested);
  } else if (spaces.find(source_[pos_]) != std::string_view::npos) {
    ++pos_;
  } else {
    return false;
  }
  return true;
}

std::size_t CodeLexer::QuotedRunEnd(std::size_t open) const {
  const char quote = source_[open];
  std::size_t i = open + 1;
  while (i < source_.size() && source_[i] != quote && source_[i] != '\n') {
    i += source_[i] == '\\' ? 2 : 1;
  }
  if (i >= source_.size() || source_[i] != quote) return std::string_view::npos;
  return i;
}

bool CodeLexer::LexCharacterLiteral() {
  const std::size_t end = QuotedRunEnd(pos_);
  if (end == std::string_view::npos) return false;
  Push(CodeTokenKind::kNumber, "", pos_);
  pos_ = end + 1;
  return true;
}

std::size_t CodeLexer::WordEnd(std::size_t from, std::string_view extra) const {
  std::size_t i = from;
  while (i < source_.size() &&
         (IsIdentifierByte(source_[i]) ||
          extra.find(source_[i]) != std::string_view::npos)) {
    ++i;
  }
  return i;
}

void CodeLexer::PushWord(std::size_t begin) {
  const char first = source_[begin];
  Push(first >= '0' && first <= '9' ? CodeTokenKind::kNumber
                                    : CodeTokenKind::kName,
       std::string(source_.substr(begin, pos_ - begin)), begin);
}

void CodeLexer::PushPunct() {
  Push(CodeTokenKind::kPunct, std::string(1, source_[pos_]), pos_);
  ++pos_;
}

std::string DecodeSingleQuoted(std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\\' && i + 1 < body.size() &&
        (body[i + 1] == '\\' || body[i + 1] == '\'')) {
      ++i;
    }
    out.push_back(body[i]);
  }
  return out;
}

bool ReadHexDigits(std::string_view body, std::size_t begin, std::size_t count,
                   char32_t* value) {
  if (begin + count > body.size()) return false;
  *value = 0;
  for (std::size_t k = begin; k < begin + count; ++k) {
    if (!IsAsciiHexDigit(body[k])) return false;
    *value = *value * 16 + static_cast<char32_t>(HexValue(body[k]));
  }
  return true;
}

bool AppendHexEscape(std::string_view text, std::size_t* i, std::size_t digits,
                     std::string* out) {
  char32_t value = 0;
  if (!ReadHexDigits(text, *i + 1, digits, &value)) return false;
  AppendUtf8(value, out);
  *i += digits;
  return true;
}

std::size_t ReadOctalDigits(std::string_view body, std::size_t begin,
                            std::size_t max_digits, char32_t* value) {
  *value = 0;
  std::size_t k = 0;
  while (k < max_digits && begin + k < body.size() && body[begin + k] >= '0' &&
         body[begin + k] <= '7') {
    *value = *value * 8 + static_cast<char32_t>(body[begin + k] - '0');
    ++k;
  }
  return k;
}

bool ReadBracedCodePoint(std::string_view body, std::size_t brace,
                         bool underscores, char32_t* value,
                         std::size_t* close) {
  *close = FindEscapeClose(body, brace + 1);
  *value = 0;
  bool ok = *close != std::string_view::npos && *close > brace + 1;
  for (std::size_t k = brace + 1; ok && k < *close; ++k) {
    if (underscores && body[k] == '_') continue;
    ok = IsAsciiHexDigit(body[k]);
    *value = *value * 16 + static_cast<char32_t>(HexValue(body[k]));
    ok = ok && *value <= 0x10FFFF;
  }
  return ok;
}

}  // namespace robotscan::regexguard::internal
