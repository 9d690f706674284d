// Regex injection (injection.h): request values followed through one
// function's variables to the regex calls, escape functions clearing them,
// and the findings ScanSources makes of them (rule, severity, suppression,
// baseline).
#include "robotscan/regexguard/injection.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/scan.h"
#include "scan_parts_fixture.h"

namespace robotscan::regexguard {
namespace {

struct TaintCase {
  const char* id;
  SourceLanguage language;
  const char* source;
  std::vector<std::size_t> lines;  // lines of the reported pattern arguments
};

std::vector<std::size_t> LinesOf(const std::vector<RegexInjection>& found) {
  std::vector<std::size_t> lines;
  for (const RegexInjection& injection : found) lines.push_back(injection.line);
  return lines;
}

void ExpectCases(const std::vector<TaintCase>& cases) {
  for (const TaintCase& c : cases) {
    EXPECT_EQ(LinesOf(FindRegexInjections(c.source, c.language)), c.lines)
        << c.id;
  }
}

constexpr auto kJs = SourceLanguage::kJavaScript;
constexpr auto kPy = SourceLanguage::kPython;

TEST(TaintTrackingTest, LocalFlowInJavaScript) {
  ExpectCases({
      {"direct",
       kJs,
       "app.get('/', (req, res) => {\n new RegExp(req.query.q);\n});",
       {2}},
      {"without new",
       kJs,
       "function f(req) {\n  return RegExp(req.params.id);\n}",
       {2}},
      {"local variable",
       kJs,
       "function f(req) {\n  const q = req.query.q;\n  return new "
       "RegExp(q);\n}",
       {3}},
      {"chain of locals",
       kJs,
       "function f(req) {\n  const a = req.body.a;\n  let b = a.trim();\n"
       "  var c = '^' + b;\n  return new RegExp(c, 'i');\n}",
       {5}},
      {"template literal",
       kJs,
       "function f(req) {\n  const q = req.query.q;\n"
       "  return new RegExp(`^${q}$`);\n}",
       {3}},
      {"destructuring",
       kJs,
       "function f(req) {\n  const { q, r: s } = req.query;\n"
       "  new RegExp(s);\n  new RegExp(q);\n}",
       {3, 4}},
      {"compound assignment",
       kJs,
       "function f(req) {\n  let p = '^';\n  p += req.query.q;\n"
       "  return new RegExp(p);\n}",
       {4}},
      {"assigned in a branch",
       kJs,
       "function f(req) {\n  let p = 'x';\n  if (req.query.q) {\n"
       "    p = req.query.q;\n  }\n  return new RegExp(p);\n}",
       {6}},
      {"closure sees the handler's value",
       kJs,
       "function f(req) {\n  const q = req.query.q;\n"
       "  return items.filter(function (i) { return new RegExp(q).test(i); "
       "});\n}",
       {3}},
      {"string match",
       kJs,
       "function f(req) {\n  return 'abc'.match(req.query.q);\n}",
       {2}},
      {"constant pattern",
       kJs,
       "function f(req) {\n  return new "
       "RegExp('^[a-z]+$').test(req.query.q);\n}",
       {}},
      {"request value as the subject",
       kJs,
       "function f(req) {\n  return req.query.q.match(/^a+$/);\n}",
       {}},
      {"another function's variable",
       kJs,
       "function a(req) {\n  const q = req.query.q;\n  return q;\n}\n"
       "function b() {\n  return new RegExp(q);\n}",
       {}},
      {"parameter hides the handler's value",
       kJs,
       "function f(req) {\n  const q = req.query.q;\n"
       "  return list.map(function (q) { return new RegExp(q); });\n}",
       {}},
      {"a browser's location",
       kJs,
       "function h() {\n  const p = new URLSearchParams(location.search);\n"
       "  const w = p.get('w');\n  return new RegExp(w, 'g');\n}",
       {4}},
      {"TypeScript annotation",
       kJs,
       "function f(req: Request) {\n  const q: string = req.query.q as "
       "string;\n"
       "  return new RegExp(q);\n}",
       {3}},
      {"loop variable",
       kJs,
       "function f(req) {\n  for (const w of req.body.words) {\n"
       "    new RegExp(w);\n  }\n}",
       {3}},
  });
}

TEST(TaintTrackingTest, EscapesClearTheValue) {
  ExpectCases({
      {"escapeRegExp",
       kJs,
       "function f(req) {\n  return new RegExp(escapeRegExp(req.query.q));\n}",
       {}},
      {"lodash",
       kJs,
       "function f(req) {\n  const q = _.escapeRegExp(req.query.q);\n"
       "  return new RegExp('^' + q);\n}",
       {}},
      {"escape-string-regexp under any name",
       kJs,
       "const esc = require('escape-string-regexp');\n"
       "function f(req) {\n  return new RegExp(esc(req.query.q));\n}",
       {}},
      {"imported",
       kJs,
       "import quoteIt from 'escape-string-regexp';\n"
       "function f(req) {\n  return new RegExp(quoteIt(req.query.q));\n}",
       {}},
      {"the replace idiom",
       kJs,
       "function f(req) {\n"
       "  const q = req.query.q.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&');\n"
       "  return new RegExp(q);\n}",
       {}},
      {"map over an escape",
       kJs,
       "function f(req) {\n  const ws = req.query.w.split(',');\n"
       "  return new RegExp(ws.map(escapeRegExp).join('|'));\n}",
       {}},
      {"numbers carry no syntax",
       kJs,
       "function f(req) {\n  const n = parseInt(req.query.n, 10);\n"
       "  return new RegExp('a{1,' + n + '}');\n}",
       {}},
      {"an HTML escape is no regex escape",
       kJs,
       "function f(req) {\n  return new RegExp(escapeHtml(req.query.q));\n}",
       {2}},
      {"sanitised, then reassigned",
       kJs,
       "function f(req) {\n  let q = escapeRegExp(req.query.q);\n"
       "  q = req.query.raw;\n  return new RegExp(q);\n}",
       {4}},
      {"read, then sanitised",
       kJs,
       "function f(req) {\n  let q = req.query.q;\n  q = escapeRegExp(q);\n"
       "  return new RegExp(q);\n}",
       {}},
      {"one escaped, the other not",
       kJs,
       "function f(req) {\n"
       "  return new RegExp(escapeRegExp(req.query.a) + req.query.b);\n}",
       {2}},
  });
}

TEST(TaintTrackingTest, EveryLanguage) {
  ExpectCases({
      {"python flask",
       kPy,
       "def view():\n    q = request.args.get('q')\n    return re.compile(q)\n",
       {3}},
      {"python django f-string",
       kPy,
       "def view(request):\n    t = request.GET['t']\n"
       "    return re.search(f'^{t}$', s)\n",
       {3}},
      {"python route parameter",
       kPy,
       "@app.route('/u/<name>')\ndef user(name):\n"
       "    return re.match('^%s' % name, s)\n",
       {3}},
      {"python re.escape",
       kPy,
       "def view():\n    q = re.escape(request.args['q'])\n"
       "    return re.compile(q)\n",
       {}},
      {"python other function",
       kPy,
       "def a():\n    q = request.args['q']\n    return q\n\n"
       "def b():\n    return re.compile(q)\n",
       {}},
      {"python keyword argument is no assignment",
       kPy,
       "def a(q):\n    f(q=request.args['q'])\n    return re.compile(q)\n",
       {}},
      {"java servlet",
       SourceLanguage::kJava,
       "class A {\n  void f(HttpServletRequest r) {\n"
       "    String q = r.getParameter(\"q\");\n"
       "    Pattern.compile(q);\n    \"s\".split(q);\n"
       "    Pattern.compile(Pattern.quote(q));\n  }\n}\n",
       {4, 5}},
      {"java spring parameter",
       SourceLanguage::kJava,
       "class A {\n  List f(@RequestParam(\"n\") String n, String o) {\n"
       "    Pattern.compile(o);\n    return Pattern.compile(n);\n  }\n}\n",
       {4}},
      {"php superglobal",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  $q = $_GET['q'];\n"
       "  preg_match('/' . $q . '/', $s);\n  preg_match(\"/$q/\", $s);\n"
       "  preg_match('/' . preg_quote($q, '/') . '/', $s);\n}\n",
       {4, 5}},
      {"php closure use",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  $q = $_POST['q'];\n"
       "  return array_filter($a, function ($x) use ($q) {\n"
       "    return preg_match(\"/{$q}/\", $x);\n  });\n}\n",
       {5}},
      {"ruby params",
       SourceLanguage::kRuby,
       "class C\n  def index\n    t = params[:q]\n    Regexp.new(t)\n"
       "    Regexp.new(Regexp.escape(t))\n    x =~ /#{t}/\n"
       "    x =~ /#{Regexp.escape(t)}/\n  end\nend\n",
       {4, 6}},
      {"ruby def does not see another def's locals",
       SourceLanguage::kRuby,
       "def a\n  t = params[:q]\nend\n\ndef b\n  Regexp.new(t)\nend\n",
       {}},
      {"go net/http",
       SourceLanguage::kGo,
       "func h(w http.ResponseWriter, r *http.Request) {\n"
       "\tq := r.URL.Query().Get(\"q\")\n\tregexp.MustCompile(q)\n"
       "\tregexp.MustCompile(regexp.QuoteMeta(q))\n}\n",
       {3}},
      {"csharp",
       SourceLanguage::kCSharp,
       "class C {\n  IActionResult F([FromQuery] string n) {\n"
       "    string q = Request.Query[\"q\"];\n    new Regex(q);\n"
       "    Regex.IsMatch(q, \"^a$\");\n    Regex.IsMatch(\"s\", n);\n"
       "    Regex.Match(\"s\", $\"^{q}\");\n    new Regex(Regex.Escape(q));\n"
       "  }\n}\n",
       {4, 6, 7}},
      {"kotlin",
       SourceLanguage::kKotlin,
       "fun f(r: HttpServletRequest, @RequestParam n: String): Regex {\n"
       "    val q = r.getParameter(\"q\")\n    Regex(n)\n"
       "    \"^$q\".toRegex()\n    q?.toRegex()\n"
       "    Regex.escape(q).toRegex()\n    return Regex(\"a+\")\n}\n",
       {3, 4, 5}},
      {"typescript return type",
       kJs,
       "function f(q: string): RegExp {\n  return new RegExp(q);\n}\n"
       "function g(req: Request): void {\n  const q = req.query.q;\n"
       "  f(q);\n}\n",
       {2}},
      {"not covered: rust",
       SourceLanguage::kRust,
       "fn f(q: &str) { Regex::new(q); }",
       {}},
  });
}

TEST(TaintTrackingTest, RequestHeaders) {
  ExpectCases({
      {"go header map",
       SourceLanguage::kGo,
       "func h(w http.ResponseWriter, r *http.Request) {\n"
       "\tfor _, v := range r.Header[\"X-F\"] {\n\t\tregexp.MustCompile(v)\n"
       "\t}\n\tregexp.MustCompile(r.Header.Values(\"X-G\")[0])\n"
       "\tregexp.MustCompile(r.UserAgent())\n}\n",
       {3, 5, 6}},
      {"go: the response's own headers are no request value",
       SourceLanguage::kGo,
       "func h(w http.ResponseWriter, r *http.Request) {\n"
       "\tregexp.MustCompile(w.Header().Get(\"Content-Type\"))\n}\n",
       {}},
      {"javascript req.header() and koa ctx.get()",
       kJs,
       "app.get('/', (req, res) => {\n  new RegExp(req.header('X-F'));\n});\n"
       "router.get('/', (ctx) => {\n  new RegExp(ctx.get('X-F'));\n});\n",
       {2, 5}},
      {"python environ",
       kPy,
       "def view():\n    return re.compile(request.environ['HTTP_X_F'])\n",
       {2}},
      {"php headers",
       SourceLanguage::kPhp,
       "<?php\nfunction f($request) {\n"
       "  preg_match(getallheaders()['X-F'], $s);\n"
       "  preg_match($request->header('X-F'), $s);\n}\n",
       {3, 4}},
      {"ruby env and user agent",
       SourceLanguage::kRuby,
       "def index\n  Regexp.new(request.env['HTTP_X_F'])\n"
       "  Regexp.new(request.user_agent)\nend\n",
       {2, 3}},
      {"kotlin ktor header()",
       SourceLanguage::kKotlin,
       "fun Route.r() {\n  get(\"/\") {\n"
       "    Regex(call.request.header(\"X-F\") ?: \"\")\n  }\n}\n",
       {3}},
  });
}

TEST(TaintTrackingTest, ObjectFields) {
  ExpectCases({
      {"python attribute set in __init__, read in another method",
       kPy,
       "class V:\n    def __init__(self, request):\n"
       "        self.p = request.GET.get('p')\n        self.s = 'x'\n\n"
       "    def items(self):\n        re.search(self.s, t)\n"
       "        return re.search(self.p, t)\n",
       {8}},
      {"python attribute escaped in its own method",
       kPy,
       "class V:\n    def a(self, request):\n"
       "        self.p = request.args['p']\n\n    def b(self):\n"
       "        self.p = re.escape(self.p)\n        return "
       "re.compile(self.p)\n",
       {}},
      {"php field read before the method that sets it",
       SourceLanguage::kPhp,
       "<?php\nclass C {\n  function run() {\n"
       "    return preg_match($this->p, 'x');\n  }\n"
       "  function load() {\n    $this->p = $_GET['p'];\n  }\n}\n",
       {4}},
      {"php field of constants",
       SourceLanguage::kPhp,
       "<?php\nclass C {\n  function load() {\n    $this->p = '/a/';\n  }\n"
       "  function run() {\n    return preg_match($this->p, $_GET['s']);\n"
       "  }\n}\n",
       {}},
      {"ruby instance variable set in a before_action",
       SourceLanguage::kRuby,
       "class C\n  def index\n    Regexp.new(@p)\n  end\n\n  def load\n"
       "    @p = params[:p]\n  end\nend\n",
       {3}},
      {"javascript field set by the constructor's parameter",
       kJs,
       "class M {\n  constructor(q) {\n    this.q = q;\n  }\n"
       "  re() {\n    return new RegExp(this.q);\n  }\n}\n"
       "app.get('/', (req, res) => {\n  new M(req.query.q).re();\n});\n"
       "const fixed = new M('abc');\n",
       {6}},
      {"javascript field never given a request value",
       kJs,
       "class M {\n  constructor(q) {\n    this.q = q;\n  }\n"
       "  re() {\n    return new RegExp(this.q);\n  }\n}\n"
       "const fixed = new M('abc');\n",
       {}},
      {"java field",
       SourceLanguage::kJava,
       "class C {\n  String p;\n  void load(HttpServletRequest r) {\n"
       "    this.p = r.getParameter(\"p\");\n  }\n"
       "  boolean run(String s) {\n    return Pattern.matches(this.p, s);\n"
       "  }\n}\n",
       {7}},
  });
}

TEST(TaintTrackingTest, ConstructorsOfTheFile) {
  ExpectCases({
      {"javascript constructor compiles its parameter",
       kJs,
       "class S {\n  constructor(term) {\n    this.re = new RegExp(term);\n"
       "  }\n}\napp.get('/', (req, res) => new S(req.query.t));\n",
       {3}},
      {"python __init__",
       kPy,
       "class S:\n    def __init__(self, term):\n"
       "        self.re = re.compile(term)\n\n"
       "def view():\n    return S(request.args['t'])\n",
       {3}},
      {"ruby initialize",
       SourceLanguage::kRuby,
       "class S\n  def initialize(term)\n    @re = Regexp.new(term)\n  end\n"
       "end\n\ndef index\n  S.new(params[:t])\nend\n",
       {3}},
      {"php __construct",
       SourceLanguage::kPhp,
       "<?php\nclass S {\n  function __construct($t) {\n"
       "    $this->ok = preg_match($t, 'x');\n  }\n}\n"
       "function f() {\n  return new S($_GET['t']);\n}\n",
       {4}},
      {"java constructor",
       SourceLanguage::kJava,
       "class S {\n  S(String t) {\n    Pattern.compile(t);\n  }\n"
       "  static S of(HttpServletRequest r) {\n"
       "    return new S(r.getParameter(\"t\"));\n  }\n}\n",
       {3}},
      {"constructed with a constant",
       kJs,
       "class S {\n  constructor(term) {\n    this.re = new RegExp(term);\n"
       "  }\n}\napp.get('/', (req, res) => new S('abc'));\n",
       {}},
  });
}

TEST(TaintTrackingTest, LambdasAndBlocks) {
  ExpectCases({
      {"java lambda given the key",
       SourceLanguage::kJava,
       "class C {\n  Pattern f(HttpServletRequest r) {\n"
       "    String k = r.getParameter(\"k\");\n"
       "    return cache.computeIfAbsent(k, x -> Pattern.compile(x));\n"
       "  }\n}\n",
       {4}},
      {"java stream of request values",
       SourceLanguage::kJava,
       "class C {\n  List f(HttpServletRequest r) {\n"
       "    return Arrays.stream(r.getParameterValues(\"t\"))\n"
       "        .map((String t) -> {\n          return Pattern.compile(t);\n"
       "        }).toList();\n  }\n}\n",
       {5}},
      {"java lambda over constants",
       SourceLanguage::kJava,
       "class C {\n  List f(HttpServletRequest r) {\n"
       "    String k = r.getParameter(\"k\");\n"
       "    return NAMES.stream().map(x -> Pattern.compile(x)).toList();\n"
       "  }\n}\n",
       {}},
      {"ruby block over params",
       SourceLanguage::kRuby,
       "def index\n  params[:t].split(',').map { |n| Regexp.new(n) }\n"
       "  params[:u].each do |u|\n    Regexp.new(u)\n  end\n"
       "  NAMES.map { |n| Regexp.new(n) }\nend\n",
       {2, 4}},
      {"ruby block assigns the method's variable",
       SourceLanguage::kRuby,
       "def index\n  p = 'a'\n  [1].each do |i|\n    p = params[:p]\n  end\n"
       "  Regexp.new(p)\nend\n",
       {6}},
      {"javascript callbacks",
       kJs,
       "app.get('/', (req, res) => {\n"
       "  req.query.w.split(',').forEach((w) => new RegExp(w));\n"
       "  WORDS.forEach(w => new RegExp(w));\n"
       "  req.query.v.split(',').map(v => new RegExp(v));\n"
       "  Object.keys(req.body).map(function (k) { return new RegExp(k); });\n"
       "});\n",
       {2, 4, 5}},
      {"python lambda and map",
       kPy,
       "def view():\n    ws = request.args.getlist('w')\n"
       "    a = list(map(lambda w: re.compile(w), ws))\n"
       "    b = list(map(lambda w: re.compile(w), WORDS))\n",
       {3}},
      {"php arrow function",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  $ws = explode(',', $_GET['w']);\n"
       "  array_map(fn ($w) => preg_match(\"/$w/\", 'x'), $ws);\n"
       "  array_map(fn ($w) => preg_match('/' . preg_quote($w) . '/', 'x'), "
       "$ws);\n}\n",
       {4}},
      {"kotlin lambdas: named and it",
       SourceLanguage::kKotlin,
       "fun f(r: HttpServletRequest) {\n"
       "    val ns = r.getParameterValues(\"n\").toList()\n"
       "    ns.map { Regex(it) }\n    ns.forEach { n -> Regex(n) }\n"
       "    listOf(\"a\").map { Regex(it) }\n}\n",
       {3, 4}},
      {"csharp lambda",
       SourceLanguage::kCSharp,
       "class C {\n  int F() {\n    var ts = Request.Query[\"t\"];\n"
       "    return ts.Select(t => new Regex(t)).Count() +\n"
       "        Names.Select(t => new Regex(t)).Count();\n  }\n}\n",
       {4}},
  });
}

TEST(TaintTrackingTest, ConstantTablesLookedUpByRequestValues) {
  ExpectCases({
      {"php table",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  $allowed = ['a' => '/^a/', 'z' => '/^z/'];\n"
       "  $key = $_GET['o'];\n  preg_match($allowed[$key] ?? '/^a/', 'x');\n"
       "  preg_match($allowed[$key] ?? $_GET['d'], 'x');\n}\n",
       {6}},
      {"php table written with a request value",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  $t = ['a' => '/^a/'];\n"
       "  $t['b'] = $_GET['b'];\n  preg_match($t[$_GET['k']], 'x');\n}\n",
       {5}},
      {"python dict and .get",
       kPy,
       "PATTERNS = {'a': r'^a', 'z': r'^z'}\n\ndef view():\n"
       "    k = request.args['k']\n    re.compile(PATTERNS[k])\n"
       "    re.compile(PATTERNS.get(k, request.args['d']))\n"
       "    re.compile(PATTERNS.get(k))\n",
       {6}},
      {"javascript object literal",
       kJs,
       "const ORDERS = { asc: '^a', desc: '^z' };\n"
       "app.get('/', (req, res) => {\n"
       "  new RegExp(ORDERS[req.query.o] || '^a');\n});\n",
       {}},
      {"javascript object holding a variable is no constant table",
       kJs,
       "app.get('/', (req, res) => {\n  const t = { a: req.query.a };\n"
       "  new RegExp(t[req.query.k]);\n});\n",
       {3}},
      {"go map literal",
       SourceLanguage::kGo,
       "var sorts = map[string]string{\"asc\": \"^a\"}\n\n"
       "func h(w http.ResponseWriter, r *http.Request) {\n"
       "\tregexp.MustCompile(sorts[r.FormValue(\"o\")])\n}\n",
       {}},
      {"ruby frozen hash",
       SourceLanguage::kRuby,
       "ORDERS = { 'asc' => '\\\\Aa' }.freeze\n\ndef index\n"
       "  Regexp.new(ORDERS[params[:o]])\n  "
       "Regexp.new(ORDERS.fetch(params[:o]))\nend\n",
       {}},
  });
}

// A file that reads no request value is settled before its walk: the
// request values only inside interpolated strings must still count.
TEST(TaintTrackingTest, RequestValuesOnlyInsideStrings) {
  ExpectCases({
      {"ruby string hole",
       SourceLanguage::kRuby,
       "def index\n  Regexp.new(\"^#{params[:q]}\")\nend\n",
       {2}},
      {"ruby regex literal hole",
       SourceLanguage::kRuby,
       "def index\n  x =~ /^#{params[:q]}/\nend\n",
       {2}},
      {"php string hole",
       SourceLanguage::kPhp,
       "<?php\nfunction f() {\n  preg_match(\"/{$_GET['q']}/\", 'x');\n}\n",
       {3}},
      {"javascript template",
       kJs,
       "app.get('/', (req, res) => {\n  new RegExp(`^${req.query.q}`);\n});\n",
       {2}},
      {"no request value: summaries alone report nothing",
       kJs,
       "function f(p) {\n  return new RegExp(p);\n}\nf(input);\n",
       {}},
  });
}

TEST(TaintTrackingTest, MalformedSourceNeverFails) {
  for (const char* source :
       {"new RegExp(req.query.q", "function f(req) { const q = req.query.q",
        "new RegExp(`${req.query.q", "}}}}new RegExp(req.query.q))))",
        "const = = = req.query;", ""}) {
    FindRegexInjections(source, kJs);
    FindRegexInjections(source, SourceLanguage::kRuby);
    FindRegexInjections(source, SourceLanguage::kPhp);
    FindRegexInjections(source, kPy);
  }
  // An unterminated call still reports nothing it cannot delimit.
  EXPECT_TRUE(FindRegexInjections("new RegExp(req.query.q", kJs).empty());
}

TEST(TaintTrackingTest, ReportsWhereAndWhat) {
  const std::vector<RegexInjection> found = FindRegexInjections(
      "app.get('/', (req, res) => {\n"
      "  const term = req.query.term;\n"
      "  // regexguard: ignore the route is admin-only\n"
      "  const a = new RegExp('^' +  term, 'i');\n"
      "  const b = new RegExp(term);\n"
      "});\n",
      kJs);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].line, 4u);
  EXPECT_EQ(found[0].column, 24u);
  EXPECT_EQ(found[0].sink, "new RegExp");
  EXPECT_EQ(found[0].expression, "'^' + term");
  EXPECT_EQ(found[0].source, "req.query");
  EXPECT_EQ(found[0].source_line, 2u);
  EXPECT_EQ(found[0].dialect, Dialect::kJavaScript);
  EXPECT_FALSE(found[0].linear_engine);
  ASSERT_TRUE(found[0].suppression);
  EXPECT_EQ(*found[0].suppression, "the route is admin-only");
  EXPECT_FALSE(found[1].suppression);

