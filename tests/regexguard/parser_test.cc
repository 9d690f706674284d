// Parser: accepted syntax per dialect, spans, errors, and the PCRE2
// spelling of the tree.
#include <gtest/gtest.h>

#include <string>

#include "robotscan/regexguard/syntax.h"

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
    EXPECT_EQ(parsed.has_value(), c.valid)
        << c.id << ": " << c.pattern
        << (parsed ? "" : " -> " + parsed.error().message);
  }
}

TEST(ParserTest, UnsupportedSyntaxSaysCannotAnalyse) {
  const char* patterns[] = {"(?R)",      "(?1)",  "(?(1)a|b)", "(?|a|b)",
                            "a(*SKIP)b", "a\\Kb", "(?C1)a"};
  for (const char* pattern : patterns) {
    Result<ParsedPattern> parsed = ParsePattern(pattern, In(Dialect::kPcre));
    ASSERT_FALSE(parsed.has_value()) << pattern;
    EXPECT_EQ(parsed.error().code, ErrorCode::kUnsupportedSyntax) << pattern;
    EXPECT_EQ(parsed.error().message.rfind("cannot analyse: ", 0), 0u)
        << pattern << ": " << parsed.error().message;
    EXPECT_TRUE(parsed.error().span.has_value()) << pattern;
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
  ASSERT_TRUE(parsed.error().span);
  EXPECT_EQ(parsed.error().span->begin, 3u);
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
  EXPECT_EQ(parsed.error().code, ErrorCode::kUnsupportedSyntax);
}

TEST(ParserTest, InvalidUtf8IsAnError) {
  Result<ParsedPattern> parsed = ParsePattern("a\xff", In(Dialect::kPcre));
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidPattern);
}

TEST(FlagLettersTest, ParsesKnownLettersAndRejectsOthers) {
  Result<PatternFlags> flags = ParseFlagLetters("imsxug");
  ASSERT_TRUE(flags);
  EXPECT_TRUE(flags->case_insensitive && flags->multiline && flags->dot_all &&
              flags->extended && flags->unicode && flags->global);
  Result<PatternFlags> bad = ParseFlagLetters("iq");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
}

TEST(DialectTest, NamesRoundTrip) {
  for (const Dialect d :
       {Dialect::kPcre, Dialect::kPython, Dialect::kJavaScript, Dialect::kJava,
        Dialect::kRuby, Dialect::kGo, Dialect::kDotNet}) {
    EXPECT_EQ(DialectFromName(DialectName(d)), d);
  }
  EXPECT_FALSE(DialectFromName("perl6").has_value());
}

}  // namespace
}  // namespace robotscan::regexguard
