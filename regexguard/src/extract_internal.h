// Shared pieces of the per-language regex literal extractors (extract_*.cc).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_INTERNAL_H_
#define ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_INTERNAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/extract.h"
#include "unicode.h"  // AppendUtf8

namespace robotscan::regexguard::internal {

inline bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}
inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}
inline bool IsIdentifierByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// The extractors fill pattern, flags, dialect, offset, call, informational;
// ExtractRegexLiterals adds line, column and suppression.
std::vector<RegexLiteral> ExtractPython(std::string_view source);
std::vector<RegexLiteral> ExtractJavaScript(std::string_view source);
std::vector<RegexLiteral> ExtractGo(std::string_view source);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_EXTRACT_INTERNAL_H_
