// Attacks that survive V8's shortcuts (proof/engine_shortcuts.h; issue 27,
// item 1), its one-byte code and its quick checks: the rules from tables,
// and the analyzer's JavaScript attacks. Node itself runs such attacks in
// regexguard.EngineVersions.slow (the attacks before ran flat there).
#include "proof/engine_shortcuts.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {
namespace {

struct TwoByteCase {
  const char* id;
  const char* pattern;
  Attack attack;
  const char* appended;  // "" when the attack must stay as it is
};

TEST(EngineShortcutsTest, TwoByteAttackForV8) {
  const TwoByteCase cases[] = {
      {"kanji-literal", "(元|\\d+)年", {"", "0", "a"}, "あ"},
      {"class-above-latin1", "(\\w+)+[あ-ん]$", {"", "a", " "}, "一"},
      // `.` matches every candidate: the first is taken, and measured.
      {"dot-matches-every-candidate", "(\\w+)+。.", {"", "a", " "}, "あ"},
      {"latin1-only", "^(a|é)+$", {"", "a", "b"}, ""},
      {"class-with-latin1", "(\\w+)+[^x]$", {"", "a", " "}, ""},
      {"attack-already-two-byte", "(元|\\d+)年", {"", "0", "aあ"}, ""},
  };
  for (const TwoByteCase& c : cases) {
    ParseOptions options;
    options.dialect = Dialect::kJavaScript;
    Result<ParsedPattern> parsed = ParsePattern(c.pattern, options);
    ASSERT_TRUE(parsed.ok()) << c.id;
    const std::optional<Attack> two_byte =
        TwoByteAttackForV8(*parsed->root, c.attack);
    if (*c.appended == '\0') {
      EXPECT_FALSE(two_byte) << c.id;
      continue;
    }
    ASSERT_TRUE(two_byte) << c.id;
    EXPECT_EQ(two_byte->prefix, c.attack.prefix) << c.id;
    EXPECT_EQ(two_byte->pump, c.attack.pump) << c.id;
    EXPECT_EQ(two_byte->suffix, c.attack.suffix + c.appended) << c.id;
  }
}

struct QuickCheckCase {
  const char* id;
  const char* pattern;
  const char* pump;
  std::vector<std::string> pumps;  // the variants, in order
};

// After a scanning negative lookahead: the next character the pattern
// reads, then one it cannot read after that (or the first alone).
TEST(EngineShortcutsTest, QuickCheckAttacksForV8) {
  const QuickCheckCase cases[] = {
      {"ua-parser-yandex",
       "(yandex(?:(?:mobile)?(?:com|sprav)?bot(?!.+mirror)|image(?:s|"
       "resizer)))\\/([\\w.]+)",
       "yandexbot",
       {"yandexbot//", "yandexbot/"}},
      {"word-after", "foo(?!.+bar)\\/\\w+", "foo", {"foo//", "foo/"}},
      {"repetition-after", "id(?!.*=end)=+;", "id", {"id= ", "id="}},
      {"alternation-after", "x(?!.*y)(?:ab|cd)", "x", {"xa"}},
      {"fixed-lookahead", "^(?!x)(a+)+$", "a", {}},
      {"positive-lookahead", "a(?=.*b)c", "a", {}},
      {"lookbehind", "(?<!x.*)a\\d", "a", {}},
      {"optional-after", "a(?!.*b)c?d", "a", {}},
      {"no-lookahead", "^(a+)+$", "a", {}},
  };
  for (const QuickCheckCase& c : cases) {
    ParseOptions options;
    options.dialect = Dialect::kJavaScript;
    Result<ParsedPattern> parsed = ParsePattern(c.pattern, options);
    ASSERT_TRUE(parsed.ok()) << c.id << ": " << parsed.status().message();
    const std::vector<Attack> variants =
        QuickCheckAttacksForV8(*parsed->root, Attack{"", c.pump, "\n"});
    std::vector<std::string> pumps;
    for (const Attack& variant : variants) {
      EXPECT_EQ(variant.prefix, "") << c.id;
      EXPECT_EQ(variant.suffix, "\n") << c.id;
      pumps.push_back(variant.pump);
    }
    EXPECT_EQ(pumps, c.pumps) << c.id;
  }
}

TEST(EngineShortcutsTest, JavaScriptAttacksPassV8sQuickCheck) {
  AnalyzeOptions options;
  options.parse.dialect = Dialect::kJavaScript;
  const AnalysisReport report = AnalyzePattern("foo(?!.+bar)\\/\\w+", options);
  ASSERT_EQ(report.verdict, Verdict::kPolynomial) << FormatTextReport(report);
  ASSERT_TRUE(report.attack);
  EXPECT_EQ(report.attack->pump, "foo//");
  // Python has no quick check that skips the lookahead: its pump is as
  // found.
  options.parse.dialect = Dialect::kPython;
  const AnalysisReport python = AnalyzePattern("foo(?!.+bar)\\/\\w+", options);
  ASSERT_TRUE(python.attack) << FormatTextReport(python);
  EXPECT_EQ(python.attack->pump, "foo");
}

TEST(EngineShortcutsTest, JavaScriptAttacksAreTwoByteWhereV8WouldPrune) {
  AnalyzeOptions options;
  options.parse.dialect = Dialect::kJavaScript;
  const AnalysisReport report = AnalyzePattern("(元|\\d+)年", options);
  ASSERT_EQ(report.verdict, Verdict::kPolynomial) << FormatTextReport(report);
  ASSERT_TRUE(report.attack);
  EXPECT_EQ(report.attack->pump, "0");
  EXPECT_EQ(report.attack->suffix, "aあ");
  // The reported attack is the one measured on the naive backtracker.
  bool measured = false;
  for (const ConfigVerdict& config : report.configs) {
    if (config.config != EngineConfig::kPcre2Naive) continue;
    EXPECT_EQ(config.attack, report.attack);
    measured = config.Explodes();
  }
  EXPECT_TRUE(measured);

  // Python has no one-byte code: its attack stays Latin-1.
  options.parse.dialect = Dialect::kPython;
  const AnalysisReport python = AnalyzePattern("(元|\\d+)年", options);
  ASSERT_TRUE(python.attack) << FormatTextReport(python);
  EXPECT_EQ(python.attack->suffix, "a");
}

}  // namespace
}  // namespace robotscan::regexguard::internal
