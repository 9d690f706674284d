// Ruby regex literal extraction: a lexer that tells a /.../ regex from a
// division by the previous token (and by the spacing Ruby itself looks at
// after a method name), knows %r and the other %-literals, heredocs,
// =begin/=end and # comments, and treats #{...} interpolation as making a
// string or regex non-constant; then Regexp.new("...") calls.
#include <algorithm>
#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "extract/code_lexer.h"
#include "extract/extract_internal.h"

namespace robotscan::regexguard::internal {
namespace {

// Interpolations nest strings; deeper nesting than this stops the lexer
// (the rest of the file is skipped) instead of growing the stack.
constexpr int kMaxInterpolationDepth = 32;

// Double-quoted string escapes; an unknown escape is the character itself
// ("\d" is "d"), as in Ruby.
std::string DecodeDoubleQuoted(std::string_view body) {
  return DecodeBackslashEscapes(
      body, "", [](std::string_view text, std::size_t* i, std::string* out) {
        const char c = text[*i];
        if (AppendControlEscape(c, "abfnrtv", out)) return true;
        char32_t value = 0;
        switch (c) {
          case '\n':
            return true;  // line continuation
          case 'e':
            out->push_back('\x1b');
            return true;
          case 's':
            out->push_back(' ');
            return true;
          case 'x': {
            std::size_t k = *i + 1;
            while (k < text.size() && k < *i + 3 && IsAsciiHexDigit(text[k])) {
              value = value * 16 + static_cast<char32_t>(HexValue(text[k]));
              ++k;
            }
            if (k == *i + 1) return false;  // invalid in Ruby; keep as written
            AppendUtf8(value, out);
            *i = k - 1;
            return true;
          }
          case 'u': {
            if (*i + 1 < text.size() && text[*i + 1] == '{') {
              // \u{41 42}: one or more code points separated by spaces.
              const std::size_t close = FindEscapeClose(text, *i + 2, 256);
              if (close == std::string_view::npos) return false;
              std::string decoded;
              bool in_digits = false;
              bool ok = true;
              for (std::size_t k = *i + 2; k <= close && ok; ++k) {
                if (k < close && IsAsciiHexDigit(text[k])) {
                  value = value * 16 + static_cast<char32_t>(HexValue(text[k]));
                  ok = value <= 0x10FFFF;
                  in_digits = true;
                } else if (k == close || text[k] == ' ' || text[k] == '\t') {
                  if (in_digits) AppendUtf8(value, &decoded);
                  value = 0;
                  in_digits = false;
                } else {
                  ok = false;
                }
              }
              if (!ok) return false;  // invalid in Ruby; keep as written
              *out += decoded;
              *i = close;
              return true;
            }
            return AppendHexEscape(text, i, 4, out);
          }
          default:
            if (c >= '0' && c <= '7') {
              *i += ReadOctalDigits(text, *i, 3, &value) - 1;
              AppendUtf8(value & 0xFF, out);
            } else {
              out->push_back(c);
            }
            return true;
        }
      });
}

bool IsKeywordBeforeExpression(std::string_view name) {
  for (std::string_view keyword :
       {"if",   "unless", "while", "until", "and",   "or",    "not",   "return",
        "when", "case",   "then",  "else",  "elsif", "do",    "begin", "yield",
        "in",   "puts",   "print", "p",     "raise", "break", "next"}) {
    if (name == keyword) return true;
  }
  return false;
}

char ClosingBracket(char open) {
  switch (open) {
    case '(':
      return ')';
    case '[':
      return ']';
    case '{':
      return '}';
    case '<':
      return '>';
    default:
      return open;
  }
}

struct Heredoc {
  std::string terminator;
  bool indented = false;  // <<~ or <<-: the terminator may be indented
};

class Lexer {
 public:
  explicit Lexer(std::string_view source) : source_(source) {}

  std::vector<CodeToken> Run() {
    while (pos_ < source_.size()) {
      if (!Step()) break;  // unterminated construct: skip the rest
    }
    return std::move(tokens_);
  }

 private:
  bool AtLineStart() const { return pos_ == 0 || source_[pos_ - 1] == '\n'; }

  void Push(CodeToken token) {
    // `name = ...` (not ==, =~, =>) makes `name` a local variable.
    const char after = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
    if (token.kind == CodeTokenKind::kPunct && token.text == "=" &&
        after != '=' && after != '~' && after != '>' && !tokens_.empty() &&
        tokens_.back().kind == CodeTokenKind::kName) {
      locals_.insert(tokens_.back().text);
    }
    tokens_.push_back(std::move(token));
    line_break_since_token_ = false;
  }

