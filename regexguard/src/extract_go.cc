// Go regex literal extraction: regexp.* calls with a string literal first
// argument. Go's regexp is RE2 (linear time), so these are informational.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

struct Token {
  bool is_string = false;
  std::string text;  // name/punctuator, or decoded string value
  std::size_t offset = 0;
};

// Interpreted string literal escapes per the Go specification; anything
// else is a compile error in Go and is kept as written.
std::string DecodeEscapes(std::string_view body) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out.push_back(body[i]);
      continue;
    }
    const char c = body[++i];
    std::size_t digits = 0;
    if (AppendControlEscape(c, "abfnrtv", &out)) continue;
    switch (c) {
      case '\\':
      case '"':
        out.push_back(c);
        continue;
      case 'x':
        digits = 2;
        break;
      case 'u':
        digits = 4;
        break;
      case 'U':
        digits = 8;
        break;
      default:
        break;
    }
    if (digits > 0) {
      bool ok = i + digits < body.size();
      char32_t value = 0;
      for (std::size_t k = 1; ok && k <= digits; ++k) {
        ok = IsHexDigit(body[i + k]);
        value = value * 16 + static_cast<char32_t>(HexValue(body[i + k]));
      }
      if (ok) {
        // \xhh is one byte in Go; as a pattern it means that code point.
        AppendUtf8(value, &out);
        i += digits;
        continue;
      }
    } else if (c >= '0' && c <= '7' && i + 2 < body.size() &&
               body[i + 1] >= '0' && body[i + 1] <= '7' && body[i + 2] >= '0' &&
               body[i + 2] <= '7') {
      char32_t value = 0;
      for (std::size_t k = 0; k < 3; ++k) {
        value = value * 8 + static_cast<char32_t>(body[i + k] - '0');
      }
      AppendUtf8(value, &out);
      i += 2;
      continue;
    }
    out.push_back('\\');
    out.push_back(c);
  }
  return out;
}

std::vector<Token> Lex(std::string_view source) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < source.size()) {
    const char c = source[i];
    const char next = i + 1 < source.size() ? source[i + 1] : '\0';
    if (c == '/' && next == '/') {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == '/' && next == '*') {
      const std::size_t end = source.find("*/", i + 2);
      if (end == std::string_view::npos) break;
      i = end + 2;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (c == '`') {
      const std::size_t end = source.find('`', i + 1);
      if (end == std::string_view::npos) break;
      std::string text;
      for (char ch : source.substr(i + 1, end - i - 1)) {
        if (ch != '\r') text.push_back(ch);  // Go drops \r in raw strings
      }
      tokens.push_back({true, std::move(text), i});
      i = end + 1;
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < source.size() && source[j] != c && source[j] != '\n') {
        j += source[j] == '\\' ? 2 : 1;
      }
      if (j >= source.size() || source[j] != c) break;
      if (c == '"') {
        tokens.push_back(
            {true, DecodeEscapes(source.substr(i + 1, j - i - 1)), i});
      } else {
        tokens.push_back({false, "'", i});  // rune literal
      }
      i = j + 1;
    } else if (IsIdentifierByte(c)) {
      const std::size_t begin = i;
      while (i < source.size() && IsIdentifierByte(source[i])) ++i;
      tokens.push_back(
          {false, std::string(source.substr(begin, i - begin)), begin});
    } else {
      tokens.push_back({false, std::string(1, c), i});
      ++i;
    }
  }
  return tokens;
}

}  // namespace

std::vector<RegexLiteral> ExtractGo(std::string_view source) {
  const std::vector<Token> tokens = Lex(source);
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 5 < tokens.size(); ++i) {
    if (tokens[i].is_string || tokens[i].text != "regexp" ||
        tokens[i + 1].text != "." || tokens[i + 2].is_string ||
        tokens[i + 3].is_string || tokens[i + 3].text != "(" ||
        !tokens[i + 4].is_string ||
        (tokens[i + 5].text != ")" && tokens[i + 5].text != ",") ||
        tokens[i + 5].is_string) {
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
