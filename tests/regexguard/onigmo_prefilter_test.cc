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

OnigmoPrefilter PrefilterOf(const char* pattern, const char* flags = "") {
  ParseOptions options;
  options.dialect = Dialect::kRuby;
  Result<PatternFlags> letters = ParseFlagLetters(flags);
  EXPECT_TRUE(letters.ok()) << flags;
  if (letters.ok()) options.flags = *letters;
  Result<ParsedPattern> parsed = ParsePattern(pattern, options);
  EXPECT_TRUE(parsed.ok()) << pattern;
  if (!parsed.ok()) return OnigmoPrefilter();
  return OnigmoPrefilter::For(*parsed->root);
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
  EXPECT_TRUE(PrefilterOf("(ab)?c*(?=x)\\1?").empty());
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

TEST(OnigmoPrefilterTest, EmptyAdmitsEverything) {
  const OnigmoPrefilter none;
  EXPECT_TRUE(none.Admits(""));
  EXPECT_EQ(none.MissingFrom("abc"), "");
}

}  // namespace
}  // namespace robotscan::regexguard::internal
