// PHP regex literal extraction: preg_* calls, delimiters and modifiers,
// single- and double-quoted string decoding, interpolation, inline HTML,
// heredocs and comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kPhp);
}

struct DecodeCase {
  const char* id;
  const char* source;
  const char* pattern;
};

TEST(ExtractPhpTest, DelimitersAndEscapes) {
  const DecodeCase cases[] = {
      {"slashes", R"(<?php preg_match('/\d+\/x/', $s);)", R"(\d+\/x)"},
      {"single_quote_escapes", R"(<?php preg_match('/it\'s \\\\ \n/', $s);)",
       R"(it's \\ \n)"},
      {"double_quote_escapes", R"(<?php preg_match("/\\d\t\x41\$/", $s);)",
       "\\d\tA$"},
      {"double_quote_unknown_kept", R"(<?php preg_match("/\d/", $s);)",
       R"(\d)"},
      {"hash", R"(<?php preg_match('#a/b#', $s);)", "a/b"},
      {"tilde", R"(<?php preg_match('~(a+)+~', $s);)", "(a+)+"},
      {"braces_nest", R"(<?php preg_match('{a{2}}', $s);)", "a{2}"},
      {"parens", R"(<?php preg_match('(a(b)c)', $s);)", "a(b)c"},
      {"leading_space", R"(<?php preg_match('  /a/', $s);)", "a"},
      {"namespaced_call", R"(<?php \preg_match('/ns/', $s);)", "ns"},
  };
  for (const DecodeCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), 1u) << c.id;
    EXPECT_EQ(found[0].pattern, c.pattern) << c.id;
    EXPECT_EQ(found[0].dialect, Dialect::kPcre) << c.id;
  }
}

TEST(ExtractPhpTest, ModifiersLocationAndGlobalUse) {
  const std::string source =
      "<html>preg_match('/(html+)+/', $x)</html>\n"
      "<?php\n"
      "// preg_match('/(a+)+/', $s);\n"
      "# preg_match('/(b+)+/', $s);\n"
      "$fake = \"preg_match('/(c+)+/', \\$s)\";\n"
      "$doc = <<<EOT\n"
      "preg_match('/(d+)+/', $s);\n"
      "  EOT;\n"
      "if (preg_match('/^\\s*$/imsx', $line)) {}\n"
      "$n = preg_match_all(\"~\\\\w+~u\", $text, $m);\n"
      "$t = preg_replace('/\\s+/', ' ', $t);\n"
      "$parts = preg_split('/,/A', $csv);\n"
      "$q = preg_quote('/(q+)+/');\n"
      "$i = preg_match(\"/$var+/\", $s);\n"
      "$j = preg_match('/a/' . $flags, $s);\n"
      "$k = preg_match('/bad/Q', $s);\n"
      "$l = preg_match('/never closed', $s);\n"
      "$m = $obj->preg_match('/method/', $s);\n"
      "?>\n"
      "<p>preg_match('/(after+)+/', $y)</p>\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].pattern, "^\\s*$");
  EXPECT_EQ(found[0].call, "preg_match");
  EXPECT_EQ(found[0].line, 9u);
  EXPECT_EQ(found[0].column, 16u);
  EXPECT_TRUE(found[0].flags.case_insensitive);
  EXPECT_TRUE(found[0].flags.multiline);
  EXPECT_TRUE(found[0].flags.dot_all);
  EXPECT_TRUE(found[0].flags.extended);
  EXPECT_FALSE(found[0].flags.global);
  EXPECT_EQ(found[1].pattern, "\\w+");
  EXPECT_EQ(found[1].call, "preg_match_all");
  EXPECT_TRUE(found[1].flags.global);
  EXPECT_FALSE(found[1].flags.case_insensitive);
  EXPECT_EQ(found[2].call, "preg_replace");
  EXPECT_TRUE(found[2].flags.global);
  EXPECT_EQ(found[3].call, "preg_split");
  EXPECT_TRUE(found[3].flags.global);
  EXPECT_TRUE(found[3].anchored);  // the A modifier
}

TEST(ExtractPhpTest, SuppressionComments) {
  const std::string source =
      "<?php\n"
      "preg_match('/(a+)+/', $s); // regexguard: ignore bounded\n"
      "# regexguard: ignore legacy\n"
      "preg_match('/(b+)+/', $s);\n"
      "preg_match('/(c+)+/', $s);\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 3u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "bounded");
  ASSERT_TRUE(found[1].suppression.has_value());
  EXPECT_EQ(*found[1].suppression, "legacy");
  EXPECT_FALSE(found[2].suppression.has_value());
  EXPECT_EQ(LanguageForPath("index.php"), SourceLanguage::kPhp);
}

}  // namespace
}  // namespace robotscan::regexguard
