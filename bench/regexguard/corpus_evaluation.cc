#include "corpus_evaluation.h"

#include <time.h>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

namespace robotscan::regexguard::eval {
namespace {

void Count(Score* score, bool labelled, bool predicted) {
  if (labelled && predicted) ++score->true_positives;
  if (!labelled && predicted) ++score->false_positives;
  if (labelled && !predicted) ++score->false_negatives;
  if (!labelled && !predicted) ++score->true_negatives;
}

double ThreadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) +
         static_cast<double>(now.tv_nsec) / 1e9;
}

}  // namespace

std::optional<std::vector<CorpusEntry>> ReadCorpus(const std::string& path,
                                                   std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open " + path;
    return std::nullopt;
  }
  std::vector<CorpusEntry> corpus;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object()) {
      *error = "bad JSON line in " + path;
      return std::nullopt;
    }
    CorpusEntry entry;
    entry.id = row.value("id", "");
    entry.pattern = row.value("pattern", "");
    entry.flags = row.value("flags", std::string());
    entry.dialect = row.value("dialect", "portable");
    entry.label = row.value("label", "");
    entry.complexity = row.value("complexity", "");
    if (row.contains("cause") && row["cause"].is_string()) {
      entry.cause = row["cause"].get<std::string>();
    }
    entry.origin = row.value("origin", "");
    if (row.contains("verified") && row["verified"].is_object()) {
      const auto& verified = row["verified"];
      if (verified.contains("attack_origin") &&
          verified["attack_origin"].is_string()) {
        entry.attack_origin = verified["attack_origin"].get<std::string>();
      }
      for (const char* engine : {"python", "node", "pcre2", "pcre2jit"}) {
        entry.superlinear[engine] =
            verified.contains(engine) && verified[engine].is_object() &&
            verified[engine].value("superlinear", false);
      }
    }
    if (row.contains("engines_compile") && row["engines_compile"].is_object()) {
      for (const auto& [engine, value] : row["engines_compile"].items()) {
        entry.compiles[engine] = value.is_boolean() && value.get<bool>();
      }
    }
    if (row.contains("pattern_js") && row["pattern_js"].is_string()) {
      entry.has_pattern_js = true;
      entry.pattern_js = row["pattern_js"].get<std::string>();
      if (row.contains("flags_js") && row["flags_js"].is_string()) {
        entry.flags_js = row["flags_js"].get<std::string>();
      } else {
        entry.flags_js = entry.flags;
      }
    }
    corpus.push_back(std::move(entry));
  }
  const std::size_t slash = path.rfind('/');
  const std::string truth_path =
      (slash == std::string::npos ? std::string() : path.substr(0, slash + 1)) +
      "engine_truth.jsonl";
  std::ifstream truth(truth_path);
  if (!truth) return corpus;
  std::map<std::string, std::size_t> by_id;
  for (std::size_t i = 0; i < corpus.size(); ++i) by_id[corpus[i].id] = i;
  while (std::getline(truth, line)) {
    if (line.empty()) continue;
    const nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_discarded() || !row.is_object() || !row.contains("id") ||
        !row["id"].is_string() || !row.contains("engine") ||
        !row["engine"].is_string()) {
      *error = "bad JSON line in " + truth_path;
      return std::nullopt;
    }
    const auto it = by_id.find(row["id"].get<std::string>());
    if (it == by_id.end()) continue;
    CorpusEntry& entry = corpus[it->second];
    const std::string engine = row["engine"].get<std::string>();
    entry.compiles[engine] = row.value("compiles", false);
    const bool judged =
        row.contains("superlinear") && row["superlinear"].is_boolean();
    entry.superlinear[engine] = judged && row["superlinear"].get<bool>();
    if (!judged) entry.unjudged[engine] = true;
  }
  return corpus;
}

Dialect DialectForCorpus(const std::string& corpus_dialect) {
  return corpus_dialect == "python" ? Dialect::kPython : Dialect::kJavaScript;
}

