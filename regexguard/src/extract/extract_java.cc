// Java and Kotlin regex literal extraction: one lexer for both (comments,
// which nest in Kotlin; character literals; strings; Java text blocks with
// their incidental indentation removed; Kotlin raw strings and string
// templates, whose values are not constant), then the calls that compile a
// java.util.regex pattern.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Kotlin string templates nest strings inside ${...}; deeper nesting than
// this stops the lexer (the rest of the file is skipped) instead of growing
// the stack.
constexpr int kMaxTemplateDepth = 32;

// Java escapes (JLS 3.10.7) plus the \uXXXX Unicode escapes, which Java
// translates before lexing; Kotlin's escapes are a subset. A backslash
// before a line break (text blocks only) joins the lines. Invalid escapes
// are compile errors and are kept as written.
std::string DecodeEscapes(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "\"'\\$",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "btnfr", out)) return true;
        char32_t value = 0;
        switch (c) {
          case '\n':
            return true;
          case 's':
            out->push_back(' ');
            return true;

          case 'u': {
            std::size_t k = *i;
            while (k < text.size() && text[k] == 'u')
              ++k;  // \uuuu0041 is valid
            if (!ReadHexDigits(text, k, 4, &value)) return false;
            AppendUtf8(value, out);
            *i = k + 3;
            return true;
          }
          default:
            if (c < '0' || c > '7') return false;
            *i += ReadOctalDigits(text, *i, c <= '3' ? 3 : 2, &value) - 1;
            AppendUtf8(value, out);
            return true;
        }
      });
}

// The content of a Java text block (JLS 3.10.6): line terminators
// normalised, the smallest indentation of the non-blank lines (and of the
// closing delimiter's line) removed, trailing spaces stripped, then escapes
// decoded.
std::string TextBlockValue(std::string_view raw) {
  std::vector<std::string> lines(1);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\r') {
      if (i + 1 < raw.size() && raw[i + 1] == '\n') ++i;
      lines.emplace_back();
    } else if (raw[i] == '\n') {
      lines.emplace_back();
    } else {
      lines.back().push_back(raw[i]);
    }
  }
  const auto is_blank = [](const std::string& line) {
    return std::all_of(line.begin(), line.end(), IsAsciiLineSpace);
  };
  std::size_t indent = std::string::npos;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    if (is_blank(lines[l]) && l + 1 != lines.size()) continue;
    std::size_t n = 0;
    while (n < lines[l].size() && IsAsciiLineSpace(lines[l][n])) ++n;
    indent = std::min(indent, n);
  }
  std::string joined;
  for (std::size_t l = 0; l < lines.size(); ++l) {
    std::string line = is_blank(lines[l]) ? "" : lines[l].substr(indent);
    while (!line.empty() && IsAsciiLineSpace(line.back())) line.pop_back();
    if (l > 0) joined.push_back('\n');
    joined += line;
  }
  return DecodeEscapes(joined);
}

class Lexer : public CodeLexer {
 public:
  Lexer(std::string_view source, bool kotlin)
      : CodeLexer(source), kotlin_(kotlin) {}

