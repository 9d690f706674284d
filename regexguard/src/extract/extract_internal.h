// Shared pieces of the per-language regex literal extractors (extract_*.cc).
// Character classes (IsAsciiSpace, IsAsciiHexDigit, HexValue, ...) are
// robotscan/base/ascii.h's, locale-independent like everything here.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_EXTRACT_INTERNAL_H_
#define ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_EXTRACT_INTERNAL_H_

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/ascii.h"  // IsAsciiSpace, IsAsciiHexDigit, HexValue
#include "robotscan/regexguard/extract.h"
#include "syntax/unicode.h"  // AppendUtf8

namespace robotscan::regexguard::internal {

// The one-letter control escapes most languages share (\a \b \f \n \r
// \t \v), limited to the letters a language's `accepted` lists: appends
// the character and returns true, or returns false for any other letter.
inline bool AppendControlEscape(char letter, std::string_view accepted,
                                std::string* out) {
  constexpr std::string_view kLetters = "abfnrtv";
  constexpr std::string_view kControls = "\a\b\f\n\r\t\v";
  const std::size_t at = kLetters.find(letter);
  if (at == std::string_view::npos ||
      accepted.find(letter) == std::string_view::npos) {
    return false;
  }
  out->push_back(kControls[at]);
  return true;
}

inline bool IsIdentifierByte(char c) {
  return IsAsciiAlnum(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}

// The `}` closing a \u{...} escape whose digits start at `begin`, looked
// for in the next `window` bytes only, so that many unclosed escapes in one
// string stay linear; npos if absent.
inline std::size_t FindEscapeClose(std::string_view body, std::size_t begin,
                                   std::size_t window = 16) {
  if (begin > body.size()) return std::string_view::npos;
  const std::size_t close = body.substr(begin, window).find('}');
  return close == std::string_view::npos ? close : begin + close;
}

// A token of the extractors that share the call-matching helpers below
// (C/C++, Java/Kotlin, C#, Rust, Ruby, PHP, Go, JavaScript): comments are
// dropped, strings decoded, and every other punctuator is one character
// (`::` is two ':'; JavaScript's `++` and `--` are one token). kTemplate is
// a JavaScript template literal's text.
enum class CodeTokenKind { kName, kString, kTemplate, kRegex, kNumber, kPunct };

struct CodeToken {
  CodeTokenKind kind = CodeTokenKind::kPunct;
  std::string text;  // name, punctuator, decoded string, or regex source
  std::size_t offset = 0;
  // False for a string whose value is unknown statically (interpolated,
  // or a template literal with ${...}).
  bool constant = true;
  std::string flags;  // regex literal flags (Ruby)
};

// True if tokens[i] is the punctuator `c`.
bool IsPunctAt(const std::vector<CodeToken>& tokens, std::size_t i, char c);
// True if tokens[i] is the name `name`.
bool IsNameAt(const std::vector<CodeToken>& tokens, std::size_t i,
              std::string_view name);
// True if tokens[i] is a string with a statically known value.
bool IsConstantStringAt(const std::vector<CodeToken>& tokens, std::size_t i);
// True if tokens[i] is a constant string that is a whole call argument:
// the next token is ',' or the closing `close`.
bool IsStringArgumentAt(const std::vector<CodeToken>& tokens, std::size_t i,
                        char close = ')');
// True if the names and punctuators from tokens[i] on spell `words` (each
// word one token; "::" is written as two ":" words).
bool TokensSpell(const std::vector<CodeToken>& tokens, std::size_t i,
                 std::initializer_list<std::string_view> words);

// Calls look at most this many tokens of their arguments (to skip a first
// argument, or to find flag names): a bound that keeps extraction linear
// when matched calls nest in each other's arguments.
inline constexpr std::size_t kMaxArgumentTokens = 256;

// Index of the ',' or ')' (or ']' / '}') that ends the call argument
// starting at `begin`, at nesting depth 0; tokens.size() if not found
// within kMaxArgumentTokens.
std::size_t ArgumentEnd(const std::vector<CodeToken>& tokens,
                        std::size_t begin);
// The names among the remaining arguments of a call, from `begin` up to the
// call's closing parenthesis (at most kMaxArgumentTokens tokens): where flag
// constants such as Pattern.CASE_INSENSITIVE are spelled.
std::vector<std::string_view> NamesInRestOfCall(
    const std::vector<CodeToken>& tokens, std::size_t begin);

// The extractors fill pattern, flags, dialect, offset, call, informational;
// ExtractRegexLiterals adds line, column and suppression.
std::vector<RegexLiteral> ExtractPython(std::string_view source);
std::vector<RegexLiteral> ExtractJavaScript(std::string_view source);
std::vector<RegexLiteral> ExtractGo(std::string_view source);
std::vector<RegexLiteral> ExtractCpp(std::string_view source);
std::vector<RegexLiteral> ExtractJava(std::string_view source);
std::vector<RegexLiteral> ExtractKotlin(std::string_view source);
std::vector<RegexLiteral> ExtractRuby(std::string_view source);
std::vector<RegexLiteral> ExtractPhp(std::string_view source);
std::vector<RegexLiteral> ExtractRust(std::string_view source);
std::vector<RegexLiteral> ExtractCSharp(std::string_view source);

// The suppression ("regexguard: ignore <reason>") that applies to code at
// `offset`: on its line, or alone in a comment on the line before, as
// ExtractRegexLiterals applies it to literals.
std::optional<std::string> SuppressionAt(std::string_view source,
                                         std::size_t offset);

// The token streams the extractors read, for the regex-injection finder
// (src/taint/), which follows values through the code around the calls.
// Python's strings are kString (constant false for f-strings), its
// operators kPunct.
std::vector<CodeToken> LexPython(std::string_view source);
std::vector<CodeToken> LexJavaScript(std::string_view source);
std::vector<CodeToken> LexGo(std::string_view source);
std::vector<CodeToken> LexJava(std::string_view source);
std::vector<CodeToken> LexKotlin(std::string_view source);
std::vector<CodeToken> LexRuby(std::string_view source);
std::vector<CodeToken> LexPhp(std::string_view source);
std::vector<CodeToken> LexCSharp(std::string_view source);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_EXTRACT_INTERNAL_H_
