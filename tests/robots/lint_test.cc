#include "robotscan/robots/lint.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "robotscan/robots/tokenizer.h"

namespace robotscan::robots {
namespace {

// (line, code) pairs of the diagnostics, for compact assertions.
std::set<std::pair<int, std::string>> Codes(std::string_view body) {
  std::set<std::pair<int, std::string>> out;
  for (const Diagnostic& d : LintRobotsTxt(body)) out.emplace(d.line, d.code);
  return out;
}

TEST(Lint, CleanFileHasNoDiagnostics) {
  const auto diagnostics = LintRobotsTxt(
      "# comment\nUser-agent: *\nDisallow: /private\n"
      "Sitemap: https://example.com/sitemap.xml\n");
  EXPECT_TRUE(diagnostics.empty());
  EXPECT_FALSE(HasErrors(diagnostics));
}

TEST(Lint, FindsEachKindOfProblemOnItsLine) {
  const std::string body =
      "Disallow: /early\n"           // 1 rule-outside-group
      "User-agent: Googlebot/2.1\n"  // 2 invalid-agent-token
      "Disalow: /typo\n"             // 3 typo
      "Disallow /nocolon\n"          // 4 missing-colon
      "Foo: bar\n"                   // 5 unknown-directive
      "Sitemap: /sitemap.xml\n"      // 6 relative-sitemap
      "Crawl-delay: soon\n"          // 7 invalid-crawl-delay
      "Disallow: private\n"          // 8 pattern-not-absolute
      "three words here\n"           // 9 unparsable-line
      "Noindex: /x\n"                // 10 unsupported-directive
      "User-agent:\n"                // 11 empty-user-agent
      "Request-rate: lots\n"         // 12 invalid-request-rate
      "Visit-time: noon\n"           // 13 invalid-visit-time
      "Allow: /caf\xE9\n";           // 14 non-utf8
  const auto codes = Codes(body);
  const std::set<std::pair<int, std::string>> expected = {
      {1, "rule-outside-group"},
      {2, "invalid-agent-token"},
      {3, "typo"},
      {4, "missing-colon"},
      {5, "unknown-directive"},
      {6, "relative-sitemap"},
      {7, "invalid-crawl-delay"},
      {8, "pattern-not-absolute"},
      {9, "unparsable-line"},
      {10, "unsupported-directive"},
      {11, "empty-user-agent"},
      {12, "invalid-request-rate"},
      {13, "invalid-visit-time"},
      {14, "non-utf8"},
  };
  EXPECT_EQ(codes, expected);
  EXPECT_TRUE(HasErrors(LintRobotsTxt(body)));
}

TEST(Lint, FileWideFindings) {
  EXPECT_EQ(Codes("<!DOCTYPE html><html><body>Not found</body></html>"),
            (std::set<std::pair<int, std::string>>{{0, "html-body"},
                                                   {1, "unparsable-line"}}));
  EXPECT_TRUE(
      Codes("\xEF\xBB\xBFUser-agent: *\nDisallow: /\n").count({0, "bom"}));
  EXPECT_TRUE(Codes("\xEF\xBBUser-agent: *\n").count({0, "partial-bom"}));
  EXPECT_TRUE(
      Codes("User-agent: *\rDisallow: /\r").count({0, "cr-line-endings"}));
  EXPECT_TRUE(Codes(std::string("User-agent: *\nDisallow: /a\0b\n", 28))
                  .count({2, "nul-byte"}));

  std::string huge = "User-agent: *\n";
  while (huge.size() <= kMinParseLimitBytes) huge += "Disallow: /x\n";
  EXPECT_TRUE(Codes(huge).count({0, "size-limit"}));
  LintOptions whole;
  whole.max_body_bytes = kNoParseLimit;
  for (const Diagnostic& d : LintRobotsTxt(huge, whole)) {
    EXPECT_NE(d.code, "size-limit") << d.message;
  }
  const std::string long_line = "User-agent: *\nDisallow: /" +
                                std::string(kMaxLineBytes + 10, 'a') + "\n";
  EXPECT_TRUE(Codes(long_line).count({2, "line-too-long"}));
}

TEST(Lint, ErrorsWarningsAndInfosAreTiered) {
  for (const Diagnostic& d :
       LintRobotsTxt("\xEF\xBB\xBFUser-agent: *\nFoo: bar\nSitemap: x\n")) {
    if (d.code == "bom") {
      EXPECT_EQ(d.severity, Severity::kInfo);
    } else if (d.code == "unknown-directive") {
      EXPECT_EQ(d.severity, Severity::kWarning);
    } else if (d.code == "relative-sitemap") {
      EXPECT_EQ(d.severity, Severity::kError);
    } else {
      ADD_FAILURE() << "unexpected " << d.code;
    }
  }
  EXPECT_EQ(SeverityName(Severity::kError), "error");
}

}  // namespace
}  // namespace robotscan::robots
