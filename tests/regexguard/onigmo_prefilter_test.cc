// What Onigmo (Ruby 3.1) searches a subject for before it matches
// (proof/onigmo_prefilter.h; issue 27, item 2). The subjects below were
// timed on Ruby 3.1.2: where Admits() is false, Ruby fails the search at
// once; the analyzer's Ruby attacks carry what the prefilter wants, and
// regexguard.EngineAttacksJavaRuby.slow runs them on Ruby.
#include "proof/onigmo_prefilter.h"

#include <gtest/gtest.h>

#include <string>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {
namespace {

// The pattern parsed in the ruby dialect with flag letters `flags`.
Result<ParsedPattern> ParseRuby(const char* pattern, const char* flags) {
  ParseOptions options;
  options.dialect = Dialect::kRuby;
  Result<PatternFlags> letters = ParseFlagLetters(flags);
  EXPECT_TRUE(letters.ok()) << flags;
  if (letters.ok()) options.flags = *letters;
  Result<ParsedPattern> parsed = ParsePattern(pattern, options);
  EXPECT_TRUE(parsed.ok()) << pattern;
  return parsed;
}

OnigmoPrefilter PrefilterOf(const char* pattern, const char* flags = "") {
  Result<ParsedPattern> parsed = ParseRuby(pattern, flags);
  return parsed.ok() ? OnigmoPrefilter::For(*parsed->root) : OnigmoPrefilter();
}

TEST(OnigmoPrefilterTest, LiteralRunsOnTheMandatoryPath) {
  const OnigmoPrefilter p = PrefilterOf(" *, *");
  EXPECT_EQ(p.Describe(), "\",\"");
  EXPECT_FALSE(p.Admits("      x"));
  EXPECT_TRUE(p.Admits("   ,  x"));
  EXPECT_EQ(p.MissingFrom("   "), ",");
  EXPECT_EQ(p.MissingFrom(" , "), "");
}

TEST(OnigmoPrefilterTest, OptionalPartsRequireNothing) {
  EXPECT_TRUE(PrefilterOf("(ab)?c*(?!x)(?<=c)\\1?").empty());
  EXPECT_TRUE(PrefilterOf("(unit|u|)x?").empty());  // an empty branch
}

// `\d+\s*(mm|cm|…|h)`: flat on Ruby for "0"×n + "a", quadratic for
// "0"×n + "am" (690 → 2754 → 10938 ms at n = 5k/10k/20k).
TEST(OnigmoPrefilterTest, AnAlternationNeedsOneBranch) {
  const OnigmoPrefilter p = PrefilterOf(
      "(?<Nbr>[\\+-]?((\\d*\\,\\d+)|(\\d*\\.\\d+)|\\d+))\\s*"
      "(?<Unit>mm|cm|dm|min|km|s|m|h)");
  EXPECT_FALSE(p.Admits("0000a"));
  EXPECT_TRUE(p.Admits("0000am"));
  EXPECT_TRUE(p.Admits("0000s"));
  // The cheapest branch: one character.
  EXPECT_EQ(p.MissingFrom("0a").size(), 1u);
  EXPECT_TRUE(p.Admits("0a" + p.MissingFrom("0a")));
}

// `^(…[\r\n]*ITINERARY OK|NEEDS AIR SEGMENT|CHECK…)`: flat on newlines
// with "a" after them, quadratic with "I", "N" or "C" (83 → 340 → 1396 ms).
TEST(OnigmoPrefilterTest, BranchesOfAnAnchoredAlternation) {
  const OnigmoPrefilter p = PrefilterOf(
      "^((\\(1A\\))*[\\r\\n]*ITINERARY OK|NEEDS AIR SEGMENT|CHECK SEGMENT - "
      "NO CONNECTION)");
  EXPECT_FALSE(p.Admits("a\n\n\na"));
  EXPECT_FALSE(p.Admits("a\n\n\n(1A)"));
  EXPECT_TRUE(p.Admits("a\n\n\nNEEDS AIR SEGMENT"));
  const std::string missing = p.MissingFrom("a\na");
  EXPECT_TRUE(p.Admits("a\na" + missing)) << missing;
}

// A positive lookahead's content is a candidate too: `(?=.*[A-Za-z])
// (?=.*[!@#$%^&*])(?=.{7,})` is flat on Ruby for digits and a newline, and
// quadratic once "a!" follows (8.9 -> 35 -> 144 ms at n = 2k/4k/8k).
TEST(OnigmoPrefilterTest, PositiveLookaheadsCount) {
  const OnigmoPrefilter p =
      PrefilterOf("(?=.*[A-Za-z])(?=.*[!@#\\$%\\^&\\*])(?=.{7,})");
  EXPECT_FALSE(p.Admits("0000000\n"));
  EXPECT_TRUE(p.Admits("0000000\na!"));
  EXPECT_EQ(p.MissingFrom("0\n"), "A!");
}

TEST(OnigmoPrefilterTest, CharacterSetsNeedOneOfTheirCharacters) {
  const OnigmoPrefilter p = PrefilterOf(
      "(ISBN[-]*(1[03])*[ ]*(: ){0,1})*(([0-9Xx][- ]*){13}|"
      "([0-9Xx][- ]*){10})");
  EXPECT_FALSE(p.Admits("SBNISBNISBNIa"));
  EXPECT_TRUE(p.Admits("SBNISBNIa7"));
  EXPECT_TRUE(p.Admits("SBNISBNIaX"));
  EXPECT_EQ(p.MissingFrom("SBNIa"), "0");  // a digit before a letter
}

TEST(OnigmoPrefilterTest, CaseFoldedLiteralsMatchInEitherCase) {
  const OnigmoPrefilter p = PrefilterOf("x*gname=", "i");
  EXPECT_EQ(p.Describe(), "\"gname=\"i");
  EXPECT_TRUE(p.Admits("xxGNaMe="));
  EXPECT_FALSE(p.Admits("xxg name="));
  // (?-i) letters start a run of their own.
  const OnigmoPrefilter mixed = PrefilterOf("ab(?-i:C)", "i");
  EXPECT_TRUE(mixed.Admits("ABC"));
  EXPECT_FALSE(mixed.Admits("ABc"));
}

TEST(OnigmoPrefilterTest, NonAsciiCharactersAndSets) {
  const OnigmoPrefilter p = PrefilterOf("\\d+[あ-ん]");
  EXPECT_FALSE(p.Admits("000a"));
  EXPECT_TRUE(p.Admits("000い"));
  const std::string missing = p.MissingFrom("000");
  EXPECT_EQ(missing, "あ");
  // Invalid UTF-8 in a subject is skipped, not misread.
  EXPECT_FALSE(p.Admits(std::string("000\xe3\x81", 5)));
}

std::string StartAnchorOf(const char* pattern, const char* flags = "") {
  Result<ParsedPattern> parsed = ParseRuby(pattern, flags);
  return parsed.ok() ? OnigmoStartAnchor(*parsed->root) : "?";
}

// Each row timed on Ruby 3.1.2 with its search-restart attack: the
// anchored ones are linear there (flat per doubling), the others quadratic.
TEST(OnigmoPrefilterTest, StartAnchorsOnigmoDerives) {
  // `.+` first: a failure at one start fails the rest of its line
  // (`.+\.([^.]+)$` on "a."×n + "\n.": 0.05 -> 0.08 -> 0.18 ms).
  EXPECT_EQ(StartAnchorOf(".+\\.([^.]+)$"), "(?m:^)");
  EXPECT_EQ(StartAnchorOf("(.+)\\.x"), "(?m:^)");
  EXPECT_EQ(StartAnchorOf(".{2,}\\.x"), "(?m:^)");
  EXPECT_EQ(StartAnchorOf("\\b.+\\.x"), "(?m:^)");
  // With the dot taking newlines (Ruby's m): the first start only.
  EXPECT_EQ(StartAnchorOf(".+\\.x", "s"), "\\G");
  // After lookaheads: `^` and `.*` (10276 and 4866 of the corpus).
  EXPECT_EQ(StartAnchorOf("(?=.*\\d)(?=.*[a-z])^[\\w!@$#.+-]{8,64}$"),
            "(?m:^)");
  EXPECT_EQ(StartAnchorOf("(?=.*[A-Z])(?=.*[a-z]).*"), "(?m:^)");
  // PCRE2 anchors these itself: the spelling stays.
  EXPECT_EQ(StartAnchorOf("^(a+)+$"), "");
  EXPECT_EQ(StartAnchorOf(".*x"), "");
  // Not anchored: lazy, a branch without it (both quadratic on Ruby).
  EXPECT_EQ(StartAnchorOf(".+?\\.([^.]+)$"), "");
  EXPECT_EQ(StartAnchorOf("(?:.+\\.([^.]+)|x.+\\.y)$"), "");
  EXPECT_EQ(StartAnchorOf("\\d+\\.x"), "");
}

TEST(OnigmoPrefilterTest, EmptyAdmitsEverything) {
  const OnigmoPrefilter none;
  EXPECT_TRUE(none.Admits(""));
  EXPECT_EQ(none.MissingFrom("abc"), "");
}

}  // namespace
}  // namespace robotscan::regexguard::internal
