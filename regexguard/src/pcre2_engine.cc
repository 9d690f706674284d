#include "pcre2_engine.h"

#include <limits>
#include <utility>

namespace robotscan::regexguard::internal {
namespace {

struct CalloutCounter {
  std::uint64_t steps = 0;
  std::uint64_t budget = 0;
  bool exceeded = false;
};

int CountCallout(pcre2_callout_block* /*block*/, void* data) {
  auto* counter = static_cast<CalloutCounter*>(data);
  if (++counter->steps > counter->budget) {
    counter->exceeded = true;
    return PCRE2_ERROR_CALLOUT;  // abandons the whole match at once
  }
  return 0;
}

std::string Pcre2ErrorText(int code) {
  PCRE2_UCHAR buffer[256];
  if (pcre2_get_error_message(code, buffer, sizeof buffer) < 0) {
    return "PCRE2 error " + std::to_string(code);
  }
  return std::string(reinterpret_cast<const char*>(buffer));
}

}  // namespace

Result<CompiledPcre2> CompiledPcre2::Compile(std::string_view pattern,
                                             EngineConfig config) {
  std::uint32_t options = PCRE2_UTF | PCRE2_AUTO_CALLOUT;
  if (config == EngineConfig::kPcre2Naive) {
    options |= PCRE2_NO_AUTO_POSSESS | PCRE2_NO_START_OPTIMIZE |
               PCRE2_NO_DOTSTAR_ANCHOR;
  }
  int error_code = 0;
  PCRE2_SIZE error_offset = 0;
  Pcre2Code code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                               pattern.size(), options, &error_code,
                               &error_offset, nullptr));
  if (!code) {
    return Error{
        ErrorCode::kEngineError,
        "PCRE2 rejected the translated pattern: " + Pcre2ErrorText(error_code) +
            " at offset " + std::to_string(error_offset),
        std::nullopt};
  }
  if (config == EngineConfig::kPcre2Jit) {
    const int rc = pcre2_jit_compile(code.get(), PCRE2_JIT_COMPLETE);
    if (rc != 0) {
      return Error{ErrorCode::kEngineError,
                   "PCRE2 JIT unavailable: " + Pcre2ErrorText(rc),
                   std::nullopt};
    }
  }
  return CompiledPcre2(std::move(code), config);
}

StepCount CompiledPcre2::CountSteps(std::string_view subject, bool anchored,
                                    const RunLimits& limits) const {
  StepCount result;
  Pcre2MatchData match_data(
      pcre2_match_data_create_from_pattern(code_.get(), nullptr));
  Pcre2MatchContext context(pcre2_match_context_create(nullptr));
  if (!match_data || !context) {
    result.other_limit = true;
    result.return_code = PCRE2_ERROR_NOMEMORY;
    return result;
  }
  CalloutCounter counter;
  counter.budget = limits.max_steps;
  pcre2_set_callout(context.get(), CountCallout, &counter);
  // The callout budget is the real limit; the match limit must not fire
  // first, and heap/depth stay bounded.
  pcre2_set_match_limit(context.get(),
                        std::numeric_limits<std::uint32_t>::max());
  pcre2_set_heap_limit(context.get(), limits.heap_limit_kib);
  pcre2_set_depth_limit(context.get(), limits.depth_limit);
  const int rc = pcre2_match(
      code_.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()), subject.size(),
      0, anchored ? PCRE2_ANCHORED : 0, match_data.get(), context.get());
  result.return_code = rc;
  result.steps = counter.steps;
  result.matched = rc >= 0;
  result.budget_exceeded = counter.exceeded;
  result.other_limit =
      rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
      rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
      rc == PCRE2_ERROR_NOMEMORY;
  return result;
}

}  // namespace robotscan::regexguard::internal
