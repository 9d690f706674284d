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

static void BM_AnalyzeSafePattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^\d{4}-\d{2}-\d{2}$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyzeSafePattern)->Unit(benchmark::kMillisecond);

static void BM_AnalyzeExponentialPattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  options.parse.dialect = rg::Dialect::kJavaScript;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^(\w+\s?)+$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyzeExponentialPattern)->Unit(benchmark::kMillisecond);

static void BM_AnalyzeQuadraticPattern(benchmark::State& state) {
  rg::AnalyzeOptions options;
  options.parse.dialect = rg::Dialect::kJavaScript;
  for (auto _ : state) {
    auto report = rg::AnalyzePattern(R"(^[\s\u200c]+|[\s\u200c]+$)", options);
    benchmark::DoNotOptimize(report);
  }
}
BENCHMARK(BM_AnalyzeQuadraticPattern)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
