// JavaScript/TypeScript regex literal extraction: a lexer that tells a
// regex literal from a division by the previous significant token, skips
// comments and template literals (tracking `${...}` nesting), and decodes
// string escapes for RegExp("...") exactly as the language does.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

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
      case 'x': {
        char32_t value = 0;
        if (ReadHexDigits(body, i + 1, 2, &value)) {
          emit(value);
          i += 2;
        } else {
          emit('x');  // a syntax error in JS; keep something visible
        }
        break;
      }
      case 'u': {
        char32_t value = 0;
        if (i + 1 < body.size() && body[i + 1] == '{') {
          std::size_t close = 0;
          if (ReadBracedCodePoint(body, i + 1, /*underscores=*/false, &value,
                                  &close)) {
            emit(value);
            i = close;
          } else {
            emit('u');
          }
          break;
        }
        if (!ReadHexDigits(body, i + 1, 4, &value)) {
          emit('u');
          break;
        }
        emit(value);
        i += 4;
        break;
      }
      default:
        if (c >= '0' && c <= '7') {
          // \0 not followed by a digit is NUL; otherwise legacy octal:
          // up to 3 digits when the first is 0-3, else up to 2.
          char32_t value = 0;
          i += ReadOctalDigits(body, i, c <= '3' ? 3 : 2, &value) - 1;
          emit(value);
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
bool RegexAllowedAfter(const std::vector<CodeToken>& tokens) {
  if (tokens.empty()) return true;
  const CodeToken& prev = tokens.back();
  if (prev.kind == CodeTokenKind::kName) {
    return IsKeywordBeforeExpression(prev.text);
  }
  if (prev.kind == CodeTokenKind::kPunct) {
    return prev.text != ")" && prev.text != "]" && prev.text != "++" &&
           prev.text != "--";
  }
  return false;  // a number, string, template or regex ends an operand
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

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
        CodeToken token;
        token.kind = CodeTokenKind::kTemplate;
        token.offset = start;
        token.constant = !continuation;
        if (!continuation) {
          token.text = DecodeEscapes(source_.substr(pos_, i - pos_));
        }
        tokens_.push_back(std::move(token));
        pos_ = i + 1;
        return true;
      }
      if (source_[i] == '$' && i + 1 < source_.size() &&
          source_[i + 1] == '{') {
        CodeToken token;
        token.kind = CodeTokenKind::kTemplate;
        token.offset = start;
        token.constant = false;
        tokens_.push_back(std::move(token));
        template_depths_.push_back(brace_depth_);
        Push(CodeTokenKind::kPunct, "(", i);
        pos_ = i + 2;
        return true;
      }
      ++i;
    }
    return false;
  }

  bool Step() override {
    bool ok = true;
    if (SkipCommentOrSpace(kAsciiSpaces, /*nested=*/false, &ok)) return ok;
    const char c = source_[pos_];
    const char next = Peek(1);
    if (c == '\'' || c == '"') return LexString();
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
        Push(CodeTokenKind::kPunct, ")", pos_);
        ++pos_;
        return ScanTemplate(pos_ - 1, true);
      }
      --brace_depth_;
    }
    if (c == '/' && RegexAllowedAfter(tokens_) && LexRegex()) return true;
    if (IsAsciiAlpha(c) || c == '_' || c == '$' ||
        static_cast<unsigned char>(c) >= 0x80 || c == '#') {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_ + 1, "$");
      Push(CodeTokenKind::kName,
           std::string(source_.substr(begin, pos_ - begin)), begin);
      return true;
    }
    if (IsAsciiDigit(c) || (c == '.' && IsAsciiDigit(next))) {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_, ".");
      Push(CodeTokenKind::kNumber, "", begin);
      return true;
    }
    if ((c == '+' || c == '-') && next == c) {
      Push(CodeTokenKind::kPunct, std::string(2, c), pos_);
      pos_ += 2;
      return true;
    }
    PushPunct();
    return true;
  }

  bool LexString() {
    const std::size_t end = QuotedRunEnd(pos_);
    if (end == std::string_view::npos) return false;
    Push(CodeTokenKind::kString,
         DecodeEscapes(source_.substr(pos_ + 1, end - pos_ - 1)), pos_);
    pos_ = end + 1;
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
    CodeToken token;
    token.kind = CodeTokenKind::kRegex;
    token.offset = pos_;
    token.text = std::string(source_.substr(pos_ + 1, i - pos_ - 1));
    std::size_t end = i + 1;
    while (end < source_.size() && IsIdentifierByte(source_[end])) ++end;
    token.flags = std::string(source_.substr(i + 1, end - i - 1));
    tokens_.push_back(std::move(token));
    pos_ = end;
    return true;
  }

  int brace_depth_ = 0;
  std::vector<int> template_depths_;
};

