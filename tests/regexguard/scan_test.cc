// ScanSources and its policy (scan.h): severities and rules per verdict,
// findings with their attack and fingerprint, baselines written and
// applied, errors as values. Runs on a temporary folder without git, the
// configuration file or the persistent cache.
#include "robotscan/regexguard/scan.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan_parts_fixture.h"

namespace robotscan::regexguard {
namespace {

using internal::ScanPartsTest;

TEST(ClassifyVerdictTest, SeverityAndRulePerVerdict) {
  PatternVerdict exponential;
  exponential.verdict = Verdict::kExponential;
  PatternVerdict quadratic;
  quadratic.verdict = Verdict::kPolynomial;
  quadratic.degree = 2;
  quadratic.cause = Cause::kBacktracking;
  PatternVerdict cubic_restart = quadratic;
  cubic_restart.degree = 3;
  cubic_restart.cause = Cause::kSearchRestart;
  PatternVerdict ran_out;
  ran_out.reason = "budget exceeded: time ran out";
  ran_out.reason_code = StatusCode::kBudgetExceeded;
  PatternVerdict naive_only;
  naive_only.naive_only_growth = "exponential";
  PatternVerdict unknown;
  unknown.reason = "no attack confirmed";
  PatternVerdict safe;
  safe.verdict = Verdict::kSafe;
  const struct {
    const char* id;
    PatternVerdict verdict;
    Severity polynomial;
    Severity severity;
    const char* rule;
    const char* message;
  } kCases[] = {
      {"exp", exponential, Severity::kWarning, Severity::kError,
       "regexguard/exponential", "exponential backtracking (ReDoS)"},
      {"quad", quadratic, Severity::kWarning, Severity::kWarning,
       "regexguard/polynomial", "quadratic backtracking (ReDoS)"},
      {"quad as error", quadratic, Severity::kError, Severity::kError,
       "regexguard/polynomial", "quadratic backtracking (ReDoS)"},
      {"restart", cubic_restart, Severity::kError, Severity::kWarning,
       "regexguard/search-restart",
       "polynomial (degree 3) backtracking from the search loop"},
      {"budget", ran_out, Severity::kWarning, Severity::kWarning,
       "regexguard/budget-exceeded",
       "analysis budget exceeded (time ran out), not proven safe"},
      {"naive", naive_only, Severity::kWarning, Severity::kNote,
       "regexguard/naive-only", nullptr},
      {"unknown", unknown, Severity::kWarning, Severity::kNote,
       "regexguard/unknown", "verdict unknown (no attack confirmed)"},
      {"safe", safe, Severity::kError, Severity::kNone, "", ""},
  };
  for (const auto& c : kCases) {
    const Classification got = ClassifyVerdict(c.verdict, c.polynomial);
    EXPECT_EQ(got.severity, c.severity) << c.id;
    EXPECT_EQ(got.rule, c.rule) << c.id;
    if (c.message != nullptr) {
      EXPECT_EQ(got.message, c.message) << c.id;
    }
  }
  // Every rule a classification gives is in the catalogue.
  for (const auto& c : kCases) {
    const std::string rule = ClassifyVerdict(c.verdict, c.polynomial).rule;
    if (rule.empty()) continue;
    bool listed = false;
    for (const RuleDescription& described : ScanRules()) {
      listed = listed || described.id == rule;
    }
    EXPECT_TRUE(listed) << rule;
  }
}

TEST(SeverityTest, NamesRoundTrip) {
  for (Severity severity :
       {Severity::kNote, Severity::kWarning, Severity::kError}) {
    EXPECT_EQ(SeverityFromName(SeverityName(severity)), severity);
  }
  EXPECT_FALSE(SeverityFromName("fatal"));
  EXPECT_LT(Severity::kWarning, Severity::kError);
}

class ScanSourcesTest : public ScanPartsTest {
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

TEST_F(ScanSourcesTest, FindingsCarryRuleAttackAndFingerprint) {
  Write("app.py",
        "import re\n"
        "SAFE = re.compile(r'^[a-z]+$')\n"
        "BAD = re.compile(r'^(a+)+$')\n"
        "OK = re.compile(r'^(a+)+$')  # regexguard: ignore tested elsewhere\n");
  Write("main.go", "var r = regexp.MustCompile(`(a+)+`)\n");
  ScanOptions options = Options();
  const Result<ScanReport> report = ScanSources(options);
  ASSERT_TRUE(report) << report.status().message();
  EXPECT_EQ(report->files, 2u);
  // The Go literal is informational: listed only with show_info.
  ASSERT_EQ(report->findings.size(), 3u);
  const Finding& safe = report->findings[0];
  const Finding& bad = report->findings[1];
  const Finding& suppressed = report->findings[2];
  EXPECT_EQ(safe.severity, Severity::kNone);
  EXPECT_FALSE(safe.reported);
  ASSERT_TRUE(safe.verdict);
  EXPECT_EQ(safe.verdict->verdict, Verdict::kSafe);

  EXPECT_EQ(bad.line, 3u);
  EXPECT_EQ(bad.column, 18u);
  EXPECT_EQ(bad.severity, Severity::kError);
  EXPECT_EQ(bad.rule, "regexguard/exponential");
  EXPECT_EQ(bad.message,
            "exponential backtracking (ReDoS) in regex \"^(a+)+$\" "
            "(re.compile, python)");
  EXPECT_TRUE(bad.reported);
  ASSERT_TRUE(bad.attack);
  EXPECT_FALSE(bad.attack_on_naive_backtracker);
  EXPECT_EQ(DescribeAttack(bad).rfind("attack: ", 0), 0u);
  EXPECT_EQ(bad.fingerprint.size(), 16u);

  EXPECT_TRUE(suppressed.literal.suppression);
  EXPECT_FALSE(suppressed.verdict);
  EXPECT_FALSE(suppressed.reported);
  // The same pattern twice is analyzed once; the suppressed one not at all.
  EXPECT_EQ(report->distinct, 2u);
  EXPECT_EQ(report->errors, 1u);
  EXPECT_TRUE(report->failing);

  options.show_info = true;
  const Result<ScanReport> with_info = ScanSources(options);
  ASSERT_TRUE(with_info);
  ASSERT_EQ(with_info->findings.size(), 4u);
  const Finding& go = with_info->findings[3];
  EXPECT_EQ(go.rule, "regexguard/info");
  EXPECT_EQ(go.severity, Severity::kNote);
  EXPECT_TRUE(go.reported);
  EXPECT_EQ(with_info->notes, 1u);

  options.show_info = false;
  options.fail_level = Severity::kNote;
  options.paths = {(root_ / "app.py").string()};
  EXPECT_TRUE(ScanSources(options)->failing);
}

TEST_F(ScanSourcesTest, BaselineAcceptsKnownFindingsOnly) {
  Write("a.py", "import re\nre.match(r'(x+)+y', s)\n");
  ScanOptions options = Options();
  options.write_baseline = (root_ / "baseline.json").string();
  const Result<ScanReport> written = ScanSources(options);
  ASSERT_TRUE(written) << written.status().message();
  EXPECT_EQ(written->baseline_written, 1u);
  EXPECT_FALSE(written->failing);

  // Lines move, a second copy appears: the first is known, the copy new.
  Write("a.py",
        "import re\n\n\nre.match(r'(x+)+y', s)\nre.match(r'(x+)+y', t)\n");
  options.write_baseline.clear();
  options.baseline = (root_ / "baseline.json").string();
  const Result<ScanReport> applied = ScanSources(options);
  ASSERT_TRUE(applied) << applied.status().message();
  EXPECT_TRUE(applied->baseline_applied);
  ASSERT_EQ(applied->findings.size(), 2u);
  EXPECT_TRUE(applied->findings[0].baselined);
  EXPECT_FALSE(applied->findings[0].reported);
  EXPECT_FALSE(applied->findings[1].baselined);
  EXPECT_TRUE(applied->findings[1].reported);
  EXPECT_EQ(applied->baselined, 1u);
  EXPECT_TRUE(applied->failing);
  // The fingerprint ignores the line too.
  EXPECT_EQ(applied->findings[0].fingerprint, applied->findings[1].fingerprint);
}

TEST_F(ScanSourcesTest, ErrorsAreValues) {
  ScanOptions options = Options();
  options.paths = {(root_ / "absent").string()};
  const Result<ScanReport> absent = ScanSources(options);
  ASSERT_FALSE(absent);
  EXPECT_EQ(absent.status().code(), StatusCode::kIoError);

  options = Options();
  options.no_config = false;
  options.config_file = Write("bad.toml", "fail-level = 3\n").string();
  const Result<ScanReport> bad_config = ScanSources(options);
  ASSERT_FALSE(bad_config);
  EXPECT_EQ(bad_config.status().code(), StatusCode::kInvalidArgument);

  options = Options();
  options.baseline = (root_ / "no-baseline.json").string();
  Write("a.py", "import re\nre.compile('(a|a)*b')\n");
  const Result<ScanReport> no_baseline = ScanSources(options);
  ASSERT_FALSE(no_baseline);
  EXPECT_EQ(no_baseline.status().message(),
            "cannot read baseline '" + options.baseline + "'");
}

}  // namespace
}  // namespace robotscan::regexguard
