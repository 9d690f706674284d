// Private: PCRE2 behind RAII handles, with deterministic work counting.
//
// The interpreter configurations are compiled with PCRE2_AUTO_CALLOUT, so
// PCRE2 calls back before
// every pattern item it tries; the number of callouts over one pcre2_match()
// call is its backtracking work, summed over every start position of the
// unanchored search (the match limit, by contrast, restarts at each start
// position), plus the characters consumed between two callouts: PCRE2 runs a
// repeat of one character class as a single item (a possessive `[^)]*+`
// scans its run without a callout), so a search that rescans a long run
// from every start position is quadratic work that callouts alone would
// count as linear. The callout aborts the match once a step budget is spent, so
// a run never costs more than that budget. Auto-possessification and the
// start-of-match optimisations still apply when they are enabled.
//
// The JIT configuration is not the JIT itself, whose work nothing counts:
// callouts change its code and its match limit ignores what repeats scan.
// It is the interpreter as shipped with the JIT's early-fail optimisation
// replayed from the callouts (jit_model.h); tests compare the model's
// verdicts with the real JIT's CPU time.
//
// Thread safety: not thread-safe. A CompiledPcre2 keeps its match data
// between runs on purpose: PCRE2 (10.41+) keeps its backtracking frames in
// the match data, so reusing it saves re-growing megabytes of frames on
// every run. Use one CompiledPcre2 per thread.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_PCRE2_ENGINE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_PCRE2_ENGINE_H_

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <bitset>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "proof/cpu_budget.h"
#include "proof/jit_model.h"
#include "proof/onigmo_prefilter.h"
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

// Where each early-fail repeat's last scan started and ended in the
// current pcre2_match call (the JIT model's memory).
struct EarlyFailState {
  std::vector<PCRE2_SIZE> start;
  std::vector<PCRE2_SIZE> end;
  std::vector<bool> known;
  int pending = -1;  // repeat whose scan end the next callout reports
  void Reset(std::size_t repeats) {
    start.assign(repeats, 0);
    end.assign(repeats, 0);
    known.assign(repeats, false);
    pending = -1;
  }
};

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
  CpuBudget deadline;
  std::uint32_t heap_limit_kib = 64 * 1024;
  std::uint32_t depth_limit = 100000;
};

// What PCRE2 itself derived from the compiled pattern to reject subjects
// before any backtracking (pcre2_pattern_info). An attack must get past
// these checks on the configurations that apply them (as shipped, JIT), or
// the backtracking it provokes never happens.
struct StartupFacts {
  // A code unit every match must contain (PCRE2_INFO_LASTCODEUNIT), checked
  // with memchr from each start position before matching (for subjects
  // shorter than 5,000 bytes when anchored, 5,000,000 otherwise).
  std::optional<unsigned char> required_unit;
  // The code unit every match starts with (PCRE2_INFO_FIRSTCODEUNIT), or the
  // set of possible first code units (PCRE2_INFO_FIRSTBITMAP); start
  // positions not holding one are skipped.
  std::optional<unsigned char> first_unit;
  std::optional<std::bitset<256>> first_units;
  bool starts_at_line_start = false;  // PCRE2_INFO_FIRSTCODETYPE 2
  std::uint32_t min_length = 0;       // PCRE2_INFO_MINLENGTH, characters
  bool anchored = false;  // PCRE2_ANCHORED among the compiled options
  // What a subject must hold before any matching is tried (the Onigmo
  // model, onigmo_prefilter.h); empty for PCRE2.
  OnigmoPrefilter prefilter;
};

class CompiledPcre2 {
 public:
  // Compiles `pattern` (PCRE2 syntax, UTF mode, plus `extra_options` such
  // as PCRE2_CASELESS) for `config`. Fails with kEngineError when PCRE2
  // refuses it or the JIT is unavailable.
  // For kPcre2Jit the JIT must accept the pattern; it is then run as the
  // interpreter with the JIT's early fail replayed (jit_model.h) on the
  // repeats found in `tree`, which must be the tree `pattern` was parsed
  // into (its spans index `pattern`); without it the JIT is modelled as
  // the interpreter.
  static Result<CompiledPcre2> Compile(std::string_view pattern,
                                       EngineConfig config,
                                       std::uint32_t extra_options = 0,
                                       const Node* tree = nullptr);

  // Runs one unanchored search (or anchored at offset 0) over `subject`,
  // which must be valid UTF-8, and counts the callouts. With `global`, the
  // search is repeated after each match to the end of the subject (how
  // replace-all and split use a pattern) and the work of all of them adds up.
  StepCount CountSteps(std::string_view subject, bool anchored, bool global,
                       const RunLimits& limits);

  EngineConfig config() const { return config_; }

  // PCRE2's start-up facts for this compiled pattern; empty for the naive
  // configuration, which turns the optimisations off.
  StartupFacts startup_facts() const;

  // Models an engine that fails a search at once, with no work, when the
  // subject lacks what it searches for first (Onigmo's exact-string and
  // character-map search): CountSteps then counts nothing for a subject
  // `prefilter` does not admit.
  void set_prefilter(OnigmoPrefilter prefilter) {
    prefilter_ = std::move(prefilter);
  }

 private:
  CompiledPcre2(Pcre2Code code, Pcre2MatchData match_data,
                Pcre2MatchContext context,
                std::vector<EarlyFailRepeat> early_fail, EngineConfig config)
      : code_(std::move(code)),
        match_data_(std::move(match_data)),
        context_(std::move(context)),
        early_fail_(std::move(early_fail)),
        config_(config) {}

  Pcre2Code code_;
  Pcre2MatchData match_data_;
  Pcre2MatchContext context_;
  std::vector<EarlyFailRepeat> early_fail_;  // JIT model only
  EngineConfig config_;
  OnigmoPrefilter prefilter_;  // Onigmo model only
};

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_PCRE2_ENGINE_H_