 private:
  bool Step() override {
    // Block comments nest in Kotlin, not in Java.
    bool ok = true;
    if (SkipCommentOrSpace(" \t\n\r\f", /*nested=*/kotlin_, &ok)) return ok;
    const char c = source_[pos_];
    if (c == '"') {
      return LexStringToken(
          [&](CodeToken* token) { return ScanString(&pos_, token, 0); });
    }
    if (c == '\'') return LexCharacterLiteral();
    if (c == '`' && kotlin_) {  // `quoted name`
      const std::size_t end = source_.find('`', pos_ + 1);
      if (end == std::string_view::npos) return false;
      Push(CodeTokenKind::kName,
           std::string(source_.substr(pos_ + 1, end - pos_ - 1)), pos_);
      pos_ = end + 1;
      return true;
    }
    if (IsIdentifierByte(c) || c == '$') {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_, IsAsciiDigit(c) ? "$." : "$");
      PushWord(begin);
      return true;
    }
    PushPunct();
    return true;
  }

  // A string starting at the quote at *pos: "...", or a text block / raw
  // string `"""`. Fills token->text and token->constant (false when a
  // Kotlin template is inside) and moves *pos past the closing quote.
  bool ScanString(std::size_t* pos, CodeToken* token, int depth) {
    const bool triple = source_.substr(*pos, 3) == "\"\"\"";
    std::size_t i = *pos + (triple ? 3 : 1);
    const std::size_t body_begin = i;
    if (triple && !kotlin_) {
      // A Java text block's content starts after the opening line.
      while (i < source_.size() && IsAsciiLineSpace(source_[i])) ++i;
      if (i >= source_.size() || (source_[i] != '\n' && source_[i] != '\r')) {
        return false;
      }
      i += source_.substr(i, 2) == "\r\n" ? 2 : 1;
    }
    const std::size_t content_begin = i;
    while (i < source_.size()) {
      const char c = source_[i];
      if (c == '\\' && !(kotlin_ && triple)) {
        i += 2;  // Kotlin raw strings have no escapes
        continue;
      }
      if (kotlin_ && c == '$' && i + 1 < source_.size() &&
          (source_[i + 1] == '{' || IsIdentifierByte(source_[i + 1])) &&
          !IsAsciiDigit(source_[i + 1])) {
        token->constant = false;
        if (source_[i + 1] == '{' && !SkipTemplateExpression(&i, depth)) {
          return false;
        }
        ++i;
        continue;
      }
      if (!triple && c == '\n') return false;
      if (c == '"' && !triple) {
        if (token->constant) {
          token->text =
              DecodeEscapes(source_.substr(body_begin, i - body_begin));
        }
        *pos = i + 1;
        return true;
      }
      if (c == '"' && source_.substr(i, 3) == "\"\"\"") {
        // In Kotlin the closing delimiter is the last three quotes of a run.
        std::size_t end = i;
        if (kotlin_) {
          while (end + 3 < source_.size() && source_[end + 3] == '"') ++end;
        }
        const std::string_view content =
            source_.substr(content_begin, end - content_begin);
        if (token->constant) {
          token->text =
              kotlin_ ? std::string(content) : TextBlockValue(content);
        }
        *pos = end + 3;
        return true;
      }
      ++i;
    }
    return false;
  }

  // From `${` at *pos to its closing `}`, skipping nested strings; *pos is
  // left on the `}`.
  bool SkipTemplateExpression(std::size_t* pos, int depth) {
    if (depth >= kMaxTemplateDepth) return false;
    const std::size_t close =
        InterpolationEnd(source_, *pos, [&](std::size_t* i) {
          if (source_[*i] != '"') return NestedString::kNone;
          CodeToken nested;
          return ScanString(i, &nested, depth + 1) ? NestedString::kSkipped
                                                   : NestedString::kFailed;
        });
    if (close == std::string_view::npos) return false;
    *pos = close;
    return true;
  }

  bool kotlin_ = false;
};

void ApplyFlagNames(const std::vector<std::string_view>& names,
                    PatternFlags* flags) {
  for (std::string_view name : names) {
    // Pattern constants (Java) and RegexOption entries (Kotlin).
    if (name == "CASE_INSENSITIVE") flags->case_insensitive = true;
    // Kotlin's Regex adds UNICODE_CASE whenever IGNORE_CASE is set.
    if (name == "IGNORE_CASE") {
      flags->case_insensitive = true;
      flags->unicode = true;
    }
    if (name == "UNICODE_CASE") flags->unicode = true;
    if (name == "MULTILINE") flags->multiline = true;
    if (name == "DOTALL" || name == "DOT_MATCHES_ALL") flags->dot_all = true;
    if (name == "COMMENTS") flags->extended = true;
  }
}

// Pattern.compile(s, flags) and Pattern.matches(s, input), in both
// languages.
bool MatchPatternClass(const std::vector<CodeToken>& tokens, std::size_t i,
                       RegexLiteral* literal, std::size_t* pattern) {
  if (!IsNameAt(tokens, i, "Pattern") || !IsPunctAt(tokens, i + 1, '.') ||
      !IsPunctAt(tokens, i + 3, '(') || !IsStringArgumentAt(tokens, i + 4)) {
    return false;
  }
  if (IsNameAt(tokens, i + 2, "compile")) {
    ApplyFlagNames(NamesInRestOfCall(tokens, i + 5), &literal->flags);
  } else if (IsNameAt(tokens, i + 2, "matches")) {
    literal->anchored = true;
  } else {
    return false;
  }
  literal->call = "Pattern." + tokens[i + 2].text;
  *pattern = i + 4;
  return true;
}

// Index of the `)` closing the call whose argument list holds `argument`
// (at depth 0), or tokens.size().
std::size_t CallEnd(const std::vector<CodeToken>& tokens,
                    std::size_t argument) {
  std::size_t end = ArgumentEnd(tokens, argument);
  for (std::size_t steps = 0; steps < 16 && IsPunctAt(tokens, end, ',');
       ++steps) {
    end = ArgumentEnd(tokens, end + 1);
  }
  return IsPunctAt(tokens, end, ')') ? end : tokens.size();
}

