// C/C++ regex literal extraction: a lexer for comments, line splices,
// character literals and every string form (prefixes u8/u/U/L, raw strings
// R"delim(...)delim", adjacent literals concatenated as translation phase 6
// does), then std::regex, boost::regex, RE2 and pcre2_compile uses.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Length of the line splice (backslash, line break) at `i`, or 0.
std::size_t SpliceLength(std::string_view source, std::size_t i) {
  if (source[i] != '\\' || i + 1 >= source.size()) return 0;
  if (source[i + 1] == '\n') return 2;
  if (source[i + 1] == '\r' && i + 2 < source.size() && source[i + 2] == '\n') {
    return 3;
  }
  return 0;
}

// Decodes the escapes of a (spliced) string body as GCC and Clang do.
// Unknown escapes such as "\d" are conditionally supported: both compilers
// warn and keep the character without its backslash, so "\d" is `d`.
std::string DecodeEscapes(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "\\\"'?",
      [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "abfnrtv", out)) return true;
        char32_t value = 0;
        switch (c) {
          case 'e':
          case 'E':
            out->push_back('\x1b');  // GNU extension
            return true;
          case 'x': {
            // As many hex digits as follow; the value is one code unit, taken
            // as that code point in the (UTF-8) pattern.
            std::size_t k = *i + 1;
            while (k < text.size() && IsAsciiHexDigit(text[k]) &&
                   value <= 0x10FFFF) {
              value = value * 16 + static_cast<char32_t>(HexValue(text[k]));
              ++k;
            }
            if (k == *i + 1 || value > 0x10FFFF) {
              out->push_back('x');  // an error in C++; keep something visible
              return true;
            }
            AppendUtf8(value, out);
            *i = k - 1;
            return true;
          }
          case 'u':
          case 'U': {
            const std::size_t digits = c == 'u' ? 4 : 8;
            if (ReadHexDigits(text, *i + 1, digits, &value) &&
                value <= 0x10FFFF) {
              AppendUtf8(value, out);
              *i += digits;
            } else {
              out->push_back(c);
            }
            return true;
          }
          default:
            if (c >= '0' && c <= '7') {
              *i += ReadOctalDigits(text, *i, 3, &value) - 1;
              AppendUtf8(value, out);
            } else {
              out->push_back(c);  // unknown escapes
            }
            return true;
        }
      });
}

bool IsStringPrefix(std::string_view name, bool* raw) {
  *raw = !name.empty() && name.back() == 'R';
  if (*raw) name.remove_suffix(1);
  return name.empty() || name == "u8" || name == "u" || name == "U" ||
         name == "L";
}

class Lexer : public CodeLexer {
  using CodeLexer::CodeLexer;

  bool Step() override {
    const char c = source_[pos_];
    if (AtLineComment()) {
      // A splice at the end of a // comment continues the comment.
      while (pos_ < source_.size() && source_[pos_] != '\n') {
        const std::size_t splice = SpliceLength(source_, pos_);
        pos_ += splice > 0 ? splice : 1;
      }
      return true;
    }
    // A backslash outside literals is a line splice.
    bool ok = true;
    if (SkipCommentOrSpace(" \t\n\r\f\v\\", /*nested=*/false, &ok)) {
      return ok;
    }
    if (c == '"') return LexQuoted(pos_, pos_);
    if (c == '\'') {
      // 'x', '\'', u8'a': an operand. An apostrophe with no closing quote
      // on its line (as in a #error message) is taken as punctuation.
      if (!LexCharacterLiteral()) PushPunct();
      return true;
    }
    if (IsIdentifierByte(c) && !IsAsciiDigit(c)) {
      const std::size_t begin = pos_;
      pos_ = WordEnd(pos_);
      const std::string_view name = source_.substr(begin, pos_ - begin);
      bool raw = false;
      if (Peek() == '"' && IsStringPrefix(name, &raw)) {
        return raw ? LexRaw(begin) : LexQuoted(begin, pos_);
      }
      PushWord(begin);
      return true;
    }
    if (IsAsciiDigit(c)) {
      // Digit separators (1'000) are part of the number.
      const std::size_t begin = pos_;
      while (pos_ < source_.size() &&
             (IsIdentifierByte(source_[pos_]) || source_[pos_] == '.' ||
              (source_[pos_] == '\'' && pos_ + 1 < source_.size() &&
               IsIdentifierByte(source_[pos_ + 1])))) {
        ++pos_;
      }
      Push(CodeTokenKind::kNumber, "", begin);
      return true;
    }
    PushPunct();
    return true;
  }

