// Growth classification from counted steps (no engine involved).
#include "proof/growth.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

namespace robotscan::regexguard::internal {
namespace {

EngineMeasurement Synthetic(const std::function<double(double)>& steps,
                            std::uint64_t budget) {
  EngineMeasurement m;
  auto add = [&](std::size_t n) {
    GrowthPoint p;
    p.pump_count = n;
    p.subject_length = n;
    const double value = steps(static_cast<double>(n));
    p.step_budget_exceeded = value > static_cast<double>(budget);
    p.steps =
        p.step_budget_exceeded ? budget + 1 : static_cast<std::uint64_t>(value);
    m.points.push_back(p);
    return p.step_budget_exceeded;
  };
  std::size_t exceeded = 0;
  for (std::size_t n = 1; n <= 16384; n *= 2) {
    if (add(n)) {
      exceeded = n;
      break;
    }
  }
  if (exceeded != 0 && exceeded <= 64) {
    for (std::size_t n = exceeded / 4 + 1; n < exceeded * 2; ++n) {
      if ((n & (n - 1)) == 0) continue;
      if (add(n)) break;
    }
  }
  ClassifyGrowth(&m);
  return m;
}

TEST(GrowthTest, ExponentialIsRecognised) {
  const EngineMeasurement m =
      Synthetic([](double n) { return 10 * std::pow(2.0, n); }, 1000000);
  EXPECT_EQ(m.growth, Growth::kExponential);
  EXPECT_NEAR(m.fitted_exponent, 1.0, 0.05);  // log2 of the base
}

TEST(GrowthTest, QuadraticAndCubicGetTheirDegree) {
  const EngineMeasurement quadratic =
      Synthetic([](double n) { return 3 * n * n + 40 * n; }, 1000000);
  EXPECT_EQ(quadratic.growth, Growth::kPolynomial);
  EXPECT_EQ(quadratic.degree, 2);
  const EngineMeasurement cubic =
      Synthetic([](double n) { return n * n * n + 5 * n; }, 1000000);
  EXPECT_EQ(cubic.growth, Growth::kPolynomial);
  EXPECT_EQ(cubic.degree, 3);
}

TEST(GrowthTest, LinearIsNotAFinding) {
  const EngineMeasurement m =
      Synthetic([](double n) { return 50 * n + 7; }, 1000000);
  EXPECT_EQ(m.growth, Growth::kLinear);
}

TEST(GrowthTest, HighDegreePolynomialIsNotCalledExponential) {
  const EngineMeasurement m =
      Synthetic([](double n) { return std::pow(n, 5); }, 1000000);
  EXPECT_EQ(m.growth, Growth::kPolynomial);
  EXPECT_GE(m.degree, 4);
}

TEST(GrowthTest, TooFewPointsIsUndetermined) {
  EngineMeasurement m;
  m.points.push_back({1, 1, 10, false, false});
  m.points.push_back({2, 2, 2000000, true, false});
  ClassifyGrowth(&m);
  EXPECT_EQ(m.growth, Growth::kUndetermined);
}

}  // namespace
}  // namespace robotscan::regexguard::internal
