// One tokenizer pass feeding several listeners (LineFanOut) gives exactly
// what RobotsTxt::Parse and LintRobotsTxt give on their own passes: the
// report reads each body once on this promise (issue 25, item 4).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "robotscan/robots/lint.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/tokenizer.h"
#include "test_data.h"

namespace robotscan::robots {
namespace {

// Everything a RobotsTxt exposes about its reading, as text, so that two
// readings compare with one EXPECT_EQ that shows the difference.
std::string Describe(const RobotsTxt& robots,
                     const std::vector<std::string>& urls) {
  std::string out = "compat=" + std::string(CompatName(robots.compat())) +
                    " bytes=" + std::to_string(robots.body_bytes()) +
                    " ignored=" + std::to_string(robots.ignored_bytes()) +
                    " lines=" + std::to_string(robots.line_count()) + "\n";
  std::set<std::string> agents = {"*", "FooBot", "googlebot", "Bingbot"};
  for (const Group& group : robots.groups()) {
    out += "group line " + std::to_string(group.first_line) + ":";
    for (const std::string& token : group.tokens) {
      out += " " + token;
      agents.insert(token);
    }
    for (const Rule& rule : group.rules) {
      out += "\n  " + std::to_string(rule.line) +
             (rule.kind == RuleKind::kAllow ? " allow " : " disallow ") +
             rule.pattern + " -> " + rule.match_pattern;
    }
    if (group.crawl_delay) {
      out += "\n  crawl-delay " + std::to_string(*group.crawl_delay);
    }
    for (const std::string& host : group.hosts) out += "\n  host " + host;
    for (const UnknownDirective& unknown : group.unknown) {
      out += "\n  unknown " + unknown.key;
    }
    out += "\n";
  }
  for (const Sitemap& sitemap : robots.sitemaps()) {
    out += "sitemap " + std::to_string(sitemap.line) + " " + sitemap.url + "\n";
  }
  for (const std::string& host : robots.hosts()) out += "host " + host + "\n";
  for (const UnknownDirective& unknown : robots.unknown_directives()) {
    out += "unknown " + unknown.key + "\n";
  }
  for (const Rule& rule : robots.rules_outside_groups()) {
    out += "orphan " + std::to_string(rule.line) + " " + rule.pattern + "\n";
  }
  for (const std::string& agent : agents) {
    for (const std::string& url : urls) {
      const MatchResult result = robots.Check(agent, url);
      out += agent + " " + url + " " + (result.allowed ? "allow" : "disallow") +
             " line " + std::to_string(result.line) + "\n";
    }
  }
  return out;
}

std::string Describe(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics) {
    out += std::to_string(d.line) + " " +
           std::string(SeverityName(d.severity)) + " " + d.code + " " +
           d.message + "\n";
  }
  return out;
}

// Reads `body` once for the rfc and google readings and the lint, and
// compares each with its own pass.
void ExpectOnePassEqualsSeparatePasses(const std::string& body,
                                       const std::vector<std::string>& urls,
                                       const std::string& label) {
  ParseOptions rfc_options;
  ParseOptions google_options;
  google_options.compat = Compat::kGoogle;
  RobotsTxtBuilder rfc(body, rfc_options);
  RobotsTxtBuilder google(body, google_options);
  RobotsTxtLinter linter(body);
  ASSERT_EQ(rfc.parsed_body(), google.parsed_body()) << label;
  ASSERT_EQ(rfc.parsed_body(), linter.parsed_body()) << label;
  LineFanOut all({&rfc, &google, &linter});
  TokenizeRobotsTxt(rfc.parsed_body(), all);

  EXPECT_EQ(Describe(std::move(rfc).Finish(), urls),
            Describe(RobotsTxt::Parse(body, rfc_options), urls))
      << label;
  EXPECT_EQ(Describe(std::move(google).Finish(), urls),
            Describe(RobotsTxt::Parse(body, google_options), urls))
      << label;
  EXPECT_EQ(Describe(std::move(linter).Finish()), Describe(LintRobotsTxt(body)))
      << label;
}

TEST(OnePassTest, EveryConformanceBody) {
  int bodies = 0;
  for (const char* file :
       {"google-robotstxt-cases.jsonl", "google-spec-test-cases.jsonl",
        "texting-robots-cases.jsonl"}) {
    for (const auto& record : testing::ReadJsonLines(file)) {
      if (!record.contains("robots_txt")) continue;
      const std::string body = testing::DecodedField(record, "robots_txt");
      std::vector<std::string> urls = {"/", "/robots.txt", "/a/b?c=d"};
      if (record.contains("url")) {
        urls.push_back(testing::DecodedField(record, "url"));
      }
      ExpectOnePassEqualsSeparatePasses(body, urls,
                                        record.value("id", std::string()));
      ++bodies;
    }
  }
  EXPECT_GT(bodies, 300);
}

TEST(OnePassTest, BodiesWithEveryKindOfLine) {
  const std::vector<std::string> urls = {"/", "/private/x", "/p%41th", "/ünï",
                                         "/a?b"};
  for (const std::string& body : std::vector<std::string>{
           std::string("\xEF\xBB\xBFUser-agent: *\r\nDisallow: /private\r\n"),
           std::string("<html><body>not found</body></html>\n"),
           std::string("Crawl-delay: 4\nUser-agent: a\nCrawl-delay: 1\n"
                       "User-agent: b\nDisallow: /x\nSitemap: "
                       "https://e.example/s.xml\nHost: e.example\n"),
           std::string("Disallow: /before\nuseragent FooBot\ndisalow /p\n"),
           std::string("User-agent: *\nDisallow: /a\0b\nAllow: /\xff\n", 36),
           std::string("User-agent: *\n") + std::string(20000, 'x') +
               "\nDisallow: /z\rAllow: /z/y\n",
           std::string(),
       }) {
    ExpectOnePassEqualsSeparatePasses(body, urls, body.substr(0, 40));
  }
}

// Past the parse limit every reader stops at the same line end.
TEST(OnePassTest, ABodyPastTheParseLimit) {
  std::string body = "User-agent: *\n";
  while (body.size() < kMinParseLimitBytes + 1000) {
    body += "Disallow: /" + std::to_string(body.size()) + "\n";
  }
  body += "Disallow: /\n";
  RobotsTxtBuilder rfc(body, {});
  EXPECT_LT(rfc.parsed_body().size(), body.size());
  ExpectOnePassEqualsSeparatePasses(body, {"/", "/14"}, "long body");
}

// urllib's reading splits lines as CPython does: its builder ignores the
// tokenizer's events and reads the body in Finish.
TEST(OnePassTest, UrllibReadsTheBodyItself) {
  const std::string body =
      "User-agent: *\nDisallow: /x\x0b"
      "Disallow: /y\n\nUser-agent: FooBot\nAllow: /\n";
  ParseOptions options;
  options.compat = Compat::kUrllib;
  RobotsTxtBuilder builder(body, options);
  EXPECT_EQ(builder.parsed_body(), body);
  TokenizeRobotsTxt(builder.parsed_body(), builder);
  const std::vector<std::string> urls = {"/x", "/y", "/z"};
  EXPECT_EQ(Describe(std::move(builder).Finish(), urls),
            Describe(RobotsTxt::Parse(body, options), urls));
}

TEST(OnePassTest, TheFanOutForwardsInOrder) {
  struct Recorder : LineListener {
    Recorder(std::vector<std::string>* into, std::string called)
        : log(into), name(std::move(called)) {}
    void OnLine(const Line& line) override {
      log->push_back(name + ":" + std::to_string(line.number));
    }
    void OnEnd(const BodySummary& summary) override {
      log->push_back(name + ":end" + std::to_string(summary.line_count));
    }
    std::vector<std::string>* log;
    std::string name;
  };
  std::vector<std::string> log;
  Recorder a(&log, "a");
  Recorder b(&log, "b");
  Recorder c(&log, "c");
  LineFanOut all({&a, &b});
  all.Add(&c);
  TokenizeRobotsTxt("x\ny", all);
  EXPECT_EQ(log,
            (std::vector<std::string>{"a:1", "b:1", "c:1", "a:2", "b:2", "c:2",
                                      "a:end2", "b:end2", "c:end2"}));
}

}  // namespace
}  // namespace robotscan::robots
