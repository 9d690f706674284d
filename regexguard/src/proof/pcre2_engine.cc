#include "proof/pcre2_engine.h"

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace robotscan::regexguard::internal {
namespace {

struct CalloutCounter {
  std::uint64_t steps = 0;
  // Subject offset of the previous callout. A repeat that PCRE2 runs as one
  // item (a possessive `[^)]*+`, or a greedy one before it gives back)
  // consumes characters without a callout; the distance to the next
  // callout is that work.
  PCRE2_SIZE last_position = 0;
  std::uint64_t budget = 0;
  CpuBudget deadline;
  bool exceeded = false;
  bool timed_out = false;
  const std::vector<EarlyFailRepeat>* early_fail = nullptr;  // JIT model
  EarlyFailState* state = nullptr;
  // Java's loop memo (jit_model.h: JavaLoopMemo): (callout number << 48) |
  // position of every loop iteration begun in this pcre2_match call.
  std::unordered_set<std::uint64_t> loop_starts;
};

// Replays the JIT's early fail (jit_model.h) at the callout before `block`'s
// item: true when the JIT would fail at this point.
bool JitWouldFailHere(const pcre2_callout_block* block,
                      const std::vector<EarlyFailRepeat>& repeats,
                      EarlyFailState* state) {
  const PCRE2_SIZE position = block->current_position;
  // A callout at the item after a repeat: the repeat has just matched up to
  // here. A greedy one records the end of its first scan (not the positions
  // it gives back), a lazy one every position it extends to.
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i].next_offset != block->pattern_position) continue;
    if (repeats[i].lazy) {
      if (state->known[i]) state->end[i] = position;
    } else if (state->pending == static_cast<int>(i)) {
      state->end[i] = position;
      state->known[i] = true;
      state->pending = -1;
    }
  }
  const auto it =
      std::lower_bound(repeats.begin(), repeats.end(), block->pattern_position,
                       [](const EarlyFailRepeat& r, PCRE2_SIZE offset) {
                         return r.pattern_offset < offset;
                       });
  if (it == repeats.end() || it->pattern_offset != block->pattern_position) {
    return false;
  }
  const std::size_t index = static_cast<std::size_t>(it - repeats.begin());
  if (!it->ranged) {
    if (state->known[index] && position <= state->end[index]) return true;
    if (it->lazy) {
      state->end[index] = position;
      state->known[index] = true;
    } else {
      state->pending = static_cast<int>(index);
    }
    return false;
  }
  // Ranged: checked after the repeat's first `exact` characters.
  PCRE2_SIZE entry = position;
  for (int i = 0; i < it->exact && entry < block->subject_length; ++i) {
    ++entry;
    while (entry < block->subject_length &&
           (block->subject[entry] & 0xC0) == 0x80) {
      ++entry;
    }
  }
  if (state->known[index] && entry >= state->start[index] &&
      entry - state->start[index] <= state->end[index] - state->start[index]) {
    return true;
  }
  state->start[index] = state->end[index] = entry;
  state->known[index] = true;
  if (!it->lazy) state->pending = static_cast<int>(index);
  return false;
}

int CountCallout(pcre2_callout_block* block, void* data) {
  auto* counter = static_cast<CalloutCounter*>(data);
  const PCRE2_SIZE position = block->current_position;
  if (block->callout_number != 255) {
    // An explicit (?C<n>): iteration n of a Java memo loop begins here. A
    // second start at the same position is what Java's memo skips: fail it
    // (PCRE2 then goes on after the loop, as Java does). Not a step itself.
    const std::uint64_t key =
        (std::uint64_t{block->callout_number} << 48) | position;
    if (!counter->loop_starts.insert(key).second) {
      ++counter->steps;
      return 1;
    }
    return 0;
  }
  if (position > counter->last_position + 1) {
    counter->steps += position - counter->last_position - 1;
  }
  counter->last_position = position;
  if (counter->early_fail != nullptr &&
      JitWouldFailHere(block, *counter->early_fail, counter->state)) {
    ++counter->steps;
    return 1;  // fail here and backtrack, as the JIT's check does
  }
  if (++counter->steps > counter->budget) {
    counter->exceeded = true;
    return PCRE2_ERROR_CALLOUT;  // abandons the whole match at once
  }
  // Reading the clock costs more than a step; every 4096 steps is enough to
  // stay within the budget by well under a millisecond.
  if ((counter->steps & 4095) == 0 && counter->deadline.Exhausted()) {
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
                                             EngineConfig config,
                                             std::uint32_t extra_options,
                                             const Node* tree) {
  // The JIT compiles callouts into code that gives up its own optimisations
  // (its "early fail" of leading character repeats among them: with
  // callouts `\s*\n` on a run of blanks is quadratic, without them linear),
  // so it is compiled exactly as shipped and counted by its match limit.
  std::uint32_t options = PCRE2_UTF | PCRE2_AUTO_CALLOUT | extra_options;
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
    return Status{
        StatusCode::kInternal,
        "PCRE2 rejected the translated pattern: " + Pcre2ErrorText(error_code) +
            " at offset " + std::to_string(error_offset),
        std::nullopt};
  }
  std::vector<EarlyFailRepeat> early_fail;
  if (config == EngineConfig::kPcre2Jit) {
    // The JIT itself must accept the pattern (PCRE2 falls back to the
    // interpreter otherwise); it is then modelled on the interpreter.
    Pcre2Code jit_code(pcre2_compile(
        reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
        options & ~PCRE2_AUTO_CALLOUT, &error_code, &error_offset, nullptr));
    const int rc = jit_code
                       ? pcre2_jit_compile(jit_code.get(), PCRE2_JIT_COMPLETE)
                       : PCRE2_ERROR_INTERNAL;
    if (rc != 0) {
      return Status{StatusCode::kInternal,
                    "PCRE2 JIT unavailable: " + Pcre2ErrorText(rc),
                    std::nullopt};
    }
    if (tree != nullptr) {
      std::uint32_t all_options = 0;
      pcre2_pattern_info(code.get(), PCRE2_INFO_ALLOPTIONS, &all_options);
      early_fail = JitEarlyFailRepeats(*tree, pattern,
                                       (all_options & PCRE2_ANCHORED) != 0);
    }
  }
  Pcre2MatchData match_data(
      pcre2_match_data_create_from_pattern(code.get(), nullptr));
  Pcre2MatchContext context(pcre2_match_context_create(nullptr));
  if (!match_data || !context) {
    return Status{StatusCode::kInternal, "out of memory for PCRE2 match data",
                  std::nullopt};
  }
  return CompiledPcre2(std::move(code), std::move(match_data),
                       std::move(context), std::move(early_fail), config);
}

