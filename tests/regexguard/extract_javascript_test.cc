// JavaScript/TypeScript regex literal extraction: regex versus division,
// comments and template literals, RegExp("...") string decoding.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard {
namespace {

std::vector<RegexLiteral> Extract(const std::string& source) {
  return ExtractRegexLiterals(source, SourceLanguage::kJavaScript);
}

struct PatternCase {
  const char* id;
  const char* source;
  std::vector<std::string> patterns;  // in source order
};

TEST(ExtractJavaScriptTest, RegexVersusDivision) {
  const PatternCase cases[] = {
      {"division_after_name", "a = b / c / d;", {}},
      {"division_after_paren", "x = (a + b) / 2 / y;", {}},
      {"division_after_bracket", "x = a[0] / b[1] / 2;", {}},
      {"division_after_number", "x = 10 / 2 / 5;", {}},
      {"division_after_postfix", "i++ / 2 / j;", {}},
      {"regex_after_assign", "x = /ab+c/i;", {"ab+c"}},
      {"regex_after_return", "return /^\\d+$/.test(s);", {"^\\d+$"}},
      {"regex_after_paren_open", "if (/x/.test(s)) y = a / b;", {"x"}},
      {"slash_in_class", "r = /[/]+a/;", {"[/]+a"}},
      {"escaped_slash", "r = /a\\/b/g;", {"a\\/b"}},
      {"regex_after_typeof", "typeof /a/;", {"a"}},
      {"line_break_not_regex", "a = b\n/ c /\nd;", {}},
      {"regex_after_block", "if (x) {}\n/(a+)+$/.test(s);", {"(a+)+$"}},
  };
  for (const PatternCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), c.patterns.size()) << c.id;
    for (std::size_t i = 0; i < found.size(); ++i) {
      EXPECT_EQ(found[i].pattern, c.patterns[i]) << c.id;
      EXPECT_EQ(found[i].dialect, Dialect::kJavaScript) << c.id;
    }
  }
}

TEST(ExtractJavaScriptTest, CommentsStringsAndTemplatesAreSkipped) {
  const std::string source =
      "// x = /(a+)+/;\n"
      "/* y = /(b+)+/; */\n"
      "s = '/(c+)+/';\n"
      "t = `a /(d+)+/ ${ f({k: /(e+)+/}) } /(g+)+/ ${n / 2}`;\n"
      "u = `${`nested /(h+)+/`}`;\n"
      "z = /ok/;\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].pattern, "(e+)+");  // real code inside ${...}
  EXPECT_EQ(found[0].line, 4u);
  EXPECT_EQ(found[1].pattern, "ok");
  EXPECT_EQ(found[1].line, 6u);
  EXPECT_EQ(found[1].column, 5u);
}

TEST(ExtractJavaScriptTest, RegExpConstructorDecodesStrings) {
  const PatternCase cases[] = {
      {"double_backslash", R"(new RegExp("\\d+"))", {R"(\d+)"}},
      {"unknown_escape_drops_backslash", R"(new RegExp("\d+"))", {"d+"}},
      {"escaped_quote", R"(RegExp('it\'s'))", {"it's"}},
      {"hex_unicode", R"(new RegExp("\x41\u0042\u{43}"))", {"ABC"}},
      {"surrogate_pair", R"(new RegExp("\uD83D\uDE00"))", {"\xF0\x9F\x98\x80"}},
      {"legacy_octal", R"(new RegExp("\101\0"))", {std::string("A\0", 2)}},
      {"template_constant", "new RegExp(`a\\\\s`)", {"a\\s"}},
      {"not_constant", R"(new RegExp("a" + b))", {}},
      {"template_substitution", "new RegExp(`${a}+`)", {}},
  };
  for (const PatternCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), c.patterns.size()) << c.id;
    for (std::size_t i = 0; i < found.size(); ++i) {
      EXPECT_EQ(found[i].pattern, c.patterns[i]) << c.id;
      EXPECT_EQ(found[i].call, "RegExp") << c.id;
    }
  }
}

