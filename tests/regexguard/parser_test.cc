// Parser: accepted syntax per dialect, spans, errors, and the PCRE2
// spelling of the tree.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>

#include "robotscan/regexguard/syntax.h"
#include "syntax/dialect_features.h"

namespace robotscan::regexguard {
namespace {

ParseOptions In(Dialect dialect, std::string_view flags = "") {
  ParseOptions options;
  options.dialect = dialect;
  options.flags = ParseFlagLetters(flags).value();
  return options;
}

struct ValidityCase {
  const char* id;
  const char* pattern;
  Dialect dialect;
  bool valid;
};

TEST(ParserTest, AcceptsAndRejectsPerDialect) {
  const ValidityCase cases[] = {
      {"plain", "abc", Dialect::kPcre, true},
      {"classes", R"([a-z\d_\-]+\s*\w)", Dialect::kPcre, true},
      {"counted", "a{2,5}b{3}c{1,}", Dialect::kPcre, true},
      {"lazy-possessive", "a*?b++c?+", Dialect::kPcre, true},
      {"js-has-no-possessive", "a*+", Dialect::kJavaScript, false},
      {"atomic", "(?>a+)b", Dialect::kPcre, true},
      {"js-has-no-atomic", "(?>a+)b", Dialect::kJavaScript, false},
      {"python-named", "(?P<year>\\d+)-(?P=year)", Dialect::kPython, true},
      {"js-named", "(?<year>\\d+)-\\k<year>", Dialect::kJavaScript, true},
      {"js-unicode-escape", "\\u200c+", Dialect::kJavaScript, true},
      {"pcre-has-no-u-escape", "\\u200c", Dialect::kPcre, false},
      {"pcre-braced-hex", "\\x{200c}+", Dialect::kPcre, true},
      {"lookaround", "(?<=a)b(?=c)(?!d)(?<!e)", Dialect::kPcre, true},
      {"backref", "(a)\\1", Dialect::kPcre, true},
      {"backref-to-missing-group", "(a)\\2", Dialect::kPcre, false},
      {"unbalanced-open", "(ab", Dialect::kPcre, false},
      {"unbalanced-close", "ab)", Dialect::kPcre, false},
      {"nothing-to-repeat", "*a", Dialect::kPcre, false},
      {"double-quantifier", "a**", Dialect::kPcre, false},
      {"range-out-of-order", "[z-a]", Dialect::kPcre, false},
      {"unterminated-class", "[abc", Dialect::kPcre, false},
      {"properties", "\\p{L}+\\P{Lu}", Dialect::kPcre, true},
      {"posix-class", "[[:alpha:]]+", Dialect::kPcre, true},
      {"js-empty-class", "[]", Dialect::kJavaScript, true},
      {"js-any-class", "[^]", Dialect::kJavaScript, true},
      {"go-has-no-backrefs", "(a)\\1", Dialect::kGo, false},
      {"quantified-brace-literal-js", "a{", Dialect::kJavaScript, true},
      {"inline-flags", "(?i)abc(?-i:d)", Dialect::kPcre, true},
      {"comment-group", "a(?#note)b", Dialect::kPcre, true},
      {"quoted", "\\Qa.b*\\E+", Dialect::kPcre, true},
      {"too-big-count", "a{70000}", Dialect::kPcre, false},
  };
  for (const ValidityCase& c : cases) {
    Result<ParsedPattern> parsed = ParsePattern(c.pattern, In(c.dialect));
    EXPECT_EQ(parsed.ok(), c.valid)
        << c.id << ": " << c.pattern
        << (parsed ? "" : " -> " + parsed.status().message());
  }
}

TEST(ParserTest, UnsupportedSyntaxSaysCannotAnalyse) {
  const char* patterns[] = {"(?R)",      "(?1)",  "(?(1)a|b)", "(?|a|b)",
                            "a(*SKIP)b", "a\\Kb", "(?C1)a"};
  for (const char* pattern : patterns) {
    Result<ParsedPattern> parsed = ParsePattern(pattern, In(Dialect::kPcre));
    ASSERT_FALSE(parsed.ok()) << pattern;
    EXPECT_EQ(parsed.status().code(), StatusCode::kUnsupported) << pattern;
    EXPECT_EQ(parsed.status().message().rfind("cannot analyse: ", 0), 0u)
        << pattern << ": " << parsed.status().message();
    EXPECT_TRUE(parsed.status().span().has_value()) << pattern;
  }
}

TEST(ParserTest, NodesKeepTheirSourceSpans) {
  const std::string pattern = "^(a+)+$";
  Result<ParsedPattern> parsed = ParsePattern(pattern, In(Dialect::kPcre));
  ASSERT_TRUE(parsed);
  const Node& root = *parsed->root;
  ASSERT_EQ(root.kind, NodeKind::kSequence);
  ASSERT_EQ(root.children.size(), 3u);
  const Node& outer = *root.children[1];
  EXPECT_EQ(outer.kind, NodeKind::kRepeat);
  EXPECT_EQ(pattern.substr(outer.span.begin, outer.span.end - outer.span.begin),
            "(a+)+");
  const Node& group = *outer.children[0];
  ASSERT_EQ(group.kind, NodeKind::kGroup);
  const Node& inner = *group.children[0];
  EXPECT_EQ(inner.kind, NodeKind::kRepeat);
  EXPECT_EQ(pattern.substr(inner.span.begin, inner.span.end - inner.span.begin),
            "a+");
  EXPECT_TRUE(parsed->anchored_at_start);
}

TEST(ParserTest, ErrorSpanPointsAtTheProblem) {
  Result<ParsedPattern> parsed = ParsePattern("ab[z-a]c", In(Dialect::kPcre));
  ASSERT_FALSE(parsed);
  ASSERT_TRUE(parsed.status().span());
  EXPECT_EQ(parsed.status().span()->begin, 3u);
}

TEST(ParserTest, SpansAreByteOffsetsInUtf8) {
  const std::string pattern = "é+(x)";  // é is two bytes
  Result<ParsedPattern> parsed = ParsePattern(pattern, In(Dialect::kPcre));
  ASSERT_TRUE(parsed);
  const Node& group = *parsed->root->children[1];
  EXPECT_EQ(group.span.begin, 3u);
  EXPECT_EQ(group.span.end, 6u);
}

TEST(ParserTest, CaseInsensitiveFlagFoldsCharacters) {
  Result<ParsedPattern> parsed = ParsePattern("k", In(Dialect::kPython, "i"));
  ASSERT_TRUE(parsed);
  EXPECT_TRUE(parsed->root->chars.Contains('K'));
  EXPECT_TRUE(parsed->root->chars.Contains('k'));
  Result<ParsedPattern> scoped = ParsePattern("(?i:a)b", In(Dialect::kPcre));
  ASSERT_TRUE(scoped);
  EXPECT_TRUE(scoped->root->children[0]->children[0]->chars.Contains('A'));
  EXPECT_FALSE(scoped->root->children[1]->chars.Contains('B'));
}

// Each engine's own case folding (issue 12): JavaScript without u never
// maps a non-ASCII character onto an ASCII one (ECMAScript Canonicalize), so
// /s/i does not match U+017F there while PCRE2, Python str and JavaScript
// with u do; Java folds ASCII only unless UNICODE_CASE; Python bytes and
// re.ASCII fold ASCII only. Checked against the engines: node -e
// "/s/i.test('\u017f')" is false, /s/iu true; re.match('(?i)s', 'ſ') true.
TEST(ParserTest, CaseFoldingFollowsTheEngine) {
  struct Case {
    Dialect dialect;
    const char* pattern;
    const char* flags;
    bool long_s;   // U+017F folds onto s
    bool kelvin;   // U+212A folds onto k
    bool e_acute;  // U+00C9 onto U+00E9
  } cases[] = {
      {Dialect::kPcre, "[sk\u00e9]", "i", true, true, true},
      {Dialect::kPython, "[sk\u00e9]", "i", true, true, true},
      {Dialect::kPython, "[sk\u00e9]", "ia", false, false, false},
      {Dialect::kPython, "(?a)[sk\u00e9]", "i", false, false, false},
      {Dialect::kJavaScript, "[sk\u00e9]", "i", false, false, true},
      {Dialect::kJavaScript, "[sk\u00e9]", "iu", true, true, true},
      {Dialect::kJava, "[sk\u00e9]", "i", false, false, false},
      {Dialect::kJava, "(?u)[sk\u00e9]", "i", true, true, true},
      {Dialect::kRuby, "[sk\u00e9]", "i", true, true, true},
      {Dialect::kDotNet, "[sk\u00e9]", "i", false, false, true},
  };
  for (const Case& c : cases) {
    const std::string pattern = c.pattern;  // \u00e9: UTF-8 in the literal
    Result<ParsedPattern> parsed =
        ParsePattern(pattern, In(c.dialect, c.flags));
    ASSERT_TRUE(parsed) << pattern << " " << DialectName(c.dialect);
    const Node* chars = parsed->root.get();
    while (chars->kind != NodeKind::kCharacters) {
      chars = chars->children.back().get();
    }
    const std::string where =
        pattern + " " + std::string(DialectName(c.dialect)) + " /" + c.flags;
    EXPECT_TRUE(chars->chars.Contains('S')) << where;
    EXPECT_EQ(chars->chars.Contains(0x17F), c.long_s) << where;
    EXPECT_EQ(chars->chars.Contains(0x212A), c.kelvin) << where;
    EXPECT_EQ(chars->chars.Contains(0xC9), c.e_acute) << where;
  }
}

// PCRE2 10.42 refuses a lookbehind whose branches vary in length, which
// JavaScript allows; with bounded lengths it is spelled as one fixed-length
// branch per length, which PCRE2 compiles.
TEST(ParserTest, VariableLengthLookbehindIsSpelledAsFixedBranches) {
  Result<ParsedPattern> parsed =
      ParsePattern("(?<=^v?|\\sv?)\\d", In(Dialect::kJavaScript));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(ToPcre2Pattern(*parsed->root),
            "(?<=\\Av|\\A|[\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-"
            "\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}]v|"
            "[\\x{9}-\\x{d}\\x{20}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}"
            "\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}])[0-9]");
  // Unbounded lengths cannot be spelled so: left as written.
  Result<ParsedPattern> unbounded =
      ParsePattern("(?<=a+)b", In(Dialect::kJavaScript));
  ASSERT_TRUE(unbounded);
  EXPECT_EQ(ToPcre2Pattern(*unbounded->root), "(?<=a+)b");
}

TEST(ParserTest, DotAndDollarFollowTheDialect) {
  Result<ParsedPattern> js = ParsePattern(".$", In(Dialect::kJavaScript));
  Result<ParsedPattern> py = ParsePattern(".$", In(Dialect::kPython));
  ASSERT_TRUE(js && py);
  EXPECT_FALSE(js->root->children[0]->chars.Contains('\r'));
  EXPECT_TRUE(py->root->children[0]->chars.Contains('\r'));
  EXPECT_EQ(js->root->children[1]->assertion, AssertionKind::kEndOfText);
  EXPECT_EQ(py->root->children[1]->assertion,
            AssertionKind::kEndOfTextOrFinalNewline);
  Result<ParsedPattern> dotall = ParsePattern(".", In(Dialect::kPython, "s"));
  ASSERT_TRUE(dotall);
  EXPECT_TRUE(dotall->root->chars.Contains('\n'));
}

TEST(ParserTest, BackslashDigitsFollowTheGroupCount) {
  // \10 is group 10 when ten groups exist, else octal 010 (backspace).
  Result<ParsedPattern> octal = ParsePattern("(a)\\10", In(Dialect::kPcre));
  ASSERT_TRUE(octal);
  EXPECT_EQ(octal->root->children[1]->kind, NodeKind::kCharacters);
  EXPECT_TRUE(octal->root->children[1]->chars.Contains(8));
  std::string ten_groups;
  for (int i = 0; i < 10; ++i) ten_groups += "(a)";
  Result<ParsedPattern> reference =
      ParsePattern(ten_groups + "\\10", In(Dialect::kPcre));
  ASSERT_TRUE(reference);
  EXPECT_EQ(reference->root->children.back()->kind, NodeKind::kBackReference);
  EXPECT_EQ(reference->root->children.back()->group_index, 10);
}

TEST(ParserTest, ExtendedModeSkipsWhitespaceAndComments) {
  Result<ParsedPattern> parsed =
      ParsePattern("a b # comment\n c", In(Dialect::kPcre, "x"));
  ASSERT_TRUE(parsed);
  EXPECT_EQ(ToPcre2Pattern(*parsed->root), "abc");
}

TEST(ParserTest, Pcre2SpellingIsExplicit) {
  struct Case {
    const char* pattern;
    Dialect dialect;
    const char* flags;
    const char* pcre2;
  } cases[] = {
      {"^a+$", Dialect::kPcre, "", "\\Aa+\\Z"},
      {"^a+$", Dialect::kJavaScript, "", "\\Aa+\\z"},
      {"\\d{2,}?", Dialect::kPcre, "", "[0-9]{2,}?"},
      {"(?:ab|c)*", Dialect::kPcre, "", "(?:ab|c)*"},
      {"(?<n>x)\\k<n>", Dialect::kJavaScript, "", "(x)\\g{1}"},
      {"a", Dialect::kPcre, "i", "[Aa]"},
      {"^x", Dialect::kJavaScript, "m",
       "(?<![^\\x{a}\\x{d}\\x{2028}\\x{2029}])x"},
  };
  for (const Case& c : cases) {
    Result<ParsedPattern> parsed =
        ParsePattern(c.pattern, In(c.dialect, c.flags));
    ASSERT_TRUE(parsed) << c.pattern;
    EXPECT_EQ(ToPcre2Pattern(*parsed->root), c.pcre2) << c.pattern;
  }
}

TEST(ParserTest, DeepNestingIsRefusedNotRecursedInto) {
  const std::string deep =
      std::string(5000, '(') + "a" + std::string(5000, ')');
  Result<ParsedPattern> parsed = ParsePattern(deep, In(Dialect::kPcre));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), StatusCode::kUnsupported);
}