std::vector<EntryResult> AnalyzeCorpus(const std::vector<CorpusEntry>& corpus,
                                       const AnalyzeOptions& base_options,
                                       unsigned jobs) {
  std::vector<EntryResult> results(corpus.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < corpus.size(); i = next++) {
      AnalyzeOptions options = base_options;
      options.parse.dialect = DialectForCorpus(corpus[i].dialect);
      Result<PatternFlags> flags = ParseFlagLetters(corpus[i].flags);
      if (flags) options.parse.flags = *flags;
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = ThreadCpuSeconds();
      results[i].report = AnalyzePattern(corpus[i].pattern, options);
      if (corpus[i].dialect == "portable" && results[i].report.error &&
          results[i].report.error->code() == StatusCode::kInvalidInput) {
        // "portable" patterns published in Python syntax ((?P<name>...)).
        options.parse.dialect = Dialect::kPython;
        results[i].report = AnalyzePattern(corpus[i].pattern, options);
      }
      results[i].cpu_seconds = ThreadCpuSeconds() - cpu_start;
      results[i].seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start)
                               .count();
      results[i].predicted_vulnerable =
          results[i].report.verdict == Verdict::kExponential ||
          results[i].report.verdict == Verdict::kPolynomial;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(jobs, 1u); ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  return results;
}

std::vector<EngineTruth> EngineTruths() {
  return {{"pcre", Dialect::kPcre, "pcre2", false},
          {"pcre (JIT config)", Dialect::kPcre, "pcre2jit", true},
          {"python", Dialect::kPython, "python", false},
          {"javascript", Dialect::kJavaScript, "node", false},
          {"java", Dialect::kJava, "java", false},
          {"ruby", Dialect::kRuby, "ruby", false},
          {"go", Dialect::kGo, "go", false}};
}

namespace {

// The corpus engine whose compile flag says whether `dialect` applies.
std::string CompileEngine(Dialect dialect) {
  switch (dialect) {
    case Dialect::kPython:
      return "python";
    case Dialect::kJavaScript:
      return "node";
    case Dialect::kJava:
      return "java";
    case Dialect::kRuby:
      return "ruby";
    case Dialect::kGo:
      return "go";
    default:
      return "pcre2";
  }
}

bool PredictsVulnerable(Verdict verdict) {
  return verdict == Verdict::kExponential || verdict == Verdict::kPolynomial;
}

}  // namespace

DialectRun AnalyzeCorpusAs(const std::vector<CorpusEntry>& corpus,
                           Dialect dialect, const AnalyzeOptions& base_options,
                           unsigned jobs) {
  DialectRun run;
  run.dialect = dialect;
  run.results.resize(corpus.size());
  run.applicable.assign(corpus.size(), false);
  run.not_dialect_syntax.assign(corpus.size(), false);
  run.unjudged.assign(corpus.size(), false);
  const std::string compile_engine = CompileEngine(dialect);
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const auto it = corpus[i].compiles.find(compile_engine);
    run.applicable[i] = it != corpus[i].compiles.end() && it->second;
    run.unjudged[i] = corpus[i].unjudged.count(compile_engine) != 0;
  }
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < corpus.size(); i = next++) {
      if (!run.applicable[i]) continue;
      const CorpusEntry& entry = corpus[i];
      const bool js_spelling =
          dialect == Dialect::kJavaScript && entry.has_pattern_js;
      AnalyzeOptions options = base_options;
      options.parse.dialect = dialect;
      Result<PatternFlags> flags =
          ParseFlagLetters(js_spelling ? entry.flags_js : entry.flags);
      if (flags) options.parse.flags = *flags;
      const auto start = std::chrono::steady_clock::now();
      const double cpu_start = ThreadCpuSeconds();
      EntryResult& result = run.results[i];
      result.report = AnalyzePattern(
          js_spelling ? entry.pattern_js : entry.pattern, options);
      result.cpu_seconds = ThreadCpuSeconds() - cpu_start;
      result.seconds = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - start)
                           .count();
      result.predicted_vulnerable = PredictsVulnerable(result.report.verdict);
      run.not_dialect_syntax[i] =
          result.report.error &&
          result.report.error->code() == StatusCode::kInvalidInput;
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(jobs, 1u); ++j)
    threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  return run;
}