  bool Step() {
    const char c = source_[pos_];
    const char next = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
    if (AtLineStart() && source_.substr(pos_).starts_with("=begin") &&
        (pos_ + 6 >= source_.size() || IsAsciiSpace(source_[pos_ + 6]))) {
      const std::size_t end = source_.find("\n=end", pos_);
      if (end == std::string_view::npos) return false;
      pos_ = end + 5;
      while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
      return true;
    }
    if (AtLineStart() && source_.substr(pos_).starts_with("__END__") &&
        (pos_ + 7 >= source_.size() || source_[pos_ + 7] == '\n' ||
         source_[pos_ + 7] == '\r')) {
      return false;  // data section, not code
    }
    if (c == '#') {
      while (pos_ < source_.size() && source_[pos_] != '\n') ++pos_;
      return true;
    }
    if (c == '\n') {
      ++pos_;
      line_break_since_token_ = true;
      return SkipHeredocBodies();
    }
    if (IsAsciiSpace(c) || c == '\\') {
      ++pos_;
      return true;
    }
    if (c == '\'' || c == '"' || c == '`') {
      CodeToken token;
      token.kind = CodeTokenKind::kString;
      token.offset = pos_;
      std::size_t end = 0;
      if (!ScanDelimited(pos_ + 1, c, c, &end, &token.constant, 0)) {
        return false;
      }
      const std::string_view body = source_.substr(pos_ + 1, end - pos_ - 1);
      if (c == '`') token.constant = false;  // a command, not a string
      if (token.constant) {
        token.text =
            c == '\'' ? DecodeSingleQuoted(body) : DecodeDoubleQuoted(body);
      }
      Push(std::move(token));
      pos_ = end + 1;
      return true;
    }
    const bool operand_expected = OperandExpected();
    if (c == '/' && operand_expected) return LexRegex(pos_, pos_ + 1, '/');
    if (c == '%' && operand_expected) return LexPercentLiteral();
    if (c == '?' && operand_expected && next != '\0' && !IsAsciiSpace(next) &&
        (pos_ + 2 >= source_.size() || !IsIdentifierByte(source_[pos_ + 2]))) {
      Push({CodeTokenKind::kNumber, "", pos_, true, ""});  // ?a
      pos_ += 2;
      return true;
    }
    if (c == '<' && next == '<' && LexHeredocStart(operand_expected)) {
      return true;
    }
    if (c == '$' && next != '\0' && !IsIdentifierByte(next)) {
      Push({CodeTokenKind::kName, std::string(source_.substr(pos_, 2)), pos_,
            true, ""});  // $/ $~ ...
      pos_ += 2;
      return true;
    }
    if (IsIdentifierByte(c) || c == '@' || c == '$') {
      const std::size_t begin = pos_;
      const bool number = IsAsciiDigit(c);
      ++pos_;
      while (pos_ < source_.size() &&
             (IsIdentifierByte(source_[pos_]) || source_[pos_] == '@' ||
              (number && source_[pos_] == '.' && pos_ + 1 < source_.size() &&
               source_[pos_ + 1] >= '0' && source_[pos_ + 1] <= '9'))) {
        ++pos_;
      }
      // gsub!, match?: the suffix is part of the method name (not `!=`).
      if (!number && pos_ < source_.size() &&
          (source_[pos_] == '!' || source_[pos_] == '?') &&
          (pos_ + 1 >= source_.size() || source_[pos_ + 1] != '=')) {
        ++pos_;
      }
      Push({number ? CodeTokenKind::kNumber : CodeTokenKind::kName,
            std::string(source_.substr(begin, pos_ - begin)), begin, true, ""});
      return true;
    }
    Push({CodeTokenKind::kPunct, std::string(1, c), pos_, true, ""});
    ++pos_;
    return true;
  }

  // A `/` or `%` starts a literal where an operand is expected: at the
  // start, after an operator or an opening bracket, after a keyword, or
  // after a method name when a space precedes the `/` and none follows
  // (`puts /x/`, which Ruby also reads as an argument).
  bool OperandExpected() const {
    // A line break after an operand ends the statement; a new one starts.
    if (tokens_.empty() || line_break_since_token_) return true;
    const CodeToken& prev = tokens_.back();
    switch (prev.kind) {
      case CodeTokenKind::kName: {
        if (IsKeywordBeforeExpression(prev.text)) return true;
        // Ruby reads `/` after a known local variable as a division.
        if (locals_.contains(prev.text)) return false;
        const bool space_before = pos_ > 0 && IsAsciiSpace(source_[pos_ - 1]);
        const bool space_after = pos_ + 1 >= source_.size() ||
                                 IsAsciiSpace(source_[pos_ + 1]) ||
                                 source_[pos_ + 1] == '=';
        return space_before && !space_after && prev.text[0] != '@' &&
               prev.text[0] != '$';
      }
      case CodeTokenKind::kNumber:
      case CodeTokenKind::kString:
      case CodeTokenKind::kTemplate:
      case CodeTokenKind::kRegex:
        return false;
      case CodeTokenKind::kPunct:
        return prev.text != ")" && prev.text != "]" && prev.text != "}";
    }
    return true;
  }