  const std::vector<RegexInjection> go = FindRegexInjections(
      "func h(r *http.Request) "
      "{\n\tregexp.MustCompile(r.FormValue(\"p\"))\n}\n",
      SourceLanguage::kGo);
  ASSERT_EQ(go.size(), 1u);
  EXPECT_TRUE(go[0].linear_engine);
  EXPECT_EQ(go[0].sink, "regexp.MustCompile");
  EXPECT_EQ(go[0].escape_with, "regexp.QuoteMeta");
}

// A minified file is one long line: every finding still gets its own
// column, and the suppression of that line applies to all of them.
TEST(TaintTrackingTest, LongMinifiedLine) {
  std::string source;
  std::vector<std::size_t> columns;
  for (int i = 0; i < 2000; ++i) {
    const std::string handler = "function h" + std::to_string(i) +
                                "(req){var q=req.query.q;new RegExp(q)}";
    columns.push_back(source.size() + handler.find("q)}") + 1);
    source += handler;
  }
  std::vector<RegexInjection> found = FindRegexInjections(source, kJs);
  ASSERT_EQ(found.size(), columns.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(found[i].line, 1u);
    EXPECT_EQ(found[i].column, columns[i]) << i;
    EXPECT_FALSE(found[i].suppression);
  }
  found =
      FindRegexInjections(source + "/* regexguard: ignore generated */", kJs);
  ASSERT_EQ(found.size(), columns.size());
  EXPECT_TRUE(found.front().suppression && found.back().suppression);
}