bool IsPunct(const std::vector<CodeToken>& tokens, std::size_t i,
             std::string_view text) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kPunct &&
         tokens[i].text == text;
}

// A plain string argument: a string or a template without substitutions.
bool IsConstantString(const std::vector<CodeToken>& tokens, std::size_t i) {
  return i < tokens.size() &&
         (tokens[i].kind == CodeTokenKind::kString ||
          (tokens[i].kind == CodeTokenKind::kTemplate && tokens[i].constant));
}

// JS flag letters to the analyzer's: v (unicode sets) parses as u here;
// y (sticky), d (indices) do not change the backtracking work; l puts the
// pattern on V8's linear engine.
PatternFlags FlagsFromLetters(std::string_view letters) {
  PatternFlags flags;
  for (char c : letters) {
    if (c == 'i') flags.case_insensitive = true;
    if (c == 'm') flags.multiline = true;
    if (c == 's') flags.dot_all = true;
    if (c == 'u' || c == 'v') flags.unicode = true;
    if (c == 'g') flags.global = true;
    if (c == 'l') flags.linear = true;
  }
  return flags;
}

// `x.split(/re/)`, `x.matchAll(/re/g)`, `x.replaceAll(/re/g, ...)` run the
// regex over the whole subject whatever its flags.
bool IsGlobalCallArgument(const std::vector<CodeToken>& tokens, std::size_t i) {
  if (i < 3 || !IsPunct(tokens, i - 1, "(") ||
      tokens[i - 2].kind != CodeTokenKind::kName ||
      !IsPunct(tokens, i - 3, ".")) {
    return false;
  }
  const std::string& method = tokens[i - 2].text;
  return method == "split" || method == "matchAll" || method == "replaceAll";
}

// A pattern spelled as a constant expression of strings rather than one
// string: `'a' + 'b'`, `['a', 'b'].join('|')`, or a name bound once in the
// file to such an expression (`const pattern = [...].join('|');` then
// `new RegExp(pattern, 'g')`, as ansi-regex builds its CVE-2021-3807
// regex). Anything else (a call, a member, a name assigned twice, a
// non-constant operand) leaves the value unknown and the call unreported,
// as before.
struct ConstantExpr {
  std::string value;
  std::size_t end = 0;     // the token after the expression
  std::size_t offset = 0;  // where its first string starts
};

// A value this long is not a pattern anyone wrote by hand; doubling
// bindings (`b = a + a; c = b + b; ...`) stop here.
constexpr std::size_t kMaxConstantLength = 64 * 1024;
// Pattern bytes one file may get from constant expressions.
constexpr std::size_t kMaxExpandedBytes = 4 * 1024 * 1024;

struct Binding {
  std::string value;
  std::size_t offset = 0;
};
using Bindings = std::map<std::string, Binding, std::less<>>;

// Arrays nest at most this deep in a constant expression: hostile input
// (`[[[[...`) must not recurse without bound.
constexpr int kMaxConstantDepth = 16;

std::optional<ConstantExpr> ReadConstantExpr(
    const std::vector<CodeToken>& tokens, std::size_t i,
    const Bindings& bindings, int depth = 0);

