#include "proof/growth.h"

#include <algorithm>
#include <cmath>

namespace robotscan::regexguard::internal {
namespace {

// Below this many steps a run is dominated by constant overheads and says
// nothing about growth.
constexpr std::uint64_t kMeaningfulSteps = 2000;

GrowthPoint Run(CompiledPcre2& engine, const Attack& attack, std::size_t n,
                bool anchored, bool global, const GrowthLimits& limits,
                bool* timed_out) {
  const std::string subject = attack.Build(n);
  const auto start = std::chrono::steady_clock::now();
  const StepCount count =
      engine.CountSteps(subject, anchored, global, limits.run);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (count.timed_out) *timed_out = true;
  GrowthPoint point;
  point.pump_count = n;
  point.subject_length = subject.size();
  point.steps = count.steps;
  // Heap or depth exhaustion is as much a blow-up as the step budget: the
  // count so far is a lower bound.
  point.step_budget_exceeded = count.budget_exceeded || count.other_limit;
  point.matched = count.matched;
  point.seconds = seconds;
  return point;
}

// True once long subjects show steps merely doubling with the input: the
// rest of the doubling phase would only confirm linear growth. Quadratics
// with a large linear term still show exponents above 1.1 by then.
bool SettledLinear(const std::vector<GrowthPoint>& points) {
  const std::size_t k = points.size();
  if (k < 3 || points[k - 1].subject_length < 2048) return false;
  for (std::size_t i = k - 2; i < k; ++i) {
    const double ratio =
        static_cast<double>(std::max<std::uint64_t>(points[i].steps, 1)) /
        static_cast<double>(std::max<std::uint64_t>(points[i - 1].steps, 1));
    if (ratio > 2.15) return false;  // 2^1.1
  }
  return true;
}

// Across doublings of n a polynomial keeps its local exponent while an
// exponential's keeps growing. Only the latter needs the (costly) run over
// consecutive pump counts.
bool MayBeExponential(const std::vector<GrowthPoint>& points) {
  std::vector<double> exponents;
  for (std::size_t i = 1; i < points.size(); ++i) {
    if (points[i].step_budget_exceeded) break;
    if (points[i - 1].steps < 64) continue;  // constant overheads dominate
    exponents.push_back(std::log2(static_cast<double>(points[i].steps) /
                                  static_cast<double>(points[i - 1].steps)));
  }
  if (exponents.size() < 2) return true;  // too little to tell
  const double last = exponents.back();
  const double previous = exponents[exponents.size() - 2];
  return last >= 6 || last >= previous + 0.75;
}

double Log2Ratio(const GrowthPoint& a, const GrowthPoint& b) {
  return std::log2(static_cast<double>(std::max<std::uint64_t>(b.steps, 1)) /
                   static_cast<double>(std::max<std::uint64_t>(a.steps, 1)));
}

}  // namespace

void ClassifyGrowth(EngineMeasurement* m) {
  m->growth = Growth::kUndetermined;
  m->fitted_exponent = 0;
  m->degree = 0;
  std::vector<GrowthPoint> points = m->points;
  std::sort(points.begin(), points.end(),
            [](const GrowthPoint& a, const GrowthPoint& b) {
              return a.pump_count < b.pump_count;
            });
  std::vector<GrowthPoint> finite;
  std::size_t first_exceeded = 0;  // pump count of the first budget hit
  for (const GrowthPoint& p : points) {
    if (p.step_budget_exceeded) {
      if (first_exceeded == 0) first_exceeded = p.pump_count;
    } else if (first_exceeded == 0) {
      finite.push_back(p);
    }
  }
  // Exponential: consecutive pump counts whose per-pump step ratio does not
  // decay from the start to the end of the measured range (a polynomial's
  // ratio (1 + 1/n)^k decays), and is large for the pump count reached.
  if (first_exceeded != 0 && !finite.empty() &&
      finite.back().steps >= kMeaningfulSteps) {
    std::vector<double> ratios;  // log2 s(n+1)/s(n), consecutive n >= 2
    for (std::size_t i = 1; i < finite.size(); ++i) {
      const GrowthPoint& a = finite[i - 1];
      const GrowthPoint& b = finite[i];
      if (a.pump_count < 2 || b.pump_count != a.pump_count + 1 ||
          a.steps < 16) {
        continue;
      }
      ratios.push_back(std::log2(static_cast<double>(b.steps) /
                                 static_cast<double>(a.steps)));
    }
    if (ratios.size() >= 3) {
      const std::size_t window =
          std::max<std::size_t>(1, std::min<std::size_t>(3, ratios.size() / 2));
      double early = 0, late = 0;
      for (std::size_t i = 0; i < window; ++i) {
        early += ratios[i] / static_cast<double>(window);
        late += ratios[ratios.size() - 1 - i] / static_cast<double>(window);
      }
      const double reached = static_cast<double>(finite.back().pump_count);
      if (late >= 0.25 && late >= 0.75 * early && late * reached >= 6) {
        m->growth = Growth::kExponential;
        m->fitted_exponent = late;  // log2 of the growth factor per pump
        return;
      }
    }
  }
  // Polynomial: local exponent of the last doublings.
  std::vector<GrowthPoint> doubling;
  for (const GrowthPoint& p : finite) {
    if (doubling.empty() || p.pump_count == doubling.back().pump_count * 2) {
      doubling.push_back(p);
    }
  }
  if (doubling.size() < 3) {
    // Blown budget at tiny n with no consecutive evidence: undetermined.
    return;
  }
  const std::size_t k = doubling.size();
  const double last_exponent =
      Log2Ratio(doubling[k - 2], doubling[k - 1]) /
      std::log2(static_cast<double>(doubling[k - 1].pump_count) /
                static_cast<double>(doubling[k - 2].pump_count));
  const double previous_exponent = Log2Ratio(doubling[k - 3], doubling[k - 2]);
  m->fitted_exponent = last_exponent;
  const bool meaningful = doubling[k - 1].steps >= kMeaningfulSteps;
  if (meaningful && last_exponent >= 1.5 && previous_exponent >= 1.25) {
    m->growth = Growth::kPolynomial;
    m->degree = std::max(2, static_cast<int>(std::lround(last_exponent)));
    return;
  }
  if (first_exceeded != 0 && meaningful && last_exponent >= 1.25 &&
      previous_exponent >= 1.25) {
    // Cut by the budget while still clearly super-linear.
    m->growth = Growth::kPolynomial;
    m->degree = 2;
    return;
  }
  m->growth = Growth::kLinear;
}

EngineMeasurement MeasureGrowth(CompiledPcre2& engine, const Attack& attack,
                                bool anchored, bool global,
                                const GrowthLimits& limits) {
  bool timed_out = false;
  EngineMeasurement m;
  m.config = engine.config();
  const std::size_t fixed = attack.prefix.size() + attack.suffix.size();
  const std::size_t pump = std::max<std::size_t>(attack.pump.size(), 1);
  auto fits = [&](std::size_t n) {
    return fixed + n * pump <= limits.max_subject_length;
  };
  std::size_t exceeded_at = 0;
  for (std::size_t n = 1; fits(n); n *= 2) {
    GrowthPoint point =
        Run(engine, attack, n, anchored, global, limits, &timed_out);
    if (timed_out) break;
    m.points.push_back(point);
    if (point.step_budget_exceeded) {
      exceeded_at = n;
      break;
    }
    if (SettledLinear(m.points)) break;
  }
  if (exceeded_at != 0 && exceeded_at <= 64 && MayBeExponential(m.points)) {
    // Fast growth: measure consecutive counts below the budget.
    const std::size_t start = std::max<std::size_t>(exceeded_at / 4, 1);
    for (std::size_t n = start; fits(n) && n < exceeded_at * 2; ++n) {
      const bool known =
          std::any_of(m.points.begin(), m.points.end(),
                      [n](const GrowthPoint& p) { return p.pump_count == n; });
      if (known) continue;
      GrowthPoint point =
          Run(engine, attack, n, anchored, global, limits, &timed_out);
      if (timed_out) break;
      m.points.push_back(point);
      if (point.step_budget_exceeded) break;
    }
    std::sort(m.points.begin(), m.points.end(),
              [](const GrowthPoint& a, const GrowthPoint& b) {
                return a.pump_count < b.pump_count;
              });
  }
  ClassifyGrowth(&m);
  // Without all its points a measurement proves nothing either way.
  if (timed_out && m.growth != Growth::kExponential &&
      m.growth != Growth::kPolynomial) {
    m.growth = Growth::kUndetermined;
  }
  return m;
}

}  // namespace robotscan::regexguard::internal