class InjectionScanTest : public internal::ScanPartsTest {
 protected:
  ScanOptions Options() const {
    ScanOptions options;
    options.paths = {root_.string()};
    options.use_git = false;
    options.no_config = true;
    options.no_cache = true;
    return options;
  }
};

TEST_F(InjectionScanTest, FindingsRulesAndSeverities) {
  Write("app.js",
        "app.get('/', (req, res) => {\n"
        "  const a = /^(x+)+$/;\n"
        "  const b = new RegExp(req.query.q);\n"
        "  const c = new RegExp(req.query.r); // regexguard: ignore admin\n"
        "});\n");
  Write("main.go",
        "func h(r *http.Request) "
        "{\n\tregexp.MustCompile(r.FormValue(\"p\"))\n}\n");
  const Result<ScanReport> report = ScanSources(Options());
  ASSERT_TRUE(report) << report.status().message();
  // The Go injection is a warning (RE2 cannot backtrack), the JavaScript
  // one an error; a file's literals and injections come in position order.
  ASSERT_EQ(report->findings.size(), 4u);
  const Finding& literal = report->findings[0];
  const Finding& injection = report->findings[1];
  const Finding& suppressed = report->findings[2];
  const Finding& go = report->findings[3];
  EXPECT_EQ(literal.rule, "regexguard/exponential");
  EXPECT_FALSE(literal.injection);
  ASSERT_TRUE(injection.injection);
  EXPECT_EQ(injection.rule, "regexguard/injection");
  EXPECT_EQ(injection.severity, Severity::kError);
  EXPECT_EQ(injection.line, 3u);
  EXPECT_EQ(injection.literal.call, "new RegExp");
  EXPECT_EQ(injection.literal.pattern, "req.query.q");
  EXPECT_NE(injection.message.find("request value req.query (line 3)"),
            std::string::npos)
      << injection.message;
  EXPECT_FALSE(injection.verdict);
  EXPECT_TRUE(injection.reported);
  EXPECT_TRUE(suppressed.injection);
  EXPECT_EQ(suppressed.severity, Severity::kNone);
  EXPECT_FALSE(suppressed.reported);
  ASSERT_TRUE(go.injection);
  EXPECT_EQ(go.severity, Severity::kWarning);
  EXPECT_EQ(report->errors, 2u);
  EXPECT_EQ(report->warnings, 1u);
  EXPECT_TRUE(report->failing);
  // The rule is in the catalogue SARIF is written from.
  bool listed = false;
  for (const RuleDescription& rule : ScanRules()) {
    listed = listed || rule.id == "regexguard/injection";
  }
  EXPECT_TRUE(listed);
}

