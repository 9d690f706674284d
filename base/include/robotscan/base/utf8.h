// UTF-8 validation as RFC 3629 defines it (no overlong forms, no surrogates,
// nothing above U+10FFFF), for every robotscan library: the linter's
// `non-utf8` finding, the report's encoding counts and the escaping of
// terminal output (terminal_text.h) must agree on what a character is.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_BASE_UTF8_H_
#define ROBOTSCAN_BASE_UTF8_H_

#include <cstddef>
#include <string_view>

namespace robotscan {

// The length (1-4) of the valid UTF-8 character that `text` starts with; 0
// when `text` is empty or starts with anything else (a stray continuation
// byte, a truncated or overlong sequence, a surrogate). Reads at most 4
// bytes.
constexpr std::size_t Utf8SequenceLength(std::string_view text) {
  if (text.empty()) return 0;
  const auto lead = static_cast<unsigned char>(text[0]);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  // The second byte's range narrows for E0 (overlong), ED (surrogates),
  // F0 (overlong) and F4 (past U+10FFFF): RFC 3629 §4.
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  const auto second = static_cast<unsigned char>(text[1]);
  if (second < low || second > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[k]);
    if (next < 0x80 || next > 0xBF) return 0;
  }
  return length;
}

// The length of the longest prefix of `text` that is valid UTF-8.
constexpr std::size_t ValidUtf8Prefix(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = Utf8SequenceLength(text.substr(i));
    if (length == 0) break;
    i += length;
  }
  return i;
}

constexpr bool IsValidUtf8(std::string_view text) {
  return ValidUtf8Prefix(text) == text.size();
}

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_UTF8_H_
