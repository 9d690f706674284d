// Python regex literal extraction: source literal -> pattern, location,
// flags, and the strings that must not be taken.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kPython);
}

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractPythonTest, DecodesLiteralsExactly) {
  const DecodeCase cases[] = {
      {"raw", R"(re.compile(r'\d+\.\w'))", R"(\d+\.\w)"},
      {"non_raw_double_backslash", R"(re.compile('\\d+'))", R"(\d+)"},
      {"non_raw_unknown_escape_kept", R"(re.compile('\d+'))", R"(\d+)"},
      {"newline_escape", R"(re.search("a\nb", s))", "a\nb"},
      {"hex_and_octal", R"(re.match('\x41\101', s))", "AA"},
      {"unicode_escape", R"(re.match('\u00e9', s))", "\xc3\xa9"},
      {"bytes_keep_u", R"(re.match(b'\u00e9', s))", R"(\u00e9)"},
      {"escaped_quote", R"(re.compile('it\'s'))", "it's"},
      {"raw_escaped_quote", R"(re.compile(r'a\'b'))", R"(a\'b)"},
      {"raw_bytes", R"(re.compile(rb'\s+$'))", R"(\s+$)"},
      {"concatenated", R"(re.compile(r'a+' "b+" ))", "a+b+"},
      {"line_continuation", "re.compile('a\\\nb')", "ab"},
      {"regex_module", R"(regex.fullmatch(r'(a|a)*', s))", "(a|a)*"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kPython) << c.id;
  }
}

TEST(ExtractPythonTest, MultiLineTripleQuotedRawStringWithLocation) {
  const std::string source =
      "import re\n"
      "x = 1  # re.compile('(a+)+') in a comment\n"
      "PAT = re.compile(\n"
      "    r'''(\n"
      "  \\w+ ''' , re.VERBOSE | re.I)\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pattern, "(\n  \\w+ ");
  EXPECT_EQ(found[0].line, 4u);
  EXPECT_EQ(found[0].column, 5u);
  EXPECT_EQ(found[0].call, "re.compile");
  EXPECT_TRUE(found[0].flags.extended);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_FALSE(found[0].flags.multiline);
  EXPECT_FALSE(found[0].flags.global);
}

TEST(ExtractPythonTest, SkipsFStringsDocstringsAndNonConstants) {
  const std::string source =
      "def f(x):\n"
      "    \"\"\"re.compile('(a+)+') in a docstring\"\"\"\n"
      "    re.compile(f'{x}+')\n"
      "    re.compile(r'a' f'{x}')\n"
      "    re.compile('a' + x)\n"
      "    other.re.compile('a')\n"
      "    re.escape('a+')\n"
      "    s = \"re.match('(a|a)*', t)\"\n";
  EXPECT_TRUE(Extract(source).empty());
}

TEST(ExtractPythonTest, GlobalUseAndFlagsArgument) {
  const std::string source =
      "re.sub(r'\\s+$', '', text, flags=re.MULTILINE | re.DOTALL)\n"
      "re.findall('a', t)\n"
      "re.match('b', t, re.IGNORECASE)\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_TRUE(found[0].flags.global);
  EXPECT_TRUE(found[0].flags.multiline);
  EXPECT_TRUE(found[0].flags.dot_all);
  EXPECT_EQ(found[0].line, 1u);
  EXPECT_EQ(found[0].column, 8u);
  EXPECT_TRUE(found[1].flags.global);
  EXPECT_FALSE(found[1].flags.case_insensitive);
  EXPECT_FALSE(found[1].anchored);
  EXPECT_TRUE(found[2].anchored);  // re.match: one attempt at the start
  EXPECT_FALSE(found[2].flags.global);
  EXPECT_TRUE(found[2].flags.case_insensitive);
  EXPECT_EQ(found[2].line, 3u);
}

// Bytes patterns and re.ASCII fold case in ASCII only (flag `a`), which
// decides whether U+017F can stand in for `s` in an attack.
TEST(ExtractPythonTest, BytesPatternsAndAsciiFlagFoldAsciiOnly) {
  const std::string source =
      "re.compile(b'(s|x)+$', re.I)\n"
      "re.compile('(s|x)+$', re.I | re.ASCII)\n"
      "re.compile('(s|x)+$', re.I)\n"
      "B = rb'[sk]+'\n"
      "re.match(B, data)\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_TRUE(found[0].flags.ascii);
  EXPECT_TRUE(found[1].flags.ascii);
  EXPECT_FALSE(found[2].flags.ascii);
  EXPECT_TRUE(found[3].flags.ascii);  // through the module constant
}

TEST(ExtractPythonTest, SuppressionOnSameOrPreviousLine) {
  const std::string source =
      "a = re.compile('(a+)+')  # regexguard: ignore input is bounded\n"
      "# regexguard: ignore trusted config\n"
      "b = re.compile('(b+)+')\n"
      "\n"
      "c = re.compile('(c+)+')\n"
      "d = re.compile('(d+)+')  # regexguard: ignore only this line\n"
      "e = re.compile('(e+)+')\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 5u);
  ASSERT_TRUE(found[3].suppression.has_value());
  EXPECT_FALSE(found[4].suppression.has_value());
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "input is bounded");
  ASSERT_TRUE(found[1].suppression.has_value());
  EXPECT_EQ(*found[1].suppression, "trusted config");
  EXPECT_FALSE(found[2].suppression.has_value());
}

