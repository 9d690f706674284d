// PHP regex literal extraction: a lexer that skips inline HTML outside
// <?php ... ?>, comments, heredocs and nowdocs, decodes single- and
// double-quoted strings (a $variable inside a double-quoted string makes it
// non-constant), then preg_* calls whose pattern argument is a constant
// delimited pattern such as '/a+b/i'.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Double-quoted escapes (PHP manual, "Strings"); unknown escapes keep their
// backslash ("\d" stays `\d`), as PHP does.
std::string DecodeDoubleQuoted(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "\\$\"",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "ntrv", out)) return true;
        char32_t value = 0;
        switch (c) {
          case 'e':
            out->push_back('\x1b');
            return true;
          case 'f':
            out->push_back('\f');
            return true;

          case 'x': {
            if (*i + 1 >= text.size() || !IsAsciiHexDigit(text[*i + 1]))
              return false;
            // One or two hex digits make one byte.
            const std::size_t used =
                *i + 2 < text.size() && IsAsciiHexDigit(text[*i + 2]) ? 2 : 1;
            ReadHexDigits(text, *i + 1, used, &value);
            out->push_back(static_cast<char>(value));
            *i += used;
            return true;
          }
          case 'u': {
            std::size_t close = 0;
            if (*i + 1 >= text.size() || text[*i + 1] != '{' ||
                !ReadBracedCodePoint(text, *i + 1, /*underscores=*/false,
                                     &value, &close)) {
              return false;
            }
            AppendUtf8(value, out);
            *i = close;
            return true;
          }
          default:
            if (c < '0' || c > '7') return false;
            *i += ReadOctalDigits(text, *i, 3, &value) - 1;
            out->push_back(static_cast<char>(value & 0xFF));
            return true;
        }
      });
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

  bool Begin() override { return SkipHtml(); }

  // Inline HTML up to the next opening tag (<?php, <?=, or <?).
  bool SkipHtml() {
    const std::size_t open = source_.find("<?", pos_);
    if (open == std::string_view::npos) return false;
    pos_ = open + 2;
    if (source_.substr(pos_, 3) == "php") pos_ += 3;
    return true;
  }

  bool Step() override {
    const char c = source_[pos_];
    const char next = Peek(1);
    if (c == '?' && next == '>') {
      Push(CodeTokenKind::kPunct, ";", pos_);
      return SkipHtml();
    }
    if (AtLineComment() || (c == '#' && next != '[')) {
      // A line comment ends at the line break or at a closing tag.
      while (pos_ < source_.size() && source_[pos_] != '\n' &&
             source_.substr(pos_, 2) != "?>") {
        ++pos_;
      }
      return true;
    }
    bool ok = true;
    if (SkipCommentOrSpace(kAsciiSpaces, /*nested=*/false, &ok)) return ok;
    if (c == '\'' || c == '"' || c == '`') return LexString(c);
    if (c == '<' && source_.substr(pos_, 3) == "<<<") return SkipHeredoc();
    if (IsIdentifierByte(c) || c == '$') {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_ + 1);
      PushWord(begin);
      return true;
    }
    PushPunct();
    return true;
  }

  bool LexString(char quote) {
    CodeToken token;
    token.kind = CodeTokenKind::kString;
    token.offset = pos_;
    token.constant = quote != '`';  // backticks run a shell command
    std::size_t i = pos_ + 1;
    while (i < source_.size() && source_[i] != quote) {
      if (source_[i] == '\\') {
        i += 2;
        continue;
      }
      // "$name", "{$expr}" and "${expr}" interpolate.
      if (quote == '"' && i + 1 < source_.size() &&
          ((source_[i] == '$' &&
            (IsIdentifierByte(source_[i + 1]) || source_[i + 1] == '{')) ||
           (source_[i] == '{' && source_[i + 1] == '$'))) {
        token.constant = false;
      }
      ++i;
    }
    if (i >= source_.size()) return false;
    const std::string_view body = source_.substr(pos_ + 1, i - pos_ - 1);
    if (token.constant) {
      token.text =
          quote == '\'' ? DecodeSingleQuoted(body) : DecodeDoubleQuoted(body);
    }
    tokens_.push_back(std::move(token));
    pos_ = i + 1;
    return true;
  }

  // <<<ID, <<<"ID" (heredoc) and <<<'ID' (nowdoc): the body ends at a line
  // holding the identifier after optional indentation (PHP 7.3+). Taken as
  // a non-constant string.
  bool SkipHeredoc() {
    const std::size_t begin = pos_;
    std::size_t i = pos_ + 3;
    while (i < source_.size() && (source_[i] == ' ' || source_[i] == '\t')) ++i;
    const char quote =
        i < source_.size() && (source_[i] == '\'' || source_[i] == '"')
            ? source_[i++]
            : '\0';
    const std::size_t id_begin = i;
    while (i < source_.size() && IsIdentifierByte(source_[i])) ++i;
    if (i == id_begin) return false;
    const std::string_view id = source_.substr(id_begin, i - id_begin);
    if (quote != '\0' && (i >= source_.size() || source_[i++] != quote)) {
      return false;
    }
    std::size_t line = source_.find('\n', i);
    while (line != std::string_view::npos) {
      std::size_t k = line + 1;
      while (k < source_.size() && (source_[k] == ' ' || source_[k] == '\t')) {
        ++k;
      }
      if (source_.substr(k, id.size()) == id &&
          (k + id.size() >= source_.size() ||
           !IsIdentifierByte(source_[k + id.size()]))) {
        tokens_.push_back({CodeTokenKind::kString, "", begin, false, ""});
        pos_ = k + id.size();
        return true;
      }
      line = source_.find('\n', k);
    }
    return false;
  }
};