  // A string whose opening quote is at `quote`; `begin` is where its
  // prefix starts. Splices are removed before escapes are decoded, as in
  // translation phase 2.
  bool LexQuoted(std::size_t begin, std::size_t quote) {
    std::string body;
    bool escaped = false;
    std::size_t i = quote + 1;
    while (i < source_.size()) {
      const std::size_t splice = SpliceLength(source_, i);
      if (splice > 0) {
        i += splice;
        continue;
      }
      const char c = source_[i++];
      if (!escaped && c == '"') {
        Push(CodeTokenKind::kString, DecodeEscapes(body), begin);
        pos_ = i;
        return true;
      }
      if (c == '\n') return false;
      escaped = !escaped && c == '\\';
      body.push_back(c);
    }
    return false;
  }

  // R"delim( ... )delim": no escapes and no splices; may span lines.
  bool LexRaw(std::size_t begin) {
    const std::size_t open = source_.find('(', pos_ + 1);
    if (open == std::string_view::npos || open - pos_ - 1 > 16) return false;
    const std::string_view delimiter =
        source_.substr(pos_ + 1, open - pos_ - 1);
    for (char c : delimiter) {
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' ||
          c == '"') {
        return false;
      }
    }
    const std::string terminator = ")" + std::string(delimiter) + "\"";
    const std::size_t close = source_.find(terminator, open + 1);
    if (close == std::string_view::npos) return false;
    Push(CodeTokenKind::kString,
         std::string(source_.substr(open + 1, close - open - 1)), begin);
    pos_ = close + terminator.size();
    return true;
  }

  // Adjacent string literals are one literal (translation phase 6).
  void PushToken(CodeToken token) override {
    if (token.kind == CodeTokenKind::kString && !tokens_.empty() &&
        tokens_.back().kind == CodeTokenKind::kString) {
      tokens_.back().text += token.text;
      return;
    }
    tokens_.push_back(std::move(token));
  }
};

enum class Library { kNone, kStd, kBoost, kRe2 };

// The regex class named at tokens[i] (std::regex, std::wregex,
// boost::regex, boost::wregex, re2::RE2, RE2); *after is the index just
// past it.
Library RegexClassAt(const std::vector<CodeToken>& tokens, std::size_t i,
                     std::size_t* after, std::string* spelled) {
  if (i > 0 &&
      (IsPunctAt(tokens, i - 1, ':') || IsPunctAt(tokens, i - 1, '.') ||
       IsPunctAt(tokens, i - 1, '>'))) {
    return Library::kNone;
  }
  for (std::string_view ns : {"std", "boost"}) {
    for (std::string_view type : {"regex", "wregex"}) {
      if (TokensSpell(tokens, i, {ns, ":", ":", type})) {
        *after = i + 4;
        *spelled = std::string(ns) + "::" + std::string(type);
        return ns == "std" ? Library::kStd : Library::kBoost;
      }
    }
  }
  if (TokensSpell(tokens, i, {"re2", ":", ":", "RE2"})) {
    *after = i + 4;
    *spelled = "re2::RE2";
    return Library::kRe2;
  }
  if (IsNameAt(tokens, i, "RE2")) {
    *after = i + 1;
    *spelled = "RE2";
    return Library::kRe2;
  }
  return Library::kNone;
}

void ApplyFlagNames(const std::vector<std::string_view>& names, Library library,
                    RegexLiteral* literal) {
  for (std::string_view name : names) {
    // std::regex::extended selects POSIX ERE syntax, not the x flag.
    if (name == "icase" || name == "PCRE2_CASELESS" ||
        name == "PCRE_CASELESS") {
      literal->flags.case_insensitive = true;
    }
    if (name == "multiline" || name == "PCRE2_MULTILINE" ||
        name == "PCRE_MULTILINE") {
      literal->flags.multiline = true;
    }
    if (name == "no_mod_m" && library == Library::kBoost) {
      literal->flags.multiline = false;
    }
    if (name == "mod_s" || name == "PCRE2_DOTALL" || name == "PCRE_DOTALL") {
      literal->flags.dot_all = true;
    }
    if (name == "mod_x" || name == "PCRE2_EXTENDED" ||
        name == "PCRE2_EXTENDED_MORE" || name == "PCRE_EXTENDED") {
      literal->flags.extended = true;
    }
    if (name == "PCRE2_ANCHORED" || name == "PCRE_ANCHORED") {
      literal->anchored = true;
    }
  }
}