TEST(ParserTest, InvalidUtf8IsAnError) {
  Result<ParsedPattern> parsed = ParsePattern("a\xff", In(Dialect::kPcre));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidInput);
}

// CPython 3.11 refuses global inline flags anywhere but at the pattern's
// start ("global flags not at the start of the expression"): such a
// pattern is invalid in the python dialect, never a finding (nltk's
// `/(?i)Eng-USA/(.*)\.xml`), while PCRE, Java and Ruby scope the flags.
TEST(ParserTest, PythonGlobalFlagsOnlyAtTheStart) {
  for (const char* pattern :
       {"/(?i)Eng-USA/(.*)\\.xml", "a(?i)b", "^(?i)a", "a|(?i)b", "((?i)a)",
        "(?:(?i))a", "(?i:a)(?s)b"}) {
    Result<ParsedPattern> parsed = ParsePattern(pattern, In(Dialect::kPython));
    ASSERT_FALSE(parsed) << pattern;
    EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidInput) << pattern;
    EXPECT_EQ(parsed.status().message(),
              "global flags not at the start of the expression")
        << pattern;
    for (const Dialect other : {Dialect::kPcre, Dialect::kJava}) {
      EXPECT_TRUE(ParsePattern(pattern, In(other))) << pattern;
    }
  }
  for (const char* pattern :
       {"(?i)a", "(?i)(?s)a", "(?#note)(?i)a", "(?x) (?i) a", "(?i)^a|b"}) {
    EXPECT_TRUE(ParsePattern(pattern, In(Dialect::kPython))) << pattern;
  }
}

