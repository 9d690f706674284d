// Go regex literal extraction: interpreted and raw strings; always
// informational because Go's regexp (RE2) runs in linear time.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

TEST(ExtractGoTest, InterpretedAndRawStrings) {
  const std::string source =
      "package main\n"
      "// regexp.MustCompile(\"(a+)+\")\n"
      "var a = regexp.MustCompile(\"\\\\d+\\t\")\n"
      "var b = regexp.MustCompile(`(\\w+\n)+`)\n"
      "var c = regexp.MustCompile(\"a\" + x)\n"
      "var d = regexp.QuoteMeta(\"a+\")\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kGo);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].pattern, "\\d+\t");
  EXPECT_EQ(found[0].line, 3u);
  EXPECT_EQ(found[0].column, 28u);
  EXPECT_EQ(found[1].pattern, "(\\w+\n)+");
  for (const RegexLiteral& literal : found) {
    EXPECT_EQ(literal.dialect, Dialect::kGo);
    EXPECT_TRUE(literal.informational);
    EXPECT_EQ(literal.call, "regexp.MustCompile");
  }
}

}  // namespace
}  // namespace robotscan::regexguard
