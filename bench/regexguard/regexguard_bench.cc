// Microbenchmarks: parse and full analysis of typical patterns.
#include <benchmark/benchmark.h>

#include "robotscan/regexguard/analyzer.h"

namespace rg = robotscan::regexguard;

static void BM_ParseEmailPattern(benchmark::State& state) {
  const char* pattern =
      R"(^[_a-z0-9-]+(\.[_a-z0-9-]+)*@[a-z0-9-]+(\.[a-z]{2,})$)";
  for (auto _ : state) {
    auto parsed = rg::ParsePattern(pattern, {});
    benchmark::DoNotOptimize(parsed);
  }
}
BENCHMARK(BM_ParseEmailPattern);

static void BM_AnalyseSafePattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^\d{4}-\d{2}-\d{2}$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyseSafePattern)->Unit(benchmark::kMillisecond);

static void BM_AnalyseExponentialPattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  options.parse.dialect = rg::Dialect::kJavaScript;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^(\w+\s?)+$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyseExponentialPattern)->Unit(benchmark::kMillisecond);

static void BM_AnalyseQuadraticPattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  options.parse.dialect = rg::Dialect::kJavaScript;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^[\s\u200c]+|[\s\u200c]+$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyseQuadraticPattern)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
