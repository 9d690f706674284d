// JavaScript/TypeScript regex literal extraction: a lexer that tells a
// regex literal from a division by the previous significant token, skips
// comments and template literals (tracking `${...}` nesting), and decodes
// string escapes for RegExp("...") exactly as the language does.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

enum class TokenKind { kName, kNumber, kString, kTemplate, kRegex, kPunct };

struct Token {
  TokenKind kind = TokenKind::kPunct;
  std::string text;   // name, punctuator, decoded string, or regex body
  std::string flags;  // regex flags
  std::size_t offset = 0;
  bool substituted = false;  // template literal with ${...}
};

// Decodes a string (or template) body as ECMAScript does in sloppy mode:
// unknown escapes drop the backslash ("\d" is "d"), legacy octal escapes
// are honoured, \u surrogate pairs combine into one code point.
std::string DecodeEscapes(std::string_view body) {
  std::string out;
  char32_t pending_high = 0;  // a \u high surrogate waiting for its pair
  const auto flush = [&] {
    if (pending_high != 0) AppendUtf8(pending_high, &out);
    pending_high = 0;
  };
  const auto emit = [&](char32_t cp) {
    if (cp >= 0xDC00 && cp <= 0xDFFF && pending_high != 0) {
      const char32_t combined =
          0x10000 + ((pending_high - 0xD800) << 10) + (cp - 0xDC00);
      pending_high = 0;
      AppendUtf8(combined, &out);
      return;
    }
    flush();
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      pending_high = cp;
    } else {
      AppendUtf8(cp, &out);
    }
  };
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      flush();
      out.push_back(body[i]);
      continue;
    }
    const char c = body[++i];
    switch (c) {
      case '\n':
        break;
      case '\r':
        if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
        break;
      case 'b':
        emit('\b');
        break;
      case 'f':
        emit('\f');
        break;
      case 'n':
        emit('\n');
        break;
      case 'r':
        emit('\r');
        break;
      case 't':
        emit('\t');
        break;
      case 'v':
        emit('\v');
        break;
      case 'x':
        if (i + 2 < body.size() && IsHexDigit(body[i + 1]) &&
            IsHexDigit(body[i + 2])) {
          emit(static_cast<char32_t>(HexValue(body[i + 1]) * 16 +
                                     HexValue(body[i + 2])));
          i += 2;
        } else {
          emit('x');  // a syntax error in JS; keep something visible
        }
        break;
      case 'u': {
        if (i + 1 < body.size() && body[i + 1] == '{') {
          const std::size_t close = FindEscapeClose(body, i + 2);
          char32_t value = 0;
          bool ok = close != std::string_view::npos && close > i + 2;
          for (std::size_t k = i + 2; ok && k < close; ++k) {
            ok = IsHexDigit(body[k]);
            value = value * 16 + static_cast<char32_t>(HexValue(body[k]));
            ok = ok && value <= 0x10FFFF;
          }
          if (ok) {
            emit(value);
            i = close;
          } else {
            emit('u');
          }
          break;
        }
        bool ok = i + 4 < body.size();
        for (std::size_t k = 1; ok && k <= 4; ++k) {
          ok = IsHexDigit(body[i + k]);
        }
        if (!ok) {
          emit('u');
          break;
        }
        char32_t value = 0;
        for (std::size_t k = 1; k <= 4; ++k) {
          value = value * 16 + static_cast<char32_t>(HexValue(body[i + k]));
        }
        emit(value);
        i += 4;
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          // \0 not followed by a digit is NUL; otherwise legacy octal:
          // up to 3 digits when the first is 0-3, else up to 2.
          const std::size_t max_digits = c <= '3' ? 3 : 2;
          char32_t value = 0;
          std::size_t k = 0;
          while (k < max_digits && i + k < body.size() && body[i + k] >= '0' &&
                 body[i + k] <= '7') {
            value = value * 8 + static_cast<char32_t>(body[i + k] - '0');
            ++k;
          }
          emit(value);
          i += k - 1;
        } else {
          // Any other character (including \\, \', \", \8, \9 and the bytes
          // of a multi-byte character) stands for itself.
          flush();
          out.push_back(c);
        }
    }
  }
  flush();
  return out;
}

bool IsKeywordBeforeExpression(std::string_view name) {
  for (std::string_view keyword :
       {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
        "throw", "case", "do", "else", "yield", "await"}) {
    if (name == keyword) return true;
  }
  return false;
}

