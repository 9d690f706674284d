// Python regex literal extraction: a lexer for names, strings and comments,
// then re./regex. calls whose first argument is a plain string.
#include <algorithm>
#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

enum class TokenKind { kName, kString, kOperator, kOther };

struct Token {
  TokenKind kind = TokenKind::kOther;
  std::string text;  // name, operator, or decoded string value
  std::size_t offset = 0;
  bool formatted = false;  // f-string: its value is not known statically
  bool bytes = false;      // b'...': a bytes pattern (ASCII case folding)
};

// Decodes the body of a non-raw literal as CPython does. Invalid escapes
// (which CPython warns about) keep their backslash, as CPython does.
std::string DecodeEscapes(std::string_view body, bool bytes) {
  return DecodeBackslashEscapes(
      body, "\\'\"",
      [bytes](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "abfnrtv", out)) return true;
        char32_t value = 0;
        switch (c) {
          case 'x':
            return AppendHexEscape(text, i, 2, out);
          case '\n':
            return true;  // line continuation inside the string
          case '\r':
            if (*i + 1 < text.size() && text[*i + 1] == '\n') ++*i;
            return true;

          case 'u':
          case 'U':
            // \u and \U are text escapes: bytes literals keep them.
            return !bytes && AppendHexEscape(text, i, c == 'u' ? 4 : 8, out);
          default:
            // Unknown escapes, and \N{NAME} (which `re` resolves itself to the
            // same character), stay as written.
            if (c < '0' || c > '7') return false;
            *i += ReadOctalDigits(text, *i, 3, &value) - 1;
            AppendUtf8(value, out);
            return true;
        }
      });
}

bool IsStringPrefix(std::string_view name, bool* raw, bool* bytes,
                    bool* formatted) {
  if (name.size() > 2) return false;
  *raw = *bytes = *formatted = false;
  for (char c : name) {
    switch (c) {
      case 'r':
      case 'R':
        *raw = true;
        break;
      case 'b':
      case 'B':
        *bytes = true;
        break;
      case 'f':
      case 'F':
        *formatted = true;
        break;
      case 'u':
      case 'U':
        if (name.size() != 1) return false;
        break;
      default:
        return false;
    }
  }
  return !(*bytes && *formatted);
}

// Lexes a string starting at the quote `source[*pos]`; on success appends the
// token and moves *pos past the closing quote. Returns false when the string
// is unterminated.
bool LexString(std::string_view source, std::size_t start, std::size_t* pos,
               bool raw, bool bytes, bool formatted,
               std::vector<Token>* tokens) {
  const char quote = source[*pos];
  const bool triple = source.substr(*pos, 3) == std::string(3, quote);
  const std::size_t body_begin = *pos + (triple ? 3 : 1);
  std::size_t i = body_begin;
  while (i < source.size()) {
    const char c = source[i];
    if (c == '\\') {
      i += 2;  // even in raw strings a backslash keeps the quote open
      continue;
    }
    if (!triple && c == '\n') return false;
    if (c == quote &&
        (!triple || source.substr(i, 3) == std::string(3, quote))) {
      std::string_view body = source.substr(body_begin, i - body_begin);
      Token token;
      token.kind = TokenKind::kString;
      token.offset = start;
      token.formatted = formatted;
      token.bytes = bytes;
      token.text = raw ? std::string(body) : DecodeEscapes(body, bytes);
      tokens->push_back(std::move(token));
      *pos = i + (triple ? 3 : 1);
      return true;
    }
    ++i;
  }
  return false;
}

std::vector<Token> Lex(std::string_view source) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < source.size()) {
    const char c = source[i];
    if (c == '#') {
      while (i < source.size() && source[i] != '\n') ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
               c == '\\') {
      ++i;  // a backslash outside strings is a line continuation
    } else if (c == '\'' || c == '"') {
      if (!LexString(source, i, &i, false, false, false, &tokens)) break;
    } else if (IsIdentifierByte(c) && !IsAsciiDigit(c)) {
      const std::size_t begin = i;
      while (i < source.size() && IsIdentifierByte(source[i])) ++i;
      std::string_view name = source.substr(begin, i - begin);
      bool raw = false;
      bool bytes = false;
      bool formatted = false;
      if (i < source.size() && (source[i] == '\'' || source[i] == '"') &&
          IsStringPrefix(name, &raw, &bytes, &formatted)) {
        if (!LexString(source, begin, &i, raw, bytes, formatted, &tokens)) {
          break;
        }
      } else {
        tokens.push_back(
            {TokenKind::kName, std::string(name), begin, false, false});
      }
    } else if (IsAsciiDigit(c)) {
      const std::size_t begin = i;
      while (i < source.size() &&
             (IsIdentifierByte(source[i]) || source[i] == '.')) {
        ++i;
      }
      tokens.push_back({TokenKind::kOther, "", begin, false, false});
    } else {
      tokens.push_back(
          {TokenKind::kOperator, std::string(1, c), i, false, false});
      ++i;
    }
  }
  return tokens;
}

