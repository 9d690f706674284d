// Rust regex literal extraction: a lexer for nested block comments, string,
// byte string and raw string literals (r"...", r#"..."#), and character
// literals told from lifetimes; then Regex::new / RegexBuilder::new calls
// of the `regex` crate (linear time: informational) and of `fancy_regex`
// (a backtracker).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Rust string escapes (the Reference, "Tokens"); a backslash before a line
// break skips the break and the next line's leading whitespace. Anything
// else is a compile error and is kept as written.
std::string DecodeEscapes(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "\\'\"",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "nrt", out)) return true;
        char32_t value = 0;
        switch (c) {
          case '\n':
          case '\r':
            while (*i + 1 < text.size() && IsAsciiSpace(text[*i + 1])) ++*i;
            return true;
          case '0':
            out->push_back('\0');
            return true;

          case 'x':
            return AppendHexEscape(text, i, 2, out);
          case 'u': {
            std::size_t close = 0;
            if (*i + 1 >= text.size() || text[*i + 1] != '{' ||
                !ReadBracedCodePoint(text, *i + 1, /*underscores=*/true, &value,
                                     &close)) {
              return false;
            }
            AppendUtf8(value, out);
            *i = close;
            return true;
          }
          default:
            return false;
        }
      });
}

// Length of the UTF-8 sequence that starts with `lead` (1 for a bad byte).
std::size_t Utf8Length(char lead) {
  const auto byte = static_cast<unsigned char>(lead);
  if (byte >= 0xF0) return 4;
  if (byte >= 0xE0) return 3;
  if (byte >= 0xC0) return 2;
  return 1;
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

  bool Step() override {
    bool ok = true;
    if (SkipCommentOrSpace(kAsciiSpaces, /*nested=*/true, &ok)) return ok;
    const char c = source_[pos_];
    if (c == '"') return LexString(pos_, pos_);
    if (c == '\'') {
      LexCharacterOrLifetime();
      return true;
    }
    if (IsIdentifierByte(c)) {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_);
      const std::string_view name = source_.substr(begin, pos_ - begin);
      const char after = Peek();
      if ((name == "r" || name == "br" || name == "cr") &&
          (after == '"' || after == '#')) {
        return LexRaw(begin);
      }
      if ((name == "b" || name == "c") && after == '"') {
        return LexString(begin, pos_);
      }
      PushWord(begin);
      return true;
    }
    PushPunct();
    return true;
  }

  // "...", b"...", c"...": may span lines.
  bool LexString(std::size_t begin, std::size_t quote) {
    std::size_t i = quote + 1;
    while (i < source_.size() && source_[i] != '"') {
      i += source_[i] == '\\' ? 2 : 1;
    }
    if (i >= source_.size()) return false;
    tokens_.push_back({CodeTokenKind::kString,
                       DecodeEscapes(source_.substr(quote + 1, i - quote - 1)),
                       begin, true, ""});
    pos_ = i + 1;
    return true;
  }

  // r"...", r#"..."#, r##"..."##: no escapes; pos_ is after the `r`.
  bool LexRaw(std::size_t begin) {
    std::size_t i = pos_;
    while (i < source_.size() && source_[i] == '#') ++i;
    const std::size_t hashes = i - pos_;
    // Rust allows at most 255 hashes; the bound also keeps the search for
    // the terminator linear.
    if (hashes > 255) return false;
    if (i >= source_.size() || source_[i] != '"') {
      // r#ident is a raw identifier, not a string.
      tokens_.push_back({CodeTokenKind::kName, "r", begin, true, ""});
      return true;
    }
    const std::string terminator = "\"" + std::string(hashes, '#');
    const std::size_t close = source_.find(terminator, i + 1);
    if (close == std::string_view::npos) return false;
    std::string text;
    for (char c : source_.substr(i + 1, close - i - 1)) {
      if (c != '\r') text.push_back(c);  // CRLF is normalised to LF
    }
    tokens_.push_back(
        {CodeTokenKind::kString, std::move(text), begin, true, ""});
    pos_ = close + terminator.size();
    return true;
  }

  // 'a', '\n', 'é' are character literals; 'a in `&'a str` is a lifetime.
  void LexCharacterOrLifetime() {
    std::size_t i = pos_ + 1;
    if (i < source_.size() && source_[i] == '\\') {
      i += 2;
      while (i < source_.size() && source_[i] != '\'' && source_[i] != '\n') {
        ++i;  // \u{...}, \x41
      }
    } else if (i < source_.size()) {
      i += Utf8Length(source_[i]);
    }
    if (i < source_.size() && source_[i] == '\'') {
      tokens_.push_back({CodeTokenKind::kNumber, "", pos_, true, ""});
      pos_ = i + 1;
    } else {
      tokens_.push_back({CodeTokenKind::kPunct, "'", pos_, true, ""});
      ++pos_;
    }
  }
};

