// Java and Kotlin regex literal extraction: escapes, text blocks, Kotlin
// raw strings and templates, Pattern flags, String methods, and the
// strings and comments that must not be taken.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractJavaTest, DecodesLiteralsExactly) {
  const DecodeCase cases[] = {
      {"double_backslash", R"(Pattern.compile("\\d+\\.\\w");)", R"(\d+\.\w)"},
      {"escaped_quote", R"(Pattern.compile("say \"hi\"");)", "say \"hi\""},
      {"octal_and_unicode", R"(Pattern.compile("\101\u0042\uu0043\s");)",
       "ABC "},
      {"invalid_escape_kept", R"(Pattern.compile("\d");)", R"(\d)"},
      {"text_block",
       "Pattern.compile(\"\"\"\n"
       "        (\\\\w+)   \n"
       "          \\\\s*$\n"
       "        \"\"\");",
       "(\\w+)\n  \\s*$\n"},
      {"text_block_closing_on_last_line",
       "Pattern.compile(\"\"\"\n"
       "    a\\\"\"\"b\\\n"
       "    c\"\"\");",
       "a\"\"\"bc"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found =
        ExtractRegexLiterals(c.source, SourceLanguage::kJava);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kJava) << c.id;
  }
}

// Java folds case in ASCII only unless UNICODE_CASE is set; Kotlin's Regex
// adds UNICODE_CASE to IGNORE_CASE itself.
TEST(ExtractJavaTest, UnicodeCaseFlag) {
  const std::string java =
      "class A {\n"
      "  Pattern a = Pattern.compile(\"(s|x)+$\", Pattern.CASE_INSENSITIVE);\n"
      "  Pattern b = Pattern.compile(\"(s|x)+$\",\n"
      "      Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);\n"
      "}\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(java, SourceLanguage::kJava);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_FALSE(found[0].flags.unicode);
  EXPECT_TRUE(found[1].flags.unicode);
  const std::vector<RegexLiteral> kotlin = ExtractRegexLiterals(
      "val r = Regex(\"(s|x)+$\", RegexOption.IGNORE_CASE)\n",
      SourceLanguage::kKotlin);
  ASSERT_EQ(kotlin.size(), 1u);
  EXPECT_TRUE(kotlin[0].flags.case_insensitive);
  EXPECT_TRUE(kotlin[0].flags.unicode);
}

TEST(ExtractJavaTest, CallsFlagsAndMarkers) {
  const std::string source =
      "class A {\n"
      "  // Pattern.compile(\"(a+)+\")\n"
      "  /* s.matches(\"(b+)+\") */\n"
      "  String fake = \"Pattern.compile(\\\"(c+)+\\\")\";\n"
      "  Pattern p = Pattern.compile(\"^(a|a)*$\",\n"
      "      Pattern.CASE_INSENSITIVE | Pattern.DOTALL);\n"
      "  boolean ok = input.matches(\"[a-z]+\");\n"
      "  String t = s.replaceAll(\"\\\\s+\", \" \").split(\",\\\\s*\")[0];\n"
      "  String u = s.replaceFirst(\"x\", y);\n"
      "  boolean v = Pattern.matches(\"v+\", s);\n"
      "  String w = s.replace(\"(w+)+\", \"\");\n"
      "  Pattern x = Pattern.compile(\"a\" + suffix);\n"
      "}\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kJava);
  ASSERT_EQ(found.size(), 6u);
  EXPECT_EQ(found[0].pattern, "^(a|a)*$");
  EXPECT_EQ(found[0].call, "Pattern.compile");
  EXPECT_EQ(found[0].line, 5u);
  EXPECT_EQ(found[0].column, 31u);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_TRUE(found[0].flags.dot_all);
  EXPECT_FALSE(found[0].flags.multiline);
  EXPECT_FALSE(found[0].anchored);
  EXPECT_EQ(found[1].call, ".matches");
  EXPECT_TRUE(found[1].anchored);  // the whole string must match
  EXPECT_FALSE(found[1].flags.global);
  EXPECT_EQ(found[2].call, ".replaceAll");
  EXPECT_EQ(found[2].pattern, "\\s+");
  EXPECT_TRUE(found[2].flags.global);
  EXPECT_EQ(found[3].call, ".split");
  EXPECT_EQ(found[3].pattern, ",\\s*");
  EXPECT_TRUE(found[3].flags.global);
  EXPECT_EQ(found[4].call, ".replaceFirst");
  EXPECT_FALSE(found[4].flags.global);
  EXPECT_EQ(found[5].call, "Pattern.matches");
  EXPECT_TRUE(found[5].anchored);
}