bool IsOperator(const std::vector<Token>& tokens, std::size_t i,
                std::string_view op) {
  return i < tokens.size() && tokens[i].kind == TokenKind::kOperator &&
         tokens[i].text == op;
}
bool IsName(const std::vector<Token>& tokens, std::size_t i) {
  return i < tokens.size() && tokens[i].kind == TokenKind::kName;
}

// Applies a flag named as re.X / regex.X; the U/L/T/DEBUG flags do not
// change what the analyzer needs (re.A makes case folding ASCII-only).
void ApplyFlagName(std::string_view name, PatternFlags* flags) {
  if (name == "A" || name == "ASCII") flags->ascii = true;
  if (name == "I" || name == "IGNORECASE") flags->case_insensitive = true;
  if (name == "M" || name == "MULTILINE") flags->multiline = true;
  if (name == "S" || name == "DOTALL") flags->dot_all = true;
  if (name == "X" || name == "VERBOSE") flags->extended = true;
}

struct StringConstant {
  std::string value;
  bool bytes = false;
  std::size_t offset = 0;  // of its first string literal
};

bool IsAtLineStart(std::string_view source, std::size_t offset) {
  return offset == 0 || source[offset - 1] == '\n';
}

// True if tokens[i] (a name) is bound there: assigned (`=`, `+=`, `:=`, ...)
// or named by for/as/global/nonlocal/import/def/class/del. Keyword
// arguments count too, which only makes the constant rule stricter.
bool IsBindingAt(const std::vector<Token>& tokens, std::size_t i) {
  if (i > 0 && IsName(tokens, i - 1)) {
    for (std::string_view keyword :
         {"for", "as", "global", "nonlocal", "import", "def", "class", "del"}) {
      if (tokens[i - 1].text == keyword) return true;
    }
  }
  if (IsOperator(tokens, i + 1, "=")) return !IsOperator(tokens, i + 2, "=");
  if (i + 1 < tokens.size() && tokens[i + 1].kind == TokenKind::kOperator &&
      std::string_view("+-*/%&|^@:").find(tokens[i + 1].text) !=
          std::string_view::npos) {
    return IsOperator(tokens, i + 2, "=");
  }
  return false;
}

// Module-level string constants: `NAME = r"..."` at the start of a line
// (optionally parenthesised, implicitly concatenated, no f-string), ending
// the statement, where NAME is bound nowhere else in the file.
std::map<std::string, StringConstant> ModuleStringConstants(
    std::string_view source, const std::vector<Token>& tokens) {
  std::map<std::string, int> bindings;
  std::map<std::string, StringConstant> constants;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!IsName(tokens, i) || (i > 0 && IsOperator(tokens, i - 1, ".")) ||
        !IsBindingAt(tokens, i)) {
      continue;
    }
    ++bindings[tokens[i].text];
    if (!IsAtLineStart(source, tokens[i].offset) ||
        !IsOperator(tokens, i + 1, "=")) {
      continue;
    }
    std::size_t j = i + 2;
    const bool parenthesised = IsOperator(tokens, j, "(");
    if (parenthesised) ++j;
    StringConstant constant;
    constant.offset = j < tokens.size() ? tokens[j].offset : 0;
    bool constant_value =
        j < tokens.size() && tokens[j].kind == TokenKind::kString;
    for (; j < tokens.size() && tokens[j].kind == TokenKind::kString; ++j) {
      constant_value = constant_value && !tokens[j].formatted;
      constant.value += tokens[j].text;
      constant.bytes = constant.bytes || tokens[j].bytes;
    }
    if (parenthesised) {
      constant_value = constant_value && IsOperator(tokens, j, ")");
      ++j;
    }
    // The statement must end here: the next token starts a new line.
    if (!constant_value || (j < tokens.size() && !IsOperator(tokens, j, ";") &&
                            !IsAtLineStart(source, tokens[j].offset))) {
      continue;
    }
    constants[tokens[i].text] = std::move(constant);
  }
  for (auto it = constants.begin(); it != constants.end();) {
    it = bindings[it->first] == 1 ? std::next(it) : constants.erase(it);
  }
  return constants;
}

}  // namespace

