// Test helper, independent of the library's engine wrapper: counts PCRE2
// callouts for one unanchored search, to re-verify attacks the analyser
// reports. Deliberately small and separate from src/pcre2_engine.cc.
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

namespace robotscan::regexguard::testing {

struct ReferenceCount {
  bool compiled = false;
  std::uint64_t steps = 0;
  bool stopped = false;  // hit the step cap or another limit
  bool matched = false;
};

// Counts callouts of pcre2_match over `subject`, stopping at `cap` steps.
// `naive` selects NO_AUTO_POSSESS | NO_START_OPTIMIZE | NO_DOTSTAR_ANCHOR.
// With `global`, matching repeats after each match, like replace-all.
inline ReferenceCount CountReferenceSteps(const std::string& pattern,
                                          const std::string& subject,
                                          bool naive, bool global,
                                          std::uint64_t cap) {
  struct State {
    std::uint64_t steps = 0;
    std::uint64_t cap = 0;
  } state;
  state.cap = cap;
  ReferenceCount result;
  std::uint32_t options = PCRE2_UTF | PCRE2_AUTO_CALLOUT;
  if (naive) {
    options |= PCRE2_NO_AUTO_POSSESS | PCRE2_NO_START_OPTIMIZE |
               PCRE2_NO_DOTSTAR_ANCHOR;
  }
  int error = 0;
  PCRE2_SIZE offset = 0;
  std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)> code(
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                    pattern.size(), options, &error, &offset, nullptr),
      pcre2_code_free);
  if (!code) return result;
  result.compiled = true;
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
      pcre2_match_data_create_from_pattern(code.get(), nullptr),
      pcre2_match_data_free);
  std::unique_ptr<pcre2_match_context, decltype(&pcre2_match_context_free)>
      context(pcre2_match_context_create(nullptr), pcre2_match_context_free);
  pcre2_set_match_limit(context.get(),
                        std::numeric_limits<std::uint32_t>::max());
  pcre2_set_callout(
      context.get(),
      [](pcre2_callout_block*, void* user) -> int {
        auto* s = static_cast<State*>(user);
        return ++s->steps > s->cap ? PCRE2_ERROR_CALLOUT : 0;
      },
      &state);
  PCRE2_SIZE start = 0;
  while (true) {
    const int rc =
        pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                    subject.size(), start, 0, data.get(), context.get());
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      result.stopped = true;
      break;
    }
    result.matched = true;
    if (!global) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
    PCRE2_SIZE next = ovector[1] > ovector[0] ? ovector[1] : ovector[1] + 1;
    while (next < subject.size() &&
           (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
      ++next;
    }
    if (next > subject.size()) break;
    start = next;
  }
  result.steps = state.steps;
  return result;
}

}  // namespace robotscan::regexguard::testing

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_
