// What the extractors' lexers share (extract_*.cc): the scanning loop and
// the steps every C-family lexer takes the same way -- line and block
// comments, quoted runs with backslash escapes (character literals, plain
// strings), names and numbers, one-character punctuators -- and the
// skeleton and digit readers of string escape decoding. Each language's
// lexer derives from CodeLexer, keeps its own Step() for the order and the
// constructs that are its own (raw strings, templates, heredocs, ...), and
// calls these for the rest. Private to the library.
//
// Bounds: every step moves forward; the whole lexing is linear in the
// source (searches for a terminator start where the construct starts and
// are done once).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_CODE_LEXER_H_
#define ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_CODE_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {

class CodeLexer {
 public:
  CodeLexer(const CodeLexer&) = delete;
  CodeLexer& operator=(const CodeLexer&) = delete;
  virtual ~CodeLexer() = default;

  // Languages inherit this constructor (`using CodeLexer::CodeLexer`).
  explicit CodeLexer(std::string_view source) : source_(source) {}

  // The tokens of the whole source. An unterminated construct (string,
  // comment, ...) stops the lexing: the rest of the source is skipped.
  std::vector<CodeToken> Run();

 protected:
  // Where lexing starts (PHP skips inline HTML); false: no tokens at all.
  virtual bool Begin() { return true; }
  // Lexes or skips one construct at pos_ (pos_ < size); false when it is
  // unterminated.
  virtual bool Step() = 0;

  // The character `ahead` places after pos_, or '\0' past the end.
  char Peek(std::size_t ahead = 0) const {
    return pos_ + ahead < source_.size() ? source_[pos_ + ahead] : '\0';
  }
  bool AtLineComment() const { return Peek() == '/' && Peek(1) == '/'; }
  bool AtBlockComment() const { return Peek() == '/' && Peek(1) == '*'; }
  // Moves pos_ to the line break that ends this line (or the end).
  void SkipToLineEnd();
  // At "/*": moves past the closing "*/"; with `nested`, "/*" inside opens
  // another level (Rust, Kotlin). False when unterminated.
  bool SkipBlockComment(bool nested);
  // At a // or /* comment or a byte among `spaces`: skips it and returns
  // true, with *ok false when the comment is unterminated. Elsewhere
  // returns false and does nothing.
  bool SkipCommentOrSpace(std::string_view spaces, bool nested, bool* ok);

  // The index of the quote that closes the quoted run opening at `open`
  // (the same character as source_[open]) on the same line, skipping
  // backslash escapes; npos when the line or the source ends first.
  std::size_t QuotedRunEnd(std::size_t open) const;
  // At a character literal 'x': one kNumber token (an operand). False when
  // it has no closing quote on its line.
  bool LexCharacterLiteral();

  // Pushes the string token that `scan(&token)` reads at pos_ (moving
  // pos_ past it); false when the string is unterminated.
  template <typename Scan>
  bool LexStringToken(const Scan& scan) {
    CodeToken token;
    token.kind = CodeTokenKind::kString;
    token.offset = pos_;
    if (!scan(&token)) return false;
    PushToken(std::move(token));
    return true;
  }

  // The end of the run of identifier bytes (and bytes among `extra`) that
  // starts at `from`.
  std::size_t WordEnd(std::size_t from, std::string_view extra = {}) const;
  // Pushes source_[begin, pos_) as a kNumber token when it starts with a
  // digit, else as a kName token.
  void PushWord(std::size_t begin);
  // Pushes source_[pos_] as a one-character punctuator and moves past it.
  void PushPunct();
  void Push(CodeTokenKind kind, std::string text, std::size_t offset) {
    PushToken({kind, std::move(text), offset, true, ""});
  }
  // Every token goes through here (C++ joins adjacent string literals).
  virtual void PushToken(CodeToken token) {
    tokens_.push_back(std::move(token));
  }

  std::string_view source_;
  std::size_t pos_ = 0;
  std::vector<CodeToken> tokens_;
};

// What a nested-string skipper says about the position it is shown.
enum class NestedString { kNone, kSkipped, kFailed };

// The '}' closing the interpolation hole ("${...}", "#{...}") of `source`
// whose opening is at `open`, at brace depth 0, with `skip_string(&i)`
// stepping over each nested string (kSkipped, i past it) or failing on one
// (kFailed); npos when unterminated or a nested string fails.
template <typename SkipString>
std::size_t InterpolationEnd(std::string_view source, std::size_t open,
                             const SkipString& skip_string) {
  int braces = 0;
  std::size_t i = open + 1;
  while (i < source.size()) {
    const NestedString nested = skip_string(&i);
    if (nested == NestedString::kFailed) return std::string_view::npos;
    if (nested == NestedString::kSkipped) continue;
    if (source[i] == '{') ++braces;
    if (source[i] == '}' && --braces == 0) return i;
    ++i;
  }
  return std::string_view::npos;
}

// Decodes the backslash escapes of a string body. A backslash before one
// of `self_escaping` (such as \\ \" \') gives that character; otherwise
// `escape(body, &i, &out)` is called with body[i] the character after the
// backslash: it appends the escape's value, leaves i on the escape's last
// character and returns true, or returns false to keep the backslash and
// the character as written. A backslash at the very end is kept.
template <typename Escape>
std::string DecodeBackslashEscapes(std::string_view body,
                                   std::string_view self_escaping,
                                   const Escape& escape) {
  std::string out;
  for (std::size_t i = 0; i < body.size(); ++i) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out.push_back(body[i]);
      continue;
    }
    ++i;
    if (self_escaping.find(body[i]) != std::string_view::npos) {
      out.push_back(body[i]);
      continue;
    }
    if (escape(body, &i, &out)) continue;
    out.push_back('\\');
    out.push_back(body[i]);
  }
  return out;
}

// Single-quoted strings of PHP and Ruby know only \\ and \'.
std::string DecodeSingleQuoted(std::string_view body);

// The white space of most C-family languages: C's isspace in the "C" locale.
inline constexpr std::string_view kAsciiSpaces = " \t\n\r\f\v";

// Exactly `count` hex digits at body[begin...] into *value; false (value
// unspecified) when fewer follow.
bool ReadHexDigits(std::string_view body, std::size_t begin, std::size_t count,
                   char32_t* value);
// The escape at text[*i] (its letter) followed by exactly `digits` hex
// digits: appends that code point in UTF-8, leaves *i on the last digit
// and returns true; false, changing nothing, when fewer digits follow.
bool AppendHexEscape(std::string_view text, std::size_t* i, std::size_t digits,
                     std::string* out);
// Up to `max_digits` octal digits at body[begin...] into *value; the number
// of digits read (0 when none).
std::size_t ReadOctalDigits(std::string_view body, std::size_t begin,
                            std::size_t max_digits, char32_t* value);
// The braced code point of a \u{...} escape whose '{' is at `brace`: true
// with *value and *close (the index of '}') when one to a few hex digits
// (and, with `underscores`, '_' separators as in Rust) name a code point.
bool ReadBracedCodePoint(std::string_view body, std::size_t brace,
                         bool underscores, char32_t* value, std::size_t* close);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_CODE_LEXER_H_