std::vector<CodeToken> LexPython(std::string_view source) {
  std::vector<CodeToken> out;
  for (Token& token : Lex(source)) {
    CodeToken code;
    code.offset = token.offset;
    code.text = std::move(token.text);
    switch (token.kind) {
      case TokenKind::kName:
        code.kind = CodeTokenKind::kName;
        break;
      case TokenKind::kString:
        code.kind = CodeTokenKind::kString;
        code.constant = !token.formatted;
        break;
      case TokenKind::kOperator:
        code.kind = CodeTokenKind::kPunct;
        break;
      case TokenKind::kOther:
        code.kind = CodeTokenKind::kNumber;
        break;
    }
    out.push_back(std::move(code));
  }
  return out;
}

std::vector<RegexLiteral> ExtractPython(std::string_view source) {
  const std::vector<Token> tokens = Lex(source);
  const std::map<std::string, StringConstant> constants =
      ModuleStringConstants(source, tokens);
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 4 < tokens.size(); ++i) {
    if (!IsName(tokens, i) ||
        (tokens[i].text != "re" && tokens[i].text != "regex") ||
        (i > 0 && IsOperator(tokens, i - 1, ".")) ||
        !IsOperator(tokens, i + 1, ".") || !IsName(tokens, i + 2) ||
        !IsOperator(tokens, i + 3, "(") ||
        (tokens[i + 4].kind != TokenKind::kString &&
         !(IsName(tokens, i + 4) && constants.contains(tokens[i + 4].text)))) {
      continue;
    }
    const std::string& function = tokens[i + 2].text;
    const bool global = function == "sub" || function == "subn" ||
                        function == "split" || function == "findall" ||
                        function == "finditer";
    if (!global && function != "compile" && function != "match" &&
        function != "search" && function != "fullmatch") {
      continue;
    }
    // Adjacent literals concatenate; one f-string makes the value unknown.
    // A module constant is reported at its own literal, where the pattern
    // is written (and fixed, or suppressed).
    RegexLiteral literal;
    literal.offset = tokens[i + 4].offset;
    bool formatted = false;
    std::size_t j = i + 4;
    if (IsName(tokens, j)) {
      const StringConstant& constant = constants.at(tokens[j].text);
      literal.pattern = constant.value;
      literal.offset = constant.offset;
      literal.flags.ascii = constant.bytes;
      ++j;
    }
    for (; j < tokens.size() && tokens[j].kind == TokenKind::kString; ++j) {
      formatted = formatted || tokens[j].formatted;
      literal.pattern += tokens[j].text;
      if (tokens[j].bytes) literal.flags.ascii = true;
    }
    if (formatted) continue;
    // The pattern must be the whole first argument ("a" + x is not known).
    if (!IsOperator(tokens, j, ",") && !IsOperator(tokens, j, ")")) continue;
    // Flags are looked for in a bounded window, so nested calls keep the
    // extraction linear.
    int depth = 1;
    const std::size_t flags_end = std::min(tokens.size(), j + 256);
    for (; j < flags_end && depth > 0; ++j) {
      if (IsOperator(tokens, j, "(") || IsOperator(tokens, j, "[") ||
          IsOperator(tokens, j, "{")) {
        ++depth;
      } else if (IsOperator(tokens, j, ")") || IsOperator(tokens, j, "]") ||
                 IsOperator(tokens, j, "}")) {
        --depth;
      } else if (IsName(tokens, j) &&
                 (tokens[j].text == "re" || tokens[j].text == "regex") &&
                 IsOperator(tokens, j + 1, ".") && IsName(tokens, j + 2)) {
        ApplyFlagName(tokens[j + 2].text, &literal.flags);
      }
    }
    literal.flags.global = global;
    literal.anchored = function == "match" || function == "fullmatch";
    literal.dialect = Dialect::kPython;
    literal.call = tokens[i].text + "." + function;
    literals.push_back(std::move(literal));
  }
  // Literals found through a constant are at the constant: source order.
  std::stable_sort(literals.begin(), literals.end(),
                   [](const RegexLiteral& a, const RegexLiteral& b) {
                     return a.offset < b.offset;
                   });
  return literals;
}

}  // namespace robotscan::regexguard::internal