// One operand: a string, an array of constant expressions joined, or a
// bound name.
std::optional<ConstantExpr> ReadConstantTerm(
    const std::vector<CodeToken>& tokens, std::size_t i,
    const Bindings& bindings, int depth) {
  if (IsConstantString(tokens, i)) {
    return ConstantExpr{tokens[i].text, i + 1, tokens[i].offset};
  }
  if (i < tokens.size() && tokens[i].kind == CodeTokenKind::kName) {
    const auto it = bindings.find(tokens[i].text);
    if (it == bindings.end() || IsPunct(tokens, i - 1, ".")) {
      return std::nullopt;
    }
    return ConstantExpr{it->second.value, i + 1, it->second.offset};
  }
  if (!IsPunct(tokens, i, "[") || depth >= kMaxConstantDepth) {
    return std::nullopt;
  }
  std::vector<std::string> parts;
  std::size_t offset = 0;
  std::size_t j = i + 1;
  while (!IsPunct(tokens, j, "]")) {
    std::optional<ConstantExpr> part =
        ReadConstantExpr(tokens, j, bindings, depth + 1);
    if (!part) return std::nullopt;
    if (parts.empty()) offset = part->offset;
    parts.push_back(std::move(part->value));
    j = part->end;
    if (IsPunct(tokens, j, ",")) {
      ++j;
    } else if (!IsPunct(tokens, j, "]")) {
      return std::nullopt;
    }
  }
  // `].join(sep)`; join() without a separator uses ",".
  if (!IsPunct(tokens, j + 1, ".") || j + 2 >= tokens.size() ||
      tokens[j + 2].kind != CodeTokenKind::kName ||
      tokens[j + 2].text != "join" || !IsPunct(tokens, j + 3, "(")) {
    return std::nullopt;
  }
  std::string separator = ",";
  std::size_t close = j + 4;
  if (IsConstantString(tokens, close)) {
    separator = tokens[close].text;
    ++close;
  }
  if (!IsPunct(tokens, close, ")") || parts.empty()) return std::nullopt;
  ConstantExpr joined{parts[0], close + 1, offset};
  for (std::size_t k = 1; k < parts.size(); ++k) {
    joined.value += separator;
    joined.value += parts[k];
    if (joined.value.size() > kMaxConstantLength) return std::nullopt;
  }
  return joined;
}

std::optional<ConstantExpr> ReadConstantExpr(
    const std::vector<CodeToken>& tokens, std::size_t i,
    const Bindings& bindings, int depth) {
  std::optional<ConstantExpr> expr =
      ReadConstantTerm(tokens, i, bindings, depth);
  if (!expr) return std::nullopt;
  while (IsPunct(tokens, expr->end, "+")) {
    std::optional<ConstantExpr> next =
        ReadConstantTerm(tokens, expr->end + 1, bindings, depth);
    if (!next) return std::nullopt;
    expr->value += next->value;
    expr->end = next->end;
    if (expr->value.size() > kMaxConstantLength) return std::nullopt;
  }
  // `'a'.replace(...)`, `'a' * 2`, `p[0]`: not the value read.
  if (expr->end < tokens.size() &&
      tokens[expr->end].kind == CodeTokenKind::kPunct) {
    const std::string& next = tokens[expr->end].text;
    if (next != ")" && next != "," && next != ";" && next != "]" &&
        next != "}") {
      return std::nullopt;
    }
  }
  return expr;
}

// Names the file binds exactly once, with `const`/`let`/`var`, to a
// constant expression, and never assigns again.
// Whether the name at tokens[i] may be a function's parameter: `x =>`, or
// inside a parenthesised list whose `)` opens a body (`function f(a, x) {`,
// `(x) =>`). Also true for `if (x) {`: the binding is then not used, which
// loses a pattern but never reads a parameter as the constant.
bool MayBeParameter(const std::vector<CodeToken>& tokens, std::size_t i) {
  if (IsPunct(tokens, i + 1, "=>")) return true;
  int depth = 0;
  for (std::size_t j = i + 1; j < tokens.size() && j < i + 64; ++j) {
    if (IsPunct(tokens, j, "(") || IsPunct(tokens, j, "[")) ++depth;
    if (IsPunct(tokens, j, "]")) --depth;
    if (IsPunct(tokens, j, ")")) {
      if (depth-- == 0) {
        return IsPunct(tokens, j + 1, "{") || IsPunct(tokens, j + 1, "=>");
      }
    }
    if (depth == 0 && (IsPunct(tokens, j, ";") || IsPunct(tokens, j, "{") ||
                       IsPunct(tokens, j, "}"))) {
      return false;
    }
  }
  return false;
}

