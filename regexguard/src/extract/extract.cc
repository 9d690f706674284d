// Language dispatch, locations and suppression comments for extracted regex
// literals.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract/extract_internal.h"
#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

constexpr std::size_t kMaxReasonBytes = 200;

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

// The reason after "regexguard: ignore" on `line_text`, if the marker is
// there. A trailing "*/" or "-->" closing the comment is not part of it.
std::optional<std::string> SuppressionOnLine(std::string_view line_text) {
  constexpr std::string_view kMarker = "regexguard: ignore";
  const std::size_t at = line_text.find(kMarker);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view reason = line_text.substr(at + kMarker.size());
  for (std::string_view closer : {"*/", "-->"}) {
    const std::size_t close = reason.find(closer);
    if (close != std::string_view::npos) reason = reason.substr(0, close);
  }
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == ':';
  };
  while (!reason.empty() && is_space(reason.front())) reason.remove_prefix(1);
  // A reason is a short note; the bound keeps copying it to every literal
  // of a long line linear.
  reason = reason.substr(0, kMaxReasonBytes);
  while (!reason.empty() && is_space(reason.back())) reason.remove_suffix(1);
  return std::string(reason);
}

bool IsCommentOnlyLine(std::string_view line_text) {
  while (!line_text.empty() &&
         (line_text.front() == ' ' || line_text.front() == '\t')) {
    line_text.remove_prefix(1);
  }
  return line_text.starts_with("#") || line_text.starts_with("//") ||
         line_text.starts_with("/*") || line_text.starts_with("*");
}

}  // namespace

std::string_view SourceLanguageName(SourceLanguage language) {
  switch (language) {
    case SourceLanguage::kPython:
      return "python";
    case SourceLanguage::kJavaScript:
      return "javascript";
    case SourceLanguage::kGo:
      return "go";
    case SourceLanguage::kCpp:
      return "cpp";
    case SourceLanguage::kJava:
      return "java";
    case SourceLanguage::kKotlin:
      return "kotlin";
    case SourceLanguage::kRuby:
      return "ruby";
    case SourceLanguage::kPhp:
      return "php";
    case SourceLanguage::kRust:
      return "rust";
    case SourceLanguage::kCSharp:
      return "csharp";
  }
  return "unknown";
}

std::optional<SourceLanguage> LanguageForPath(std::string_view path) {
  for (std::string_view ext : {".py", ".pyi"}) {
    if (EndsWith(path, ext)) return SourceLanguage::kPython;
  }
  for (std::string_view ext :
       {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"}) {
    if (EndsWith(path, ext)) return SourceLanguage::kJavaScript;
  }
  if (EndsWith(path, ".go")) return SourceLanguage::kGo;
  for (std::string_view ext :
       {".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"}) {
    if (EndsWith(path, ext)) return SourceLanguage::kCpp;
  }
  if (EndsWith(path, ".java")) return SourceLanguage::kJava;
  if (EndsWith(path, ".kt") || EndsWith(path, ".kts")) {
    return SourceLanguage::kKotlin;
  }
  if (EndsWith(path, ".rb")) return SourceLanguage::kRuby;
  if (EndsWith(path, ".php")) return SourceLanguage::kPhp;
  if (EndsWith(path, ".rs")) return SourceLanguage::kRust;
  if (EndsWith(path, ".cs")) return SourceLanguage::kCSharp;
  return std::nullopt;
}

std::vector<RegexLiteral> ExtractRegexLiterals(std::string_view source,
                                               SourceLanguage language) {
  std::vector<RegexLiteral> literals;
  switch (language) {
    case SourceLanguage::kPython:
      literals = internal::ExtractPython(source);
      break;
    case SourceLanguage::kJavaScript:
      literals = internal::ExtractJavaScript(source);
      break;
    case SourceLanguage::kGo:
      literals = internal::ExtractGo(source);
      break;
    case SourceLanguage::kCpp:
      literals = internal::ExtractCpp(source);
      break;
    case SourceLanguage::kJava:
      literals = internal::ExtractJava(source);
      break;
    case SourceLanguage::kKotlin:
      literals = internal::ExtractKotlin(source);
      break;
    case SourceLanguage::kRuby:
      literals = internal::ExtractRuby(source);
      break;
    case SourceLanguage::kPhp:
      literals = internal::ExtractPhp(source);
      break;
    case SourceLanguage::kRust:
      literals = internal::ExtractRust(source);
      break;
    case SourceLanguage::kCSharp:
      literals = internal::ExtractCSharp(source);
      break;
  }
  // A lexer reports a call's literal when it reads the call, so a call
  // nested in an earlier argument of another (Regex.Replace(Regex.Replace(
  // s, "a"), "b")) comes after it; callers rely on source order.
  std::stable_sort(literals.begin(), literals.end(),
                   [](const RegexLiteral& a, const RegexLiteral& b) {
                     return a.offset < b.offset;
                   });
  // Line starts once, then a binary search per literal: linear overall.
  std::vector<std::size_t> line_starts = {0};
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') line_starts.push_back(i + 1);
  }
  const auto line_text = [&](std::size_t index) {
    const std::size_t begin = line_starts[index];
    const std::size_t end = index + 1 < line_starts.size()
                                ? line_starts[index + 1] - 1
                                : source.size();
    return source.substr(begin, end - begin);
  };
  // Literals come in source order, so each line is searched for a marker
  // once, even when one long (minified) line holds many literals.
  std::size_t cached_index = std::string_view::npos;
  std::optional<std::string> cached_suppression;
  for (RegexLiteral& literal : literals) {
    const auto it = std::upper_bound(line_starts.begin(), line_starts.end(),
                                     literal.offset);
    const auto index = static_cast<std::size_t>(it - line_starts.begin()) - 1;
    literal.line = index + 1;
    literal.column = literal.offset - line_starts[index] + 1;
    if (index != cached_index) {
      cached_index = index;
      cached_suppression = SuppressionOnLine(line_text(index));
      // The line before counts only when it is a comment alone: a marker
      // after code there suppresses that code, not the next line.
      if (!cached_suppression && index > 0 &&
          IsCommentOnlyLine(line_text(index - 1))) {
        cached_suppression = SuppressionOnLine(line_text(index - 1));
      }
    }
    literal.suppression = cached_suppression;
  }
  return literals;
}