// True if the file imports from fancy_regex (`use fancy_regex::Regex;`),
// which makes an unqualified Regex::new a fancy_regex one.
bool UsesFancyRegex(const std::vector<CodeToken>& tokens) {
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (IsNameAt(tokens, i, "use") && IsNameAt(tokens, i + 1, "fancy_regex")) {
      return true;
    }
  }
  return false;
}

// Applies `.case_insensitive(true)`-style builder calls chained after the
// `)` at `close`.
void ApplyBuilderChain(const std::vector<CodeToken>& tokens, std::size_t close,
                       PatternFlags* flags) {
  std::size_t k = close + 1;
  for (std::size_t steps = 0; steps < 16; ++steps) {
    if (!IsPunctAt(tokens, k, '.') || k + 2 >= tokens.size() ||
        tokens[k + 1].kind != CodeTokenKind::kName ||
        !IsPunctAt(tokens, k + 2, '(')) {
      return;
    }
    const std::string& method = tokens[k + 1].text;
    const std::size_t end = ArgumentEnd(tokens, k + 3);
    if (!IsPunctAt(tokens, end, ')')) return;
    if (end == k + 4 && IsNameAt(tokens, k + 3, "true")) {
      if (method == "case_insensitive") flags->case_insensitive = true;
      if (method == "multi_line") flags->multiline = true;
      if (method == "dot_matches_new_line") flags->dot_all = true;
      if (method == "ignore_whitespace") flags->extended = true;
    }
    k = end + 1;
  }
}

}  // namespace

std::vector<RegexLiteral> ExtractRust(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  const bool fancy_by_import = UsesFancyRegex(tokens);
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i + 5 < tokens.size(); ++i) {
    if (!(IsNameAt(tokens, i, "Regex") ||
          IsNameAt(tokens, i, "RegexBuilder")) ||
        !TokensSpell(tokens, i + 1, {":", ":", "new", "("}) ||
        !IsStringArgumentAt(tokens, i + 5)) {
      continue;
    }
    // The path before the type: regex::bytes::Regex, fancy_regex::Regex.
    std::size_t first = i;
    while (first >= 3 && IsPunctAt(tokens, first - 1, ':') &&
           IsPunctAt(tokens, first - 2, ':') &&
           tokens[first - 3].kind == CodeTokenKind::kName) {
      first -= 3;
    }
    const bool fancy = IsNameAt(tokens, first, "fancy_regex") ||
                       (first == i && fancy_by_import);
    RegexLiteral literal;
    if (fancy) {
      // fancy_regex backtracks for look-around and backreferences, with
      // Perl-like syntax: PCRE is the closest dialect.
      literal.dialect = Dialect::kPcre;
    } else {
      // The regex crate guarantees linear time; its syntax is RE2's, which
      // the Go dialect models.
      literal.dialect = Dialect::kGo;
      literal.informational = true;
    }
    for (std::size_t k = first; k <= i + 3; ++k) literal.call += tokens[k].text;
    if (tokens[i].text == "RegexBuilder") {
      ApplyBuilderChain(tokens, ArgumentEnd(tokens, i + 5), &literal.flags);
    }
    literal.pattern = tokens[i + 5].text;
    literal.offset = tokens[i + 5].offset;
    literals.push_back(std::move(literal));
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
