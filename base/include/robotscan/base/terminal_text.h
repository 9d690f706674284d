// Untrusted text (a robots.txt, a crawled page, a URL, a file name) made
// safe to print on a terminal. A control character in it would be obeyed,
// not shown: ESC (0x1B) and CSI start sequences that move the cursor,
// rewrite lines already printed, retitle the window or, on some terminals,
// answer back into the shell's input. ECMA-48 has two sets of them:
//
//   C0: U+0000-U+001F and DEL (U+007F), one byte each;
//   C1: U+0080-U+009F (0x9B alone is CSI), which a UTF-8 terminal obeys as
//       the two bytes C2 80-C2 9F, and a terminal in an 8-bit mode as the
//       single bytes 0x80-0x9F.
//
// Every one of them is a control character here. A byte 0x80-0x9F inside
// any other valid UTF-8 character ("é" is C3 A9) is part of that character
// and printed; outside one it is a control. Other invalid bytes (0xA0-0xFF
// alone) pass: they are printable in 8-bit character sets, and a UTF-8
// terminal shows a replacement character.
//
// JSON output needs none of this: its library escapes controls itself.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_BASE_TERMINAL_TEXT_H_
#define ROBOTSCAN_BASE_TERMINAL_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "robotscan/base/utf8.h"

namespace robotscan {

// `text` with every control character (above) replaced by
// `replacement(sequence)`, where `sequence` is its one or two bytes; every
// other byte kept. O(text.size()).
template <typename Replacement>
std::string ReplaceControlCharacters(std::string_view text,
                                     Replacement&& replacement) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    std::size_t length = 1;
    bool control = false;
    if (byte < 0x80) {
      control = byte < 0x20 || byte == 0x7F;
    } else if (const std::size_t utf8 = Utf8SequenceLength(text.substr(i));
               utf8 > 0) {
      length = utf8;
      control = byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    } else {
      control = byte <= 0x9F;
    }
    if (control) {
      out += replacement(text.substr(i, length));
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

// `text` with each byte of a control character written as \xHH ("\x1B[2J"
// prints as \x1B[2J, U+009B as \xC2\x9B). A backslash is kept as it is, so
// text without controls prints unchanged; output that must be exact is
// JSON.
inline std::string EscapeControlCharacters(std::string_view text) {
  return ReplaceControlCharacters(text, [](std::string_view sequence) {
    constexpr char kHexDigits[] = "0123456789ABCDEF";
    std::string escaped;
    for (const char c : sequence) {
      const auto byte = static_cast<unsigned char>(c);
      escaped += "\\x";
      escaped += kHexDigits[byte >> 4];
      escaped += kHexDigits[byte & 0xF];
    }
    return escaped;
  });
}

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_TERMINAL_TEXT_H_
