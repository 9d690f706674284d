// pcre2_attack_meter: measures what an attack costs PCRE2 as shipped, for
// the EngineAttacks judge (engine_attacks_test.py), which decides from these
// costs whether the attack is super-linear. Independent of regexguard's own
// engine wrapper: its own compile, match loop and counter.
//
// The interpreter ("pcre2") is measured in counted steps, which no load on
// the machine can change: the pattern is compiled with PCRE2_AUTO_CALLOUT
// and a step is one callout (one pattern item tried) plus each character
// the match moved over since the previous callout of the same start
// position, so a possessive `[^)]*+` that scans a run without a callout
// still counts its run. The callouts leave the interpreter's algorithm
// alone: auto-possessification and the start-of-match optimisations skip
// over them (pcre2_auto_possess.c, pcre2_study.c in 10.42).
// The match limit would not do: PCRE2 resets its counter at every start
// position (pcre2_match.c, in the bumpalong loop), so a search that
// rescans the subject from each start position, quadratic in total, has a
// limit that grows linearly.
//
// The JIT ("pcre2jit") is measured in CPU time of this thread: it has no
// counter that sees its work. Callouts would disable its early-fail
// optimisation (detect_early_fail in pcre2_jit_compile.c stops at the first
// OP_CALLOUT), which is exactly what the judge checks regexguard's model
// of, and its match limit is reset at each start position too (the JIT
// reloads COUNT_MATCH inside its main loop) and is not decremented for the
// characters a repeat scans. The judge makes CPU time a stable verdict.
// A pattern that compiles but not with auto-callouts (too large) is
// timed like the JIT.
//
// Protocol, one JSON line each way:
//   {"op": "compile", "engine": "pcre2"|"pcre2jit", "pattern", "flags",
//    "attack": {"prefix", "pump", "suffix"}}
//     -> {"unit": "steps"|"cpu-seconds"} or {"error": "..."}
//   {"op": "measure", "n": [n1, ...], "runs": k}
//     -> {"costs": [...], "lengths": [...]}: for each pump count in turn,
//        the least cost of k runs (one run for steps, which do not vary;
//        no more runs once one costs over 0.5 s).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
struct MatchDataDeleter {
  void operator()(pcre2_match_data* data) const { pcre2_match_data_free(data); }
};
struct ContextDeleter {
  void operator()(pcre2_match_context* context) const {
    pcre2_match_context_free(context);
  }
};
struct JitStackDeleter {
  void operator()(pcre2_jit_stack* stack) const { pcre2_jit_stack_free(stack); }
};

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) / 1e9;
}

struct StepCounter {
  std::uint64_t steps = 0;
  PCRE2_SIZE last_position = 0;
};

int CountStep(pcre2_callout_block* block, void* data) {
  auto* counter = static_cast<StepCounter*>(data);
  // Moving back to a new start position costs the engine nothing; the
  // scan forward from it is what counts.
  if ((block->callout_flags & PCRE2_CALLOUT_STARTMATCH) != 0) {
    counter->last_position = block->start_match;
  }
  const PCRE2_SIZE at = block->current_position;
  const PCRE2_SIZE last = counter->last_position;
  counter->steps += 1 + (at > last ? at - last : last - at);
  counter->last_position = at;
  return 0;
}

class Attack {
 public:
  // Returns an error message, or the empty string.
  std::string Compile(const nlohmann::json& row) {
    const std::string pattern = row.value("pattern", "");
    const std::string flags = row.value("flags", "");
    jit_ = row.value("engine", "pcre2") == "pcre2jit";
    const nlohmann::json& attack = row["attack"];
    prefix_ = attack.value("prefix", "");
    pump_ = attack.value("pump", "");
    suffix_ = attack.value("suffix", "");
    std::uint32_t options = PCRE2_UTF;
    global_ = false;
    for (const char c : flags) {
      if (c == 'i') options |= PCRE2_CASELESS;
      if (c == 'm') options |= PCRE2_MULTILINE;
      if (c == 's') options |= PCRE2_DOTALL;
      if (c == 'x') options |= PCRE2_EXTENDED;
      if (c == 'g') global_ = true;
    }
    auto compile = [&](std::uint32_t extra) {
      int error = 0;
      PCRE2_SIZE offset = 0;
      return std::unique_ptr<pcre2_code, CodeDeleter>(pcre2_compile(
          reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
          options | extra, &error, &offset, nullptr));
    };
    counted_ = false;
    code_.reset();
    if (!jit_) {
      code_ = compile(PCRE2_AUTO_CALLOUT);
      counted_ = code_ != nullptr;
    }
    if (!code_) code_ = compile(0);
    if (!code_) return "does not compile";
    if (jit_ && pcre2_jit_compile(code_.get(), PCRE2_JIT_COMPLETE) != 0) {
      return "JIT unavailable";
    }
    data_.reset(pcre2_match_data_create_from_pattern(code_.get(), nullptr));
    context_.reset(pcre2_match_context_create(nullptr));
    // No limits: the point is how much work the engine does, not where it
    // stops.
    pcre2_set_match_limit(context_.get(),
                          std::numeric_limits<std::uint32_t>::max());
    pcre2_set_depth_limit(context_.get(),
                          std::numeric_limits<std::uint32_t>::max());
    pcre2_set_heap_limit(context_.get(), 4u * 1024 * 1024);
    if (counted_) pcre2_set_callout(context_.get(), CountStep, &counter_);
    if (jit_) {
      stack_.reset(
          pcre2_jit_stack_create(32 * 1024, 256 * 1024 * 1024, nullptr));
      pcre2_jit_stack_assign(context_.get(), nullptr, stack_.get());
    }
    return "";
  }