// Splits a preg pattern such as "/a+/i" or "{a+}x" into the pattern and its
// modifiers, as PHP's pcre_get_compiled_regex does: leading whitespace is
// skipped, the delimiter is any non-alphanumeric, non-backslash character,
// and bracket delimiters nest. False where PHP would reject the pattern
// (no ending delimiter, unknown modifier).
bool ParseDelimitedPattern(std::string_view text, RegexLiteral* literal) {
  std::size_t i = 0;
  while (i < text.size() && IsAsciiSpace(text[i])) ++i;
  if (i >= text.size()) return false;
  const char open = text[i];
  if (IsIdentifierByte(open) || open == '\\' || open == '\0' ||
      static_cast<unsigned char>(open) >= 0x80) {
    return false;
  }
  char close = open;
  if (open == '(') close = ')';
  if (open == '[') close = ']';
  if (open == '{') close = '}';
  if (open == '<') close = '>';
  const std::size_t body = ++i;
  int nesting = 0;
  for (; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == close && nesting == 0) break;
    if (open != close && text[i] == close) --nesting;
    if (open != close && text[i] == open) ++nesting;
  }
  if (i >= text.size()) return false;
  literal->pattern = std::string(text.substr(body, i - body));
  for (char c : text.substr(i + 1)) {
    switch (c) {
      case 'i':
        literal->flags.case_insensitive = true;
        break;
      case 'm':
        literal->flags.multiline = true;
        break;
      case 's':
        literal->flags.dot_all = true;
        break;
      case 'x':
        literal->flags.extended = true;
        break;
      case 'u':
        literal->flags.unicode = true;
        break;
      case 'A':
        literal->anchored = true;
        break;
      case 'D':  // $ only at the very end
      case 'S':  // study: no effect in PCRE2
      case 'U':  // ungreedy: same backtracking work, other order
      case 'X':
      case 'J':
      case 'n':
      case ' ':
      case '\n':
      case '\r':
        break;
      default:
        return false;
    }
  }
  return true;
}

}  // namespace

std::vector<CodeToken> LexPhp(std::string_view source) {
  return Lexer(source).Run();
}

std::vector<RegexLiteral> ExtractPhp(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i].kind != CodeTokenKind::kName ||
        !IsPunctAt(tokens, i + 1, '(') || !IsStringArgumentAt(tokens, i + 2)) {
      continue;
    }
    // A method ($x->preg_match, X::preg_match) or a declaration is not the
    // PHP function.
    if (i > 0 &&
        (IsPunctAt(tokens, i - 1, '>') || IsPunctAt(tokens, i - 1, ':') ||
         IsNameAt(tokens, i - 1, "function"))) {
      continue;
    }
    const std::string& function = tokens[i].text;
    const bool global = function == "preg_match_all" ||
                        function == "preg_replace" ||
                        function == "preg_replace_callback" ||
                        function == "preg_split" || function == "preg_filter";
    if (!global && function != "preg_match" && function != "preg_grep") {
      continue;
    }
    RegexLiteral literal;
    if (!ParseDelimitedPattern(tokens[i + 2].text, &literal)) continue;
    literal.dialect = Dialect::kPcre;
    literal.flags.global = global;
    literal.offset = tokens[i + 2].offset;
    literal.call = function;
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
