// C# regex literal extraction: a lexer for comments, preprocessor lines,
// character literals, regular, verbatim (@"...") and raw ("""...""") string
// literals, and interpolated strings ($"...", whose value is not constant);
// then System.Text.RegularExpressions.Regex constructions, its static
// methods (whose pattern is the second argument) and [GeneratedRegex].
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Interpolation holes nest strings; deeper nesting than this stops the
// lexer (the rest of the file is skipped) instead of growing the stack.
constexpr int kMaxInterpolationDepth = 32;

// Regular string escapes (C# specification, 6.4.5.5); \x takes one to four
// hex digits. Unknown escapes are compile errors, kept as written.
std::string DecodeEscapes(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "'\"\\",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "abfnrtv", out)) return true;
        switch (c) {
          case '0':
            out->push_back('\0');
            return true;
          case 'e':
            out->push_back('\x1b');
            return true;
          case 'x':
          case 'u':
          case 'U':
            break;
          default:
            return false;
        }
        // \x takes one to four digits, \u exactly four, \U exactly eight.
        const std::size_t max_digits = c == 'U' ? 8 : 4;
        std::size_t k = 0;
        char32_t value = 0;
        while (k < max_digits && *i + 1 + k < text.size() &&
               IsAsciiHexDigit(text[*i + 1 + k])) {
          value =
              value * 16 + static_cast<char32_t>(HexValue(text[*i + 1 + k]));
          ++k;
        }
        if (k == 0 || (c != 'x' && k != max_digits) || value > 0x10FFFF) {
          return false;
        }
        AppendUtf8(value, out);
        *i += k;
        return true;
      });
}

// The value of a multi-line raw string literal: the lines between the
// opening and the closing line, each without the closing line's
// indentation.
std::string RawStringValue(std::string_view content) {
  const std::size_t first_break = content.find('\n');
  const std::size_t last_break = content.rfind('\n');
  if (first_break == std::string_view::npos) return std::string(content);
  std::string_view indentation = content.substr(last_break + 1);
  std::string_view lines =
      first_break == last_break
          ? std::string_view()
          : content.substr(first_break + 1, last_break - first_break - 1);
  if (!lines.empty() && lines.back() == '\r') lines.remove_suffix(1);
  std::string out;
  std::size_t begin = 0;
  while (begin <= lines.size() && !lines.empty()) {
    std::size_t end = lines.find('\n', begin);
    if (end == std::string_view::npos) end = lines.size();
    std::string_view line = lines.substr(begin, end - begin);
    if (line.starts_with(indentation)) line.remove_prefix(indentation.size());
    if (begin > 0) out.push_back('\n');
    out += line;
    begin = end + 1;
  }
  std::erase(out, '\r');
  return out;
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

  bool AtLineStart() const {
    std::size_t i = pos_;
    while (i > 0 && IsAsciiLineSpace(source_[i - 1])) --i;
    return i == 0 || source_[i - 1] == '\n';
  }

  bool Step() override {
    const char c = source_[pos_];
    const char next = Peek(1);
    if (AtLineComment() || (c == '#' && AtLineStart())) {
      // Comments and preprocessor lines (#region may hold an apostrophe).
      SkipToLineEnd();
      return true;
    }
    bool ok = true;
    if (SkipCommentOrSpace(kAsciiSpaces, /*nested=*/false, &ok)) return ok;
    if (c == '"' || ((c == '@' || c == '$') &&
                     (next == '"' || next == '@' || next == '$'))) {
      return LexStringToken(
          [&](CodeToken* token) { return ScanString(&pos_, token, 0); });
    }
    if (c == '\'') return LexCharacterLiteral();
    if (IsIdentifierByte(c) || (c == '@' && IsIdentifierByte(next))) {
      // @class is the identifier class.
      const std::size_t begin = pos_;
      const std::size_t name_begin = c == '@' ? begin + 1 : begin;
      pos_ = WordEnd(name_begin);
      Push(c >= '0' && c <= '9' ? CodeTokenKind::kNumber : CodeTokenKind::kName,
           std::string(source_.substr(name_begin, pos_ - name_begin)), begin);
      return true;
    }
    PushPunct();
    return true;
  }

  // A string at *pos, with its $ and @ prefixes: regular, verbatim, raw,
  // or interpolated (constant = false, holes skipped with nested strings).
  bool ScanString(std::size_t* pos, CodeToken* token, int depth) {
    if (depth >= kMaxInterpolationDepth) return false;
    std::size_t i = *pos;
    std::size_t dollars = 0;
    bool verbatim = false;
    while (i < source_.size() && (source_[i] == '$' || source_[i] == '@')) {
      if (source_[i] == '$') ++dollars;
      if (source_[i] == '@') verbatim = true;
      ++i;
    }
    if (i >= source_.size() || source_[i] != '"') return false;
    std::size_t quotes = 0;
    while (i + quotes < source_.size() && source_[i + quotes] == '"') ++quotes;
    if (dollars > 0) token->constant = false;
    if (quotes >= 3 && !verbatim) return ScanRaw(pos, i, quotes, token, depth);
    if (quotes == 2 && !verbatim) {  // ""
      *pos = i + 2;
      return true;
    }
    const std::size_t body = i + 1;
    for (std::size_t k = body; k < source_.size(); ++k) {
      const char c = source_[k];
      if (!verbatim && c == '\\') {
        ++k;
        continue;
      }
      if (!verbatim && c == '\n') return false;
      if (verbatim && c == '"' && k + 1 < source_.size() &&
          source_[k + 1] == '"') {
        ++k;  // "" is one quote
        continue;
      }
      if (dollars > 0 && c == '{') {
        if (k + 1 < source_.size() && source_[k + 1] == '{') {
          ++k;  // {{ is a literal brace
          continue;
        }
        if (!SkipHole(&k, depth)) return false;
        continue;
      }
      if (c == '"') {
        if (token->constant) {
          const std::string_view text = source_.substr(body, k - body);
          if (verbatim) {
            for (std::size_t t = 0; t < text.size(); ++t) {
              token->text.push_back(text[t]);
              if (text[t] == '"') ++t;
            }
          } else {
            token->text = DecodeEscapes(text);
          }
        }
        *pos = k + 1;
        return true;
      }
    }
    return false;
  }

  // """...""" with `quotes` quotes at `open`; no escapes.
  bool ScanRaw(std::size_t* pos, std::size_t open, std::size_t quotes,
               CodeToken* token, int depth) {
    const std::size_t body = open + quotes;
    for (std::size_t k = body; k < source_.size(); ++k) {
      if (!token->constant && source_[k] == '{') {
        if (!SkipHole(&k, depth)) return false;
        continue;
      }
      if (source_[k] != '"') continue;
      // Each run of quotes is measured once: linear however long the
      // delimiter is.
      std::size_t run = 0;
      while (k + run < source_.size() && source_[k + run] == '"') ++run;
      if (run >= quotes) {
        if (token->constant) {
          token->text = RawStringValue(source_.substr(body, k - body));
        }
        *pos = k + quotes;
        return true;
      }
      k += run - 1;
    }
    return false;
  }

  // An interpolation hole from the `{` at *k to its `}` (*k left on it).
  bool SkipHole(std::size_t* k, int depth) {
    int braces = 0;
    for (std::size_t i = *k; i < source_.size(); ++i) {
      const char c = source_[i];
      if (c == '"' || ((c == '@' || c == '$') && i + 1 < source_.size() &&
                       (source_[i + 1] == '"' || source_[i + 1] == '@' ||
                        source_[i + 1] == '$'))) {
        CodeToken nested;
        std::size_t at = i;
        if (!ScanString(&at, &nested, depth + 1)) return false;
        i = at - 1;
        continue;
      }
      if (c == '{') ++braces;
      if (c == '}' && --braces == 0) {
        *k = i;
        return true;
      }
    }
    return false;
  }
};