RegexLiteral LiteralFor(Library library) {
  RegexLiteral literal;
  switch (library) {
    case Library::kStd:
      // std::regex's default grammar is the ECMAScript one (ECMA-262 3rd
      // edition, slightly modified): the JavaScript dialect is the closest.
      literal.dialect = Dialect::kJavaScript;
      break;
    case Library::kBoost:
      // boost::regex defaults to Perl syntax, where ^ and $ also match at
      // line breaks unless no_mod_m is given.
      literal.dialect = Dialect::kPcre;
      literal.flags.multiline = true;
      break;
    case Library::kRe2:
      // RE2 syntax is Go's; the engine runs in linear time.
      literal.dialect = Dialect::kGo;
      literal.informational = true;
      break;
    case Library::kNone:
      literal.dialect = Dialect::kPcre;
      break;
  }
  return literal;
}

// Index of the string argument after an optional C cast such as
// (PCRE2_SPTR) or (const unsigned char *) starting at `i`.
std::size_t SkipCast(const std::vector<CodeToken>& tokens, std::size_t i) {
  if (!IsPunctAt(tokens, i, '(')) return i;
  for (std::size_t k = i + 1; k < tokens.size() && k < i + 8; ++k) {
    if (IsPunctAt(tokens, k, ')')) return k + 1;
    if (tokens[k].kind != CodeTokenKind::kName && !IsPunctAt(tokens, k, '*')) {
      break;
    }
  }
  return i;
}

struct Extraction {
  std::vector<RegexLiteral> literals;
  std::vector<std::size_t> string_tokens;  // token index of each literal
  std::map<std::string, std::vector<std::size_t>> variables;  // -> literals
};

void AddLiteral(const std::vector<CodeToken>& tokens, std::size_t string_index,
                RegexLiteral literal, Extraction* extraction) {
  literal.pattern = tokens[string_index].text;
  literal.offset = tokens[string_index].offset;
  extraction->literals.push_back(std::move(literal));
  extraction->string_tokens.push_back(string_index);
}

// A regex class at tokens[i]: a constructor call, a declaration, or one of
// RE2's static matchers (whose pattern is the second argument).
void MatchRegexClass(const std::vector<CodeToken>& tokens, std::size_t i,
                     Extraction* extraction) {
  std::size_t j = 0;
  std::string spelled;
  const Library library = RegexClassAt(tokens, i, &j, &spelled);
  if (library == Library::kNone) return;
  if (library == Library::kRe2 && TokensSpell(tokens, j, {":", ":"}) &&
      j + 3 < tokens.size() && tokens[j + 2].kind == CodeTokenKind::kName &&
      IsPunctAt(tokens, j + 3, '(')) {
    const std::string& function = tokens[j + 2].text;
    if (function != "FullMatch" && function != "PartialMatch" &&
        function != "Consume" && function != "FindAndConsume" &&
        function != "Replace" && function != "GlobalReplace" &&
        function != "Extract") {
      return;
    }
    const std::size_t comma = ArgumentEnd(tokens, j + 4);
    if (!IsPunctAt(tokens, comma, ',') ||
        !IsStringArgumentAt(tokens, comma + 1)) {
      return;
    }
    RegexLiteral literal = LiteralFor(library);
    literal.call = "RE2::" + function;
    literal.anchored = function == "FullMatch";
    literal.flags.global = function == "GlobalReplace";
    AddLiteral(tokens, comma + 1, std::move(literal), extraction);
    return;
  }
  std::string variable;
  if (j < tokens.size() && tokens[j].kind == CodeTokenKind::kName) {
    variable = tokens[j].text;
    ++j;
  }
  char close = ')';
  if (IsPunctAt(tokens, j, '{')) {
    close = '}';
  } else if (!IsPunctAt(tokens, j, '(')) {
    return;
  }
  if (!IsStringArgumentAt(tokens, j + 1, close)) return;
  RegexLiteral literal = LiteralFor(library);
  literal.call = spelled;
  if (library != Library::kRe2) {
    ApplyFlagNames(NamesInRestOfCall(tokens, j + 2), library, &literal);
  }
  if (!variable.empty()) {
    extraction->variables[variable].push_back(extraction->literals.size());
  }
  AddLiteral(tokens, j + 1, std::move(literal), extraction);
}

