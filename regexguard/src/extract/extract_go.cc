// Go regex literal extraction: regexp.* calls with a string literal first
// argument. Go's regexp is RE2 (linear time), so these are informational.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Interpreted string literal escapes per the Go specification; anything
// else is a compile error in Go and is kept as written.
std::string DecodeEscapes(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "\\\"",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "abfnrtv", out)) return true;

        const std::size_t digits = c == 'x'   ? 2
                                   : c == 'u' ? 4
                                   : c == 'U' ? 8
                                              : 0;
        // \xhh is one byte in Go; as a pattern it means that code point.
        if (digits > 0) return AppendHexEscape(text, i, digits, out);
        char32_t value = 0;
        if (c >= '0' && c <= '7' && ReadOctalDigits(text, *i, 3, &value) == 3) {
          AppendUtf8(value, out);
          *i += 2;
          return true;
        }
        return false;
      });
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

  bool Step() override {
    bool ok = true;
    if (SkipCommentOrSpace(" \t\n\r", /*nested=*/false, &ok)) return ok;
    const char c = source_[pos_];
    if (c == '`') {
      const std::size_t end = source_.find('`', pos_ + 1);
      if (end == std::string_view::npos) return false;
      std::string text;
      for (char ch : source_.substr(pos_ + 1, end - pos_ - 1)) {
        if (ch != '\r') text.push_back(ch);  // Go drops \r in raw strings
      }
      Push(CodeTokenKind::kString, std::move(text), pos_);
      pos_ = end + 1;
    } else if (c == '"') {
      const std::size_t end = QuotedRunEnd(pos_);
      if (end == std::string_view::npos) return false;
      Push(CodeTokenKind::kString,
           DecodeEscapes(source_.substr(pos_ + 1, end - pos_ - 1)), pos_);
      pos_ = end + 1;
    } else if (c == '\'') {
      return LexCharacterLiteral();  // a rune literal
    } else if (IsIdentifierByte(c)) {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_);
      PushWord(begin);
    } else {
      PushPunct();
    }
    return true;
  }
};

bool IsStringAt(const std::vector<CodeToken>& tokens, std::size_t i) {
  return tokens[i].kind == CodeTokenKind::kString;
}

}  // namespace

std::vector<CodeToken> LexGo(std::string_view source) {
  return Lexer(source).Run();
}

std::vector<RegexLiteral> ExtractGo(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 5 < tokens.size(); ++i) {
    if (IsStringAt(tokens, i) || tokens[i].text != "regexp" ||
        tokens[i + 1].text != "." || IsStringAt(tokens, i + 2) ||
        IsStringAt(tokens, i + 3) || tokens[i + 3].text != "(" ||
        !IsStringAt(tokens, i + 4) ||
        (tokens[i + 5].text != ")" && tokens[i + 5].text != ",") ||
        IsStringAt(tokens, i + 5)) {
      continue;
    }
    const std::string& function = tokens[i + 2].text;
    if (function != "Compile" && function != "MustCompile" &&
        function != "CompilePOSIX" && function != "MustCompilePOSIX" &&
        function != "MatchString" && function != "Match") {
      continue;
    }
    RegexLiteral literal;
    literal.pattern = tokens[i + 4].text;
    literal.dialect = Dialect::kGo;
    literal.offset = tokens[i + 4].offset;
    literal.call = "regexp." + function;
    literal.informational = true;
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