// A pattern written as a constant expression of strings (regexguard's
// miss on ansi-regex 5.0.0, CVE-2021-3807, in the npm advisories harness).
TEST(ExtractJavaScriptTest, RegExpOfConstantExpressions) {
  const PatternCase cases[] = {
      {"concatenation", R"(new RegExp('a+' + "b"))", {"a+b"}},
      {"joined_array", R"(new RegExp(['a+', 'b'].join('|')))", {"a+|b"}},
      {"join_default_comma", R"(RegExp(['a', 'b'].join()))", {"a,b"}},
      {"bound_name",
       "const p = ['x+', 'y'].join('|');\nreturn new RegExp(p, 'g');",
       {"x+|y"}},
      {"bound_name_concatenated",
       "var a = 'x';\nvar b = a + 'y+';\n"
       "new RegExp(b + a)",
       {"xy+x"}},
      {"assigned_twice", "let p = 'a';\np = q;\nnew RegExp(p)", {}},
      {"declared_twice",
       "const p = 'a';\nfunction f() { const p = 'b'; "
       "return RegExp(p); }",
       {}},
      {"unknown_name", "new RegExp(p)", {}},
      {"parameter_shadows",
       "const p = 'a+';\nfunction f(q, p) {\n"
       "  return new RegExp(p);\n}",
       {}},
      {"arrow_parameter_shadows",
       "const p = 'a+';\nconst f = p => RegExp(p);",
       {}},
      {"used_in_a_call_still_bound",
       "const p = 'a+';\nlog(p);\nRegExp(p)",
       {"a+"}},
      {"member_not_name", "const p = 'a';\nnew RegExp(o.p)", {}},
      {"method_on_constant", "new RegExp('a'.repeat(3))", {}},
      {"call_result", "const p = f('a');\nnew RegExp(p)", {}},
      {"element_not_constant", "new RegExp(['a', b].join('|'))", {}},
  };
  for (const PatternCase& c : cases) {
    const std::vector<RegexLiteral> found = Extract(c.source);
    ASSERT_EQ(found.size(), c.patterns.size()) << c.id;
    for (std::size_t i = 0; i < found.size(); ++i) {
      EXPECT_EQ(found[i].pattern, c.patterns[i]) << c.id;
    }
  }
  // The flags of an expression are the union of its flag strings, and the
  // finding points at the pattern's first string (ansi-regex's line 5).
  const std::string ansi =
      "module.exports = ({onlyFirst = false} = {}) => {\n"
      "  const pattern = [\n"
      "    '[\\\\u001B]+x',\n"
      "    'y'\n"
      "  ].join('|');\n"
      "  return new RegExp(pattern, onlyFirst ? undefined : 'g');\n"
      "};\n";
  const std::vector<RegexLiteral> found = Extract(ansi);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].pattern, "[\\u001B]+x|y");
  EXPECT_TRUE(found[0].flags.global);
  EXPECT_EQ(found[0].line, 3u);
}

// Hostile input: arrays nested without end do not recurse without bound,
// and one long binding used a hundred thousand times does not expand into
// gigabytes of patterns.
TEST(ExtractJavaScriptTest, ConstantExpressionsStayBounded) {
  const std::string deep = "new RegExp(" + std::string(200000, '[') + "'a'" +
                           std::string(200000, ']') + ".join('|'))";
  EXPECT_TRUE(Extract(deep).empty());
  std::string many = "const p = '" + std::string(1000, 'a') + "';\n";
  for (int i = 0; i < 100000; ++i) many += "RegExp(p);";
  std::size_t bytes = 0;
  for (const RegexLiteral& literal : Extract(many)) {
    bytes += literal.pattern.size();
  }
  EXPECT_GT(bytes, 1000000u);
  EXPECT_LE(bytes, 4u * 1024 * 1024 + 1000);
}

TEST(ExtractJavaScriptTest, FlagsAndGlobalUse) {
  const std::string source =
      "a = s.replace(/^\\s*|\\s*$/g, '');\n"
      "b = s.split(/\\s*,\\s*/);\n"
      "c = s.replace(/x/i, 'y');\n"
      "d = new RegExp('a+', 'gmsu');\n"
      "e = /b+/y;\n";
  const std::vector<RegexLiteral> found = Extract(source);
  ASSERT_EQ(found.size(), 5u);
  EXPECT_FALSE(found[3].anchored);
  EXPECT_TRUE(found[4].anchored);
  EXPECT_EQ(found[0].pattern, "^\\s*|\\s*$");
  EXPECT_TRUE(found[0].flags.global);
  EXPECT_EQ(found[0].column, 15u);
  EXPECT_TRUE(found[1].flags.global);  // split runs over the whole subject
  EXPECT_FALSE(found[2].flags.global);
  EXPECT_TRUE(found[2].flags.case_insensitive);
  EXPECT_TRUE(found[3].flags.global);
  EXPECT_TRUE(found[3].flags.multiline);
  EXPECT_TRUE(found[3].flags.dot_all);
  EXPECT_TRUE(found[3].flags.unicode);
  EXPECT_EQ(found[3].line, 4u);
  EXPECT_EQ(found[3].column, 16u);
}

}  // namespace
}  // namespace robotscan::regexguard
