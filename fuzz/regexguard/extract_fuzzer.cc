// Extraction fuzzer: the first byte picks the source language, the rest is
// the source. Extraction and the regex-injection finder must never crash or
// hang on any input, and every literal and every injection must point
// inside the source, at a consistent line and column, in source order.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/extract.h"
#include "robotscan/regexguard/injection.h"

namespace {

using robotscan::regexguard::RegexInjection;
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
  // Inside the source, in order, at its line's column.
  const auto check_location = [&](std::size_t offset, std::size_t line,
                                  std::size_t column,
                                  std::size_t* previous_offset) {
    if (offset >= source.size()) std::abort();
    if (offset < *previous_offset) std::abort();  // source order
    *previous_offset = offset;
    const std::size_t line_start =
        source.rfind('\n', offset == 0 ? 0 : offset - 1);
    const std::size_t expected =
        line_start == std::string_view::npos || offset == 0
            ? offset + 1
            : offset - line_start;
    if (column != expected || line == 0) std::abort();
  };
  std::size_t previous_offset = 0;
  for (const RegexLiteral& literal : literals) {
    check_location(literal.offset, literal.line, literal.column,
                   &previous_offset);
    if (literal.call.empty()) std::abort();
  }
  previous_offset = 0;
  for (const RegexInjection& injection :
       robotscan::regexguard::FindRegexInjections(source, language)) {
    check_location(injection.offset, injection.line, injection.column,
                   &previous_offset);
    if (injection.sink.empty() || injection.source.empty()) std::abort();
    if (injection.source_line == 0) std::abort();
  }
  return 0;
}
