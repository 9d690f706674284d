// Private: PCRE2 behind RAII handles, with deterministic work counting.
//
// Patterns are compiled with PCRE2_AUTO_CALLOUT, so PCRE2 calls back before
// every pattern item it tries; the number of callouts over one pcre2_match()
// call is its backtracking work, summed over every start position of the
// unanchored search (the match limit, by contrast, restarts at each start
// position). The callout aborts the match once a step budget is spent, so a
// run never costs more than that budget. Auto-possessification and the
// start-of-match optimisations still apply when they are enabled.
//
// Thread safety: not thread-safe. A CompiledPcre2 keeps its match data
// between runs on purpose: PCRE2 (10.41+) keeps its backtracking frames in
// the match data, so reusing it saves re-growing megabytes of frames on
// every run. Use one CompiledPcre2 per thread.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PCRE2_ENGINE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PCRE2_ENGINE_H_

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard::internal {

struct Pcre2CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
struct Pcre2MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};
struct Pcre2MatchContextDeleter {
  void operator()(pcre2_match_context* context) const {
    pcre2_match_context_free(context);
  }
};
using Pcre2Code = std::unique_ptr<pcre2_code, Pcre2CodeDeleter>;
using Pcre2MatchData = std::unique_ptr<pcre2_match_data, Pcre2MatchDataDeleter>;
using Pcre2MatchContext =
    std::unique_ptr<pcre2_match_context, Pcre2MatchContextDeleter>;
struct Pcre2JitStackDeleter {
  void operator()(pcre2_jit_stack* stack) const { pcre2_jit_stack_free(stack); }
};
using Pcre2JitStack = std::unique_ptr<pcre2_jit_stack, Pcre2JitStackDeleter>;

struct StepCount {
  std::uint64_t steps = 0;
  bool budget_exceeded = false;  // the callout budget stopped the match
  bool other_limit = false;      // heap, depth or match limit hit
  bool timed_out = false;        // the deadline stopped the match
  bool matched = false;
  int return_code = 0;
};

struct RunLimits {
  std::uint64_t max_steps = 1000000;
  // Checked every few thousand steps; a run past it stops like an
  // exhausted budget and sets StepCount::timed_out.
  std::chrono::steady_clock::time_point deadline =
      std::chrono::steady_clock::time_point::max();
  std::uint32_t heap_limit_kib = 64 * 1024;
  std::uint32_t depth_limit = 100000;
};

class CompiledPcre2 {
 public:
  // Compiles `pattern` (PCRE2 syntax, UTF mode) for `config`. Fails with
  // kEngineError when PCRE2 refuses it or the JIT is unavailable.
  static Result<CompiledPcre2> Compile(std::string_view pattern,
                                       EngineConfig config);

  // Runs one unanchored search (or anchored at offset 0) over `subject`,
  // which must be valid UTF-8, and counts the callouts. With `global`, the
  // search is repeated after each match to the end of the subject (how
  // replace-all and split use a pattern) and the work of all of them adds up.
  StepCount CountSteps(std::string_view subject, bool anchored, bool global,
                       const RunLimits& limits);

  EngineConfig config() const { return config_; }

 private:
  CompiledPcre2(Pcre2Code code, Pcre2MatchData match_data,
                Pcre2MatchContext context, Pcre2JitStack jit_stack,
                EngineConfig config)
      : code_(std::move(code)),
        match_data_(std::move(match_data)),
        context_(std::move(context)),
        jit_stack_(std::move(jit_stack)),
        config_(config) {}

  Pcre2Code code_;
  Pcre2MatchData match_data_;
  Pcre2MatchContext context_;
  Pcre2JitStack jit_stack_;  // JIT only: the default 32 KiB is too small
  EngineConfig config_;
};

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PCRE2_ENGINE_H_