  bool counted() const { return counted_; }

  std::string Build(std::size_t n) const {
    std::string subject = prefix_;
    subject.reserve(prefix_.size() + pump_.size() * n + suffix_.size());
    for (std::size_t i = 0; i < n; ++i) subject += pump_;
    return subject + suffix_;
  }

  // Steps of one search (every search of a global one), or its CPU time.
  double Cost(const std::string& subject) {
    counter_ = StepCounter{};
    const double start = ThreadCpuSeconds();
    MatchAll(subject);
    const double seconds = ThreadCpuSeconds() - start;
    return counted_ ? static_cast<double>(counter_.steps) : seconds;
  }

 private:
  // One search, or with the g flag every match to the end of the subject,
  // as replace-all and split run it. Like pcre2_substitute's global mode,
  // only the first call checks that the subject is valid UTF-8: each check
  // reads the rest of the subject, so checking on every call would make
  // any global search quadratic (`a` over "abab..." took 0.39, 1.5 and
  // 6.0 s for 32, 64 and 128 KiB), which is the harness's work, not the
  // pattern's.
  void MatchAll(const std::string& subject) {
    PCRE2_SIZE start = 0;
    std::uint32_t options = 0;
    while (true) {
      counter_.last_position = start;
      const int rc = pcre2_match(
          code_.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
          subject.size(), start, options, data_.get(), context_.get());
      options = PCRE2_NO_UTF_CHECK;
      if (rc < 0 || !global_) return;
      const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data_.get());
      PCRE2_SIZE next = ovector[1] > ovector[0] ? ovector[1] : ovector[1] + 1;
      while (next < subject.size() &&
             (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
        ++next;
      }
      if (next > subject.size()) return;
      start = next;
    }
  }

  std::unique_ptr<pcre2_code, CodeDeleter> code_;
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> data_;
  std::unique_ptr<pcre2_match_context, ContextDeleter> context_;
  std::unique_ptr<pcre2_jit_stack, JitStackDeleter> stack_;
  StepCounter counter_;
  std::string prefix_, pump_, suffix_;
  bool jit_ = false;
  bool global_ = false;
  bool counted_ = false;
};

nlohmann::json Measure(Attack& attack, const nlohmann::json& request) {
  const int runs = attack.counted() ? 1 : request.value("runs", 1);
  nlohmann::json costs = nlohmann::json::array();
  nlohmann::json lengths = nlohmann::json::array();
  for (const nlohmann::json& n : request["n"]) {
    const std::string subject = attack.Build(n.get<std::size_t>());
    double least = std::numeric_limits<double>::infinity();
    for (int i = 0; i < std::max(runs, 1); ++i) {
      const double cost = attack.Cost(subject);
      least = std::min(least, cost);
      if (!attack.counted() && cost > 0.5) break;
    }
    costs.push_back(least);
    lengths.push_back(subject.size());
  }
  return {{"costs", costs}, {"lengths", lengths}};
}

}  // namespace

int main() {
  Attack attack;
  bool compiled = false;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const nlohmann::json request = nlohmann::json::parse(line, nullptr, false);
    nlohmann::json reply;
    if (request.is_discarded() || !request.is_object()) {
      reply = {{"error", "bad request line"}};
    } else if (request.value("op", "") == "compile" &&
               request.contains("attack")) {
      const std::string error = attack.Compile(request);
      compiled = error.empty();
      reply = compiled
                  ? nlohmann::json{{"unit",
                                    attack.counted() ? "steps" : "cpu-seconds"}}
                  : nlohmann::json{{"error", error}};
    } else if (request.value("op", "") == "measure" && compiled &&
               request.contains("n") && request["n"].is_array()) {
      reply = Measure(attack, request);
    } else {
      reply = {{"error", "bad request"}};
    }
    std::cout << reply.dump(-1, ' ', false,
                            nlohmann::json::error_handler_t::replace)
              << std::endl;
  }
  return 0;
}