// Go 1.19's regexp (Debian 12) refuses (?<name>...), which Go 1.22 added.
TEST(ParserTest, GoRefusesAngleBracketGroupNames) {
  Result<ParsedPattern> parsed = ParsePattern("(?<n>a)", In(Dialect::kGo));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidInput);
  EXPECT_TRUE(ParsePattern("(?P<n>a)", In(Dialect::kGo)));
  EXPECT_TRUE(ParsePattern("(?<n>a)", In(Dialect::kJava)));
}

TEST(FlagLettersTest, ParsesKnownLettersAndRejectsOthers) {
  Result<PatternFlags> flags = ParseFlagLetters("imsxug");
  ASSERT_TRUE(flags);
  EXPECT_TRUE(flags->case_insensitive && flags->multiline && flags->dot_all &&
              flags->extended && flags->unicode && flags->global);
  Result<PatternFlags> bad = ParseFlagLetters("iq");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(DialectTest, NamesRoundTrip) {
  for (const Dialect d :
       {Dialect::kPcre, Dialect::kPython, Dialect::kJavaScript, Dialect::kJava,
        Dialect::kRuby, Dialect::kGo, Dialect::kDotNet}) {
    EXPECT_EQ(DialectFromName(DialectName(d)), d);
  }
  EXPECT_FALSE(DialectFromName("perl6").has_value());
}

// One pattern per syntax feature (dialect_features.h), read by every
// dialect: its PCRE2 spelling, "!" for an invalid pattern, "?" for one that
// cannot be analyzed. A feature moved to the wrong dialect changes a cell.
// Columns: pcre, python, javascript, javascript with u, java, ruby, go,
// dotnet.
TEST(DialectFeaturesTest, OnePatternPerFeature) {
  const struct {
    const char* pattern;
    std::array<const char*, 8> read;
  } kCases[] = {
      {R"(a*+)",
       {R"(a*+)", R"(a*+)", R"(!)", R"(!)", R"(a*+)", R"(a*+)", R"(!)",
        R"(!)"}},
      {R"(a{2}{3})",
       {R"(!)", R"(!)", R"(!)", R"(!)", R"((?:a{2}){3})", R"((?:a{2}){3})",
        R"(!)", R"(!)"}},
      {R"(a**)",
       {R"(!)", R"(!)", R"(!)", R"(!)", R"(!)", R"(a*)", R"(!)", R"(!)"}},
      {R"(^*)",
       {R"((?:\A)*)", R"(!)", R"(!)", R"(!)", R"((?:\A)*)", R"((?:(?m:^))*)",
        R"((?:\A)*)", R"((?:\A)*)"}},
      {R"((?:a+)+)",
       {R"((?:a+)+)", R"((?:a+)+)", R"((?:a+)+)", R"((?:a+)+)", R"((?:a+)+)",
        R"(a+)", R"((?:a+)+)", R"((?:a+)+)"}},
      {R"(a{,3})",
       {R"(a\x{7b}\x{2c}3\x{7d})", R"(a{0,3})", R"(a\x{7b}\x{2c}3\x{7d})",
        R"(!)", R"(!)", R"(a\x{7b}\x{2c}3\x{7d})", R"(a\x{7b}\x{2c}3\x{7d})",
        R"(a\x{7b}\x{2c}3\x{7d})"}},
      {R"(a{1001})",
       {R"(a{1001})", R"(a{1001})", R"(a{1001})", R"(a{1001})", R"(a{1001})",
        R"(a{1001})", R"(!)", R"(a{1001})"}},
      {R"({2})",
       {R"(!)", R"(!)", R"(\x{7b}2\x{7d})", R"(!)", R"(!)", R"(!)", R"(!)",
        R"(!)"}},
      {R"(a])",
       {R"(a\x{5d})", R"(a\x{5d})", R"(a\x{5d})", R"(!)", R"(a\x{5d})",
        R"(a\x{5d})", R"(a\x{5d})", R"(a\x{5d})"}},
      {R"(^a$)",
       {R"(\Aa\Z)", R"(\Aa\Z)", R"(\Aa\z)", R"(\Aa\z)",
        R"(\Aa(?=(?:\r\n|[\x{a}\x{d}\x{85}\x{2028}\x{2029}])?\z))",
        R"((?m:^)a(?m:$))", R"(\Aa\z)", R"(\Aa\Z)"}},
      {R"(a$)",
       {R"(a\Z)", R"(a\Z)", R"(a\z)", R"(a\z)",
        R"(a(?=(?:\r\n|[\x{a}\x{d}\x{85}\x{2028}\x{2029}])?\z))", R"(a(?m:$))",
        R"(a\z)", R"(a\Z)"}},
      {R"(\Aa)",
       {R"(\Aa)", R"(\Aa)", R"(Aa)", R"(!)", R"(\Aa)", R"(\Aa)", R"(\Aa)",
        R"(\Aa)"}},
      {R"(a\z)",
       {R"(a\z)", R"(!)", R"(az)", R"(!)", R"(a\z)", R"(a\z)", R"(a\z)",
        R"(a\z)"}},
      {R"(a\Z)",
       {R"(a\Z)", R"(a\z)", R"(aZ)", R"(!)",
        R"(a(?=(?:\r\n|[\x{a}\x{d}\x{85}\x{2028}\x{2029}])?\z))", R"(a\Z)",
        R"(!)", R"(a\Z)"}},
      {R"(\Ga)",
       {R"(\Ga)", R"(!)", R"(Ga)", R"(!)", R"(\Ga)", R"(\Ga)", R"(!)",
        R"(\Ga)"}},
      {R"(\Ka)",
       {R"(?)", R"(!)", R"(Ka)", R"(!)", R"(!)", R"(?)", R"(!)", R"(!)"}},
      {R"((?=a)b)",
       {R"((?=a)b)", R"((?=a)b)", R"((?=a)b)", R"((?=a)b)", R"((?=a)b)",
        R"((?=a)b)", R"(!)", R"((?=a)b)"}},
      {R"((?<=a|bc)d)",
       {R"((?<=a|bc)d)", R"(!)", R"((?<=a|bc)d)", R"((?<=a|bc)d)",
        R"((?<=a|bc)d)", R"((?<=a|bc)d)", R"(!)", R"((?<=a|bc)d)"}},
      {R"((?<=a|bc))",
       {R"((?<=a|bc))", R"(!)", R"((?<=a|bc))", R"((?<=a|bc))", R"((?<=a|bc))",
        R"((?<=a|bc))", R"(!)", R"((?<=a|bc))"}},
      {R"((?=x)^a)",
       {R"((?=x)\Aa)", R"((?=x)\Aa)", R"((?=x)\Aa)", R"((?=x)\Aa)",
        R"((?=x)\Aa)", R"((?=x)(?m:^)a)", R"(!)", R"((?=x)\Aa)"}},
      {R"((?>a))",
       {R"((?>a))", R"((?>a))", R"(!)", R"(!)", R"((?>a))", R"((?>a))", R"(?)",
        R"((?>a))"}},
      {R"((*SKIP)a)",
       {R"(?)", R"(?)", R"(!)", R"(!)", R"(?)", R"(?)", R"(?)", R"(?)"}},
      {R"((?'n'a))",
       {R"((a))", R"(!)", R"(!)", R"(!)", R"((a))", R"((a))", R"((a))",
        R"((a))"}},
      {R"((?P<n>a))",
       {R"((a))", R"((a))", R"(!)", R"(!)", R"(!)", R"(!)", R"((a))",
        R"((a))"}},
      {R"((?P<n>a)(?P=n))",
       {R"((a)\g{1})", R"((a)\g{1})", R"(!)", R"(!)", R"(!)", R"(!)", R"(?)",
        R"((a)\g{1})"}},
      {R"((?#c)a)",
       {R"(a)", R"(a)", R"(!)", R"(!)", R"(a)", R"(a)", R"(?)", R"(a)"}},
      {R"((?Q))",
       {R"(?)", R"(!)", R"(!)", R"(!)", R"(!)", R"(!)", R"(?)", R"(?)"}},
      {R"((?<n>a)(?<n>b))",
       {R"((a)(b))", R"(!)", R"(!)", R"(!)", R"(!)", R"((a)(b))", R"(!)",
        R"(!)"}},
      {R"((?x) a)",
       {R"(a)", R"(a)", R"(a)", R"(a)", R"(a)", R"(a)", R"(?)", R"(a)"}},
      {R"((?m).)",
       {R"(.)", R"(.)", R"([^\x{a}\x{d}\x{2028}\x{2029}])",
        R"([^\x{a}\x{d}\x{2028}\x{2029}])",
        R"([^\x{a}\x{d}\x{85}\x{2028}\x{2029}])", R"((?s:.))", R"(.)", R"(.)"}},
      {R"((?U)a)",
       {R"(?)", R"(a)", R"(!)", R"(!)", R"(?)", R"(!)", R"(?)", R"(?)"}},
      {R"(\a)",
       {R"(\x{7})", R"(\x{7})", R"(a)", R"(!)", R"(\x{7})", R"(\x{7})",
        R"(\x{7})", R"(\x{7})"}},
      {R"(\e)",
       {R"(\x{1b})", R"(!)", R"(e)", R"(!)", R"(\x{1b})", R"(\x{1b})", R"(!)",
        R"(\x{1b})"}},
      {R"(\v)",
       {R"([\x{a}-\x{d}\x{85}\x{2028}\x{2029}])", R"(\x{b})", R"(\x{b})",
        R"(\x{b})", R"([\x{a}-\x{d}\x{85}\x{2028}\x{2029}])", R"(\x{b})",
        R"(\x{b})", R"(\x{b})"}},
      {R"(\x{41})",
       {R"(A)", R"(!)", R"(x{41})", R"(!)", R"(A)", R"(!)", R"(A)", R"(A)"}},
      {R"(\x4)",
       {R"(\x{4})", R"(!)", R"(x)", R"(!)", R"(\x{4})", R"(\x{4})", R"(\x{4})",
        R"(\x{4})"}},
      {R"(\u0041)",
       {R"(!)", R"(A)", R"(A)", R"(A)", R"(A)", R"(A)", R"(!)", R"(A)"}},
      {R"(\u{41})",
       {R"(!)", R"(!)", R"(u{41})", R"(A)", R"(!)", R"(A)", R"(!)", R"(!)"}},
      {R"(\U00000041)",
       {R"(!)", R"(A)", R"(U00000041)", R"(!)", R"(!)", R"(U00000041)", R"(!)",
        R"(!)"}},
      {R"(\cA)",
       {R"(\x{1})", R"(!)", R"(\x{1})", R"(\x{1})", R"(\x{1})", R"(\x{1})",
        R"(!)", R"(\x{1})"}},
      {R"(\c1)",
       {R"(!)", R"(!)", R"(\x{5c}c1)", R"(\x{5c}c1)", R"(!)", R"(!)", R"(!)",
        R"(!)"}},
      {R"(\o{101})",
       {R"(A)", R"(!)", R"(o{101})", R"(!)", R"(!)", R"(o{101})", R"(!)",
        R"(!)"}},
      {R"(\N{DIGIT ONE})",
       {R"(!)", R"(?)", R"(N\x{7b}DIGIT\x{20}ONE\x{7d})", R"(!)", R"(!)",
        R"(N\x{7b}DIGIT\x{20}ONE\x{7d})", R"(!)", R"(!)"}},
      {R"(\q)",
       {R"(!)", R"(!)", R"(q)", R"(!)", R"(!)", R"(q)", R"(!)", R"(!)"}},
      {R"(\h)",
       {R"([\x{9}\x{20}\x{a0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}])",
        R"(!)", R"(h)", R"(!)",
        R"([\x{9}\x{20}\x{a0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}])",
        R"([0-9A-Fa-f])", R"(!)", R"(!)"}},
      {R"(\H)",
       {R"([^\x{9}\x{20}\x{a0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}])",
        R"(!)", R"(H)", R"(!)",
        R"([^\x{9}\x{20}\x{a0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}])",
        R"([^0-9A-Fa-f])", R"(!)", R"(!)"}},
      {R"(\p{L})",
       {R"([\p{L}])", R"(!)", R"(p\x{7b}L\x{7d})", R"([\p{L}])", R"([\p{L}])",
        R"([\p{L}])", R"([\p{L}])", R"([\p{L}])"}},
      {R"(\X)",
       {R"(?)", R"(!)", R"(X)", R"(!)", R"(?)", R"(?)", R"(!)", R"(!)"}},
      {R"(\R)",
       {R"(\R)", R"(!)", R"(R)", R"(!)", R"(\R)", R"(\R)", R"(!)", R"(!)"}},
      {R"([]a])",
       {R"([\x{5d}a])", R"([\x{5d}a])", R"((?!)a\x{5d})", R"(!)",
        R"([\x{5d}a])", R"([\x{5d}a])", R"([\x{5d}a])", R"([\x{5d}a])"}},
      {R"([[:alpha:]])",
       {R"([A-Za-z])", R"([\x{3a}\x{5b}ahlp]\x{5d})",
        R"([\x{3a}\x{5b}ahlp]\x{5d})", R"(!)", R"(?)", R"([A-Za-z])",
        R"([A-Za-z])", R"([A-Za-z])"}},
      {R"([a[b]])",
       {R"([\x{5b}ab]\x{5d})", R"([\x{5b}ab]\x{5d})", R"([\x{5b}ab]\x{5d})",
        R"(!)", R"(?)", R"(?)", R"([\x{5b}ab]\x{5d})", R"([\x{5b}ab]\x{5d})"}},
      {R"([\101])",
       {R"(A)", R"(A)", R"([01])", R"(!)", R"(A)", R"(A)", R"(A)", R"(A)"}},
      {R"([\d-z])",
       {R"(!)", R"([\x{2d}0-9z])", R"([\x{2d}0-9z])", R"([\x{2d}0-9z])",
        R"([\x{2d}0-9z])", R"(!)", R"([\x{2d}0-9z])", R"([\x{2d}0-9z])"}},
      {R"([a-\d])",
       {R"(!)", R"(!)", R"([\x{2d}0-9a])", R"(!)", R"(!)", R"(!)",
        R"([\x{2d}0-9a])", R"([\x{2d}0-9a])"}},
      {R"(\Qa.\E)",
       {R"(a\x{2e})", R"(!)", R"(Qa[^\x{a}\x{d}\x{2028}\x{2029}]E)", R"(!)",
        R"(a\x{2e})", R"(Qa.E)", R"(a\x{2e})", R"(!)"}},
      {R"([\Qa-\E])",
       {R"([\x{2d}a])", R"(!)", R"(!)", R"(!)", R"([\x{2d}a])", R"(!)", R"(!)",
        R"(!)"}},
      {R"(a\Eb)",
       {R"(ab)", R"(!)", R"(aEb)", R"(!)", R"(!)", R"(aEb)", R"(!)", R"(!)"}},
      {R"((a)\1)",
       {R"((a)\g{1})", R"((a)\g{1})", R"((a)\g{1})", R"((a)\g{1})",
        R"((a)\g{1})", R"((a)\g{1})", R"(!)", R"((a)\g{1})"}},
      {R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\11)",
       {R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\x{9})",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\x{9})",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\g{1}1)",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\g{1}1)",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\x{9})",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\x{9})", R"(!)",
        R"((a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\x{9})"}},
      {R"((?<n>a)\k<n>)",
       {R"((a)\g{1})", R"(!)", R"((a)\g{1})", R"((a)\g{1})", R"((a)\g{1})",
        R"((a)\g{1})", R"(!)", R"((a)\g{1})"}},
      {R"((a)\g{-1})",
       {R"((a)\g{1})", R"(!)", R"((a)g\x{7b}\x{2d}1\x{7d})", R"(!)", R"(!)",
        R"((a)g\x{7b}\x{2d}1\x{7d})", R"(!)", R"(!)"}},
  };
  constexpr std::array<std::pair<Dialect, bool>, 8> kColumns = {{
      {Dialect::kPcre, false},
      {Dialect::kPython, false},
      {Dialect::kJavaScript, false},
      {Dialect::kJavaScript, true},
      {Dialect::kJava, false},
      {Dialect::kRuby, false},
      {Dialect::kGo, false},
      {Dialect::kDotNet, false},
  }};
  for (const auto& c : kCases) {
    for (std::size_t column = 0; column < kColumns.size(); ++column) {
      ParseOptions options;
      options.dialect = kColumns[column].first;
      options.flags.unicode = kColumns[column].second;
      const Result<ParsedPattern> parsed = ParsePattern(c.pattern, options);
      const std::string read =
          parsed ? ToPcre2Pattern(*parsed->root)
          : parsed.status().code() == StatusCode::kInvalidInput ? "!"
                                                                : "?";
      EXPECT_EQ(read, c.read[column])
          << c.pattern << " in " << DialectName(options.dialect)
          << (options.flags.unicode ? " (u)" : "");
    }
  }
}