// A `/` starts a regex unless the previous significant token ends an
// operand: a name (not an operator keyword), a number, a string, a regex,
// a template, `)` or `]`, or a postfix `++`/`--`. `}` is taken as the end of
// a block, after which a statement (possibly a regex) starts.
bool RegexAllowedAfter(const std::vector<Token>& tokens) {
  if (tokens.empty()) return true;
  const Token& prev = tokens.back();
  switch (prev.kind) {
    case TokenKind::kName:
      return IsKeywordBeforeExpression(prev.text);
    case TokenKind::kNumber:
    case TokenKind::kString:
    case TokenKind::kTemplate:
    case TokenKind::kRegex:
      return false;
    case TokenKind::kPunct:
      return prev.text != ")" && prev.text != "]" && prev.text != "++" &&
             prev.text != "--";
  }
  return true;
}

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  std::vector<Token> Run() {
    while (pos_ < source_.size()) {
      if (!Step()) break;  // unterminated construct: stop at it
    }
    return std::move(tokens_);
  }

 private:
  // Scans template characters from pos_ until the closing backtick (token
  // done) or a `${` (code resumes; the `}` at this brace depth returns
  // here). Returns false if unterminated.
  bool ScanTemplate(std::size_t start, bool continuation) {
    std::size_t i = pos_;
    while (i < source_.size()) {
      if (source_[i] == '\\') {
        i += 2;
        continue;
      }
      if (source_[i] == '`') {
        Token token;
        token.kind = TokenKind::kTemplate;
        token.offset = start;
        token.substituted = continuation;
        if (!continuation) {
          token.text = DecodeEscapes(source_.substr(pos_, i - pos_));
        }
        tokens_.push_back(std::move(token));
        pos_ = i + 1;
        return true;
      }
      if (source_[i] == '$' && i + 1 < source_.size() &&
          source_[i + 1] == '{') {
        Token token;
        token.kind = TokenKind::kTemplate;
        token.offset = start;
        token.substituted = true;
        tokens_.push_back(std::move(token));
        template_depths_.push_back(brace_depth_);
        tokens_.push_back({TokenKind::kPunct, "(", "", i, false});
        pos_ = i + 2;
        return true;
      }
      ++i;
    }
    return false;
  }

  bool Step() {
    const char c = source_[pos_];
    const char next = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
    if (c == '/' && next == '/') {
      while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
      return true;
    }
    if (c == '/' && next == '*') {
      const std::size_t end = source_.find("*/", pos_ + 2);
      if (end == std::string_view::npos) return false;
      pos_ = end + 2;
      return true;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos_;
      return true;
    }
    if (c == '\'' || c == '"') return LexString(c);
    if (c == '`') {
      ++pos_;
      return ScanTemplate(pos_ - 1, false);
    }
    if (c == '{') {
      ++brace_depth_;
    } else if (c == '}') {
      if (!template_depths_.empty() &&
          template_depths_.back() == brace_depth_) {
        // End of a ${...} substitution: the template text resumes; the
        // substitution is closed as a parenthesised operand.
        template_depths_.pop_back();
        tokens_.push_back({TokenKind::kPunct, ")", "", pos_, false});
        ++pos_;
        return ScanTemplate(pos_ - 1, true);
      }
      --brace_depth_;
    }
    if (c == '/' && RegexAllowedAfter(tokens_) && LexRegex()) return true;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
        c == '$' || static_cast<unsigned char>(c) >= 0x80 || c == '#') {
      const std::size_t begin = pos_++;
      while (pos_ < source_.size() &&
             (IsIdentifierByte(source_[pos_]) || source_[pos_] == '$')) {
        ++pos_;
      }
      tokens_.push_back({TokenKind::kName,
                         std::string(source_.substr(begin, pos_ - begin)), "",
                         begin, false});
      return true;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && next >= '0' && next <= '9')) {
      const std::size_t begin = pos_;
      while (pos_ < source_.size() &&
             (IsIdentifierByte(source_[pos_]) || source_[pos_] == '.')) {
        ++pos_;
      }
      tokens_.push_back({TokenKind::kNumber, "", "", begin, false});
      return true;
    }
    if ((c == '+' || c == '-') && next == c) {
      tokens_.push_back(
          {TokenKind::kPunct, std::string(2, c), "", pos_, false});
      pos_ += 2;
      return true;
    }
    tokens_.push_back({TokenKind::kPunct, std::string(1, c), "", pos_, false});
    ++pos_;
    return true;
  }

  bool LexString(char quote) {
    const std::size_t begin = pos_;
    std::size_t i = pos_ + 1;
    while (i < source_.size() && source_[i] != quote) {
      if (source_[i] == '\n') return false;
      i += source_[i] == '\\' ? 2 : 1;
    }
    if (i >= source_.size()) return false;
    tokens_.push_back({TokenKind::kString,
                       DecodeEscapes(source_.substr(begin + 1, i - begin - 1)),
                       "", begin, false});
    pos_ = i + 1;
    return true;
  }

  // A regex literal at pos_: `/` body `/` flags, where `/` inside a class
  // or after a backslash does not end it. A line break ends the attempt
  // (then the `/` is an operator).
  bool LexRegex() {
    std::size_t i = pos_ + 1;
    bool in_class = false;
    while (i < source_.size()) {
      const char c = source_[i];
      if (c == '\n' || c == '\r') return false;
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '[') in_class = true;
      if (c == ']') in_class = false;
      if (c == '/' && !in_class) break;
      ++i;
    }
    if (i >= source_.size() || i == pos_ + 1) return false;
    Token token;
    token.kind = TokenKind::kRegex;
    token.offset = pos_;
    token.text = std::string(source_.substr(pos_ + 1, i - pos_ - 1));
    std::size_t end = i + 1;
    while (end < source_.size() && IsIdentifierByte(source_[end])) ++end;
    token.flags = std::string(source_.substr(i + 1, end - i - 1));
    tokens_.push_back(std::move(token));
    pos_ = end;
    return true;
  }

  std::string_view source_;
  std::size_t pos_ = 0;
  int brace_depth_ = 0;
  std::vector<int> template_depths_;
  std::vector<Token> tokens_;
};

