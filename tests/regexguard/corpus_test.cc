// Whole-corpus tests (label `slow`): run regexguard over the labelled ReDoS
// corpus, assert the precision/recall floors reached (by label, and per
// engine against each engine's own truth), and re-verify every finding's
// attack with an independent PCRE2 harness.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include "corpus_evaluation.h"
#include "pcre2_reference.h"

namespace robotscan::regexguard {
namespace {

// Re-runs a finding's attack at its largest measured pump count below the
// budget and at half of it through the independent harness, in the
// configuration that proved it: the work must grow faster than n^1.4.
void ExpectReverifies(const AnalysisReport& report, const std::string& flags,
                      const std::string& id) {
  ASSERT_TRUE(report.attack.has_value()) << id;
  const testing::ReferenceRun run =
      testing::RunFor(report, ParseFlagLetters(flags).value());
  ASSERT_FALSE(run.pattern.empty()) << id;
  const EngineMeasurement& primary = report.measurements.front();
  std::size_t largest = 0;
  for (const GrowthPoint& p : primary.points) {
    if (!p.step_budget_exceeded) largest = std::max(largest, p.pump_count);
  }
  ASSERT_GE(largest, 2u) << id;
  const auto big =
      testing::CountReferenceSteps(run, report.attack->Build(largest));
  const auto small =
      testing::CountReferenceSteps(run, report.attack->Build(largest / 2));
  ASSERT_TRUE(big.compiled) << id;
  EXPECT_GT(static_cast<double>(big.steps),
            2.6 * static_cast<double>(small.steps))
      << id << " /" << report.pattern << "/ steps " << small.steps << " -> "
      << big.steps;
}

std::vector<eval::CorpusEntry> LoadCorpus() {
  std::string error;
  auto corpus = eval::ReadCorpus(
      std::string(ROBOTSCAN_TEST_DATA_DIR) + "/redos/corpus.jsonl", &error);
  EXPECT_TRUE(corpus) << error;
  return corpus ? std::move(*corpus) : std::vector<eval::CorpusEntry>();
}

// A generous time budget: verdicts then depend on counted steps only, not
// on how loaded the CI machine is.
AnalyzeOptions CorpusOptions() {
  AnalyzeOptions options;
  options.time_budget_seconds = 5.0;
  return options;
}

// By label: each entry in its own dialect (javascript for portable and js
// entries, python for Python-only syntax, as regexguard_eval_corpus without
// --per-engine), taken from the per-engine runs, against the label.
std::vector<eval::EntryResult> ByLabelDialect(
    const std::vector<eval::CorpusEntry>& corpus,
    const std::map<Dialect, eval::DialectRun>& runs) {
  const eval::DialectRun& javascript = runs.at(Dialect::kJavaScript);
  const eval::DialectRun& python = runs.at(Dialect::kPython);
  std::vector<eval::EntryResult> results(corpus.size());
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const bool use_javascript = corpus[i].dialect != "python" &&
                                javascript.applicable[i] &&
                                !javascript.not_dialect_syntax[i];
    results[i] = use_javascript ? javascript.results[i] : python.results[i];
  }
  return results;
}

// Per engine (issue 12): every entry analyzed in the pcre, python and
// javascript dialects and judged against that engine's own truth
// (verified.<engine>.superlinear): the PCRE2 interpreter as shipped for
// pcre, its JIT for the JIT configuration's own verdict, CPython for
// python, V8 for javascript. Precision against these fields understates
// the truth for pcre: the corpus re-measured attacks made for Python and
// Node on PCRE2, whose start-up checks reject many of them. That every
// reported attack really is super-linear on the real engines is what the
// EngineAttacks test checks, timing them on PCRE2, CPython and Node.
TEST(WholeCorpus, PerEngineRecallAndReverification) {
  const std::vector<eval::CorpusEntry> corpus = LoadCorpus();
  ASSERT_EQ(corpus.size(), 928u);
  std::vector<eval::EngineScore> scores;
  std::map<Dialect, eval::DialectRun> runs;
  for (const eval::EngineTruth& truth : eval::EngineTruths()) {
    // java, ruby and go (engine_truth.jsonl) are measured with
    // regexguard_eval_corpus --per-engine java,ruby,go, not here: two more
    // minutes of analysis, and their attacks do not all reproduce yet
    // (bench/RESULTS.md, issue 27).
    if (truth.dialect == Dialect::kJava || truth.dialect == Dialect::kRuby ||
        truth.dialect == Dialect::kGo) {
      continue;
    }
    auto it = runs.find(truth.dialect);
    if (it == runs.end()) {
      it = runs.emplace(truth.dialect,
                        eval::AnalyzeCorpusAs(corpus, truth.dialect,
                                              CorpusOptions(), 2))
               .first;
    }
    scores.push_back(eval::EvaluateForEngine(corpus, it->second, truth));
  }
  std::cout << eval::FormatEngineScores(scores);
  // The results feed the EngineAttacks test (same ctest fixture, same
  // working directory), which times every reported attack on the real
  // engines.
  {
    const char* path = std::getenv("ROBOTSCAN_PER_ENGINE_RESULTS");
    if (path == nullptr) path = "per_engine_results.jsonl";
    std::ofstream out(path);
    for (const auto& [dialect, run] : runs) {
      eval::WriteDialectRunResults(corpus, run, &out);
    }
    ASSERT_TRUE(out.good()) << path;
  }
  ASSERT_EQ(scores.size(), 4u);
  EXPECT_GE(scores[0].score.Recall(), 0.985) << scores[0].truth.name;
  EXPECT_GE(scores[1].score.Recall(), 0.98) << scores[1].truth.name;
  EXPECT_GE(scores[2].score.Recall(), 0.99) << scores[2].truth.name;
  EXPECT_GE(scores[3].score.Recall(), 0.99) << scores[3].truth.name;
  for (const eval::EngineScore& s : scores) {
    EXPECT_EQ(s.over_budget, 0u) << s.truth.name;
    EXPECT_LE(s.median_cpu_seconds, 0.010) << s.truth.name;
  }
  // The label-based figures of earlier releases, from the same runs.
  const std::vector<eval::EntryResult> by_label = ByLabelDialect(corpus, runs);
  const eval::Evaluation e = eval::Evaluate(corpus, by_label);
  std::cout << eval::FormatEvaluation(e);
  EXPECT_GE(e.overall.Precision(), 0.995);
  EXPECT_GE(e.overall.Recall(), 0.985);
  EXPECT_GE(e.advisories.Recall(), 0.97);
  EXPECT_GE(e.by_complexity.at("exponential").Recall(), 0.95);
  EXPECT_GE(e.by_cause.at("search-restart").Recall(), 0.98);
  for (const auto& [dialect, run] : runs) {
    // Entries labelled safe survived every engine: a finding there is a
    // false positive whatever the per-engine fields say.
    std::size_t safe = 0, flagged = 0;
    for (std::size_t i = 0; i < corpus.size(); ++i) {
      if (!run.applicable[i] || corpus[i].label != "safe") continue;
      ++safe;
      if (run.results[i].predicted_vulnerable) ++flagged;
    }
    EXPECT_LE(static_cast<double>(flagged), 0.005 * static_cast<double>(safe))
        << DialectName(dialect) << ": " << flagged << " of " << safe;
    for (std::size_t i = 0; i < corpus.size(); ++i) {
      if (!run.applicable[i] || !run.results[i].predicted_vulnerable) continue;
      ExpectReverifies(
          run.results[i].report,
          dialect == Dialect::kJavaScript && corpus[i].has_pattern_js
              ? corpus[i].flags_js
              : corpus[i].flags,
          corpus[i].id);
    }
  }
}

// Issue 27: the java, ruby and go dialects against their own engines'
// truth (tests/data/redos/engine_truth.jsonl: the corpus's attacks judged on
// OpenJDK 17, Ruby 3.1 and Go). Java and Ruby on every third entry, to keep
// the slow suite's time (the whole corpus is in bench/RESULTS.md); Go on all.
// The results feed EngineAttacksJavaRuby, which times every attack reported
// here on the real Java and Ruby.
TEST(WholeCorpus, PerEngineJavaRubyGo) {
  const std::vector<eval::CorpusEntry> all = LoadCorpus();
  ASSERT_EQ(all.size(), 928u);
  std::vector<eval::CorpusEntry> sample;
  for (std::size_t i = 0; i < all.size(); i += 3) sample.push_back(all[i]);
  std::vector<eval::EngineScore> scores;
  const char* path = std::getenv("ROBOTSCAN_JAVA_RUBY_RESULTS");
  std::ofstream out(path != nullptr ? path : "per_engine_java_ruby.jsonl");
  for (const eval::EngineTruth& truth : eval::EngineTruths()) {
    if (truth.dialect != Dialect::kJava && truth.dialect != Dialect::kRuby &&
        truth.dialect != Dialect::kGo) {
      continue;
    }
    const std::vector<eval::CorpusEntry>& corpus =
        truth.dialect == Dialect::kGo ? all : sample;
    const eval::DialectRun run =
        eval::AnalyzeCorpusAs(corpus, truth.dialect, CorpusOptions(), 2);
    scores.push_back(eval::EvaluateForEngine(corpus, run, truth));
    eval::WriteDialectRunResults(corpus, run, &out);
    if (truth.dialect == Dialect::kGo) {
      // Go's regexp is linear: never a finding, whatever the pattern.
      for (std::size_t i = 0; i < corpus.size(); ++i) {
        EXPECT_FALSE(run.results[i].predicted_vulnerable) << corpus[i].id;
      }
      EXPECT_GT(scores.back().applicable, 100u);
    }
  }
  ASSERT_TRUE(out.good());
  std::cout << eval::FormatEngineScores(scores);
  ASSERT_EQ(scores.size(), 3u);
  // Measured on the whole corpus 99.2% (java) and 94.6% (ruby).
  EXPECT_GE(scores[0].score.Recall(), 0.97) << scores[0].truth.name;
  EXPECT_GE(scores[1].score.Recall(), 0.90) << scores[1].truth.name;
  for (const eval::EngineScore& s : scores) {
    EXPECT_EQ(s.over_budget, 0u) << s.truth.name;
    // Syntax the engine compiles is never refused (tests/data/redos has
    // only patterns the engine compiled as applicable).
    EXPECT_EQ(s.not_dialect_syntax, 0u) << s.truth.name;
  }
}

}  // namespace
}  // namespace robotscan::regexguard
