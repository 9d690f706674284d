#include "pcre2_engine.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace robotscan::regexguard::internal {
namespace {

struct CalloutCounter {
  std::uint64_t steps = 0;
  std::uint64_t budget = 0;
  std::chrono::steady_clock::time_point deadline;
  bool exceeded = false;
  bool timed_out = false;
};

int CountCallout(pcre2_callout_block* /*block*/, void* data) {
  auto* counter = static_cast<CalloutCounter*>(data);
  if (++counter->steps > counter->budget) {
    counter->exceeded = true;
    return PCRE2_ERROR_CALLOUT;  // abandons the whole match at once
  }
  // Reading the clock costs more than a step; every 4096 steps is enough to
  // stay within a deadline by well under a millisecond.
  if ((counter->steps & 4095) == 0 &&
      std::chrono::steady_clock::now() > counter->deadline) {
    counter->timed_out = true;
    return PCRE2_ERROR_CALLOUT;
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
  Pcre2MatchData match_data(
      pcre2_match_data_create_from_pattern(code.get(), nullptr));
  Pcre2MatchContext context(pcre2_match_context_create(nullptr));
  if (!match_data || !context) {
    return Error{ErrorCode::kEngineError, "out of memory for PCRE2 match data",
                 std::nullopt};
  }
  Pcre2JitStack jit_stack;
  if (config == EngineConfig::kPcre2Jit) {
    // Deep backtracking needs more than the JIT's default 32 KiB machine
    // stack; 8 MiB matches the interpreter's depth limit in practice.
    jit_stack.reset(
        pcre2_jit_stack_create(32 * 1024, 8 * 1024 * 1024, nullptr));
    if (jit_stack) {
      pcre2_jit_stack_assign(context.get(), nullptr, jit_stack.get());
    }
  }
  return CompiledPcre2(std::move(code), std::move(match_data),
                       std::move(context), std::move(jit_stack), config);
}

StepCount CompiledPcre2::CountSteps(std::string_view subject, bool anchored,
                                    bool global, const RunLimits& limits) {
  StepCount result;
  pcre2_match_data* match_data = match_data_.get();
  pcre2_match_context* context = context_.get();
  CalloutCounter counter;
  counter.budget = limits.max_steps;
  counter.deadline = limits.deadline;
  pcre2_set_callout(context, CountCallout, &counter);
  // The callout budget is the real limit; the match limit must not fire
  // first, and heap/depth stay bounded.
  pcre2_set_match_limit(context, std::numeric_limits<std::uint32_t>::max());
  pcre2_set_heap_limit(context, limits.heap_limit_kib);
  pcre2_set_depth_limit(context, limits.depth_limit);
  PCRE2_SIZE offset = 0;
  int rc = 0;
  while (true) {
    rc = pcre2_match(code_.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                     subject.size(), offset, anchored ? PCRE2_ANCHORED : 0,
                     match_data, context);
    if (rc >= 0) result.matched = true;
    if (rc < 0 || !global || anchored) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(match_data);
    PCRE2_SIZE next = ovector[1];
    if (ovector[1] <= ovector[0] || ovector[1] <= offset) {
      // Empty match: step over one whole UTF-8 character.
      next = std::max(ovector[1], offset) + 1;
      while (next < subject.size() &&
             (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
        ++next;
      }
    }
    if (next > subject.size()) break;
    offset = next;
  }
  if (rc == PCRE2_ERROR_NOMATCH && result.matched) rc = 0;
  result.return_code = rc;
  result.steps = counter.steps;
  result.budget_exceeded = counter.exceeded;
  result.timed_out = counter.timed_out;
  result.other_limit =
      rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
      rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT ||
      rc == PCRE2_ERROR_NOMEMORY;
  return result;
}

}  // namespace robotscan::regexguard::internal
