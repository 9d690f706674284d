// The regex-injection finder's tables, per language (taint_rules.h). The
// sources are the request values of each language's common web frameworks;
// the sinks are the same calls the literal extraction reads (extract.h),
// where the pattern is not a literal.
#include "taint/taint_rules.h"

#include <array>
#include <cctype>
#include <string>

namespace robotscan::regexguard::internal {
namespace {

using Names = std::string_view;

// --- JavaScript / TypeScript: Express, Koa, hapi, Fastify, the browser.
// Headers: Express `req.headers`, `req.get()`, `req.header()`; Koa
// `ctx.headers`, `ctx.get()`; hapi and Fastify `request.headers`.
constexpr std::array<Names, 25> kJsSources = {
    "req.query",        "req.params",     "req.body",      "req.headers",
    "req.cookies",      "req.param(",     "req.get(",      "req.header(",
    "request.query",    "request.params", "request.body",  "request.payload",
    "request.headers",  "ctx.query",      "ctx.params",    "ctx.request",
    "ctx.querystring",  "ctx.headers",    "ctx.header",    "ctx.get(",
    "location.search",  "location.hash",  "location.href", "document.URL",
    "document.location"};
constexpr std::array<SinkRule, 3> kJsSinks = {{
    {"RegExp(", "RegExp", 0, 1},
    // String.prototype.match and matchAll turn a string argument into a
    // RegExp (ECMA-262 22.1.3.13); RegExp objects have no such methods.
    {".match(", ".match", 0, 1},
    {".matchAll(", ".matchAll", 0, 1},
}};
constexpr std::array<Names, 6> kJsSanitizers = {"RegExp.escape(", "parseInt(",
                                                "parseFloat(",    "Number(",
                                                "Math.round(",    "Boolean("};
constexpr std::array<Names, 1> kJsMembers = {".length"};
constexpr std::array<Names, 10> kJsControl = {
    "if",     "else", "for",   "while",   "do",
    "switch", "try",  "catch", "finally", "with"};
constexpr std::array<Names, 3> kJsDeclarations = {"const", "let", "var"};
constexpr std::array<Names, 1> kJsConstructors = {"constructor"};

// --- Python: Flask, Django (and DRF), aiohttp, Starlette. Headers:
// `request.headers` (Flask, DRF, Starlette, aiohttp), Django's
// `request.META`, WSGI's `request.environ`.
constexpr std::array<Names, 19> kPySources = {
    "request.args",    "request.form",       "request.values",
    "request.json",    "request.get_json(",  "request.data",
    "request.cookies", "request.headers",    "request.view_args",
    "request.GET",     "request.POST",       "request.body",
    "request.COOKIES", "request.META",       "request.query_params",
    "request.query",   "request.match_info", "request.path_params",
    "request.environ"};
constexpr std::array<SinkRule, 18> kPySinks = {{
    {"re.compile(", "re.compile", 0, 1},
    {"re.match(", "re.match", 0, 1},
    {"re.search(", "re.search", 0, 1},
    {"re.fullmatch(", "re.fullmatch", 0, 1},
    {"re.sub(", "re.sub", 0, 1},
    {"re.subn(", "re.subn", 0, 1},
    {"re.split(", "re.split", 0, 1},
    {"re.findall(", "re.findall", 0, 1},
    {"re.finditer(", "re.finditer", 0, 1},
    {"regex.compile(", "regex.compile", 0, 1},
    {"regex.match(", "regex.match", 0, 1},
    {"regex.search(", "regex.search", 0, 1},
    {"regex.fullmatch(", "regex.fullmatch", 0, 1},
    {"regex.sub(", "regex.sub", 0, 1},
    {"regex.subn(", "regex.subn", 0, 1},
    {"regex.split(", "regex.split", 0, 1},
    {"regex.findall(", "regex.findall", 0, 1},
    {"regex.finditer(", "regex.finditer", 0, 1},
}};
constexpr std::array<Names, 6> kPySanitizers = {
    "re.escape(", "regex.escape(", "int(", "float(", "len(", "bool("};
constexpr std::array<Names, 10> kPyControl = {
    "if",  "elif",   "else",    "for",  "while",
    "try", "except", "finally", "with", "match"};
constexpr std::array<Names, 1> kPyConstructors = {"__init__"};

// --- Java: the Servlet API, Spring MVC and JAX-RS parameters.
constexpr std::array<Names, 9> kJavaSources = {
    ".getParameter(", ".getParameterValues(", ".getParameterMap(",
    ".getHeader(",    ".getHeaders(",         ".getQueryString(",
    ".getPathInfo(",  ".getRequestURI(",      ".getCookies("};
constexpr std::array<SinkRule, 6> kJavaSinks = {{
    {"Pattern.compile(", "Pattern.compile", 0, 1},
    {"Pattern.matches(", "Pattern.matches", 0, 2},
    // String's regex methods; Matcher.replaceAll(replacement) has one
    // argument and takes no regex.
    {".matches(", ".matches", 0, 1},
    {".replaceAll(", ".replaceAll", 0, 2},
    {".replaceFirst(", ".replaceFirst", 0, 2},
    {".split(", ".split", 0, 1},
}};
constexpr std::array<Names, 6> kJavaSanitizers = {
    "Pattern.quote(",   "Integer.parseInt(",   "Long.parseLong(",
    "Integer.valueOf(", "Double.parseDouble(", "Long.valueOf("};
constexpr std::array<Names, 9> kJavaParameterSources = {
    "@RequestParam", "@PathVariable", "@RequestHeader",
    "@RequestBody",  "@CookieValue",  "@QueryParam",
    "@PathParam",    "@FormParam",    "@HeaderParam"};
constexpr std::array<Names, 11> kJavaControl = {
    "if",  "else",  "for",     "while",        "do",  "switch",
    "try", "catch", "finally", "synchronized", "case"};

// --- Kotlin: the Servlet API and Spring (as Java), Ktor calls.
// Headers: the Servlet API's, Ktor's `call.request.headers` and
// `call.request.header()`.
constexpr std::array<Names, 15> kKotlinSources = {
    ".getParameter(",
    ".getParameterValues(",
    ".getParameterMap(",
    ".getHeader(",
    ".getHeaders(",
    ".getQueryString(",
    ".getPathInfo(",
    ".getRequestURI(",
    ".getCookies(",
    "call.parameters",
    "call.request.queryParameters",
    "call.receiveParameters(",
    "call.receiveText(",
    "call.request.headers",
    "call.request.header("};
constexpr std::array<SinkRule, 4> kKotlinSinks = {{
    {"Regex(", "Regex", 0, 1},
    {"Pattern.compile(", "Pattern.compile", 0, 1},
    {".toRegex(", ".toRegex", -1, 0},
    {".toPattern(", ".toPattern", -1, 0},
}};
constexpr std::array<Names, 4> kKotlinSanitizers = {
    "Regex.escape(", "Pattern.quote(", "Regex.fromLiteral(",
    "Integer.parseInt("};
constexpr std::array<Names, 5> kKotlinMembers = {".toInt", ".toIntOrNull",
                                                 ".toLong", ".length", ".size"};
constexpr std::array<Names, 9> kKotlinControl = {
    "if", "else", "for", "while", "do", "when", "try", "catch", "finally"};
constexpr std::array<Names, 2> kKotlinDeclarations = {"val", "var"};

// --- PHP: superglobals, Laravel and Symfony requests. Headers:
// `$_SERVER['HTTP_...']`, `getallheaders()`, Laravel `$request->header()`,
// Symfony `$request->headers`.
constexpr std::array<Names, 20> kPhpSources = {"$_GET",
                                               "$_POST",
                                               "$_REQUEST",
                                               "$_COOKIE",
                                               "$_SERVER",
                                               "$_FILES",
                                               "$request->input",
                                               "$request->query",
                                               "$request->get(",
                                               "$request->post",
                                               "$request->all(",
                                               "$request->request",
                                               "$request->route",
                                               "$request->cookie",
                                               "$request->header(",
                                               "$request->headers",
                                               "request(",
                                               "Input::get(",
                                               "getallheaders(",
                                               "apache_request_headers("};
constexpr std::array<SinkRule, 10> kPhpSinks = {{
    {"preg_match(", "preg_match", 0, 1},
    {"preg_match_all(", "preg_match_all", 0, 1},
    {"preg_replace(", "preg_replace", 0, 1},
    {"preg_replace_callback(", "preg_replace_callback", 0, 1},
    {"preg_split(", "preg_split", 0, 1},
    {"preg_grep(", "preg_grep", 0, 1},
    {"preg_filter(", "preg_filter", 0, 1},
    {"mb_ereg(", "mb_ereg", 0, 1},
    {"mb_eregi(", "mb_eregi", 0, 1},
    {"mb_ereg_replace(", "mb_ereg_replace", 0, 1},
}};
// quotemeta is not among them: it leaves `|`, `{`, `}` and the pattern's
// delimiter as they are.
constexpr std::array<Names, 4> kPhpSanitizers = {"preg_quote(", "intval(",
                                                 "floatval(", "count("};
constexpr std::array<Names, 12> kPhpControl = {
    "if", "else",   "elseif", "for",   "foreach", "while",
    "do", "switch", "try",    "catch", "finally", "declare"};
constexpr std::array<Names, 1> kPhpConstructors = {"__construct"};

// --- Ruby: Rails and Sinatra. Headers: Rails `request.headers`, Rack's
// `request.env` (HTTP_...), `request.user_agent`, `request.referer`.
constexpr std::array<Names, 9> kRubySources = {"params",
                                               "request.params",
                                               "request.query_string",
                                               "request.body",
                                               "cookies",
                                               "request.headers",
                                               "request.env",
                                               "request.user_agent",
                                               "request.referer"};
constexpr std::array<SinkRule, 2> kRubySinks = {{
    {"Regexp.new(", "Regexp.new", 0, 1},
    {"Regexp.compile(", "Regexp.compile", 0, 1},
}};
// Regexp.union escapes the strings it is given.
constexpr std::array<Names, 5> kRubySanitizers = {
    "Regexp.escape(", "Regexp.quote(", "Regexp.union(", "Integer(", "Float("};
constexpr std::array<Names, 4> kRubyMembers = {".to_i", ".to_f", ".length",
                                               ".size"};
constexpr std::array<Names, 1> kRubyConstructors = {"initialize"};

// --- Go: net/http, gorilla/mux, gin, echo. Headers: the request's
// `Header` map read by key or method (`r.Header["X"]`, `r.Header.Get(..)`,
// `.Values(..)`) — not `w.Header()`, the response's own —, `.Referer()`,
// `.UserAgent()`, gin's `.GetHeader()`.
constexpr std::array<Names, 17> kGoSources = {
    ".Query(",       ".FormValue(", ".PostFormValue(", ".URL.Path",
    ".URL.RawQuery", ".Header.",    ".Header[",        ".Form",
    ".PostForm",     ".Param(",     ".QueryParam(",    ".DefaultQuery(",
    ".GetHeader(",   "mux.Vars(",   ".PathValue(",     ".Referer(",
    ".UserAgent("};
constexpr std::array<SinkRule, 7> kGoSinks = {{
    {"regexp.Compile(", "regexp.Compile", 0, 1},
    {"regexp.MustCompile(", "regexp.MustCompile", 0, 1},
    {"regexp.CompilePOSIX(", "regexp.CompilePOSIX", 0, 1},
    {"regexp.MustCompilePOSIX(", "regexp.MustCompilePOSIX", 0, 1},
    {"regexp.MatchString(", "regexp.MatchString", 0, 2},
    {"regexp.Match(", "regexp.Match", 0, 2},
    {"regexp.MatchReader(", "regexp.MatchReader", 0, 2},
}};
constexpr std::array<Names, 4> kGoSanitizers = {
    "regexp.QuoteMeta(", "strconv.Atoi(", "strconv.ParseInt(",
    "strconv.ParseFloat("};
constexpr std::array<Names, 6> kGoControl = {"if",     "else",   "for",
                                             "switch", "select", "case"};
constexpr std::array<Names, 1> kGoDeclarations = {"var"};

// --- C#: ASP.NET (Core) requests and binding attributes.
constexpr std::array<Names, 16> kCsSources = {
    "Request.Query",       "Request.Form",
    "Request.QueryString", "Request.Params",
    "Request.Cookies",     "Request.Headers",
    "Request.RouteValues", "Request[",
    "request.Query",       "request.Form",
    "request.QueryString", "request.Params",
    "request.Cookies",     "request.Headers",
    "request.RouteValues", "request["};
constexpr std::array<SinkRule, 8> kCsSinks = {{
    {"new Regex(", "new Regex", 0, 1},
    {"Regex.IsMatch(", "Regex.IsMatch", 1, 2},
    {"Regex.Match(", "Regex.Match", 1, 2},
    {"Regex.Matches(", "Regex.Matches", 1, 2},
    {"Regex.Replace(", "Regex.Replace", 1, 2},
    {"Regex.Split(", "Regex.Split", 1, 2},
    {"Regex.Count(", "Regex.Count", 1, 2},
    {"Regex.EnumerateMatches(", "Regex.EnumerateMatches", 1, 2},
}};
constexpr std::array<Names, 7> kCsSanitizers = {
    "Regex.Escape(", "int.Parse(",    "Int32.Parse(",    "long.Parse(",
    "double.Parse(", "int.TryParse(", "Convert.ToInt32("};
constexpr std::array<Names, 5> kCsParameterSources = {
    "[FromQuery", "[FromRoute", "[FromForm", "[FromBody", "[FromHeader"};
constexpr std::array<Names, 15> kCsControl = {
    "if",    "else",    "for",   "foreach", "while",   "do",    "switch", "try",
    "catch", "finally", "using", "lock",    "checked", "fixed", "unsafe"};

}  // namespace

std::optional<TaintRules> TaintRulesFor(SourceLanguage language) {
  TaintRules rules;
  switch (language) {
    case SourceLanguage::kJavaScript:
      rules.escape_with = "escapeRegExp (lodash, escape-string-regexp)";
      rules.sources = kJsSources;
      rules.sinks = kJsSinks;
      rules.sanitizers = kJsSanitizers;
      rules.sanitizing_members = kJsMembers;
      rules.control_keywords = kJsControl;
      rules.declaration_keywords = kJsDeclarations;
      rules.dialect = Dialect::kJavaScript;
      rules.statements_end_at_line_breaks = true;
      rules.object_name = "this";
      rules.constructor_names = kJsConstructors;
      return rules;
    case SourceLanguage::kPython:
      rules.escape_with = "re.escape";
      rules.sources = kPySources;
      rules.sinks = kPySinks;
      rules.sanitizers = kPySanitizers;
      rules.control_keywords = kPyControl;
      rules.dialect = Dialect::kPython;
      rules.statements_end_at_line_breaks = true;
      rules.scopes = ScopeStyle::kIndentation;
      rules.assignment_declares = true;
      rules.object_name = "self";
      rules.constructor_names = kPyConstructors;
      rules.python_lambdas = true;
      return rules;
    case SourceLanguage::kJava:
      rules.escape_with = "Pattern.quote";
      rules.sources = kJavaSources;
      rules.sinks = kJavaSinks;
      rules.sanitizers = kJavaSanitizers;
      rules.parameter_sources = kJavaParameterSources;
      rules.control_keywords = kJavaControl;
      rules.dialect = Dialect::kJava;
      rules.parameter_name = ParameterName::kLast;
      rules.object_name = "this";
      rules.arrow_lambdas = true;
      return rules;
    case SourceLanguage::kPhp:
      rules.escape_with = "preg_quote";
      rules.sources = kPhpSources;
      rules.sinks = kPhpSinks;
      rules.sanitizers = kPhpSanitizers;
      rules.control_keywords = kPhpControl;
      rules.dialect = Dialect::kPcre;
      rules.dot_is_concatenation = true;
      rules.parameter_name = ParameterName::kDollar;
      rules.object_name = "$this";
      rules.constructor_names = kPhpConstructors;
      rules.php_arrow_functions = true;
      return rules;
    case SourceLanguage::kRuby:
      rules.escape_with = "Regexp.escape";
      rules.sources = kRubySources;
      rules.sinks = kRubySinks;
      rules.sanitizers = kRubySanitizers;
      rules.sanitizing_members = kRubyMembers;
      rules.dialect = Dialect::kRuby;
      rules.statements_end_at_line_breaks = true;
      rules.scopes = ScopeStyle::kRubyEnd;
      rules.assignment_declares = true;
      rules.fields_start_with_at = true;
      rules.constructor_names = kRubyConstructors;
      rules.ruby_blocks = true;
      return rules;
    case SourceLanguage::kGo:
      rules.escape_with = "regexp.QuoteMeta";
      rules.sources = kGoSources;
      rules.sinks = kGoSinks;
      rules.sanitizers = kGoSanitizers;
      rules.control_keywords = kGoControl;
      rules.declaration_keywords = kGoDeclarations;
      rules.dialect = Dialect::kGo;
      rules.linear_engine = true;
      rules.statements_end_at_line_breaks = true;
      return rules;
    case SourceLanguage::kCSharp:
      rules.escape_with = "Regex.Escape";
      rules.sources = kCsSources;
      rules.sinks = kCsSinks;
      rules.sanitizers = kCsSanitizers;
      rules.parameter_sources = kCsParameterSources;
      rules.control_keywords = kCsControl;
      rules.dialect = Dialect::kDotNet;
      rules.parameter_name = ParameterName::kLast;
      rules.object_name = "this";
      return rules;
    case SourceLanguage::kKotlin:
      rules.escape_with = "Regex.escape";
      rules.sources = kKotlinSources;
      rules.sinks = kKotlinSinks;
      rules.sanitizers = kKotlinSanitizers;
      rules.sanitizing_members = kKotlinMembers;
      rules.parameter_sources = kJavaParameterSources;
      rules.control_keywords = kKotlinControl;
      rules.declaration_keywords = kKotlinDeclarations;
      rules.dialect = Dialect::kJava;  // kotlin.text.Regex is java.util.regex
      rules.statements_end_at_line_breaks = true;
      rules.object_name = "this";
      rules.brace_lambdas = true;  // `->` is also a `when` branch's arrow
      return rules;
    case SourceLanguage::kCpp:
    case SourceLanguage::kRust:
      break;
  }
  return std::nullopt;
}

bool IsRegexEscapeName(std::string_view name) {
  std::string lower;
  for (char c : name) {
    lower.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return lower.find("escape") != std::string::npos &&
         lower.find("reg") != std::string::npos;
}

bool IsRegexEscapeModule(std::string_view module) {
  for (std::string_view known :
       {"escape-string-regexp", "lodash.escaperegexp", "escape-regexp",
        "escape-regex-string", "escape-regexp-component", "regexp.escape",
        "escape-regex"}) {
    if (module == known) return true;
  }
  return false;
}

}  // namespace robotscan::regexguard::internal
