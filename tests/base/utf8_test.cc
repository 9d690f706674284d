#include "robotscan/base/utf8.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace robotscan {
namespace {

// A second reading of RFC 3629, written differently on purpose: decode the
// bits, then reject overlong forms, surrogates and values past U+10FFFF.
std::size_t ReferenceSequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  const auto lead = static_cast<unsigned char>(text[0]);
  std::size_t length = 0;
  std::uint32_t code = 0;
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    code = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    code = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    code = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[k]);
    if ((next & 0xC0) != 0x80) return 0;
    code = (code << 6) | (next & 0x3F);
  }
  const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF ||
      (code >= 0xD800 && code <= 0xDFFF)) {
    return 0;
  }
  return length;
}

// Every sequence of up to three bytes, and every four-byte one that starts
// F0-F4 with a continuation byte or not in each place.
TEST(Utf8Test, AgreesWithAReferenceDecoderOnEveryShortSequence) {
  std::string text;
  for (int a = 0; a < 256; ++a) {
    text.assign(1, static_cast<char>(a));
    ASSERT_EQ(Utf8SequenceLength(text), ReferenceSequenceLength(text)) << a;
    for (int b = 0; b < 256; ++b) {
      text.assign({static_cast<char>(a), static_cast<char>(b)});
      ASSERT_EQ(Utf8SequenceLength(text), ReferenceSequenceLength(text))
          << a << " " << b;
      if (a < 0xE0) continue;
      for (int c = 0; c < 256; ++c) {
        text.assign(
            {static_cast<char>(a), static_cast<char>(b), static_cast<char>(c)});
        ASSERT_EQ(Utf8SequenceLength(text), ReferenceSequenceLength(text))
            << a << " " << b << " " << c;
        if (a < 0xF0 || a > 0xF4) continue;
        for (const int d : {0x00, 0x7F, 0x80, 0xBF, 0xC0}) {
          text.assign({static_cast<char>(a), static_cast<char>(b),
                       static_cast<char>(c), static_cast<char>(d)});
          ASSERT_EQ(Utf8SequenceLength(text), ReferenceSequenceLength(text))
              << a << " " << b << " " << c << " " << d;
        }
      }
    }
  }
}

TEST(Utf8Test, ValidPrefix) {
  struct Case {
    const char* id;
    std::string text;
    std::size_t prefix;
  } const cases[] = {
      {"empty", "", 0},
      {"ascii", "Disallow: /", 11},
      {"two scripts", "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", 14},
      {"stray continuation", "ab\x80z", 2},
      {"overlong slash", "a\xC0\xAF", 1},
      {"surrogate", "a\xED\xA0\x80", 1},
      {"past U+10FFFF", "\xF4\x90\x80\x80", 0},
      {"truncated at the end", "ok\xE2\x82", 2},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ValidUtf8Prefix(c.text), c.prefix) << c.id;
    EXPECT_EQ(IsValidUtf8(c.text), c.prefix == c.text.size()) << c.id;
  }
}

}  // namespace
}  // namespace robotscan
