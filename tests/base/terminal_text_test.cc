#include "robotscan/base/terminal_text.h"

#include <gtest/gtest.h>

#include <string>

namespace robotscan {
namespace {

struct Case {
  const char* id;
  std::string text;
  std::string escaped;
};

TEST(TerminalTextTest, EscapesC0DelAndBothFormsOfC1) {
  const Case cases[] = {
      {"plain", "Disallow: /private", "Disallow: /private"},
      {"backslash kept", "/a\\x1B", "/a\\x1B"},
      {"ESC sequence", "/\x1B[2J/x", "/\\x1B[2J/x"},
      {"OSC title with BEL", "\x1B]0;owned\x07", "\\x1B]0;owned\\x07"},
      {"NUL, tab, CR, LF", std::string("a\0\t\r\nb", 6),
       "a\\x00\\x09\\x0D\\x0Ab"},
      {"DEL", "a\x7F", "a\\x7F"},
      {"raw CSI",
       "/\x9B"
       "2J",
       "/\\x9B2J"},
      {"raw 0x80 and 0x9F", "\x80\x9F", "\\x80\\x9F"},
      {"UTF-8 CSI U+009B",
       "/\xC2\x9B"
       "2J",
       "/\\xC2\\x9B2J"},
      {"U+0080", "\xC2\x80", "\\xC2\\x80"},
      {"U+00A0 is not a control", "\xC2\xA0", "\xC2\xA0"},
      {"e acute", "caf\xC3\xA9", "caf\xC3\xA9"},
      {"euro sign has 0x82 inside", "\xE2\x82\xAC", "\xE2\x82\xAC"},
      {"U+06DB has 0x9B inside", "\xDB\x9B", "\xDB\x9B"},
      {"emoji", "\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},
      {"stray 0xA9 passes", "caf\xA9", "caf\xA9"},
      {"C2 cut off at the end", "a\xC2", "a\xC2"},
      {"lead byte then raw CSI", "\xC3\x9B", "\xC3\x9B"},
      {"invalid lead then raw CSI", "\xE2\x9B", "\xE2\\x9B"},
      {"overlong ESC", "\xC0\x9B", "\xC0\\x9B"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(EscapeControlCharacters(c.text), c.escaped) << c.id;
  }
}

// Nothing that can start a control sequence survives, whatever the bytes.
TEST(TerminalTextTest, NoControlSurvivesAnyTwoBytes) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string text = {static_cast<char>(a), static_cast<char>(b)};
      const std::string out = EscapeControlCharacters(text);
      for (std::size_t i = 0; i < out.size(); ++i) {
        const auto byte = static_cast<unsigned char>(out[i]);
        ASSERT_FALSE(byte < 0x20 || byte == 0x7F) << a << " " << b;
        if (byte >= 0x80 && byte <= 0x9F) {
          // Only inside a valid character that is not U+0080-U+009F.
          ASSERT_GT(i, 0u) << a << " " << b;
          const auto lead = static_cast<unsigned char>(out[i - 1]);
          ASSERT_TRUE(lead >= 0xC3 && Utf8SequenceLength(out.substr(i - 1)))
              << a << " " << b;
        }
      }
    }
  }
}

TEST(TerminalTextTest, ReplacementSeesTheWholeCharacter) {
  std::string seen;
  const std::string out = ReplaceControlCharacters(
      "a\x1B"
      "b\xC2\x85"
      "c\x9B",
      [&seen](std::string_view sequence) {
        seen += std::to_string(sequence.size());
        return std::string("?");
      });
  EXPECT_EQ(out, "a?b?c?");
  EXPECT_EQ(seen, "121");
}

}  // namespace
}  // namespace robotscan
