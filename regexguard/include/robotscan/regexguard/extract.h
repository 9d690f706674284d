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
// Supported calls (the dialect follows each engine's syntax; where the
// engine has no dialect of its own, the closest one is named and why):
//   Python: re./regex. compile, match, search, fullmatch, sub, subn, split,
//     findall, finditer with a plain (raw, non-raw, byte, triple-quoted,
//     implicitly concatenated) string as first argument; re.I/M/S/X/A flags
//     named in the other arguments. f-strings are never taken. The first
//     argument may also name a module-level constant (`PAT = r"..."` at the
//     start of a line, the name bound nowhere else in the file); such a
//     literal is reported at the constant's string, where the pattern is
//     written, fixed and suppressed, and `call` names the use. A constant
//     used by several calls gives one literal per call.
//   JavaScript/TypeScript: /.../flags literals (told from division by the
//     previous significant token) and RegExp("...", "flags") with string
//     arguments. Template literals and comments are skipped.
//   Go: regexp.Compile/MustCompile/MatchString/CompilePOSIX/MustCompilePOSIX.
//     RE2 semantics: such literals are marked informational.
//   C/C++: std::regex / std::wregex declarations, temporaries and brace
//     initialisations (`std::regex re("...")`, `std::regex{R"(...)"}`), with
//     std::regex::icase / multiline; boost::regex / boost::wregex (mod_x,
//     mod_s, no_mod_m); RE2 / re2::RE2 constructions and the RE2::FullMatch,
//     PartialMatch, Consume, FindAndConsume, Replace, GlobalReplace, Extract
//     pattern argument; pcre2_compile / pcre_compile (a cast before the
//     string is allowed) with PCRE2_CASELESS, MULTILINE, DOTALL, EXTENDED,
//     ANCHORED spelled in the call. Escapes, u8/u/U/L prefixes, raw strings,
//     line splices and adjacent-literal concatenation are decoded as the
//     compiler does. std::regex's default grammar is ECMAScript, so it gets
//     the JavaScript dialect (also for the POSIX grammar options, which
//     have no dialect here); boost::regex's default Perl syntax gets PCRE,
//     with ^ and $ matching at line breaks as in Boost; RE2 gets Go and is
//     informational. Literals passed to regex_replace or a regex iterator
//     (directly or through a variable declared in the file) are global;
//     those passed to regex_match are anchored.
//   Java: Pattern.compile("...", Pattern.CASE_INSENSITIVE | ...),
//     Pattern.matches (anchored), and .matches (anchored), .replaceAll,
//     .replaceFirst, .split (global: replaceAll, split) on any receiver.
//     Text blocks lose their incidental indentation as javac does.
//   Kotlin: Regex("...", RegexOption...), "...".toRegex(...) and
//     .toPattern(), Pattern.compile. Raw strings """...""" have no escapes;
//     strings with $name or ${...} templates are never taken. Kotlin's
//     String.split and replace take plain text and `.matches(s)` on a Regex
//     takes the subject, so those are not taken. Dialect java (Kotlin's
//     Regex is java.util.regex).
//   Ruby: /.../imx literals (told from division by the previous token, and
//     after a method name by the spacing Ruby itself uses: `puts /x/`),
//     %r{...}flags with any delimiter (brackets nest), Regexp.new/compile
//     with a string and Regexp::IGNORECASE/EXTENDED/MULTILINE. Ruby's m
//     flag makes `.` match newlines and is reported as dot_all. #{...}
//     interpolation makes a literal non-constant: skipped. Heredocs,
//     %-strings and =begin/=end comments are skipped. A literal passed to
//     gsub, gsub!, scan or split is global.
//   PHP: preg_match, preg_match_all, preg_replace, preg_replace_callback,
//     preg_split, preg_filter, preg_grep with a constant single- or
//     double-quoted pattern; the delimiters (any non-alphanumeric
//     character, bracket pairs nesting) are stripped and the modifiers
//     i m s x u become flags (A makes it anchored; an unknown modifier,
//     which PHP rejects, skips the literal). Double-quoted strings with
//     $variables are skipped; inline HTML outside <?php ... ?> and heredocs
//     are skipped. Dialect pcre; all but preg_match and preg_grep are
//     global.
//   Rust: Regex::new, RegexBuilder::new (with .case_insensitive(true),
//     .multi_line, .dot_matches_new_line, .ignore_whitespace chained),
//     under any path (regex::bytes::Regex::new). The regex crate runs in
//     linear time and follows RE2's syntax: dialect go, informational.
//     fancy_regex (named in the path, or imported by `use fancy_regex` for
//     an unqualified call) backtracks with Perl-like syntax: dialect pcre.
//   C#: new Regex("...", RegexOptions...), the static Regex.IsMatch, Match,
//     Matches, Replace, Split, Count, EnumerateMatches (the pattern is their
//     second argument; global except IsMatch and Match), and
//     [GeneratedRegex("...")]. Regular, verbatim (@"...") and raw
//     ("""...""") strings are decoded; interpolated ($"...") are skipped.
//     RegexOptions.NonBacktracking (linear time) makes it informational.
//     Dialect dotnet.
//
// A pattern argument is taken only when it is a constant string on its own
// ("a" + x is not known). Suppression comments work with every language's
// line and block comments.
//
// Bounds: linear in the size of the source (a call looks at no more than
// 256 tokens of its arguments for flags). Malformed source (unterminated
// strings, comments, raw strings, heredocs) never fails the extraction: the
// rest of the file is skipped.
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

// By file extension: .py/.pyi; .js/.mjs/.cjs/.jsx/.ts/.mts/.cts/.tsx; .go;
// .c/.h/.cc/.cpp/.cxx/.hpp/.hh/.hxx; .java; .kt/.kts; .rb; .php; .rs; .cs.
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
