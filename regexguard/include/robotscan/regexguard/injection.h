// Regex injection: patterns built from untrusted input without escaping,
// found in source code for `regexguard scan` (docs/regexguard.md, "Regex
// injection"; rule regexguard/injection).
//
// A request value that reaches a regex constructor unescaped lets the
// client choose the pattern: a ReDoS of its own making (CodeQL's
// js/regex-injection, CWE-730), or a match that means something else than
// the programmer wrote. The finder follows values inside one function:
//   sources  each language's common request values, spelled as code:
//            JavaScript req.query / req.params / req.body / ctx.query /
//            location.search, Python Flask request.args / request.form and
//            Django request.GET / request.POST, Java .getParameter(...)
//            and Spring @RequestParam parameters, PHP $_GET / $_POST /
//            $_REQUEST, Ruby params, Go .URL.Query() / .FormValue(...),
//            C# Request.Query / [FromQuery] parameters, and the request
//            headers of each (Go r.Header, Express req.header(), WSGI
//            request.environ, PHP getallheaders(), Rack request.env, ...)
//            (taint_rules.cc);
//   flow     local variables assigned in the function (or in a function
//            enclosing it: closures), destructuring, string concatenation,
//            template literals, f-strings and other interpolation, and
//            calls (a value passed through an unknown call stays tainted);
//   sanitizers  escape functions clear the value: escapeRegExp,
//            _.escapeRegExp, escape-string-regexp (whatever name it is
//            imported as), the `.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')`
//            idiom, re.escape, Pattern.quote, preg_quote, Regexp.escape /
//            Regexp.quote / Regexp.union, regexp.QuoteMeta, Regex.Escape,
//            and conversions to numbers (parseInt, int(), intval, ...);
//   sinks    the regex constructors and calls of each language (new
//            RegExp, re.compile/search/..., Pattern.compile and String's
//            regex methods, preg_*, Regexp.new and /#{...}/, regexp.Compile
//            and MustCompile, new Regex and the static Regex methods).
// The flow is read in source order, without branches: a value escaped on
// one path only counts as escaped. Across functions it goes one level
// within the file: a function whose parameter reaches a sink is summarised,
// and a call in the file passing it a request value reports that sink (the
// sink's name then says "through f(), called on line N"); a constructor is
// reached through its class (new C(x), C(x), C.new(x)). Object fields
// (this.x, self.x, $this->x, @x) carry a value between the file's methods,
// matched by name; a lambda, closure or block parameter takes what the call
// it is passed to is given; a table the file only assigns as a literal of
// constants is clean when indexed by a request value. Taint from another
// function's local variables is never assumed. Not followed: fields
// written without `this`, method references (Pattern::compile), ternaries
// between constants (docs/regexguard.md lists the measured gaps).
//
// Languages: Python, JavaScript/TypeScript, Go, Java, Kotlin, Ruby, PHP,
// C#; the others (C/C++, Rust) give no injections.
//
// Bounds: linear in the size of the source times the small, fixed number of
// spelled sources, sinks and sanitizers; an expression is read for at most
// a few hundred tokens. Malformed source never fails: what cannot be lexed
// is skipped, as for the literal extraction (extract.h).
//
// Thread safety: a free function on values; thread-safe.
//
// Example:
//   for (const RegexInjection& found :
//        FindRegexInjections(source, SourceLanguage::kJavaScript)) {
//     std::printf("%zu:%zu: %s reaches %s\n", found.line, found.column,
//                 found.source.c_str(), found.sink.c_str());
//   }
#ifndef ROBOTSCAN_REGEXGUARD_INJECTION_H_
#define ROBOTSCAN_REGEXGUARD_INJECTION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {

struct RegexInjection {
  // Where the pattern argument starts: 1-based line and byte column, 0-based
  // byte offset.
  std::size_t line = 0;
  std::size_t column = 0;
  std::size_t offset = 0;
  std::string sink;             // "new RegExp", "re.compile", "preg_match", ...
  std::string expression;       // the pattern argument as written (spaces
                                // collapsed, at most 200 bytes)
  std::string source;           // the request value it comes from: "req.query"
  std::size_t source_line = 0;  // where that value is read
  std::string escape_with;      // the language's escape: "re.escape"
  Dialect dialect = Dialect::kPcre;  // the sink's engine
  // The sink's engine cannot backtrack (Go's RE2): the injection changes
  // what matches, but cannot make the match slow.
  bool linear_engine = false;
  // "regexguard: ignore <reason>" on the argument's line or alone on the
  // line before it, as for literals (extract.h).
  std::optional<std::string> suppression;
};

// Every sink call of `source` whose pattern argument carries an unescaped
// request value, in source order.
std::vector<RegexInjection> FindRegexInjections(std::string_view source,
                                                SourceLanguage language);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_INJECTION_H_