  // Scans a literal body from `i` to its unescaped closing delimiter,
  // counting nested brackets when open != close. Interpolations (#{...},
  // #@var, #$var) clear *constant; single quotes have none.
  bool ScanDelimited(std::size_t i, char open, char close, std::size_t* end,
                     bool* constant, int depth) {
    int nesting = 0;
    while (i < source_.size()) {
      const char c = source_[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '#' && open != '\'' && i + 1 < source_.size() &&
          (source_[i + 1] == '{' || source_[i + 1] == '@' ||
           source_[i + 1] == '$')) {
        *constant = false;
        if (source_[i + 1] == '{') {
          if (!SkipInterpolation(&i, depth)) return false;
          continue;
        }
      }
      if (c == close && nesting == 0) {
        *end = i;
        return true;
      }
      if (open != close && c == open) ++nesting;
      if (open != close && c == close) --nesting;
      ++i;
    }
    return false;
  }

  // From `#{` at *pos to just past its `}`, skipping nested strings.
  bool SkipInterpolation(std::size_t* pos, int depth) {
    if (depth >= kMaxInterpolationDepth) return false;
    const std::size_t close =
        InterpolationEnd(source_, *pos, [&](std::size_t* i) {
          const char c = source_[*i];
          if (c != '"' && c != '\'') return NestedString::kNone;
          std::size_t end = 0;
          bool constant = true;
          if (!ScanDelimited(*i + 1, c, c, &end, &constant, depth + 1)) {
            return NestedString::kFailed;
          }
          *i = end + 1;
          return NestedString::kSkipped;
        });
    if (close == std::string_view::npos) return false;
    *pos = close + 1;
    return true;
  }

  // A regex whose body starts at `body` and ends at `close`; flags follow.
  bool LexRegex(std::size_t begin, std::size_t body, char open) {
    const char close = ClosingBracket(open);
    CodeToken token;
    token.kind = CodeTokenKind::kRegex;
    token.offset = begin;
    std::size_t end = 0;
    if (!ScanDelimited(body, open, close, &end, &token.constant, 0)) {
      return false;
    }
    token.text = std::string(source_.substr(body, end - body));
    std::size_t flags_end = end + 1;
    while (flags_end < source_.size() && source_[flags_end] >= 'a' &&
           source_[flags_end] <= 'z') {
      ++flags_end;
    }
    token.flags = std::string(source_.substr(end + 1, flags_end - end - 1));
    Push(std::move(token));
    pos_ = flags_end;
    return true;
  }

  // %r{...}flags, and the string-like %q %Q %w %W %i %I %s %x %(...) forms,
  // which are skipped as non-constant strings.
  bool LexPercentLiteral() {
    std::size_t i = pos_ + 1;
    char kind = 'Q';
    if (i < source_.size() && std::string_view("rqQwWiIsx").find(source_[i]) !=
                                  std::string_view::npos) {
      kind = source_[i++];
    }
    if (i >= source_.size() || IsIdentifierByte(source_[i]) ||
        IsAsciiSpace(source_[i])) {
      Push({CodeTokenKind::kPunct, "%", pos_, true, ""});
      ++pos_;
      return true;
    }
    const char open = source_[i];
    if (kind == 'r') return LexRegex(pos_, i + 1, open);
    std::size_t end = 0;
    bool constant = true;
    if (!ScanDelimited(i + 1, open, ClosingBracket(open), &end, &constant, 0)) {
      return false;
    }
    Push({CodeTokenKind::kString, "", pos_, false, ""});
    pos_ = end + 1;
    return true;
  }

  // <<~ID, <<-ID, <<ID, with optional quotes around ID. Without ~ or - or
  // quotes, only an upper-case ID where an operand is expected is taken
  // (otherwise `<<` is the append operator). The body is skipped at the
  // next line break.
  bool LexHeredocStart(bool operand_expected) {
    std::size_t i = pos_ + 2;
    Heredoc heredoc;
    if (i < source_.size() && (source_[i] == '~' || source_[i] == '-')) {
      heredoc.indented = true;
      ++i;
    }
    char quote = '\0';
    if (i < source_.size() &&
        (source_[i] == '\'' || source_[i] == '"' || source_[i] == '`')) {
      quote = source_[i++];
    }
    const std::size_t id_begin = i;
    bool upper = true;
    while (i < source_.size() && IsIdentifierByte(source_[i])) {
      upper = upper && !(source_[i] >= 'a' && source_[i] <= 'z');
      ++i;
    }
    if (i == id_begin || IsAsciiDigit(source_[id_begin])) {
      return false;
    }
    if (quote != '\0') {
      if (i >= source_.size() || source_[i] != quote) return false;
      ++i;
    } else if (!heredoc.indented && !(upper && operand_expected)) {
      return false;
    }
    heredoc.terminator =
        std::string(source_.substr(id_begin, i - id_begin - (quote ? 1 : 0)));
    pending_heredocs_.push_back(std::move(heredoc));
    Push({CodeTokenKind::kString, "", pos_, false, ""});
    pos_ = i;
    return true;
  }

