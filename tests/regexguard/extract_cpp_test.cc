// C/C++ regex literal extraction: escapes, raw strings, concatenation,
// splices, the std::regex / boost::regex / RE2 / pcre2_compile uses, and
// the strings and comments that must not be taken.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kCpp);
}

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractCppTest, DecodesLiteralsExactly) {
  const DecodeCase cases[] = {
      {"double_backslash", R"(std::regex re("\\d+\\.\\w");)", R"(\d+\.\w)"},
      {"unknown_escape_drops_backslash", R"(std::regex re("\d+");)", "d+"},
      {"escaped_quote", R"(std::regex re("say \"hi\"");)", "say \"hi\""},
      {"escaped_apostrophe", R"(std::regex re("it\'s");)", "it's"},
      {"hex_octal_newline", R"(std::regex re("\x41\101\n\t");)", "AA\n\t"},
      {"hex_any_length", R"(std::regex re("\x0041");)", "A"},
      {"universal_names", R"(std::regex re("\u00e9\U0001F600");)",
       "\xc3\xa9\xf0\x9f\x98\x80"},
      {"raw_string", R"cpp(std::regex re{R"(\d+"x")"};)cpp", R"(\d+"x")"},
      {"raw_string_delimiter", R"cpp(std::regex re(R"re(a)"b)re");)cpp",
       R"x(a)"b)x"},
      {"prefixed", R"cpp(std::wregex re(L"a\\s" LR"(\b)");)cpp", R"(a\s\b)"},
      {"concatenated", R"(std::regex re("a+" /* c */ "b+"  "c");)", "a+b+c"},
      {"splice_in_string", "std::regex re(\"ab\\\ncd\");", "abcd"},
      {"temporary", R"(auto ok = std::regex_search(s, std::regex("x+y"));)",
       "x+y"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kJavaScript) << c.id;
    EXPECT_FALSE(found[0].informational) << c.id;
  }
}

TEST(ExtractCppTest, MultiLineRawStringWithLocation) {
  const std::string source =
      "#include <regex>\n"
      "// std::regex fake(\"(a+)+\");\n"
      "const char* s = \"std::regex fake2(\\\"(b+)+\\\")\";\n"
      "static const std::regex kWords(\n"
      "    R\"x((\\w+\n"
      "\\s?)*$)x\", std::regex::icase | std::regex::multiline);\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pattern, "(\\w+\n\\s?)*$");
  EXPECT_EQ(found[0].line, 5u);
  EXPECT_EQ(found[0].column, 5u);
  EXPECT_EQ(found[0].call, "std::regex");
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_TRUE(found[0].flags.multiline);
  EXPECT_FALSE(found[0].flags.global);
}

TEST(ExtractCppTest, SkipsCommentsSplicedCommentsAndNonConstants) {
  const std::string source =
      "/* std::regex a(\"(a+)+\"); */\n"
      "// a spliced comment \\\n"
      "std::regex b(\"(b+)+\");\n"
      "std::regex c(prefix + \"(c+)+\");\n"
      "std::regex d(\"(d+)+\" + suffix);\n"
      "char q = '\"'; std::string e = \"std::regex(\\\"x\\\")\";\n"
      "std::regex::flag_type f = std::regex::icase;\n"
      "my::regex g(\"(g+)+\");\n";
  EXPECT_TRUE(Extract(source).empty());
}

