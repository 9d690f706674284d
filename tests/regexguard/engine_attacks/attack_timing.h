// Test helper: does an attack prefix + pump*n + suffix take super-linear
// time in a real engine? The corpus's own rule (../shared/redos-corpus
// README), in CPU time of the calling thread: grow n until one run costs
// 3 ms (or the input reaches 4 MB), by halves while far below that and by
// eighths near it, then compare with n/2: super-linear when doubling the
// input multiplies the time by 2.8 or more (local exponent >= 1.5).
// Anything else is measured once more at 15 ms a run, where a quadratic
// with a large linear term shows its exponent and a run disturbed by the
// machine's load is measured afresh. Each time is the least of three runs,
// so a busy machine can slow a run down but not fake growth.
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_ENGINE_ATTACKS_ATTACK_TIMING_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_ENGINE_ATTACKS_ATTACK_TIMING_H_

#include <time.h>

#include <algorithm>
#include <cstddef>
#include <string>

namespace robotscan::regexguard::testing {

struct TimedAttack {
  std::size_t pump_count = 0;
  std::size_t length = 0;
  double seconds = 0;  // one run at pump_count
  double ratio = 0;    // seconds(n) / seconds(n / 2)
  bool superlinear = false;
};

inline double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) / 1e9;
}

template <typename Run>
TimedAttack MeasureAttackGrowth(const std::string& prefix,
                                const std::string& pump,
                                const std::string& suffix, Run run) {
  auto build = [&](std::size_t n) {
    std::string s = prefix;
    for (std::size_t i = 0; i < n; ++i) s += pump;
    return s + suffix;
  };
  auto time = [&](std::size_t n) {
    const std::string subject = build(n);
    double best = 1e9;
    for (int i = 0; i < 3; ++i) {
      const double start = ThreadCpuSeconds();
      run(subject);
      const double spent = ThreadCpuSeconds() - start;
      best = std::min(best, spent);
      if (spent > 0.5) break;
    }
    return best;
  };
  const std::size_t pump_length = std::max<std::size_t>(pump.size(), 1);
  const std::size_t max_length = 4000000;
  auto grow_until = [&](std::size_t n, double target, double* seconds) {
    *seconds = time(n);
    while (*seconds < target &&
           prefix.size() + suffix.size() + pump_length * n < max_length) {
      n += std::max<std::size_t>(1, *seconds < target / 8 ? n / 2 : n / 8);
      *seconds = time(n);
    }
    return n;
  };
  TimedAttack result;
  double seconds = 0;
  double target = 0.003;
  std::size_t n = grow_until(1, target, &seconds);
  double ratio = n >= 2 ? seconds / std::max(time(n / 2), 1e-9) : 0;
  if (!(seconds >= target && ratio >= 2.8)) {
    target = 0.015;
    n = grow_until(n, target, &seconds);
    ratio = n >= 2 ? seconds / std::max(time(n / 2), 1e-9) : 0;
  }
  result.pump_count = n;
  result.length = build(n).size();
  result.seconds = seconds;
  result.ratio = ratio;
  result.superlinear = seconds >= target && ratio >= 2.8;
  return result;
}

}  // namespace robotscan::regexguard::testing

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_ENGINE_ATTACKS_ATTACK_TIMING_H_
