// C# regex literal extraction: regular, verbatim and raw string literals,
// interpolated strings not taken, Regex constructions, static methods with
// the pattern as second argument, RegexOptions and [GeneratedRegex].
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kCSharp);
}

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractCSharpTest, DecodesLiteralsExactly) {
  const DecodeCase cases[] = {
      {"regular", R"(new Regex("\\d+\t\x41\u00e9\"");)", "\\d+\tA\xc3\xa9\""},
      {"short_hex", R"(new Regex("\x9Z");)", "\tZ"},
      {"verbatim", R"(new Regex(@"\d+ ""q"" \w");)", R"(\d+ "q" \w)"},
      {"verbatim_multi_line", "new Regex(@\"a\n\\s\");", "a\n\\s"},
      {"raw_single_line", R"(new Regex("""a"b\d""");)", R"(a"b\d)"},
      {"raw_multi_line",
       "new Regex(\"\"\"\n"
       "      (\\w+)\n"
       "        \"\\s\"\n"
       "      \"\"\");",
       "(\\w+)\n  \"\\s\""},
      {"qualified", R"(new System.Text.RegularExpressions.Regex("q+");)", "q+"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kDotNet) << c.id;
  }
}

TEST(ExtractCSharpTest, CallsOptionsAndMarkers) {
  const std::string source =
      "#region Don't parse this apostrophe\n"
      "// new Regex(\"(a+)+\")\n"
      "/* Regex.IsMatch(s, \"(b+)+\") */\n"
      "var fake = \"new Regex(\\\"(c+)+\\\")\";\n"
      "var d = new Regex($\"{prefix}(d+)+\");\n"
      "var e = new Regex($@\"{x}\\d\");\n"
      "var f = new Regex(\"^(f|f)*$\",\n"
      "    RegexOptions.IgnoreCase | RegexOptions.Multiline);\n"
      "bool g = Regex.IsMatch(Get(\"not, a pattern\"), @\"\\s+$\");\n"
      "var h = Regex.Replace(input, \"h+\", \"x\", RegexOptions.Singleline);\n"
      "var i = Regex.Split(input, \",\\\\s*\");\n"
      "var j = new Regex(\"j+\", RegexOptions.NonBacktracking);\n"
      "var k = Regex.Escape(\"(k+)+\");\n"
      "[GeneratedRegex(\"l+\", RegexOptions.IgnorePatternWhitespace)]\n"
      "private static partial Regex L();\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 6u);
  EXPECT_EQ(found[0].pattern, "^(f|f)*$");
  EXPECT_EQ(found[0].call, "new Regex");
  EXPECT_EQ(found[0].line, 7u);
  EXPECT_EQ(found[0].column, 19u);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_TRUE(found[0].flags.multiline);
  EXPECT_FALSE(found[0].flags.dot_all);
  EXPECT_FALSE(found[0].flags.global);
  EXPECT_EQ(found[1].pattern, "\\s+$");
  EXPECT_EQ(found[1].call, "Regex.IsMatch");
  EXPECT_EQ(found[1].column, 47u);
  EXPECT_FALSE(found[1].flags.global);
  EXPECT_EQ(found[2].pattern, "h+");
  EXPECT_TRUE(found[2].flags.global);
  EXPECT_TRUE(found[2].flags.dot_all);
  EXPECT_EQ(found[3].pattern, ",\\s*");
  EXPECT_EQ(found[3].call, "Regex.Split");
  EXPECT_TRUE(found[3].flags.global);
  EXPECT_EQ(found[4].pattern, "j+");
  EXPECT_TRUE(found[4].informational);  // the linear-time engine
  EXPECT_FALSE(found[3].informational);
  EXPECT_EQ(found[5].call, "GeneratedRegex");
  EXPECT_TRUE(found[5].flags.extended);
}

// A call nested in an earlier argument of another is read first but comes
// later in the source: literals are still reported in source order (found
// by the extraction fuzzer).
TEST(ExtractCSharpTest, NestedCallsComeOutInSourceOrder) {
  const std::vector<RegexLiteral> found = Extract(
      "x = Regex.Replace(Regex.Replace(s, \"a+\", \"\"), \"b+\", \"\");");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].pattern, "a+");
  EXPECT_EQ(found[1].pattern, "b+");
  EXPECT_LT(found[0].offset, found[1].offset);
  EXPECT_LT(found[0].column, found[1].column);
}

TEST(ExtractCSharpTest, SuppressionAndUnterminatedInput) {
  const std::string source =
      "var a = new Regex(\"(a+)+\"); // regexguard: ignore test only\n"
      "var b = new Regex(\"\"\"never closed\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "test only");
  EXPECT_EQ(LanguageForPath("Program.cs"), SourceLanguage::kCSharp);
  EXPECT_EQ(SourceLanguageName(SourceLanguage::kCSharp), "csharp");
}

}  // namespace
}  // namespace robotscan::regexguard
