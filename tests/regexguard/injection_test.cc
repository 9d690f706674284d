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