StartupFacts CompiledPcre2::startup_facts() const {
  StartupFacts facts;
  facts.prefilter = prefilter_;
  if (config_ == EngineConfig::kPcre2Naive) return facts;
  const pcre2_code* code = code_.get();
  std::uint32_t value = 0;
  if (pcre2_pattern_info(code, PCRE2_INFO_LASTCODETYPE, &value) == 0 &&
      value == 1 &&
      pcre2_pattern_info(code, PCRE2_INFO_LASTCODEUNIT, &value) == 0) {
    facts.required_unit = static_cast<unsigned char>(value);
  }
  if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODETYPE, &value) == 0) {
    if (value == 1 &&
        pcre2_pattern_info(code, PCRE2_INFO_FIRSTCODEUNIT, &value) == 0) {
      facts.first_unit = static_cast<unsigned char>(value);
    } else if (value == 2) {
      facts.starts_at_line_start = true;
    }
  }
  const std::uint8_t* bitmap = nullptr;
  if (pcre2_pattern_info(code, PCRE2_INFO_FIRSTBITMAP, &bitmap) == 0 &&
      bitmap != nullptr) {
    std::bitset<256> units;
    for (int c = 0; c < 256; ++c) {
      if ((bitmap[c / 8] >> (c % 8)) & 1) units.set(c);
    }
    facts.first_units = units;
  }
  if (pcre2_pattern_info(code, PCRE2_INFO_MINLENGTH, &value) == 0) {
    facts.min_length = value;
  }
  if (pcre2_pattern_info(code, PCRE2_INFO_ALLOPTIONS, &value) == 0) {
    facts.anchored = (value & PCRE2_ANCHORED) != 0;
  }
  return facts;
}

StepCount CompiledPcre2::CountSteps(std::string_view subject, bool anchored,
                                    bool global, const RunLimits& limits) {
  StepCount result;
  if (!prefilter_.Admits(subject)) {
    result.return_code = PCRE2_ERROR_NOMATCH;
    return result;  // the modelled engine never starts matching
  }
  pcre2_match_data* match_data = match_data_.get();
  pcre2_match_context* context = context_.get();
  CalloutCounter counter;
  counter.budget = limits.max_steps;
  counter.deadline = limits.deadline;
  EarlyFailState early_fail_state;
  if (!early_fail_.empty()) {
    counter.early_fail = &early_fail_;
    counter.state = &early_fail_state;
  }
  pcre2_set_callout(context, CountCallout, &counter);
  // The callout budget is the real limit; the match limit must not fire
  // first, and heap/depth stay bounded.
  pcre2_set_match_limit(context, std::numeric_limits<std::uint32_t>::max());
  pcre2_set_heap_limit(context, limits.heap_limit_kib);
  pcre2_set_depth_limit(context, limits.depth_limit);
  PCRE2_SIZE offset = 0;
  int rc = 0;
  while (true) {
    counter.last_position = offset;
    // The JIT clears its early-fail positions at every pcre2_match call,
    // Java its loop memo at every find().
    early_fail_state.Reset(early_fail_.size());
    counter.loop_starts.clear();
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