// Onigmo rewrites a quantifier of a quantifier when it parses it
// (parser_sequences.cc: ReduceNestedRepeat); the tree is what Ruby runs.
// Each row's Ruby 3.1 warning names the same rewrite, and the timed rows
// are in tests/regexguard/engine_attacks/engine_versions_test.py.
TEST(ParserTest, RubyReducesNestedRepeatsAsOnigmo) {
  const struct {
    const char* pattern;
    const char* ruby;
  } kCases[] = {
      {R"((?:a+)+)", R"(a+)"},         // redundant nested repeat operator '+'
      {R"((?:a*)*)", R"(a*)"},         // redundant '*'
      {R"((?:a*)+?)", R"(a*)"},        // redundant '*'
      {R"((?:a+)*)", R"(a*)"},         // '+' and '*' replaced with '*'
      {R"((?:a?)+)", R"(a*)"},         // '?' and '+' replaced with '*'
      {R"((?:a??)+)", R"(a*?)"},       // '??' and '+' replaced with '*?'
      {R"((?:a*)??)", R"((?:a+)??)"},  // '*' and '??' replaced with '+ and ??'
      {R"((?:a+)??)", R"((?:a+)??)"},  // as is (no warning)
      {R"((?:a+?)*)", R"((?:a+?)*)"},  // as is
      {R"((?:a+){1,3})", R"((?:a+){1})"},  // {n,m} of * or + becomes {n,n}
      {R"((?:a+){2,3})", R"((?:a+){2})"},
      {R"((?:a*){0,3})", R"((?:a*)?)"},
      {R"((?:a+){2,})", R"((?:a+){2,})"},  // unbounded: as is
      {R"((a+)+)", R"((a+)+)"},  // a capturing group is a node of its own
      {R"((?i:a+)+)", R"((?:[Aa]+)+)"},  // so is an option group
      {R"((?:ab+)+)", R"((?:ab+)+)"},    // not a quantifier alone
      // Ruby repeats a repeat written directly too, and reduces it alike;
      // `{n,m}+` is such a repeat there, not possessive.
      {R"(a**)", R"(a*)"},
      {R"(a+*)", R"(a*)"},
      {R"(a**?)", R"((?:a+)??)"},
      {R"(a{2}+)", R"((?:a{2})+)"},
      {R"(a{2}{3})", R"((?:a{2}){3})"},
      {R"(a*+)", R"(a*+)"},  // possessive, as in Ruby
  };
  for (const auto& c : kCases) {
    ParseOptions options;
    options.dialect = Dialect::kRuby;
    const Result<ParsedPattern> parsed = ParsePattern(c.pattern, options);
    ASSERT_TRUE(parsed.ok()) << c.pattern;
    EXPECT_EQ(ToPcre2Pattern(*parsed->root), c.ruby) << c.pattern;
  }
}

// Every feature tells some dialects apart: one that all or none had would
// not be a dialect difference.
TEST(DialectFeaturesTest, EachFeatureSplitsTheDialects) {
  using internal::Feature;
  for (unsigned f = 0; f < static_cast<unsigned>(Feature::kFeatureCount); ++f) {
    const Feature feature = static_cast<Feature>(f);
    int with = 0;
    int total = 0;
    for (Dialect dialect :
         {Dialect::kPcre, Dialect::kPython, Dialect::kJavaScript,
          Dialect::kJava, Dialect::kRuby, Dialect::kGo, Dialect::kDotNet}) {
      for (bool unicode : {false, true}) {
        PatternFlags flags;
        flags.unicode = unicode;
        with += internal::SyntaxFeaturesOf(dialect, flags).Has(feature);
        ++total;
      }
    }
    EXPECT_GT(with, 0) << "feature " << f;
    EXPECT_LT(with, total) << "feature " << f;
  }
}

}  // namespace
}  // namespace robotscan::regexguard
