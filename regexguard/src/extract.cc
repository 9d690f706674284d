// Language dispatch, locations and suppression comments for extracted regex
// literals.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "extract_internal.h"
#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

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
  }
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
  for (RegexLiteral& literal : literals) {
    const auto it = std::upper_bound(line_starts.begin(), line_starts.end(),
                                     literal.offset);
    const auto index = static_cast<std::size_t>(it - line_starts.begin()) - 1;
    literal.line = index + 1;
    literal.column = literal.offset - line_starts[index] + 1;
    literal.suppression = SuppressionOnLine(line_text(index));
    // The line before counts only when it is a comment alone: a marker
    // after code there suppresses that code, not the next line.
    if (!literal.suppression && index > 0 &&
        IsCommentOnlyLine(line_text(index - 1))) {
      literal.suppression = SuppressionOnLine(line_text(index - 1));
    }
  }
  return literals;
}

}  // namespace robotscan::regexguard