EngineScore EvaluateForEngine(const std::vector<CorpusEntry>& corpus,
                              const DialectRun& run, const EngineTruth& truth) {
  EngineScore out;
  out.truth = truth;
  std::vector<double> cpu;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    if (!run.applicable[i]) continue;
    if (run.not_dialect_syntax[i]) {
      ++out.not_dialect_syntax;
      continue;
    }
    if (run.unjudged[i]) {
      ++out.unjudged;
      continue;
    }
    ++out.applicable;
    const AnalysisReport& report = run.results[i].report;
    bool predicted = run.results[i].predicted_vulnerable;
    if (truth.judge_jit_config) {
      predicted =
          std::find(report.exploding_configs.begin(),
                    report.exploding_configs.end(),
                    EngineConfig::kPcre2Jit) != report.exploding_configs.end();
    }
    const auto it = corpus[i].superlinear.find(truth.engine);
    const bool positive = it != corpus[i].superlinear.end() && it->second;
    Count(&out.score, positive, predicted);
    if (positive && !predicted) out.false_negatives.push_back(corpus[i].id);
    if (!positive && predicted) out.false_positives.push_back(corpus[i].id);
    if (report.verdict == Verdict::kUnknown) {
      ++out.unknown;
      if (report.unknown_code == StatusCode::kBudgetExceeded) {
        ++out.over_budget;
      }
    }
    cpu.push_back(run.results[i].cpu_seconds);
  }
  std::sort(cpu.begin(), cpu.end());
  if (!cpu.empty()) {
    out.median_cpu_seconds = cpu[cpu.size() / 2];
    out.max_cpu_seconds = cpu.back();
  }
  return out;
}

std::string FormatEngineScores(const std::vector<EngineScore>& scores) {
  std::string out =
      "regexguard per engine (truth: verified.<engine>.superlinear)\n";
  for (const EngineScore& s : scores) {
    char buffer[512];
    std::snprintf(
        buffer, sizeof buffer,
        "  %-18s vs %-8s precision %6.2f%%  recall %6.2f%%  (TP %zu FP %zu "
        "FN %zu TN %zu)  entries %zu, not-dialect-syntax %zu, unjudged %zu, "
        "unknown %zu (over budget %zu), CPU median %.2f ms max %.0f ms\n",
        s.truth.name.c_str(), s.truth.engine.c_str(), 100 * s.score.Precision(),
        100 * s.score.Recall(), s.score.true_positives, s.score.false_positives,
        s.score.false_negatives, s.score.true_negatives, s.applicable,
        s.not_dialect_syntax, s.unjudged, s.unknown, s.over_budget,
        1000 * s.median_cpu_seconds, 1000 * s.max_cpu_seconds);
    out += buffer;
  }
  return out;
}

double Score::Precision() const {
  const std::size_t predicted = true_positives + false_positives;
  return predicted == 0 ? 1.0 : static_cast<double>(true_positives) / predicted;
}

double Score::Recall() const {
  const std::size_t positive = true_positives + false_negatives;
  return positive == 0 ? 1.0 : static_cast<double>(true_positives) / positive;
}

namespace {

std::string Line(const std::string& name, const Score& s) {
  char buffer[256];
  std::snprintf(buffer, sizeof buffer,
                "  %-28s precision %6.2f%%  recall %6.2f%%  (TP %zu FP %zu FN "
                "%zu TN %zu)\n",
                name.c_str(), 100 * s.Precision(), 100 * s.Recall(),
                s.true_positives, s.false_positives, s.false_negatives,
                s.true_negatives);
  return buffer;
}

}  // namespace

Evaluation Evaluate(const std::vector<CorpusEntry>& corpus,
                    const std::vector<EntryResult>& results) {
  Evaluation e;
  std::vector<double> times, cpu_times;
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    const CorpusEntry& entry = corpus[i];
    const EntryResult& result = results[i];
    const bool labelled = entry.label == "vulnerable";
    const bool predicted = result.predicted_vulnerable;
    Count(&e.overall, labelled, predicted);
    if (entry.origin == "advisory" || entry.origin == "advisory-fix") {
      Count(&e.advisories, labelled, predicted);
    }
    if (entry.attack_origin != "recheck" && entry.attack_origin != "scslre") {
      Count(&e.non_detector, labelled, predicted);
    }
    Count(&e.by_complexity[entry.complexity], labelled, predicted);
    if (labelled) Count(&e.by_cause[entry.cause], labelled, predicted);
    Count(&e.by_origin[entry.origin], labelled, predicted);
    if (labelled && predicted) {
      const bool exponential = result.report.verdict == Verdict::kExponential;
      if (exponential == (entry.complexity == "exponential")) {
        ++e.class_agreement;
      }
    }
    if (result.report.verdict == Verdict::kUnknown) ++e.unknown;
    times.push_back(result.seconds);
    cpu_times.push_back(result.cpu_seconds);
    e.total_seconds += result.seconds;
  }
  std::sort(times.begin(), times.end());
  if (!times.empty()) {
    e.median_seconds = times[times.size() / 2];
    e.p90_seconds = times[times.size() * 9 / 10];
    e.max_seconds = times.back();
    std::sort(cpu_times.begin(), cpu_times.end());
    e.median_cpu_seconds = cpu_times[cpu_times.size() / 2];
    e.max_cpu_seconds = cpu_times.back();
  }
  return e;
}

