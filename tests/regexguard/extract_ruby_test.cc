// Ruby regex literal extraction: /.../ versus division, %r with any
// delimiter, Regexp.new string decoding, interpolation, heredocs and
// comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kRuby);
}

struct PatternCase {
  const char* id;
  const char* source;
  std::vector<std::string> patterns;  // in source order
};

TEST(ExtractRubyTest, RegexVersusDivisionAndDelimiters) {
  const PatternCase cases[] = {
      {"division_spaced", "x = a / b / c", {}},
      {"division_tight", "x = a/b/c", {}},
      {"division_after_paren", "x = (a + b) / 2 / y", {}},
      {"division_after_number", "x = 10 / 2 / 5", {}},
      {"division_after_ivar", "x = @total /count/ 2", {}},
      {"regex_after_assign", "x = /ab+c/i", {"ab+c"}},
      {"regex_after_keyword", "if /^\\d+$/ =~ s then end", {"^\\d+$"}},
      {"regex_method_argument", "scan_all /a+/", {"a+"}},
      {"regex_after_paren_open", "s.match(/x/) && a / b", {"x"}},
      {"escaped_slash_kept", "r = /a\\/b/", {"a\\/b"}},
      {"multi_line", "r = /a\nb/x", {"a\nb"}},
      {"percent_braces_nest", "r = %r{a{2}/b}i", {"a{2}/b"}},
      {"percent_bang", "r = %r!x/y!", {"x/y"}},
      {"percent_parens", "r = %r(a(b)c)", {"a(b)c"}},
      {"modulo_not_literal", "x = a % r", {}},
      {"interpolated_regex", "r = /#{prefix}(a+)+/", {}},
      {"interpolated_percent", "r = %r{#@x}", {}},
      {"regex_in_string", "s = \"/(a+)+/\"", {}},
      {"regex_in_comment", "x = 1 # /(a+)+/", {}},
      {"regex_in_percent_w", "w = %w[/a/ /b/]", {}},
  };
  for (const PatternCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    std::vector<std::string> patterns;
    for (const RegexLiteral& literal : found) {
      patterns.push_back(literal.pattern);
      EXPECT_EQ(literal.dialect, Dialect::kRuby) << c.id;
    }
    EXPECT_EQ(patterns, c.patterns) << c.id;
  }
}

TEST(ExtractRubyTest, FlagsLocationAndGlobalUse) {
  const std::string source =
      "=begin\n"
      "r = /(a+)+/\n"
      "=end\n"
      "text = <<~EOS\n"
      "  /(b+)+/ and Regexp.new(\"(c+)+\")\n"
      "EOS\n"
      "words = line.gsub(/\\s+/m, ' ')\n"
      "r = Regexp.new(\"\\\\d+\\s\\d\", Regexp::IGNORECASE | "
      "Regexp::MULTILINE)\n"
      "q = Regexp.new('it\\'s \\d')\n"
      "parts = s.split %r{,\\s*}x\n"
      "n = Regexp.new(\"#{x}+\")\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 4u);
  EXPECT_EQ(found[0].pattern, "\\s+");
  EXPECT_EQ(found[0].line, 7u);
  EXPECT_EQ(found[0].column, 19u);
  EXPECT_EQ(found[0].call, "/.../m");
  EXPECT_TRUE(found[0].flags.dot_all);  // Ruby's m is dot-all
  EXPECT_FALSE(found[0].flags.multiline);
  EXPECT_TRUE(found[0].flags.global);
  EXPECT_EQ(found[1].pattern, "\\d+ d");  // "\s" is a space, "\d" is d
  EXPECT_EQ(found[1].call, "Regexp.new");
  EXPECT_EQ(found[1].column, 16u);
  EXPECT_TRUE(found[1].flags.case_insensitive);
  EXPECT_TRUE(found[1].flags.dot_all);
  EXPECT_FALSE(found[1].flags.global);
  EXPECT_EQ(found[2].pattern, "it's \\d");  // single quotes keep \d
  EXPECT_FALSE(found[2].flags.case_insensitive);
  EXPECT_EQ(found[3].pattern, ",\\s*");
  EXPECT_EQ(found[3].call, "%rx");
  EXPECT_TRUE(found[3].flags.extended);
  EXPECT_TRUE(found[3].flags.global);
}

TEST(ExtractRubyTest, SuppressionAndUnterminatedInput) {
  const std::string source =
      "a = /(a+)+/  # regexguard: ignore trusted\n"
      "b = /(b+)+/\n"
      "c = \"never closed\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 2u);
  ASSERT_TRUE(found[0].suppression.has_value());
  EXPECT_EQ(*found[0].suppression, "trusted");
  EXPECT_FALSE(found[1].suppression.has_value());
  EXPECT_TRUE(Extract("x = %r{never closed").empty());
  EXPECT_EQ(LanguageForPath("lib/a.rb"), SourceLanguage::kRuby);
}

}  // namespace
}  // namespace robotscan::regexguard
