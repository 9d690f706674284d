// Patterns built to break analyzers: thousands of alternatives, deep
// nesting, huge counted repetitions. Each must finish within its budget
// without crashing, and never be called safe when it was not analyzed.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "proof/cpu_budget.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard {
namespace {

struct Timed {
  AnalysisReport report;
  double seconds = 0;  // CPU time of this thread, which the budget bounds
};

Timed AnalyzeTimed(const std::string& pattern, double budget = 1.0) {
  AnalyzeOptions options;
  options.parse.dialect = Dialect::kJavaScript;
  options.time_budget_seconds = budget;
  const double start = internal::ThreadCpuSeconds();
  Timed timed;
  timed.report = AnalyzePattern(pattern, options);
  timed.seconds = internal::ThreadCpuSeconds() - start;
  return timed;
}

// Generous ceiling: the budget is 1 s; sanitizer builds are slow. In CPU
// time of the analyzing thread, like the budget, not wall time, which a
// busy machine stretches at will.
constexpr double kCeilingSeconds = 6.0;

TEST(PathologicalTest, ThousandsOfAlternatives) {
  std::string pattern = "^(?:";
  for (int i = 0; i < 5000; ++i) {
    if (i > 0) pattern += "|";
    pattern += "w" + std::to_string(i);
  }
  pattern += ")+$";
  const Timed timed = AnalyzeTimed(pattern);
  EXPECT_LT(timed.seconds, kCeilingSeconds);
  EXPECT_NE(timed.report.verdict, Verdict::kExponential);
}

TEST(PathologicalTest, ThousandsOfOverlappingAlternativesInALoop) {
  std::string pattern = "^(?:";
  for (int i = 0; i < 3000; ++i) {
    if (i > 0) pattern += "|";
    pattern += "a";
  }
  pattern += ")*$";
  const Timed timed = AnalyzeTimed(pattern);
  EXPECT_LT(timed.seconds, kCeilingSeconds);
  // Either proven exponential or honestly unknown, never "safe".
  EXPECT_NE(timed.report.verdict, Verdict::kSafe);
}

TEST(PathologicalTest, DeepNesting) {
  const std::string deep =
      std::string(200, '(') + "a*" + std::string(200, ')') + "!";
  const Timed nested = AnalyzeTimed(deep);
  EXPECT_LT(nested.seconds, kCeilingSeconds);
  const std::string too_deep =
      std::string(20000, '(') + "a" + std::string(20000, ')');
  const Timed refused = AnalyzeTimed(too_deep);
  EXPECT_EQ(refused.report.verdict, Verdict::kUnknown);
  ASSERT_TRUE(refused.report.error.has_value());
  EXPECT_EQ(refused.report.error->code(), StatusCode::kUnsupported);
}

TEST(PathologicalTest, HugeCountedRepetitions) {
  const char* patterns[] = {
      "^(a{1,65535}){1,65535}$",
      "^[a-z]{0,60000}[a-z]{0,60000}!$",
      "(?:(?:(?:x{1000}){1000}){1000})",
      "^(\\d{1,3}\\.){65535}$",
  };
  for (const char* pattern : patterns) {
    const Timed timed = AnalyzeTimed(pattern);
    EXPECT_LT(timed.seconds, kCeilingSeconds) << pattern;
  }
}

TEST(PathologicalTest, HugeLiteralAndClass) {
  const std::string literal(50000, 'x');
  EXPECT_LT(AnalyzeTimed(literal).seconds, kCeilingSeconds);
  std::string big_class = "[";
  for (int c = 0x100; c < 0x3000; c += 3) {
    char escape[8];
    std::snprintf(escape, sizeof escape, "\\u%04x", c);
    big_class += escape;
  }
  big_class += "]+$";
  EXPECT_LT(AnalyzeTimed(big_class).seconds, kCeilingSeconds);
}

}  // namespace
}  // namespace robotscan::regexguard
