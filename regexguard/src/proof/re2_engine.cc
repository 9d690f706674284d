#include "proof/re2_engine.h"

#include <re2/re2.h>

#include <chrono>

namespace robotscan::regexguard::internal {

Re2Comparison CompareWithRe2(const std::string& pattern,
                             const std::vector<Re2Input>& inputs,
                             bool anchored) {
  Re2Comparison comparison;
  RE2::Options options;
  options.set_log_errors(false);
  options.set_encoding(RE2::Options::EncodingUTF8);
  const RE2 re(pattern, options);
  if (!re.ok()) {
    comparison.accepted = false;
    comparison.refusal = re.error();
    return comparison;
  }
  comparison.accepted = true;
  comparison.same_result = true;
  std::size_t longest = 0;
  for (const Re2Input& input : inputs) {
    const auto start = std::chrono::steady_clock::now();
    const bool matched =
        re.Match(input.subject, 0, input.subject.size(),
                 anchored ? RE2::ANCHOR_START : RE2::UNANCHORED, nullptr, 0);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    ++comparison.inputs_compared;
    if (matched != input.pcre2_matched) comparison.same_result = false;
    if (input.subject.size() >= longest) {
      longest = input.subject.size();
      comparison.microseconds_at_longest =
          std::chrono::duration<double, std::micro>(elapsed).count();
    }
  }
  return comparison;
}

}  // namespace robotscan::regexguard::internal
