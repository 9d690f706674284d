#include "robotscan/base/ascii.h"

#include <gtest/gtest.h>

#include <clocale>
#include <string>

namespace robotscan {
namespace {

TEST(AsciiTest, ClassifiesOnlyAscii) {
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    const bool upper = b >= 'A' && b <= 'Z';
    const bool lower = b >= 'a' && b <= 'z';
    const bool digit = b >= '0' && b <= '9';
    EXPECT_EQ(IsAsciiAlpha(c), upper || lower) << b;
    EXPECT_EQ(IsAsciiDigit(c), digit) << b;
    EXPECT_EQ(IsAsciiAlnum(c), upper || lower || digit) << b;
    EXPECT_EQ(IsAsciiHexDigit(c),
              digit || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F'))
        << b;
    EXPECT_EQ(IsAsciiSpace(c), b == ' ' || (b >= '\t' && b <= '\r')) << b;
    EXPECT_EQ(IsAsciiLineSpace(c), b == ' ' || b == '\t' || b == '\f') << b;
    EXPECT_EQ(ToAsciiLower(c), upper ? static_cast<char>(b + 32) : c) << b;
    EXPECT_EQ(ToAsciiUpper(c), lower ? static_cast<char>(b - 32) : c) << b;
  }
}

TEST(AsciiTest, HexValues) {
  EXPECT_EQ(HexValue('0'), 0);
  EXPECT_EQ(HexValue('9'), 9);
  EXPECT_EQ(HexValue('a'), 10);
  EXPECT_EQ(HexValue('F'), 15);
}

// The reason the helpers exist: <cctype> follows the locale. Whatever locale
// the process runs in, these lowercase A-Z only and leave UTF-8 alone.
TEST(AsciiTest, LowercasingIgnoresTheLocaleAndKeepsUtf8) {
  const char* previous = std::setlocale(LC_ALL, nullptr);
  const std::string saved = previous ? previous : "C";
  std::setlocale(LC_ALL, "C.UTF-8");
  EXPECT_EQ(ToAsciiLower("GoogleBOT/\xC3\x89T\xC3\x89 INDEX"),
            "googlebot/\xC3\x89t\xC3\x89 index");
  std::setlocale(LC_ALL, saved.c_str());
}

TEST(AsciiTest, CaseInsensitiveComparisons) {
  EXPECT_TRUE(AsciiEqualsIgnoreCase("User-Agent", "user-agent"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("User-Agent", "user-agents"));
  EXPECT_FALSE(AsciiEqualsIgnoreCase("\xC3\x89", "\xC3\xA9"));
  EXPECT_TRUE(StartsWithIgnoreAsciiCase("DISALLOW: /x", "disallow"));
  EXPECT_FALSE(StartsWithIgnoreAsciiCase("dis", "disallow"));
  EXPECT_LT(CompareIgnoreAsciiCase("abc", "ABD"), 0);
  EXPECT_EQ(CompareIgnoreAsciiCase("ABC", "abc"), 0);
  EXPECT_GT(CompareIgnoreAsciiCase("abcd", "ABC"), 0);
  EXPECT_LT(CompareIgnoreAsciiCase("ab", "abc"), 0);
}

TEST(AsciiTest, StripsAsciiWhitespaceAtBothEnds) {
  EXPECT_EQ(StripAsciiWhitespace(" \t x y \r\n"), "x y");
  EXPECT_EQ(StripAsciiWhitespace("   "), "");
  EXPECT_EQ(StripAsciiWhitespace("\xC2\xA0x"), "\xC2\xA0x");  // NBSP kept.
}

}  // namespace
}  // namespace robotscan
