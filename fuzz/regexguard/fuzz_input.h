// Shared by the regexguard fuzzers: the first byte picks the dialect and
// flags, the rest is the pattern.
#ifndef ROBOTSCAN_FUZZ_REGEXGUARD_FUZZ_INPUT_H_
#define ROBOTSCAN_FUZZ_REGEXGUARD_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::fuzz {

struct FuzzInput {
  ParseOptions options;
  std::string_view pattern;
};

inline FuzzInput DecodeFuzzInput(const std::uint8_t* data, std::size_t size) {
  FuzzInput input;
  if (size == 0) return input;
  const std::uint8_t selector = data[0];
  static constexpr Dialect kDialects[] = {
      Dialect::kPcre, Dialect::kPython, Dialect::kJavaScript, Dialect::kJava,
      Dialect::kRuby, Dialect::kGo,     Dialect::kDotNet,     Dialect::kPcre};
  input.options.dialect = kDialects[selector & 7];
  input.options.flags.case_insensitive = (selector & 8) != 0;
  input.options.flags.multiline = (selector & 16) != 0;
  input.options.flags.dot_all = (selector & 32) != 0;
  input.options.flags.extended = (selector & 64) != 0;
  input.options.flags.unicode = (selector & 128) != 0;
  input.pattern =
      std::string_view(reinterpret_cast<const char*>(data + 1), size - 1);
  return input;
}

}  // namespace robotscan::regexguard::fuzz

#endif  // ROBOTSCAN_FUZZ_REGEXGUARD_FUZZ_INPUT_H_