void ApplyOptionNames(const std::vector<std::string_view>& names,
                      RegexLiteral* literal) {
  for (std::string_view name : names) {
    if (name == "IgnoreCase") literal->flags.case_insensitive = true;
    if (name == "Multiline") literal->flags.multiline = true;
    if (name == "Singleline") literal->flags.dot_all = true;
    if (name == "IgnorePatternWhitespace") literal->flags.extended = true;
    // .NET 7's non-backtracking engine runs in linear time.
    if (name == "NonBacktracking") literal->informational = true;
  }
}

}  // namespace

std::vector<CodeToken> LexCSharp(std::string_view source) {
  return Lexer(source).Run();
}

std::vector<RegexLiteral> ExtractCSharp(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
    RegexLiteral literal;
    literal.dialect = Dialect::kDotNet;
    std::size_t pattern = 0;
    const bool regex_class =
        IsNameAt(tokens, i, "Regex") &&
        (i == 0 || !IsPunctAt(tokens, i - 1, '.') ||
         (i >= 2 && IsNameAt(tokens, i - 2, "RegularExpressions")));
    if (regex_class && IsPunctAt(tokens, i + 1, '(') && i > 0 &&
        (IsNameAt(tokens, i - 1, "new") || IsPunctAt(tokens, i - 1, '.')) &&
        IsStringArgumentAt(tokens, i + 2)) {
      literal.call = "new Regex";
      pattern = i + 2;
    } else if (regex_class && IsPunctAt(tokens, i + 1, '.') &&
               i + 3 < tokens.size() &&
               tokens[i + 2].kind == CodeTokenKind::kName &&
               IsPunctAt(tokens, i + 3, '(')) {
      // Static helpers: Regex.IsMatch(input, pattern, options...).
      const std::string& method = tokens[i + 2].text;
      const bool global = method == "Matches" || method == "Replace" ||
                          method == "Split" || method == "Count" ||
                          method == "EnumerateMatches";
      if (!global && method != "IsMatch" && method != "Match") continue;
      const std::size_t comma = ArgumentEnd(tokens, i + 4);
      if (!IsPunctAt(tokens, comma, ',') ||
          !IsStringArgumentAt(tokens, comma + 1)) {
        continue;
      }
      literal.flags.global = global;
      literal.call = "Regex." + method;
      pattern = comma + 1;
    } else if ((IsNameAt(tokens, i, "GeneratedRegex") ||
                IsNameAt(tokens, i, "GeneratedRegexAttribute")) &&
               IsPunctAt(tokens, i + 1, '(') &&
               IsStringArgumentAt(tokens, i + 2)) {
      literal.call = "GeneratedRegex";
      pattern = i + 2;
    } else {
      continue;
    }
    ApplyOptionNames(NamesInRestOfCall(tokens, pattern + 1), &literal);
    literal.pattern = tokens[pattern].text;
    literal.offset = tokens[pattern].offset;
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
