#include "robotscan/robots/tokenizer.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "test_data.h"

namespace robotscan::robots {
namespace {

using testing::DecodedField;
using testing::ReadJsonLines;

// Mirrors Google's RobotsParsingReporter: counts the directives it
// recognises and records every line.
class Reporter : public LineListener {
 public:
  void OnLine(const Line& line) override {
    lines[line.number] = line;
    last_line_seen = std::max(last_line_seen, line.number);
    if (!line.has_directive) return;
    last_directive_line = line.number;
    switch (line.directive) {
      case Directive::kUserAgent:
      case Directive::kAllow:
      case Directive::kDisallow:
        ++valid_directives;
        break;
      case Directive::kSitemap:
        ++valid_directives;
        sitemap += std::string(line.value);
        break;
      default:
        ++unknown_directives;
    }
  }
  // Google's tag names: known-but-unused keys are "Unused".
  static std::string TagName(const Line& line) {
    if (!line.has_directive) return "Unknown";
    switch (line.directive) {
      case Directive::kUserAgent:
        return "UserAgent";
      case Directive::kAllow:
        return "Allow";
      case Directive::kDisallow:
        return "Disallow";
      case Directive::kSitemap:
        return "Sitemap";
      case Directive::kCrawlDelay:
      case Directive::kHost:
      case Directive::kCleanParam:
      case Directive::kNoindex:
      case Directive::kNofollow:
      case Directive::kNoarchive:
        // Google's kUnsupportedTags, matched on the exact lower-case key.
        return line.is_acceptable_typo ? "Unknown" : "Unused";
      default:
        return "Unknown";
    }
  }
  std::map<int, Line> lines;
  int valid_directives = 0;
  int unknown_directives = 0;
  int last_line_seen = 0;       // Any line (Google's line reporter).
  int last_directive_line = 0;  // key: value lines (Google's parser test).
  std::string sitemap;
};

TEST(GoogleOtherCases, ParserCountsAndLineReports) {
  int checked = 0;
  for (const auto& record : ReadJsonLines("google-robotstxt-other.jsonl")) {
    const std::string kind = record.at("kind").get<std::string>();
    if (kind != "ParseRobotsTxt:counts" &&
        kind != "ParseRobotsTxt:line_report") {
      continue;
    }
    ++checked;
    const std::string id = record.at("id").get<std::string>();
    const std::string body = DecodedField(record, "input");
    Reporter reporter;
    TokenizeRobotsTxt(body, reporter);
    const auto& expected = record.at("expected");
    if (expected.contains("valid_directives")) {
      EXPECT_EQ(reporter.valid_directives, expected["valid_directives"]) << id;
    }
    if (expected.contains("unknown_directives")) {
      EXPECT_EQ(reporter.unknown_directives, expected["unknown_directives"])
          << id;
    }
    if (expected.contains("last_line_seen")) {
      // "counts" records count directive lines, "line_report" every line.
      EXPECT_EQ(kind == "ParseRobotsTxt:counts" ? reporter.last_directive_line
                                                : reporter.last_line_seen,
                expected["last_line_seen"])
          << id;
    }
    if (expected.contains("sitemap")) {
      EXPECT_EQ(reporter.sitemap, expected["sitemap"]) << id;
    }
    if (expected.value("every_line_reported", false)) {
      EXPECT_EQ(static_cast<int>(reporter.lines.size()),
                reporter.last_line_seen)
          << id;
    }
    if (!expected.contains("lines")) continue;
    for (const auto& [number, want] : expected["lines"].items()) {
      const int n = std::stoi(number);
      ASSERT_TRUE(reporter.lines.count(n)) << id << " line " << n;
      const Line& line = reporter.lines[n];
      const std::string where = id + " line " + number;
      EXPECT_EQ(Reporter::TagName(line), want["tag_name"]) << where;
      EXPECT_EQ(line.is_acceptable_typo, want["is_typo"]) << where;
      EXPECT_EQ(line.is_empty, want["is_empty"]) << where;
      EXPECT_EQ(line.has_comment, want["has_comment"]) << where;
      EXPECT_EQ(line.is_comment, want["is_comment"]) << where;
      EXPECT_EQ(line.has_directive, want["has_directive"]) << where;
      EXPECT_EQ(line.is_line_too_long, want["is_line_too_long"]) << where;
      EXPECT_EQ(line.is_missing_colon_separator,
                want["is_missing_colon_separator"])
          << where;
    }
  }
  EXPECT_EQ(checked, 12 + 4);
}

class Collector : public LineListener {
 public:
  void OnLine(const Line& line) override { lines.push_back(line); }
  void OnEnd(const BodySummary& s) override { summary = s; }
  std::vector<Line> lines;
  BodySummary summary;
};

TEST(Tokenizer, LineEndingsAreCountedByStyle) {
  Collector c;
  TokenizeRobotsTxt("a: 1\nb: 2\r\nc: 3\rd: 4", c);
  ASSERT_EQ(c.lines.size(), 4u);
  EXPECT_EQ(c.summary.lf_endings, 1u);
  EXPECT_EQ(c.summary.crlf_endings, 1u);
  EXPECT_EQ(c.summary.cr_endings, 1u);
  EXPECT_TRUE(c.lines[1].ends_with_crlf);
  EXPECT_TRUE(c.lines[2].ends_with_cr);
  EXPECT_EQ(c.lines[3].key, "d");
  EXPECT_EQ(c.lines[3].offset, 16u);
}

TEST(Tokenizer, PartialBomIsSkippedOnlyAtTheStart) {
  Collector c;
  const std::string body =
      std::string("\xEF\xBB") + "User-agent: x\n" + "\xEF\xBB\xBF" + "Allow: /";
  TokenizeRobotsTxt(body, c);
  EXPECT_EQ(c.summary.bom_bytes, 2u);
  EXPECT_EQ(c.lines[0].directive, Directive::kUserAgent);
  EXPECT_EQ(c.lines[1].directive, Directive::kUnknown);
}

TEST(Tokenizer, NulByteEndsTheLineContent) {
  Collector c;
  const std::string body("Disallow: /a\0b\nAllow: /c", 24);
  TokenizeRobotsTxt(body, c);
  ASSERT_EQ(c.lines.size(), 2u);
  EXPECT_TRUE(c.lines[0].has_nul_byte);
  EXPECT_EQ(c.lines[0].value, "/a");
  EXPECT_EQ(c.lines[1].value, "/c");
}

TEST(Tokenizer, LongLinesAreCutAtGooglesLimit) {
  const std::string body = "Disallow: /" + std::string(20000, 'a');
  Collector c;
  TokenizeRobotsTxt(body, c);
  ASSERT_EQ(c.lines.size(), 1u);
  EXPECT_TRUE(c.lines[0].is_line_too_long);
  EXPECT_EQ(c.lines[0].text.size(), kMaxLineBytes);
}

TEST(Tokenizer, ExtensionKeysAreClassified) {
  bool typo = false;
  EXPECT_EQ(ClassifyKey("Crawl-delay", &typo), Directive::kCrawlDelay);
  EXPECT_FALSE(typo);
  EXPECT_EQ(ClassifyKey("crawldelay", &typo), Directive::kCrawlDelay);
  EXPECT_TRUE(typo);
  EXPECT_EQ(ClassifyKey("Request-rate", &typo), Directive::kRequestRate);
  EXPECT_EQ(ClassifyKey("visit-time", &typo), Directive::kVisitTime);
  EXPECT_EQ(ClassifyKey("HOST", &typo), Directive::kHost);
  EXPECT_EQ(ClassifyKey("Clean-param", &typo), Directive::kCleanParam);
  EXPECT_EQ(ClassifyKey("user-agentfoo", &typo), Directive::kUserAgent);
  EXPECT_EQ(ClassifyKey("unicorns", &typo), Directive::kUnknown);
}

}  // namespace
}  // namespace robotscan::robots