std::string FormatEvaluation(const Evaluation& e) {
  std::string out = "regexguard on the ReDoS corpus\n";
  out += Line("overall", e.overall);
  out += Line("non-detector attacks", e.non_detector);
  out += Line("advisories", e.advisories);
  for (const auto& [name, score] : e.by_complexity) {
    out += Line("complexity=" + name, score);
  }
  for (const auto& [name, score] : e.by_cause)
    out += Line("cause=" + name, score);
  for (const auto& [name, score] : e.by_origin) {
    out += Line("origin=" + name, score);
  }
  char buffer[512];
  std::snprintf(buffer, sizeof buffer,
                "  class agreement on true positives: %zu of %zu\n"
                "  unknown verdicts: %zu\n"
                "  time per regex: median %.2f ms, p90 %.2f ms, max %.1f ms, "
                "sum %.1f s\n"
                "  CPU time per regex: median %.2f ms, max %.1f ms\n",
                e.class_agreement, e.overall.true_positives, e.unknown,
                1000 * e.median_seconds, 1000 * e.p90_seconds,
                1000 * e.max_seconds, e.total_seconds,
                1000 * e.median_cpu_seconds, 1000 * e.max_cpu_seconds);
  out += buffer;
  return out;
}

void WriteDialectRunResults(const std::vector<CorpusEntry>& corpus,
                            const DialectRun& run, std::ostream* out) {
  for (std::size_t i = 0; i < corpus.size(); ++i) {
    if (!run.applicable[i]) continue;
    const AnalysisReport& report = run.results[i].report;
    nlohmann::json row = {{"id", corpus[i].id},
                          {"dialect", std::string(DialectName(run.dialect))},
                          {"pattern", report.pattern},
                          {"flags", run.dialect == Dialect::kJavaScript &&
                                            corpus[i].has_pattern_js
                                        ? corpus[i].flags_js
                                        : corpus[i].flags},
                          {"verdict", std::string(VerdictName(report.verdict))},
                          {"degree", report.degree},
                          {"cause", std::string(CauseName(report.cause))},
                          {"reason", report.unknown_reason},
                          {"invalid", run.not_dialect_syntax[i]},
                          {"cpu_seconds", run.results[i].cpu_seconds}};
    nlohmann::json configs = nlohmann::json::array();
    for (const EngineConfig config : report.exploding_configs) {
      configs.push_back(std::string(EngineConfigName(config)));
    }
    row["exploding_configs"] = configs;
    nlohmann::json per_config = nlohmann::json::object();
    for (const ConfigVerdict& v : report.configs) {
      nlohmann::json entry = {
          {"explodes", v.Explodes()},
          {"coverage", std::string(SearchCoverageName(v.coverage))}};
      if (v.attack) {
        entry["attack"] = {{"prefix", v.attack->prefix},
                           {"pump", v.attack->pump},
                           {"suffix", v.attack->suffix}};
      }
      per_config[std::string(EngineConfigName(v.config))] = entry;
    }
    row["configs"] = per_config;
    nlohmann::json truth = nlohmann::json::object();
    for (const auto& [engine, value] : corpus[i].superlinear) {
      truth[engine] = value;
    }
    row["truth"] = truth;
    if (report.attack) {
      row["attack"] = {{"prefix", report.attack->prefix},
                       {"pump", report.attack->pump},
                       {"suffix", report.attack->suffix}};
    }
    *out << row.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
         << "\n";
  }
}

}  // namespace robotscan::regexguard::eval
