// Private: the analysis time budget, in CPU time of the analyzing thread.
//
// The budget is the one input of a verdict that is not a counted step; on a
// shared machine wall-clock time depends on everything else running, so it
// is counted on the thread's own CPU clock instead: the same pattern gets
// the same verdict however busy the machine is. A budget must be read on
// the thread that made it (AnalyzePattern runs on its caller's thread).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PROOF_CPU_BUDGET_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PROOF_CPU_BUDGET_H_

#include <time.h>

#include <limits>

namespace robotscan::regexguard::internal {

inline double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) / 1e9;
}

class CpuBudget {
 public:
  // Never runs out.
  CpuBudget() = default;
  // Runs out once this thread has spent `seconds` more CPU time.
  static CpuBudget FromNow(double seconds) {
    CpuBudget budget;
    budget.limit_ = ThreadCpuSeconds() + (seconds > 0 ? seconds : 0);
    return budget;
  }
  bool Exhausted() const {
    return limit_ != std::numeric_limits<double>::infinity() &&
           ThreadCpuSeconds() > limit_;
  }

 private:
  double limit_ = std::numeric_limits<double>::infinity();
};

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PROOF_CPU_BUDGET_H_