  // At the start of a line: skips the bodies of the heredocs opened on the
  // line before, each up to its terminator line.
  bool SkipHeredocBodies() {
    for (const Heredoc& heredoc : pending_heredocs_) {
      while (true) {
        if (pos_ >= source_.size()) return false;
        std::size_t line_end = source_.find('\n', pos_);
        if (line_end == std::string_view::npos) line_end = source_.size();
        std::string_view line = source_.substr(pos_, line_end - pos_);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        while (heredoc.indented && !line.empty() &&
               (line.front() == ' ' || line.front() == '\t')) {
          line.remove_prefix(1);
        }
        pos_ = std::min(line_end + 1, source_.size());
        if (line == heredoc.terminator) break;
      }
    }
    pending_heredocs_.clear();
    return true;
  }

  std::string_view source_;
  std::size_t pos_ = 0;
  std::vector<Heredoc> pending_heredocs_;
  std::vector<CodeToken> tokens_;
  bool line_break_since_token_ = false;
  std::set<std::string> locals_;  // assigned names seen so far
};

// Ruby's option letters: m makes `.` match newlines (Ruby's ^ and $ always
// match at line breaks); o, u, e, s, n do not change the analysis.
PatternFlags FlagsFromLetters(std::string_view letters) {
  PatternFlags flags;
  for (char c : letters) {
    if (c == 'i') flags.case_insensitive = true;
    if (c == 'm') flags.dot_all = true;
    if (c == 'x') flags.extended = true;
  }
  return flags;
}

// `s.gsub(/re/, ...)`, `s.scan /re/`, `s.split(/re/)` use the regex for
// every match in the subject.
bool IsGlobalCallArgument(const std::vector<CodeToken>& tokens, std::size_t i) {
  if (i < 2) return false;
  std::size_t method = i - 1;
  if (IsPunctAt(tokens, method, '(')) --method;
  if (method < 1 || tokens[method].kind != CodeTokenKind::kName ||
      !IsPunctAt(tokens, method - 1, '.')) {
    return false;
  }
  const std::string& name = tokens[method].text;
  return name == "gsub" || name == "gsub!" || name == "scan" || name == "split";
}

}  // namespace

std::vector<CodeToken> LexRuby(std::string_view source) {
  return Lexer(source).Run();
}

std::vector<RegexLiteral> ExtractRuby(std::string_view source) {
  const std::vector<CodeToken> tokens = Lexer(source).Run();
  std::vector<RegexLiteral> literals;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    RegexLiteral literal;
    literal.dialect = Dialect::kRuby;
    std::size_t pattern = i;
    if (tokens[i].kind == CodeTokenKind::kRegex && tokens[i].constant) {
      literal.flags = FlagsFromLetters(tokens[i].flags);
      literal.call =
          (source[tokens[i].offset] == '%' ? "%r" : "/.../") + tokens[i].flags;
    } else if (IsNameAt(tokens, i, "Regexp") && IsPunctAt(tokens, i + 1, '.') &&
               (IsNameAt(tokens, i + 2, "new") ||
                IsNameAt(tokens, i + 2, "compile")) &&
               IsPunctAt(tokens, i + 3, '(') &&
               IsStringArgumentAt(tokens, i + 4)) {
      pattern = i + 4;
      for (std::string_view name : NamesInRestOfCall(tokens, i + 5)) {
        if (name == "IGNORECASE" || name == "true") {
          literal.flags.case_insensitive = true;
        }
        if (name == "MULTILINE") literal.flags.dot_all = true;
        if (name == "EXTENDED") literal.flags.extended = true;
      }
      literal.call = "Regexp." + tokens[i + 2].text;
    } else {
      continue;
    }
    if (IsGlobalCallArgument(tokens, i)) literal.flags.global = true;
    literal.pattern = tokens[pattern].text;
    literal.offset = tokens[pattern].offset;
    literals.push_back(std::move(literal));
    i = pattern;
  }
  return literals;
}

}  // namespace robotscan::regexguard::internal