// How a compiled pattern is used right away, from the `)` that closes its
// construction: Pattern.compile(p).matcher(s).matches() and Kotlin's
// Regex(p).matches(s) / matchEntire(s) are anchored (whole-input match);
// split, replaceAll, results, findAll and Kotlin's replace are global.
void ApplyChainedUse(const std::vector<CodeToken>& tokens, std::size_t close,
                     bool kotlin, RegexLiteral* literal) {
  if (close >= tokens.size() || !IsPunctAt(tokens, close + 1, '.') ||
      close + 2 >= tokens.size() ||
      tokens[close + 2].kind != CodeTokenKind::kName) {
    return;
  }
  std::string method = tokens[close + 2].text;
  if (method == "matcher" && IsPunctAt(tokens, close + 3, '(')) {
    const std::size_t matcher_end = CallEnd(tokens, close + 4);
    if (matcher_end + 2 >= tokens.size() ||
        !IsPunctAt(tokens, matcher_end + 1, '.') ||
        tokens[matcher_end + 2].kind != CodeTokenKind::kName) {
      return;
    }
    method = tokens[matcher_end + 2].text;
    if (method == "matches") literal->anchored = true;
    if (method == "replaceAll" || method == "results") {
      literal->flags.global = true;
    }
    return;
  }
  if (method == "split" || method == "splitAsStream" ||
      (kotlin && (method == "findAll" || method == "replace" ||
                  method == "splitToSequence"))) {
    literal->flags.global = true;
  }
  if (kotlin && (method == "matches" || method == "matchEntire")) {
    literal->anchored = true;
  }
}

std::vector<RegexLiteral> Extract(std::string_view source, bool kotlin) {
  const std::vector<CodeToken> tokens = Lexer(source, kotlin).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    RegexLiteral literal;
    literal.dialect = Dialect::kJava;
    std::size_t pattern = 0;
    if (MatchPatternClass(tokens, i, &literal, &pattern)) {
      if (tokens[i + 2].text == "compile") {
        ApplyChainedUse(tokens, CallEnd(tokens, pattern), kotlin, &literal);
      }
    } else if (!kotlin && IsPunctAt(tokens, i, '.') &&
               !(i > 0 && IsNameAt(tokens, i - 1, "Pattern")) &&
               i + 3 < tokens.size() &&
               tokens[i + 1].kind == CodeTokenKind::kName &&
               IsPunctAt(tokens, i + 2, '(') &&
               IsStringArgumentAt(tokens, i + 3)) {
      // String methods that take a regex, on any receiver.
      const std::string& method = tokens[i + 1].text;
      // String.replaceAll/replaceFirst take (regex, replacement); with one
      // argument it is Matcher's, whose argument is the replacement.
      if ((method == "replaceAll" || method == "replaceFirst") &&
          !IsPunctAt(tokens, i + 4, ',')) {
        continue;
      }
      if (method == "matches") {
        literal.anchored = true;  // the whole string must match
      } else if (method == "replaceAll" || method == "split") {
        literal.flags.global = true;
      } else if (method != "replaceFirst") {
        continue;
      }
      literal.call = "." + method;
      pattern = i + 3;
    } else if (kotlin && IsNameAt(tokens, i, "Regex") &&
               !IsPunctAt(tokens, i + 1, '.') &&
               IsPunctAt(tokens, i + 1, '(') &&
               IsStringArgumentAt(tokens, i + 2)) {
      ApplyFlagNames(NamesInRestOfCall(tokens, i + 3), &literal.flags);
      ApplyChainedUse(tokens, CallEnd(tokens, i + 2), kotlin, &literal);
      literal.call = "Regex";
      pattern = i + 2;
    } else if (kotlin && IsConstantStringAt(tokens, i) &&
               IsPunctAt(tokens, i + 1, '.') &&
               (IsNameAt(tokens, i + 2, "toRegex") ||
                IsNameAt(tokens, i + 2, "toPattern")) &&
               IsPunctAt(tokens, i + 3, '(') &&
               !(i > 0 && IsPunctAt(tokens, i - 1, '.'))) {
      ApplyFlagNames(NamesInRestOfCall(tokens, i + 4), &literal.flags);
      ApplyChainedUse(tokens, CallEnd(tokens, i + 4), kotlin, &literal);
      literal.call = "." + tokens[i + 2].text;
      pattern = i;
    } else {
      continue;
    }
    literal.pattern = tokens[pattern].text;
    literal.offset = tokens[pattern].offset;
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace

std::vector<CodeToken> LexJava(std::string_view source) {
  return Lexer(source, /*kotlin=*/false).Run();
}

std::vector<CodeToken> LexKotlin(std::string_view source) {
  return Lexer(source, /*kotlin=*/true).Run();
}

std::vector<RegexLiteral> ExtractJava(std::string_view source) {
  return Extract(source, false);
}

std::vector<RegexLiteral> ExtractKotlin(std::string_view source) {
  return Extract(source, true);
}

}  // namespace robotscan::regexguard::internal
