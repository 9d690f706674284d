// Rust regex literal extraction: string and raw string decoding, nested
// comments, lifetimes, the regex crate (informational) versus fancy_regex.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kRust);
}

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractRustTest, DecodesLiteralsExactly) {
  const DecodeCase cases[] = {
      {"escapes", R"(Regex::new("\\d+\t\x41\u{e9}\"");)", "\\d+\tA\xc3\xa9\""},
      {"raw", R"(Regex::new(r"\d+\.\w");)", R"(\d+\.\w)"},
      {"raw_hashes", R"rs(Regex::new(r#"a"(b)"#);)rs", R"(a"(b))"},
      {"raw_two_hashes", R"rs(Regex::new(r##"x"#y"##);)rs", R"(x"#y)"},
      {"continuation", "Regex::new(\"ab\\\n      cd\");", "abcd"},
      {"multi_line_raw", "Regex::new(r\"(?x)\n  a+\n\");", "(?x)\n  a+\n"},
      {"crate_path", R"(regex::bytes::Regex::new(r"\xff"))", R"(\xff)"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kGo) << c.id;
    EXPECT_TRUE(found[0].informational) << c.id;
  }
}

TEST(ExtractRustTest, CommentsLifetimesAndNonConstants) {
  const std::string source =
      "/* outer /* Regex::new(\"(a+)+\") */ still */\n"
      "// Regex::new(\"(b+)+\")\n"
      "fn f<'a>(s: &'a str) -> char { let q = '\"'; 'x' }\n"
      "let fake = \"Regex::new(\\\"(c+)+\\\")\";\n"
      "let d = Regex::new(&format!(\"{}+\", x));\n"
      "let e = Regex::new(\"(e+)+\".trim());\n"
      "let g = Regex::new(r\"ok\").unwrap();\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pattern, "ok");
  EXPECT_EQ(found[0].line, 7u);
  EXPECT_EQ(found[0].column, 20u);
  EXPECT_EQ(found[0].call, "Regex::new");
}

TEST(ExtractRustTest, FancyRegexAndBuilderFlags) {
  const std::string source =
      "let a = fancy_regex::Regex::new(r\"(a+)+(?=b)\")?;\n"
      "let b = regex::RegexBuilder::new(r\"^b+$\")\n"
      "    .case_insensitive(true)\n"
      "    .multi_line(true)\n"
      "    .size_limit(1 << 20)\n"
      "    .dot_matches_new_line(false)\n"
      "    .build()?;\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].call, "fancy_regex::Regex::new");
  EXPECT_EQ(found[0].dialect, Dialect::kPcre);
  EXPECT_FALSE(found[0].informational);
  EXPECT_EQ(found[1].call, "regex::RegexBuilder::new");
  EXPECT_EQ(found[1].dialect, Dialect::kGo);
  EXPECT_TRUE(found[1].informational);
  EXPECT_TRUE(found[1].flags.case_insensitive);
  EXPECT_TRUE(found[1].flags.multiline);
  EXPECT_FALSE(found[1].flags.dot_all);
}

TEST(ExtractRustTest, UseFancyRegexDecidesUnqualifiedCalls) {
  const std::string source =
      "use fancy_regex::Regex;\n"
      "let a = Regex::new(r\"(a+)+\\1\").unwrap();\n"
      "let b = regex::Regex::new(r\"b+\").unwrap();\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].dialect, Dialect::kPcre);
  EXPECT_FALSE(found[0].informational);
  EXPECT_EQ(found[1].dialect, Dialect::kGo);
  EXPECT_TRUE(found[1].informational);
}

TEST(ExtractRustTest, SuppressionAndUnterminatedInput) {
  const std::string source =
      "// regexguard: ignore linear anyway\n"
      "let a = Regex::new(\"a+\");\n"
      "let b = Regex::new(r#\"never closed\");\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 1u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "linear anyway");
  EXPECT_EQ(LanguageForPath("src/main.rs"), SourceLanguage::kRust);
}

}  // namespace
}  // namespace robotscan::regexguard
