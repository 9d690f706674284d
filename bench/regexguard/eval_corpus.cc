// regexguard_eval_corpus: scores regexguard on the labelled ReDoS corpus.
//
//   regexguard_eval_corpus [--corpus PATH] [--jobs N] [--timeout SECONDS]
//                          [--list-errors] [--results out.jsonl]
//                          [--per-engine [DIALECT,...]]
//
// --per-engine analyzes every entry in the pcre, python and javascript
// dialects (or those listed: java, ruby and go too, judged against
// engine_truth.jsonl next to the corpus) and judges each against its own
// engine's truth (verified.<engine>.superlinear) instead of the label.
//
// --timeout sets the per-regex budget (default 1 s). On a loaded machine a
// larger one keeps wall-clock contention from turning findings into
// "budget exceeded"; verdicts otherwise depend only on counted steps.
//
// Prints precision/recall (overall, per complexity, per cause, advisories,
// non-detector subset) and time per regex; --list-errors prints every false
// positive and false negative with the verdict and reason.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "corpus_evaluation.h"

namespace rg = robotscan::regexguard;

namespace {

int RunPerEngine(const std::vector<rg::eval::CorpusEntry>& corpus,
                 const rg::AnalyzeOptions& options, unsigned jobs,
                 const std::string& dialects, bool list_errors,
                 const std::string& results_path) {
  std::vector<rg::eval::EngineScore> scores;
  std::ofstream results_out;
  if (!results_path.empty()) results_out.open(results_path);
  for (const rg::eval::EngineTruth& truth : rg::eval::EngineTruths()) {
    const std::string dialect_name(rg::DialectName(truth.dialect));
    if (("," + dialects + ",").find("," + dialect_name + ",") ==
        std::string::npos) {
      continue;
    }
    static std::map<rg::Dialect, rg::eval::DialectRun> runs;
    auto it = runs.find(truth.dialect);
    if (it == runs.end()) {
      const auto start = std::chrono::steady_clock::now();
      it =
          runs.emplace(truth.dialect, rg::eval::AnalyzeCorpusAs(
                                          corpus, truth.dialect, options, jobs))
              .first;
      std::fprintf(stderr, "%s: %.1f s wall\n", dialect_name.c_str(),
                   std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count());
      if (results_out) {
        rg::eval::WriteDialectRunResults(corpus, it->second, &results_out);
      }
    }
    scores.push_back(rg::eval::EvaluateForEngine(corpus, it->second, truth));
    if (!list_errors) continue;
    const rg::eval::DialectRun& run = it->second;
    auto print = [&](const char* kind, const std::string& id) {
      for (std::size_t i = 0; i < corpus.size(); ++i) {
        if (corpus[i].id != id) continue;
        const rg::AnalysisReport& report = run.results[i].report;
        std::printf("%s %s %s [%s %s] verdict=%s %s\n    %s\n", kind,
                    truth.name.c_str(), id.c_str(),
                    corpus[i].complexity.c_str(), corpus[i].cause.c_str(),
                    std::string(rg::VerdictName(report.verdict)).c_str(),
                    report.unknown_reason.c_str(), report.pattern.c_str());
        if (report.attack) {
          std::printf("    attack prefix=%s pump=%s suffix=%s\n",
                      nlohmann::json(report.attack->prefix).dump().c_str(),
                      nlohmann::json(report.attack->pump).dump().c_str(),
                      nlohmann::json(report.attack->suffix).dump().c_str());
        }
      }
    };
    for (const std::string& id : scores.back().false_negatives) print("FN", id);
    for (const std::string& id : scores.back().false_positives) print("FP", id);
  }
  std::printf("%s", rg::eval::FormatEngineScores(scores).c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus_path = ROBOTSCAN_DEFAULT_CORPUS;
  std::string results_path;
  unsigned jobs = 2;
  bool list_errors = false;
  bool per_engine = false;
  std::string per_engine_dialects = "pcre,python,javascript";
  rg::AnalyzeOptions options;  // defaults: 1 s per regex
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--corpus" && i + 1 < argc) {
      corpus_path = argv[++i];
    } else if (arg == "--jobs" && i + 1 < argc) {
      jobs = static_cast<unsigned>(std::atoi(argv[++i]));
    } else if (arg == "--results" && i + 1 < argc) {
      results_path = argv[++i];
    } else if (arg == "--timeout" && i + 1 < argc) {
      options.time_budget_seconds = std::atof(argv[++i]);
    } else if (arg == "--list-errors") {
      list_errors = true;
    } else if (arg == "--per-engine") {
      per_engine = true;
      if (i + 1 < argc && argv[i + 1][0] != '-') {
        per_engine_dialects = argv[++i];
      }
    } else {
      std::fprintf(stderr,
                   "usage: regexguard_eval_corpus [--corpus PATH] [--jobs N] "
                   "[--timeout SECONDS] [--list-errors] [--results "
                   "out.jsonl] [--per-engine [DIALECT,...]]\n");
      return 2;
    }
  }
  std::string error;
  auto corpus = rg::eval::ReadCorpus(corpus_path, &error);
  if (!corpus) {
    std::fprintf(stderr, "regexguard_eval_corpus: %s\n", error.c_str());
    return 2;
  }
  if (per_engine)
    return RunPerEngine(*corpus, options, jobs, per_engine_dialects,
                        list_errors, results_path);
  const auto start = std::chrono::steady_clock::now();
  const auto results = rg::eval::AnalyzeCorpus(*corpus, options, jobs);
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  const rg::eval::Evaluation evaluation = rg::eval::Evaluate(*corpus, results);
  std::printf("%s", rg::eval::FormatEvaluation(evaluation).c_str());
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec) +
                     static_cast<double>(usage.ru_utime.tv_usec) / 1e6;
  std::printf(
      "  wall time for %zu regexes with %u jobs: %.1f s (user CPU %.1f s)\n",
      corpus->size(), jobs, wall, cpu);
  if (list_errors) {
    for (std::size_t i = 0; i < corpus->size(); ++i) {
      const auto& entry = (*corpus)[i];
      const auto& report = results[i].report;
      const bool labelled = entry.label == "vulnerable";
      if (labelled == results[i].predicted_vulnerable) continue;
      std::printf("%s %s [%s %s %s] verdict=%s %s\n    %s\n",
                  labelled ? "FN" : "FP", entry.id.c_str(),
                  entry.complexity.c_str(), entry.cause.c_str(),
                  entry.dialect.c_str(),
                  std::string(rg::VerdictName(report.verdict)).c_str(),
                  report.unknown_reason.c_str(), entry.pattern.c_str());
      if (report.attack) {
        std::printf("    attack prefix=%s pump=%s suffix=%s\n",
                    nlohmann::json(report.attack->prefix).dump().c_str(),
                    nlohmann::json(report.attack->pump).dump().c_str(),
                    nlohmann::json(report.attack->suffix).dump().c_str());
      }
    }
  }
  if (!results_path.empty()) {
    std::ofstream out(results_path);
    for (std::size_t i = 0; i < corpus->size(); ++i) {
      const auto& report = results[i].report;
      nlohmann::json row = {
          {"id", (*corpus)[i].id},
          {"label", (*corpus)[i].label},
          {"verdict", std::string(rg::VerdictName(report.verdict))},
          {"degree", report.degree},
          {"cause", std::string(rg::CauseName(report.cause))},
          {"reason", report.unknown_reason},
          {"seconds", results[i].seconds}};
      if (report.attack) {
        row["attack"] = {{"prefix", report.attack->prefix},
                         {"pump", report.attack->pump},
                         {"suffix", report.attack->suffix}};
      }
      out << row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
          << "\n";
    }
  }
  return 0;
}