TEST(ExtractCppTest, LibrariesDialectsAndUses) {
  const std::string source =
      "boost::regex perl(\"(?i)a|b\", boost::regex::mod_x);\n"
      "RE2 fast(\"(a+)+\");\n"
      "bool full = RE2::FullMatch(text, \"\\\\d+\");\n"
      "RE2::GlobalReplace(&text, \"x+\", \"y\");\n"
      "pcre2_code* code = pcre2_compile((PCRE2_SPTR)\"^a*$\",\n"
      "    PCRE2_ZERO_TERMINATED, PCRE2_CASELESS | PCRE2_DOTALL, &error,\n"
      "    &offset, nullptr);\n"
      "std::regex spaces(\"\\\\s+\");\n"
      "auto out = std::regex_replace(in, spaces, \" \");\n"
      "bool whole = std::regex_match(in, std::regex(\"[a-z]+\"));\n"
      "std::sregex_iterator it(in.begin(), in.end(), std::regex(\"\\\\w\"));\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 8u);
  EXPECT_EQ(found[0].call, "boost::regex");
  EXPECT_EQ(found[0].dialect, Dialect::kPcre);
  EXPECT_TRUE(found[0].flags.extended);
  EXPECT_TRUE(found[0].flags.multiline);  // Perl syntax: ^ $ at lines
  EXPECT_EQ(found[1].call, "RE2");
  EXPECT_EQ(found[1].dialect, Dialect::kGo);
  EXPECT_TRUE(found[1].informational);
  EXPECT_EQ(found[2].call, "RE2::FullMatch");
  EXPECT_EQ(found[2].pattern, "\\d+");
  EXPECT_TRUE(found[2].anchored);
  EXPECT_TRUE(found[2].informational);
  EXPECT_EQ(found[3].call, "RE2::GlobalReplace");
  EXPECT_EQ(found[3].pattern, "x+");
  EXPECT_TRUE(found[3].flags.global);
  EXPECT_EQ(found[4].call, "pcre2_compile");
  EXPECT_EQ(found[4].pattern, "^a*$");
  EXPECT_EQ(found[4].dialect, Dialect::kPcre);
  EXPECT_TRUE(found[4].flags.case_insensitive);
  EXPECT_TRUE(found[4].flags.dot_all);
  EXPECT_FALSE(found[4].flags.multiline);
  EXPECT_FALSE(found[4].informational);
  EXPECT_EQ(found[4].line, 5u);
  EXPECT_EQ(found[4].column, 46u);
  EXPECT_EQ(found[5].pattern, "\\s+");
  EXPECT_TRUE(found[5].flags.global);  // through the variable `spaces`
  EXPECT_FALSE(found[5].anchored);
  EXPECT_EQ(found[6].pattern, "[a-z]+");
  EXPECT_TRUE(found[6].anchored);
  EXPECT_FALSE(found[6].flags.global);
  EXPECT_EQ(found[7].pattern, "\\w");
  EXPECT_TRUE(found[7].flags.global);
}

TEST(ExtractCppTest, SuppressionComments) {
  const std::string source =
      "std::regex a(\"(a+)+\");  // regexguard: ignore bounded input\n"
      "/* regexguard: ignore from config */\n"
      "std::regex b(\"(b+)+\");\n"
      "std::regex c(\"(c+)+\");\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 3u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "bounded input");
  ASSERT_TRUE(found[1].suppression.has_value());
  EXPECT_EQ(*found[1].suppression, "from config");
  EXPECT_FALSE(found[2].suppression.has_value());
}

TEST(ExtractCppTest, UnterminatedInputStopsQuietly) {
  for (const char* source : {"std::regex a(\"a+\"); std::regex b(\"oops\n",
                             "std::regex a(\"a+\");"
                             " auto s = R\"x(never",
                             "std::regex a(\"a+\"); /* open"}) {
    const std::vector<RegexLiteral> found = Extract(source);
    ASSERT_EQ(found.size(), 1u) << source;
    EXPECT_EQ(found[0].pattern, "a+") << source;
  }
}

TEST(ExtractCppTest, LanguageForPath) {
  for (const char* path :
       {"a.c", "a.h", "a.cc", "a.cpp", "a.cxx", "a.hpp", "a.hh", "a.hxx"}) {
    EXPECT_EQ(LanguageForPath(path), SourceLanguage::kCpp) << path;
  }
  EXPECT_EQ(SourceLanguageName(SourceLanguage::kCpp), "cpp");
}

}  // namespace
}  // namespace robotscan::regexguard
