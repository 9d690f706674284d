// Regex dialects regexguard parses, and the pattern flags (`imsxu`).
//
// The dialect decides the syntax accepted (e.g. `(?P<n>...)` for Python,
// `\u{...}` for JavaScript with the `u` flag, possessive quantifiers for
// PCRE/Java) and the meaning of some constructs (`$` is end-of-text in
// JavaScript but also matches before a final newline in PCRE, Python and Java;
// `^`/`$` are always line anchors in Ruby; `.` excludes `\r` in JavaScript and
// Java). It also decides which PCRE2 configuration models the engine: PCRE and
// PHP get PCRE2 as shipped; Python, JavaScript, Java, Ruby and .NET get the
// naive backtracker (no auto-possessification, no start-of-match
// optimisations); Go uses RE2 and cannot backtrack at all.
//
// Thread safety: free functions on values; thread-safe.
#ifndef ROBOTSCAN_REGEXGUARD_DIALECT_H_
#define ROBOTSCAN_REGEXGUARD_DIALECT_H_

#include <optional>
#include <string>
#include <string_view>

#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard {

enum class Dialect {
  kPcre,  // PCRE2 / PHP preg_* (the default)
  kPython,
  kJavaScript,
  kJava,
  kRuby,
  kGo,
  kDotNet,
};

// "pcre" (also "php"), "python", "javascript" (also "js"), "java", "ruby",
// "go" (also "re2"), "dotnet" (also ".net", "csharp").
std::optional<Dialect> DialectFromName(std::string_view name);
std::string_view DialectName(Dialect dialect);

// True for engines that never backtrack (Go/RE2): no pattern can explode.
bool IsLinearTimeEngine(Dialect dialect);

struct PatternFlags {
  bool case_insensitive = false;  // i
  bool multiline = false;         // m: ^ and $ match at line breaks
  bool dot_all = false;           // s: . matches newlines
  bool extended = false;          // x: whitespace and # comments ignored
  // u: JavaScript unicode mode (also full Unicode case folding); Java
  // UNICODE_CASE.
  bool unicode = false;
  // a: ASCII-only case folding: Python re.ASCII and bytes patterns.
  bool ascii = false;
  // g: the pattern is used for all matches (global replace, split,
  // matchAll, finditer). Does not change parsing; the analysis then counts
  // the work of the whole match iteration, where `^\s*|\s*$` is quadratic.
  bool global = false;
  // l: JavaScript only, V8's linear engine (the `l` flag, accepted by Node
  // >= 16 under --enable-experimental-regexp-engine): the pattern never
  // backtracks, or V8 refuses it (engine_versions.h).
  bool linear = false;
};

// Parses flag letters among "imsxuagl"; anything else is an kInvalidArgument
// error naming the letter.
Result<PatternFlags> ParseFlagLetters(std::string_view letters);

// The inverse: the set flags' letters in the order "imsxuagl".
std::string PatternFlagLetters(const PatternFlags& flags);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_DIALECT_H_
