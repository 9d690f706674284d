// pcre2_attack_timer: times attacks on PCRE2 as shipped, the way a program
// using the library meets them: pcre2_compile with PCRE2_UTF and the
// pattern's flags, no callouts, pcre2_match (after pcre2_jit_compile for the
// JIT), CPU time of the calling thread. Independent of regexguard's own
// engine wrapper and of its step counting.
//
// Reads JSON lines {"id", "pattern", "flags", "attack": {"prefix", "pump",
// "suffix"}, "engine": "pcre2" | "pcre2jit"} on standard input and writes one
// JSON line per input with the growth found (attack_timing.h).
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "attack_timing.h"

namespace {

using robotscan::regexguard::testing::MeasureAttackGrowth;
using robotscan::regexguard::testing::TimedAttack;

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

nlohmann::json TimeOne(const nlohmann::json& row) {
  const std::string pattern = row.value("pattern", "");
  const std::string flags = row.value("flags", "");
  const bool jit = row.value("engine", "pcre2") == "pcre2jit";
  std::uint32_t options = PCRE2_UTF;
  bool global = false;
  for (const char c : flags) {
    if (c == 'i') options |= PCRE2_CASELESS;
    if (c == 'm') options |= PCRE2_MULTILINE;
    if (c == 's') options |= PCRE2_DOTALL;
    if (c == 'x') options |= PCRE2_EXTENDED;
    if (c == 'g') global = true;
  }
  nlohmann::json out = {{"id", row.value("id", "")},
                        {"engine", jit ? "pcre2jit" : "pcre2"}};
  int error = 0;
  PCRE2_SIZE offset = 0;
  std::unique_ptr<pcre2_code, CodeDeleter> code(
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                    pattern.size(), options, &error, &offset, nullptr));
  if (!code) {
    out["error"] = "does not compile";
    return out;
  }
  if (jit && pcre2_jit_compile(code.get(), PCRE2_JIT_COMPLETE) != 0) {
    out["error"] = "JIT unavailable";
    return out;
  }
  std::unique_ptr<pcre2_match_data, MatchDataDeleter> data(
      pcre2_match_data_create_from_pattern(code.get(), nullptr));
  std::unique_ptr<pcre2_match_context, ContextDeleter> context(
      pcre2_match_context_create(nullptr));
  // No limits: the point is how long the engine takes, not where it stops.
  pcre2_set_match_limit(context.get(),
                        std::numeric_limits<std::uint32_t>::max());
  pcre2_set_depth_limit(context.get(),
                        std::numeric_limits<std::uint32_t>::max());
  pcre2_set_heap_limit(context.get(), 4u * 1024 * 1024);
  std::unique_ptr<pcre2_jit_stack, JitStackDeleter> stack(
      pcre2_jit_stack_create(32 * 1024, 256 * 1024 * 1024, nullptr));
  pcre2_jit_stack_assign(context.get(), nullptr, stack.get());
  auto match_all = [&](const std::string& subject) {
    PCRE2_SIZE start = 0;
    while (true) {
      const int rc =
          pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(subject.data()),
                      subject.size(), start, 0, data.get(), context.get());
      if (rc < 0 || !global) return;
      const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
      PCRE2_SIZE next = ovector[1] > ovector[0] ? ovector[1] : ovector[1] + 1;
      while (next < subject.size() &&
             (static_cast<unsigned char>(subject[next]) & 0xC0) == 0x80) {
        ++next;
      }
      if (next > subject.size()) return;
      start = next;
    }
  };
  const nlohmann::json& attack = row["attack"];
  const TimedAttack timed =
      MeasureAttackGrowth(attack.value("prefix", ""), attack.value("pump", ""),
                          attack.value("suffix", ""), match_all);
  out["n"] = timed.pump_count;
  out["length"] = timed.length;
  out["seconds"] = timed.seconds;
  out["ratio"] = timed.ratio;
  out["superlinear"] = timed.superlinear;
  return out;
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.contains("attack")) {
      std::cout << nlohmann::json({{"error", "bad input line"}}).dump()
                << std::endl;
      continue;
    }
    std::cout << TimeOne(row).dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace)
              << std::endl;
  }
  return 0;
}
