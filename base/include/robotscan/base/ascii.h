// Locale-independent ASCII helpers, for every robotscan library: the C
// library's <cctype> functions depend on the process's locale (a report run
// under tr_TR would lowercase 'I' to a dotless i) and take an int that must
// be an unsigned char, so robotscan never calls them on text.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_BASE_ASCII_H_
#define ROBOTSCAN_BASE_ASCII_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace robotscan {

constexpr bool IsAsciiSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}
constexpr bool IsAsciiAlpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
constexpr bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }
constexpr bool IsAsciiAlnum(char c) {
  return IsAsciiAlpha(c) || IsAsciiDigit(c);
}
// Space, tab and form feed: the blanks inside a line.
constexpr bool IsAsciiLineSpace(char c) {
  return c == ' ' || c == '\t' || c == '\f';
}
constexpr bool IsAsciiHexDigit(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
constexpr char ToAsciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}
constexpr char ToAsciiUpper(char c) {
  return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
}
// The value of a hex digit (IsAsciiHexDigit(c) must hold).
constexpr int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// `text` with A-Z turned into a-z; every other byte (UTF-8 included) kept.
inline std::string ToAsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ToAsciiLower(c);
  return out;
}

inline std::string_view StripAsciiWhitespace(std::string_view s) {
  std::size_t b = 0;
  std::size_t e = s.size();
  while (b < e && IsAsciiSpace(s[b])) ++b;
  while (e > b && IsAsciiSpace(s[e - 1])) --e;
  return s.substr(b, e - b);
}

inline bool AsciiEqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ToAsciiLower(a[i]) != ToAsciiLower(b[i])) return false;
  }
  return true;
}

inline bool StartsWithIgnoreAsciiCase(std::string_view s,
                                      std::string_view prefix) {
  return s.size() >= prefix.size() &&
         AsciiEqualsIgnoreCase(s.substr(0, prefix.size()), prefix);
}

// Three-way case-insensitive comparison (for sorted agent tables).
inline int CompareIgnoreAsciiCase(std::string_view a, std::string_view b) {
  const std::size_t n = a.size() < b.size() ? a.size() : b.size();
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char ca = static_cast<unsigned char>(ToAsciiLower(a[i]));
    const unsigned char cb = static_cast<unsigned char>(ToAsciiLower(b[i]));
    if (ca != cb) return ca < cb ? -1 : 1;
  }
  if (a.size() == b.size()) return 0;
  return a.size() < b.size() ? -1 : 1;
}

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_ASCII_H_