bool IsPunct(const std::vector<Token>& tokens, std::size_t i,
             std::string_view text) {
  return i < tokens.size() && tokens[i].kind == TokenKind::kPunct &&
         tokens[i].text == text;
}

// A plain string argument: a string or a template without substitutions.
bool IsConstantString(const std::vector<Token>& tokens, std::size_t i) {
  return i < tokens.size() &&
         (tokens[i].kind == TokenKind::kString ||
          (tokens[i].kind == TokenKind::kTemplate && !tokens[i].substituted));
}

// JS flag letters to the analyser's: v (unicode sets) parses as u here;
// y (sticky), d (indices) do not change the backtracking work.
PatternFlags FlagsFromLetters(std::string_view letters) {
  PatternFlags flags;
  for (char c : letters) {
    if (c == 'i') flags.case_insensitive = true;
    if (c == 'm') flags.multiline = true;
    if (c == 's') flags.dot_all = true;
    if (c == 'u' || c == 'v') flags.unicode = true;
    if (c == 'g') flags.global = true;
  }
  return flags;
}

// `x.split(/re/)`, `x.matchAll(/re/g)`, `x.replaceAll(/re/g, ...)` run the
// regex over the whole subject whatever its flags.
bool IsGlobalCallArgument(const std::vector<Token>& tokens, std::size_t i) {
  if (i < 3 || !IsPunct(tokens, i - 1, "(") ||
      tokens[i - 2].kind != TokenKind::kName || !IsPunct(tokens, i - 3, ".")) {
    return false;
  }
  const std::string& method = tokens[i - 2].text;
  return method == "split" || method == "matchAll" || method == "replaceAll";
}

}  // namespace

std::vector<RegexLiteral> ExtractJavaScript(std::string_view source) {
  const std::vector<Token> tokens = Lexer(source).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    RegexLiteral literal;
    literal.dialect = Dialect::kJavaScript;
    if (tokens[i].kind == TokenKind::kRegex) {
      literal.pattern = tokens[i].text;
      literal.flags = FlagsFromLetters(tokens[i].flags);
      literal.anchored = tokens[i].flags.find('y') != std::string::npos;
      literal.call = "/.../" + tokens[i].flags;
    } else if (tokens[i].kind == TokenKind::kName &&
               tokens[i].text == "RegExp" && IsPunct(tokens, i + 1, "(") &&
               IsConstantString(tokens, i + 2)) {
      std::string letters;
      if (IsPunct(tokens, i + 3, ",") && IsConstantString(tokens, i + 4) &&
          (IsPunct(tokens, i + 5, ")") || IsPunct(tokens, i + 5, ","))) {
        letters = tokens[i + 4].text;
      } else if (!IsPunct(tokens, i + 3, ")") && !IsPunct(tokens, i + 3, ",")) {
        continue;  // "a" + b: the pattern is not a constant
      }
      literal.pattern = tokens[i + 2].text;
      literal.flags = FlagsFromLetters(letters);
      literal.anchored = letters.find('y') != std::string::npos;
      literal.call = "RegExp";
      i += 2;
    } else {
      continue;
    }
    literal.offset = tokens[i].offset;
    if (literal.call != "RegExp" && IsGlobalCallArgument(tokens, i)) {
      literal.flags.global = true;
    }
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