void MatchPcreCompile(const std::vector<CodeToken>& tokens, std::size_t i,
                      Extraction* extraction) {
  if (!(IsNameAt(tokens, i, "pcre2_compile") ||
        IsNameAt(tokens, i, "pcre_compile")) ||
      !IsPunctAt(tokens, i + 1, '(')) {
    return;
  }
  const std::size_t pattern = SkipCast(tokens, i + 2);
  if (!IsStringArgumentAt(tokens, pattern)) return;
  RegexLiteral literal = LiteralFor(Library::kNone);
  literal.call = tokens[i].text;
  ApplyFlagNames(NamesInRestOfCall(tokens, pattern + 1), Library::kNone,
                 &literal);
  AddLiteral(tokens, pattern, std::move(literal), extraction);
}

// regex_replace and the regex iterators run a regex over the whole
// subject; regex_match tries one whole-subject match. Marks the literals
// passed to them directly or through a variable declared in the file.
void MarkUses(const std::vector<CodeToken>& tokens, Extraction* extraction) {
  std::size_t next_literal = 0;  // literals are in token order
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != CodeTokenKind::kName) continue;
    const std::string& name = tokens[i].text;
    const bool global = name == "regex_replace" ||
                        name.ends_with("regex_iterator") ||
                        name.ends_with("regex_token_iterator");
    const bool anchored = name == "regex_match";
    if (!global && !anchored) continue;
    std::size_t open = i + 1;
    if (open < tokens.size() && tokens[open].kind == CodeTokenKind::kName) {
      ++open;  // std::sregex_iterator it(...)
    }
    if (!IsPunctAt(tokens, open, '(') && !IsPunctAt(tokens, open, '{')) {
      continue;
    }
    const std::size_t end = std::min(tokens.size(), open + kMaxArgumentTokens);
    int depth = 0;
    while (next_literal < extraction->string_tokens.size() &&
           extraction->string_tokens[next_literal] <= open) {
      ++next_literal;
    }
    for (std::size_t k = open + 1; k < end && depth >= 0; ++k) {
      if (IsPunctAt(tokens, k, '(') || IsPunctAt(tokens, k, '{')) ++depth;
      if (IsPunctAt(tokens, k, ')') || IsPunctAt(tokens, k, '}')) --depth;
      std::vector<std::size_t> marked;
      for (std::size_t l = next_literal; l < extraction->string_tokens.size() &&
                                         extraction->string_tokens[l] == k;
           ++l) {
        marked.push_back(l);
      }
      if (tokens[k].kind == CodeTokenKind::kName &&
          !IsPunctAt(tokens, k + 1, ':') &&
          !(k > 0 && IsPunctAt(tokens, k - 1, ':'))) {
        // The variable's latest declaration before this use.
        const auto it = extraction->variables.find(tokens[k].text);
        if (it != extraction->variables.end()) {
          const auto after = std::lower_bound(
              it->second.begin(), it->second.end(), k,
              [&](std::size_t literal, std::size_t token) {
                return extraction->string_tokens[literal] < token;
              });
          if (after != it->second.begin()) marked.push_back(*(after - 1));
        }
      }
      for (std::size_t l : marked) {
        if (global) extraction->literals[l].flags.global = true;
        if (anchored) extraction->literals[l].anchored = true;
      }
    }
  }
}

}  // namespace

std::vector<RegexLiteral> ExtractCpp(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  Extraction extraction;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != CodeTokenKind::kName) continue;
    MatchRegexClass(tokens, i, &extraction);
    MatchPcreCompile(tokens, i, &extraction);
  }
  MarkUses(tokens, &extraction);
  return std::move(extraction.literals);
}

}  // namespace robotscan::regexguard::internal