TEST_F(InjectionScanTest, BaselineKeepsKnownInjectionsWhenLinesMove) {
  Write("app.py", "def view():\n    return re.compile(request.args['q'])\n");
  ScanOptions options = Options();
  options.write_baseline = (root_ / "baseline.json").string();
  const Result<ScanReport> written = ScanSources(options);
  ASSERT_TRUE(written) << written.status().message();
  EXPECT_EQ(written->baseline_written, 1u);

  Write("app.py",
        "import re\n\n\ndef view():\n    return re.compile(request.args['q'])\n"
        "\ndef other():\n    return re.compile(request.args['r'])\n");
  options.write_baseline.clear();
  options.baseline = (root_ / "baseline.json").string();
  const Result<ScanReport> applied = ScanSources(options);
  ASSERT_TRUE(applied) << applied.status().message();
  ASSERT_EQ(applied->findings.size(), 2u);
  EXPECT_TRUE(applied->findings[0].baselined);
  EXPECT_FALSE(applied->findings[1].baselined);
  EXPECT_TRUE(applied->findings[1].reported);
  EXPECT_NE(applied->findings[0].fingerprint, applied->findings[1].fingerprint);
  EXPECT_TRUE(applied->failing);
}

TEST_F(InjectionScanTest, SeverityFromOptionsAndConfiguration) {
  Write("app.js",
        "app.get('/', (req, res) => res.send(new RegExp(req.query.q)));\n");
  ScanOptions options = Options();
  options.injection_severity = Severity::kWarning;
  Result<ScanReport> report = ScanSources(options);
  ASSERT_TRUE(report) << report.status().message();
  ASSERT_EQ(report->findings.size(), 1u);
  EXPECT_EQ(report->findings[0].severity, Severity::kWarning);
  EXPECT_FALSE(report->failing);  // the default fail level is error

  options.injection_severity = Severity::kNone;
  report = ScanSources(options);
  ASSERT_TRUE(report);
  EXPECT_TRUE(report->findings.empty());

  // The configuration file's key, and a wrong value named with its line.
  options = Options();
  options.no_config = false;
  options.config_file = Write("off.toml", "injection = \"off\"\n").string();
  report = ScanSources(options);
  ASSERT_TRUE(report) << report.status().message();
  EXPECT_TRUE(report->findings.empty());
  options.config_file = Write("bad.toml", "\ninjection = \"note\"\n").string();
  report = ScanSources(options);
  ASSERT_FALSE(report);
  EXPECT_EQ(report.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(report.status().message().find("bad.toml:2:"), std::string::npos)
      << report.status().message();
}

}  // namespace
}  // namespace robotscan::regexguard
