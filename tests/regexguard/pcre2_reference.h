// Test helper, independent of the library's engine wrapper: counts PCRE2's
// work for one search, to re-verify attacks the analyzer reports.
// Deliberately small and separate from src/proof/pcre2_engine.cc, and written
// differently: the work is every callout plus every subject character the
// matcher moved forward over without one (the scan of a repeat PCRE2 runs
// as a single item).
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::testing {

struct ReferenceCount {
  bool compiled = false;
  std::uint64_t steps = 0;
  bool stopped = false;  // hit the step cap or another limit
  bool matched = false;
};

struct ReferenceRun {
  std::string pattern;                // PCRE2 syntax
  std::uint32_t compile_options = 0;  // PCRE2_CASELESS, ...
  // NO_AUTO_POSSESS | NO_START_OPTIMIZE | NO_DOTSTAR_ANCHOR.
  bool naive = false;
  bool global = false;  // matching repeats after each match, like replace-all
  std::uint64_t cap = 100000000;
};

inline ReferenceCount CountReferenceSteps(const ReferenceRun& run,
                                          const std::string& subject) {
  struct State {
    std::uint64_t callouts = 0;
    std::uint64_t skipped = 0;  // characters passed between callouts
    PCRE2_SIZE furthest = 0;    // position of the previous callout
    std::uint64_t cap = 0;
  } state;
  state.cap = run.cap;
  ReferenceCount result;
  std::uint32_t options = PCRE2_UTF | PCRE2_AUTO_CALLOUT | run.compile_options;
  if (run.naive) {
    options |= PCRE2_NO_AUTO_POSSESS | PCRE2_NO_START_OPTIMIZE |
               PCRE2_NO_DOTSTAR_ANCHOR;
  }
  int error = 0;
  PCRE2_SIZE offset = 0;
  std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)> code(
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(run.pattern.data()),
                    run.pattern.size(), options, &error, &offset, nullptr),
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
      [](pcre2_callout_block* block, void* user) -> int {
        auto* s = static_cast<State*>(user);
        const PCRE2_SIZE here = block->current_position;
        if (here > s->furthest) s->skipped += here - s->furthest;
        s->furthest = here;
        ++s->callouts;
        return s->callouts + s->skipped > s->cap ? PCRE2_ERROR_CALLOUT : 0;
      },
      &state);
  PCRE2_SIZE start = 0;
  while (true) {
    state.furthest = start;
    const int rc =
        pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                    subject.size(), start, 0, data.get(), context.get());
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      result.stopped = true;
      break;
    }
    result.matched = true;
    if (!run.global) break;
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
    PCRE2_SIZE next = ovector[1] > ovector[0] ? ovector[1] : ovector[1] + 1;
    while (next < subject.size() &&
           (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
      ++next;
    }
    if (next > subject.size()) break;
    start = next;
  }
  // At most twice the library's measure, which does not count the first
  // character of each forward move: the growth is the same.
  result.steps = state.callouts + state.skipped;
  return result;
}

// The run that reproduces `report`'s proving configuration: the pattern as
// PCRE2 compiled it (as written for the pcre dialect, with the flags as
// options; the tree's PCRE2 spelling otherwise).
inline ReferenceRun RunFor(const AnalysisReport& report,
                           const PatternFlags& flags) {
  ReferenceRun run;
  run.naive = !report.exploding_configs.empty() &&
              report.exploding_configs.front() == EngineConfig::kPcre2Naive;
  run.global = flags.global;
  if (report.dialect == Dialect::kPcre) {
    run.pattern = report.pattern;
    if (flags.case_insensitive) run.compile_options |= PCRE2_CASELESS;
    if (flags.multiline) run.compile_options |= PCRE2_MULTILINE;
    if (flags.dot_all) run.compile_options |= PCRE2_DOTALL;
    if (flags.extended) run.compile_options |= PCRE2_EXTENDED;
  } else {
    ParseOptions options;
    options.dialect = report.dialect;
    options.flags = flags;
    const Result<ParsedPattern> parsed = ParsePattern(report.pattern, options);
    if (parsed) run.pattern = ToPcre2Pattern(*parsed->root);
  }
  return run;
}

}  // namespace robotscan::regexguard::testing

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_PCRE2_REFERENCE_H_
