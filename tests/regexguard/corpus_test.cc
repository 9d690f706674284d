// Whole-corpus test (label `slow`): runs regexguard over the labelled ReDoS
// corpus and asserts the precision/recall floors reached, and re-verifies
// every vulnerable verdict's attack with an independent PCRE2 harness.
#include <gtest/gtest.h>

#include <string>

#include "corpus_evaluation.h"
#include "pcre2_reference.h"

namespace robotscan::regexguard {
namespace {

TEST(WholeCorpus, PrecisionRecallAndAttacksReverify) {
  std::string error;
  const auto corpus = eval::ReadCorpus(
      std::string(ROBOTSCAN_TEST_DATA_DIR) + "/redos/corpus.jsonl", &error);
  ASSERT_TRUE(corpus) << error;
  ASSERT_EQ(corpus->size(), 928u);
  // A generous time budget: verdicts then depend on counted steps only, not
  // on how loaded the CI machine is.
  AnalyzeOptions analyze_options;
  analyze_options.time_budget_seconds = 5.0;
  const auto results = eval::AnalyseCorpus(*corpus, analyze_options, 2);
  const eval::Evaluation e = eval::Evaluate(*corpus, results);
  std::cout << eval::FormatEvaluation(e);

  // Floors measured on this corpus (see bench/RESULTS.md); a regression
  // below them fails the build.
  EXPECT_GE(e.overall.Precision(), 0.995);
  EXPECT_GE(e.overall.Recall(), 0.985);
  EXPECT_GE(e.advisories.Recall(), 0.97);
  EXPECT_GE(e.by_complexity.at("exponential").Recall(), 0.95);
  EXPECT_GE(e.by_cause.at("search-restart").Recall(), 0.98);
  // CPU time, not wall time: CI machines are shared.
  EXPECT_LE(e.median_cpu_seconds, 0.010);

  std::size_t reverified = 0;
  for (std::size_t i = 0; i < corpus->size(); ++i) {
    const AnalysisReport& report = results[i].report;
    if (!results[i].predicted_vulnerable) continue;
    ASSERT_TRUE(report.attack.has_value()) << (*corpus)[i].id;
    ParseOptions options;
    options.dialect = report.dialect;
    options.flags = ParseFlagLetters((*corpus)[i].flags).value();
    const Result<ParsedPattern> parsed = ParsePattern(report.pattern, options);
    ASSERT_TRUE(parsed) << (*corpus)[i].id;
    const std::string pcre2 = ToPcre2Pattern(*parsed->root);
    const EngineMeasurement& primary = report.measurements.front();
    std::size_t largest = 0;
    for (const GrowthPoint& p : primary.points) {
      if (!p.step_budget_exceeded) largest = std::max(largest, p.pump_count);
    }
    ASSERT_GE(largest, 2u) << (*corpus)[i].id;
    const bool naive =
        report.exploding_configs.front() == EngineConfig::kPcre2Naive;
    const bool global = options.flags.global;
    const auto big = testing::CountReferenceSteps(
        pcre2, report.attack->Build(largest), naive, global, 100000000);
    const auto small = testing::CountReferenceSteps(
        pcre2, report.attack->Build(largest / 2), naive, global, 100000000);
    ASSERT_TRUE(big.compiled) << (*corpus)[i].id;
    EXPECT_GT(static_cast<double>(big.steps),
              2.6 * static_cast<double>(small.steps))
        << (*corpus)[i].id << " /" << report.pattern << "/ steps "
        << small.steps << " -> " << big.steps;
    ++reverified;
  }
  EXPECT_EQ(reverified, e.overall.true_positives + e.overall.false_positives);
}

}  // namespace
}  // namespace robotscan::regexguard
