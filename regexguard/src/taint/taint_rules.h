// What the regex-injection finder (injection.h) knows of each language:
// where request values come from, which calls compile their argument as a
// regex, which calls escape it, and how the language scopes variables.
// Every source, sink and sanitizer is spelled as the language writes it
// ("req.query", "re.compile(", "$_GET") and lexed by the language's own
// lexer, so a spelling matches exactly the tokens of the code it names.
// Private to the library.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_TAINT_TAINT_RULES_H_
#define ROBOTSCAN_REGEXGUARD_SRC_TAINT_TAINT_RULES_H_

#include <optional>
#include <span>
#include <string_view>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard::internal {

struct SinkRule {
  std::string_view spelling;  // up to the call's "(": "re.compile("
  std::string_view name;      // as reported: "re.compile"
  int argument = 0;           // which argument is the pattern; -1: the receiver
                              // (Kotlin's `q.toRegex()`)
  int min_arguments = 1;      // fewer arguments: not this call
};

// How variables live. Braces: `{` opens a scope unless the statement it
// ends is a control statement (if, for, while, ...), whose blocks share the
// function's variables. Indentation: Python's def and class bodies. Ruby:
// def, class and module up to their `end`.
enum class ScopeStyle { kBraces, kIndentation, kRubyEnd };

// Which name of a parameter declaration is the parameter: the last one
// (Java `String q`), the first (JavaScript `q = 1`, TypeScript `q: string`,
// Python, Go `q string`), or the `$` one (PHP `string $q`).
enum class ParameterName { kLast, kFirst, kDollar };

struct TaintRules {
  std::span<const std::string_view> sources;
  std::span<const SinkRule> sinks;
  // Calls whose result carries no regex syntax of the input: escapes and
  // conversions to numbers ("re.escape(", "parseInt(").
  std::span<const std::string_view> sanitizers;
  // Members that do the same on the value before them: ".to_i", ".length".
  std::span<const std::string_view> sanitizing_members;
  // Parameter annotations and attributes that make a parameter a request
  // value: "@RequestParam", "[FromQuery".
  std::span<const std::string_view> parameter_sources;
  // Keywords whose statement's block is not a scope of its own.
  std::span<const std::string_view> control_keywords;
  // Keywords that declare the name after them in the innermost scope.
  std::span<const std::string_view> declaration_keywords;
  std::string_view escape_with;  // named in the finding's advice
  Dialect dialect = Dialect::kPcre;
  bool linear_engine = false;  // the sinks' engine cannot backtrack
  bool statements_end_at_line_breaks = false;
  bool dot_is_concatenation = false;  // PHP: `.` joins strings
  ScopeStyle scopes = ScopeStyle::kBraces;
  ParameterName parameter_name = ParameterName::kFirst;
  // Every assignment declares in the innermost scope (Python, Ruby): a
  // function's assignment never changes an enclosing function's variable.
  bool assignment_declares = false;
  // The name a method calls its own object by ("this", "self", "$this"):
  // `this.x` is a field, followed from method to method within the file.
  // Empty where there is none (Go names its receivers; Ruby writes `@x`).
  std::string_view object_name;
  bool fields_start_with_at = false;  // Ruby: `@x` is a field
  // The names of constructors that are not named after their class
  // ("constructor", "__init__"); a call `new C(...)` / `C(...)` /
  // `C.new(...)` reaches them.
  std::span<const std::string_view> constructor_names;
  // Anonymous functions: Java `x -> ...`, Kotlin `{ x -> ... }`
  // and `{ ... it ... }`, Python `lambda x: ...`, PHP `fn ($x) => ...`,
  // Ruby blocks `{ |x| ... }` / `do |x| ... end` (JavaScript and C# arrow
  // functions and function expressions are found with the braces).
  bool arrow_lambdas = false;        // `x -> ...` (Java)
  bool brace_lambdas = false;        // Kotlin `{ x -> ... }`, `{ it }`
  bool python_lambdas = false;       // `lambda x: ...`
  bool php_arrow_functions = false;  // `fn ($x) => ...`
  bool ruby_blocks = false;          // `{ |x| ... }`, `do |x| ... end`
};

// nullopt for languages the finder does not cover.
std::optional<TaintRules> TaintRulesFor(SourceLanguage language);

// A function name that says it escapes regex syntax: escapeRegExp,
// escape_regex, regexEscape, ... (case-insensitive "escape" and "reg").
bool IsRegexEscapeName(std::string_view name);

// Modules whose export escapes regex syntax, as JavaScript imports them:
// `const e = require('escape-string-regexp')`, `import e from '...'`.
bool IsRegexEscapeModule(std::string_view module);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_TAINT_TAINT_RULES_H_