namespace internal {

std::optional<std::string> SuppressionAt(std::string_view source,
                                         std::size_t offset) {
  offset = std::min(offset, source.size());
  const std::size_t newline =
      offset == 0 ? std::string_view::npos : source.rfind('\n', offset - 1);
  const std::size_t begin = newline == std::string_view::npos ? 0 : newline + 1;
  const std::size_t end = std::min(source.find('\n', begin), source.size());
  if (auto here = SuppressionOnLine(source.substr(begin, end - begin))) {
    return here;
  }
  if (begin == 0) return std::nullopt;
  const std::size_t previous_end = begin - 1;  // its line break
  const std::size_t previous_newline =
      previous_end == 0 ? std::string_view::npos
                        : source.rfind('\n', previous_end - 1);
  const std::size_t previous_begin =
      previous_newline == std::string_view::npos ? 0 : previous_newline + 1;
  const std::string_view previous =
      source.substr(previous_begin, previous_end - previous_begin);
  if (!IsCommentOnlyLine(previous)) return std::nullopt;
  return SuppressionOnLine(previous);
}

bool IsPunctAt(const std::vector<CodeToken>& tokens, std::size_t i, char c) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kPunct &&
         tokens[i].text.size() == 1 && tokens[i].text[0] == c;
}

bool IsNameAt(const std::vector<CodeToken>& tokens, std::size_t i,
              std::string_view name) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kName &&
         tokens[i].text == name;
}

bool IsConstantStringAt(const std::vector<CodeToken>& tokens, std::size_t i) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kString &&
         tokens[i].constant;
}

bool IsStringArgumentAt(const std::vector<CodeToken>& tokens, std::size_t i,
                        char close) {
  return IsConstantStringAt(tokens, i) &&
         (IsPunctAt(tokens, i + 1, ',') || IsPunctAt(tokens, i + 1, close));
}

bool TokensSpell(const std::vector<CodeToken>& tokens, std::size_t i,
                 std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (i >= tokens.size() || tokens[i].text != word ||
        (tokens[i].kind != CodeTokenKind::kName &&
         tokens[i].kind != CodeTokenKind::kPunct)) {
      return false;
    }
    ++i;
  }
  return true;
}

std::size_t ArgumentEnd(const std::vector<CodeToken>& tokens,
                        std::size_t begin) {
  int depth = 0;
  const std::size_t limit = std::min(tokens.size(), begin + kMaxArgumentTokens);
  for (std::size_t i = begin; i < limit; ++i) {
    if (tokens[i].kind != CodeTokenKind::kPunct) continue;
    const char c = tokens[i].text[0];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return i;
      --depth;
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  return tokens.size();
}

std::vector<std::string_view> NamesInRestOfCall(
    const std::vector<CodeToken>& tokens, std::size_t begin) {
  std::vector<std::string_view> names;
  int depth = 0;
  const std::size_t limit = std::min(tokens.size(), begin + kMaxArgumentTokens);
  for (std::size_t i = begin; i < limit; ++i) {
    if (tokens[i].kind == CodeTokenKind::kName) {
      names.push_back(tokens[i].text);
    } else if (tokens[i].kind == CodeTokenKind::kPunct) {
      const char c = tokens[i].text[0];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) break;
        --depth;
      }
    }
  }
  return names;
}

}  // namespace internal
}  // namespace robotscan::regexguard
