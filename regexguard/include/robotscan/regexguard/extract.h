// Extraction of regex literals from source code, with their exact location
// and dialect, for `regexguard scan`.
//
// Each language has its own small lexer that knows its strings, comments
// and escapes, so a pattern is found only where the language really has one
// (never inside a comment, a docstring or an f-string) and is decoded
// exactly as the language's compiler decodes it: the Python source literal
// '\\d+' and r'\d+' both give the pattern `\d+`, while the JavaScript string
// "\d+" gives `d+`, as it does in a browser.
//
// Supported calls:
//   Python: re./regex. compile, match, search, fullmatch, sub, subn, split,
//     findall, finditer with a plain (raw, non-raw, byte, triple-quoted,
//     implicitly concatenated) string as first argument; re.I/M/S/X/A flags
//     named in the other arguments. f-strings are never taken.
//   JavaScript/TypeScript: /.../flags literals (told from division by the
//     previous significant token) and RegExp("...", "flags") with string
//     arguments. Template literals and comments are skipped.
//   Go: regexp.Compile/MustCompile/MatchString/CompilePOSIX/MustCompilePOSIX.
//     RE2 semantics: such literals are marked informational.
//
// Bounds: linear in the size of the source. Malformed source (unterminated
// strings) never fails the extraction: the rest of the file is skipped.
//
// Thread safety: free functions on values; thread-safe.
//
// Example:
//   for (const RegexLiteral& literal :
//        ExtractRegexLiterals(source, SourceLanguage::kPython)) {
//     AnalyzeOptions options;
//     options.parse.dialect = literal.dialect;
//     options.parse.flags = literal.flags;
//     AnalysisReport report = AnalyzePattern(literal.pattern, options);
//   }
#ifndef ROBOTSCAN_REGEXGUARD_EXTRACT_H_
#define ROBOTSCAN_REGEXGUARD_EXTRACT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"

namespace robotscan::regexguard {

enum class SourceLanguage {
  kPython,
  kJavaScript,
  kGo,
  kCpp,  // C and C++
  kJava,
  kKotlin,
  kRuby,
  kPhp,
  kRust,
  kCSharp,
};

std::string_view SourceLanguageName(SourceLanguage language);

// By file extension: .py/.pyi; .js/.mjs/.cjs/.jsx/.ts/.mts/.cts/.tsx; .go.
std::optional<SourceLanguage> LanguageForPath(std::string_view path);

struct RegexLiteral {
  std::string pattern;  // after the language's escape processing
  PatternFlags flags;   // flags.global: used for all matches (g, split, ...)
  Dialect dialect = Dialect::kPcre;
  // Where the literal starts (its prefix or opening quote/slash): 1-based
  // line and 1-based byte column, and the 0-based byte offset.
  std::size_t line = 0;
  std::size_t column = 0;
  std::size_t offset = 0;
  std::string call;  // how it is used: "re.compile", "/.../", "RegExp", ...
  // Each use tries one match at the subject start (Python re.match and
  // re.fullmatch, the JavaScript sticky flag y), not a search: the
  // search loop cannot add work.
  bool anchored = false;
  // True for engines that cannot backtrack (Go): report for information.
  bool informational = false;
  // Set when "regexguard: ignore <reason>" is on the literal's line or the
  // line before it; holds the reason (possibly empty).
  std::optional<std::string> suppression;
};

// All regex literals of `source`, in source order.
std::vector<RegexLiteral> ExtractRegexLiterals(std::string_view source,
                                               SourceLanguage language);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_EXTRACT_H_