TEST(ExtractPythonTest, ModuleConstantsReportedAtTheirLiteral) {
  const std::string source =
      "import re\n"
      "WORDS = r'(\\w+\\s?)*$'  # regexguard: ignore reviewed\n"
      "SPLIT = (r'\\s*,'\n"
      "         '\\s*')\n"
      "TWICE = r'(a+)+'\n"
      "JOINED = r'(b+)+' + suffix\n"
      "FORMATTED = f'{x}+'\n"
      "def f(s):\n"
      "    LOCAL = r'(c+)+'\n"
      "    TWICE = 'again'\n"
      "    re.compile(LOCAL)\n"
      "    re.compile(TWICE)\n"
      "    re.compile(JOINED)\n"
      "    re.compile(FORMATTED)\n"
      "    re.compile(WORDS + 'x')\n"
      "    re.split(SPLIT, s)\n"
      "    return re.fullmatch(WORDS, s, re.I)\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].pattern, "(\\w+\\s?)*$");
  EXPECT_EQ(found[0].call, "re.fullmatch");
  EXPECT_EQ(found[0].line, 2u);  // the constant, not the call
  EXPECT_EQ(found[0].column, 9u);
  EXPECT_TRUE(found[0].anchored);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "reviewed");
  EXPECT_EQ(found[1].pattern, "\\s*,\\s*");
  EXPECT_EQ(found[1].call, "re.split");
  EXPECT_EQ(found[1].line, 3u);
  EXPECT_EQ(found[1].column, 10u);
  EXPECT_TRUE(found[1].flags.global);
}

TEST(ExtractPythonTest, UnterminatedStringStopsQuietly) {
  const std::vector<RegexLiteral> found =
      Extract("re.compile('a+')\nre.compile('oops\n");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pattern, "a+");
}

TEST(ExtractLanguageTest, LanguageForPath) {
  EXPECT_EQ(LanguageForPath("a/b.py"), SourceLanguage::kPython);
  EXPECT_EQ(LanguageForPath("x.tsx"), SourceLanguage::kJavaScript);
  EXPECT_EQ(LanguageForPath("m.mjs"), SourceLanguage::kJavaScript);
  EXPECT_EQ(LanguageForPath("main.go"), SourceLanguage::kGo);
  EXPECT_EQ(LanguageForPath("README.md"), std::nullopt);
  EXPECT_EQ(LanguageForPath("py"), std::nullopt);
}

}  // namespace
}  // namespace robotscan::regexguard