Bindings ConstantBindings(const std::vector<CodeToken>& tokens) {
  Bindings bindings;
  // Declarations, assignments and parameters of each name: a name bound
  // more than once (or that a function takes) is not a constant.
  std::map<std::string, int, std::less<>> writes;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind == CodeTokenKind::kName &&
        !IsPunct(tokens, i - 1, ".") &&
        (IsPunct(tokens, i + 1, "=") || IsPunct(tokens, i + 1, "+=") ||
         IsPunct(tokens, i + 1, "++") || IsPunct(tokens, i - 1, "++") ||
         MayBeParameter(tokens, i))) {
      ++writes[tokens[i].text];
    }
  }
  for (std::size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].kind != CodeTokenKind::kName ||
        (tokens[i].text != "const" && tokens[i].text != "let" &&
         tokens[i].text != "var") ||
        tokens[i + 1].kind != CodeTokenKind::kName ||
        !IsPunct(tokens, i + 2, "=")) {
      continue;
    }
    const std::string& name = tokens[i + 1].text;
    if (writes[name] != 1) continue;
    std::optional<ConstantExpr> expr =
        ReadConstantExpr(tokens, i + 3, bindings);
    if (!expr) continue;
    bindings[name] = Binding{std::move(expr->value), expr->offset};
  }
  return bindings;
}

// The flags argument of RegExp(pattern, flags) starting at tokens[i]: a
// constant string, or for an expression (`onlyFirst ? undefined : 'g'`) the
// union of the flag strings in it, the widest use it can have.
std::string FlagLettersAt(const std::vector<CodeToken>& tokens, std::size_t i) {
  if (IsConstantString(tokens, i) &&
      (IsPunct(tokens, i + 1, ")") || IsPunct(tokens, i + 1, ","))) {
    return tokens[i].text;
  }
  std::string letters;
  int depth = 0;
  for (std::size_t j = i; j < tokens.size() && j < i + 64; ++j) {
    if (IsPunct(tokens, j, "(")) ++depth;
    if (IsPunct(tokens, j, ")") && depth-- == 0) break;
    if (depth == 0 && IsPunct(tokens, j, ",")) break;
    if (IsConstantString(tokens, j) &&
        tokens[j].text.find_first_not_of("dgimsuvy") == std::string::npos) {
      letters += tokens[j].text;
    }
  }
  return letters;
}

}  // namespace

std::vector<CodeToken> LexJavaScript(std::string_view source) {
  return Lexer(source).Run();
}

std::vector<RegexLiteral> ExtractJavaScript(std::string_view source) {
  std::vector<RegexLiteral> literals;
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  std::optional<Bindings> bindings;  // read at the first RegExp(
  std::size_t expanded_bytes = 0;
  const Bindings no_bindings;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    RegexLiteral literal;
    literal.dialect = Dialect::kJavaScript;
    if (tokens[i].kind == CodeTokenKind::kRegex) {
      literal.pattern = tokens[i].text;
      literal.flags = FlagsFromLetters(tokens[i].flags);
      literal.anchored = tokens[i].flags.find('y') != std::string::npos;
      literal.call = "/.../" + tokens[i].flags;
    } else if (tokens[i].kind == CodeTokenKind::kName &&
               tokens[i].text == "RegExp" && IsPunct(tokens, i + 1, "(")) {
      if (!bindings) bindings = ConstantBindings(tokens);
      // A small file must not expand one long binding into gigabytes of
      // patterns (`RegExp(p)` a million times): past the budget, names are
      // no longer resolved.
      const std::optional<ConstantExpr> expr = ReadConstantExpr(
          tokens, i + 2,
          expanded_bytes > kMaxExpandedBytes ? no_bindings : *bindings);
      // "a" + b, a call, an unknown name: the pattern is not a constant.
      if (!expr || (!IsPunct(tokens, expr->end, ")") &&
                    !IsPunct(tokens, expr->end, ","))) {
        continue;
      }
      const std::string letters = IsPunct(tokens, expr->end, ",")
                                      ? FlagLettersAt(tokens, expr->end + 1)
                                      : std::string();
      expanded_bytes += expr->value.size();
      literal.pattern = expr->value;
      literal.flags = FlagsFromLetters(letters);
      literal.anchored = letters.find('y') != std::string::npos;
      literal.call = "RegExp";
      // The finding points at the pattern's text, where it is written.
      literal.offset = expr->offset;
      literals.push_back(std::move(literal));
      continue;
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
