// Extraction fuzzer: the first byte picks the source language, the rest is
// the source. Extraction must never crash or hang on any input, and every
// literal must point inside the source, at a consistent line and column,
// in source order.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/extract.h"

namespace {

using robotscan::regexguard::RegexLiteral;
using robotscan::regexguard::SourceLanguage;

constexpr SourceLanguage kLanguages[] = {
    SourceLanguage::kPython, SourceLanguage::kJavaScript,
    SourceLanguage::kGo,     SourceLanguage::kCpp,
    SourceLanguage::kJava,   SourceLanguage::kKotlin,
    SourceLanguage::kRuby,   SourceLanguage::kPhp,
    SourceLanguage::kRust,   SourceLanguage::kCSharp};
constexpr std::size_t kLanguageCount =
    sizeof(kLanguages) / sizeof(kLanguages[0]);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  const SourceLanguage language = kLanguages[data[0] % kLanguageCount];
  const std::string_view source(reinterpret_cast<const char*>(data + 1),
                                size - 1);
  const std::vector<RegexLiteral> literals =
      robotscan::regexguard::ExtractRegexLiterals(source, language);
  std::size_t previous_offset = 0;
  for (const RegexLiteral& literal : literals) {
    if (literal.offset >= source.size()) std::abort();
    if (literal.offset < previous_offset) std::abort();  // source order
    previous_offset = literal.offset;
    const std::size_t line_start =
        source.rfind('\n', literal.offset == 0 ? 0 : literal.offset - 1);
    const std::size_t column =
        line_start == std::string_view::npos || literal.offset == 0
            ? literal.offset + 1
            : literal.offset - line_start;
    if (literal.column != column || literal.line == 0) std::abort();
    if (literal.call.empty()) std::abort();
  }
  return 0;
}