TEST(ExtractJavaTest, ChainedUsesMarkAnchoredOrGlobal) {
  const std::string source =
      "boolean a = Pattern.compile(\"a+\").matcher(s).matches();\n"
      "boolean b = Pattern.compile(\"b+\", FLAGS).matcher(s).find();\n"
      "String c = Pattern.compile(\"c+\").matcher(s).replaceAll(\"\");\n"
      "String[] d = Pattern.compile(\",\").split(s);\n"
      "String e = matcher.replaceAll(\"(e+)+\");\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kJava);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_TRUE(found[0].anchored);
  EXPECT_FALSE(found[0].flags.global);
  EXPECT_FALSE(found[1].anchored);
  EXPECT_FALSE(found[1].flags.global);
  EXPECT_FALSE(found[2].anchored);
  EXPECT_TRUE(found[2].flags.global);
  EXPECT_TRUE(found[3].flags.global);
}

TEST(ExtractKotlinTest, ChainedUsesMarkAnchoredOrGlobal) {
  const std::string source =
      "val a = Regex(\"a+\").matches(s)\n"
      "val b = \"b+\".toRegex().findAll(s)\n"
      "val c = Regex(\"c+\", RegexOption.IGNORE_CASE).replace(s, \"\")\n"
      "val d = Regex(\"d+\").find(s)\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kKotlin);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_TRUE(found[0].anchored);
  EXPECT_TRUE(found[1].flags.global);
  EXPECT_FALSE(found[1].anchored);
  EXPECT_TRUE(found[2].flags.global);
  EXPECT_TRUE(found[2].flags.case_insensitive);
  EXPECT_FALSE(found[3].flags.global);
  EXPECT_FALSE(found[3].anchored);
}

TEST(ExtractJavaTest, SuppressionAndUnterminatedInput) {
  const std::string source =
      "// regexguard: ignore reviewed\n"
      "Pattern a = Pattern.compile(\"(a+)+\");\n"
      "Pattern b = Pattern.compile(\"(b+)+\"); /* regexguard: ignore ok */\n"
      "Pattern c = Pattern.compile(\"oops);\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kJava);
  ASSERT_EQ(found.size(), 2u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "reviewed");
  ASSERT_TRUE(found[1].suppression.has_value());
  EXPECT_EQ(*found[1].suppression, "ok");
}

TEST(ExtractKotlinTest, RawStringsTemplatesAndCalls) {
  const std::string source =
      "/* outer /* nested Regex(\"(n+)+\") */ still comment */\n"
      "val a = Regex(\"\"\"\\d+\\.\"(x)\"\"\"\")\n"
      "val b = \"\\\\s+\\$\".toRegex(RegexOption.IGNORE_CASE)\n"
      "val c = Regex(\"$prefix+\")\n"
      "val d = Regex(\"\"\"${name}\\d\"\"\")\n"
      "val e = Regex(\"a${\"b\"}c\")\n"
      "val f = text.split(\"(f+)+\")\n"
      "val g = Regex(\"[a-z]+\", setOf(RegexOption.MULTILINE,\n"
      "    RegexOption.DOT_MATCHES_ALL))\n"
      "val h = Pattern.compile(\"h\\t\", Pattern.COMMENTS)\n";
  const std::vector<RegexLiteral> found =
      ExtractRegexLiterals(source, SourceLanguage::kKotlin);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].pattern, "\\d+\\.\"(x)\"");  // raw: no escapes
  EXPECT_EQ(found[0].call, "Regex");
  EXPECT_EQ(found[0].line, 2u);
  EXPECT_EQ(found[0].column, 15u);
  EXPECT_EQ(found[1].pattern, "\\s+$");
  EXPECT_EQ(found[1].call, ".toRegex");
  EXPECT_EQ(found[1].column, 9u);
  EXPECT_TRUE(found[1].flags.case_insensitive);
  EXPECT_EQ(found[2].pattern, "[a-z]+");
  EXPECT_TRUE(found[2].flags.multiline);
  EXPECT_TRUE(found[2].flags.dot_all);
  EXPECT_FALSE(found[2].flags.case_insensitive);
  EXPECT_EQ(found[3].pattern, "h\t");
  EXPECT_TRUE(found[3].flags.extended);
  for (const RegexLiteral& literal : found) {
    EXPECT_EQ(literal.dialect, Dialect::kJava);
    EXPECT_FALSE(literal.flags.global);
  }
}

TEST(ExtractJavaTest, LanguageForPath) {
  EXPECT_EQ(LanguageForPath("src/A.java"), SourceLanguage::kJava);
  EXPECT_EQ(LanguageForPath("B.kt"), SourceLanguage::kKotlin);
  EXPECT_EQ(LanguageForPath("build.gradle.kts"), SourceLanguage::kKotlin);
  EXPECT_EQ(SourceLanguageName(SourceLanguage::kKotlin), "kotlin");
}

}  // namespace
}  // namespace robotscan::regexguard
