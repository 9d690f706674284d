// Scores regexguard against the labelled ReDoS corpus (corpus.jsonl, see
// tests/data/redos/README.md): precision and recall overall, per complexity
// class, per cause, on the advisories and on the entries whose label attack
// did not come from a detector; time per regex. Shared by the
// regexguard_eval_corpus tool and the whole-corpus test.
#ifndef ROBOTSCAN_BENCH_REGEXGUARD_CORPUS_EVALUATION_H_
#define ROBOTSCAN_BENCH_REGEXGUARD_CORPUS_EVALUATION_H_

#include <cstddef>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::eval {

struct CorpusEntry {
  std::string id;
  std::string pattern;
  std::string flags;       // imsxg letters; g: used for all matches
  std::string dialect;     // corpus dialect: portable, js, python
  std::string label;       // vulnerable, safe
  std::string complexity;  // exponential, polynomial, linear
  std::string cause;       // backtracking, search-restart, or empty
  std::string origin;
  std::string attack_origin;  // source, recheck, scslre, gen:..., or empty
  // The pattern as rewritten for JavaScript engines, when the corpus has
  // one (Python named groups, leading inline flags, verbose mode).
  std::string pattern_js;
  std::string flags_js;
  bool has_pattern_js = false;
  // Per engine ("python", "node", "pcre2", "re2"): whether it compiles the
  // pattern; and ("python", "node", "pcre2", "pcre2jit") whether the
  // verified attack is super-linear there (verified.<engine>.superlinear).
  std::map<std::string, bool> compiles;
  std::map<std::string, bool> superlinear;
  std::map<std::string, bool> unjudged;  // engine -> no truth for it
};

// Reads corpus.jsonl; nullopt with `error` set when unreadable. When
// engine_truth.jsonl stands next to it, its rows (tests/regexguard/
// engine_attacks/engine_truth.py: the corpus's attacks judged on Java, Ruby
// and Go) add those engines to `compiles` and `superlinear`; an entry whose
// attack that script could not run (several pumps) goes into `unjudged`.
std::optional<std::vector<CorpusEntry>> ReadCorpus(const std::string& path,
                                                   std::string* error);

// The regexguard dialect used for a corpus dialect (portable -> javascript).
Dialect DialectForCorpus(const std::string& corpus_dialect);

struct EntryResult {
  AnalysisReport report;
  double seconds = 0;      // wall time
  double cpu_seconds = 0;  // this thread's CPU time: robust to machine load
  bool predicted_vulnerable = false;
};

std::vector<EntryResult> AnalyzeCorpus(const std::vector<CorpusEntry>& corpus,
                                       const AnalyzeOptions& base_options,
                                       unsigned jobs);

struct Score {
  std::size_t true_positives = 0;
  std::size_t false_positives = 0;
  std::size_t false_negatives = 0;
  std::size_t true_negatives = 0;
  double Precision() const;  // 1 when nothing was predicted
  double Recall() const;     // 1 when nothing is positive
};

struct Evaluation {
  Score overall;
  Score advisories;    // origin advisory / advisory-fix
  Score non_detector;  // label attack not from recheck/scslre
  std::map<std::string, Score> by_complexity;  // recall per class
  std::map<std::string, Score> by_cause;
  std::map<std::string, Score> by_origin;
  std::size_t class_agreement = 0;  // TPs with the labelled class
  std::size_t unknown = 0;
  double median_seconds = 0;  // wall time per regex
  double median_cpu_seconds = 0;
  double max_cpu_seconds = 0;
  double p90_seconds = 0;
  double max_seconds = 0;
  double total_seconds = 0;  // sum over entries (CPU-ish)
};

Evaluation Evaluate(const std::vector<CorpusEntry>& corpus,
                    const std::vector<EntryResult>& results);

std::string FormatEvaluation(const Evaluation& evaluation);

// Per-engine evaluation: every entry is analyzed in one fixed dialect and
// judged against the truth of the engine that dialect runs on — an entry
// is vulnerable for a dialect only if its verified attack is super-linear
// in that engine (`verified.<engine>.superlinear`), whatever its label.
//   pcre       -> pcre2 (the interpreter as shipped); its JIT configuration's
//                 own verdict is judged against pcre2jit
//   python     -> python (CPython 3.11 re)
//   javascript -> node (V8), on pattern_js/flags_js where the corpus has them
//   java       -> java (OpenJDK 17 java.util.regex), ruby -> ruby (Ruby 3.1
//                 Onigmo), go -> go (Go's regexp): engine_truth.jsonl
// Entries the engine does not compile are not applicable; entries whose
// syntax the dialect's parser rejects as invalid are counted apart
// (`not_dialect_syntax`), never silently.
struct EngineTruth {
  std::string name;    // "pcre", "pcre (JIT)", "python", "javascript"
  Dialect dialect;     // dialect analyzed
  std::string engine;  // corpus engine judged against
  bool judge_jit_config = false;  // predicted = the JIT configuration's verdict
};
std::vector<EngineTruth> EngineTruths();  // the seven above

struct DialectRun {
  Dialect dialect;
  std::vector<EntryResult> results;  // one per corpus entry
  std::vector<bool> applicable;      // the engine compiles the pattern
  std::vector<bool> not_dialect_syntax;
  std::vector<bool> unjudged;  // the engine has no truth for the entry
};
DialectRun AnalyzeCorpusAs(const std::vector<CorpusEntry>& corpus,
                           Dialect dialect, const AnalyzeOptions& base_options,
                           unsigned jobs);

struct EngineScore {
  EngineTruth truth;
  Score score;
  std::size_t applicable = 0;
  std::size_t not_dialect_syntax = 0;
  std::size_t unjudged = 0;
  std::size_t unknown = 0;
  std::vector<std::string> false_negatives;  // ids
  std::vector<std::string> false_positives;  // ids
  double median_cpu_seconds = 0;
  double max_cpu_seconds = 0;
  std::size_t over_budget = 0;  // unknown because time ran out
};
EngineScore EvaluateForEngine(const std::vector<CorpusEntry>& corpus,
                              const DialectRun& run, const EngineTruth& truth);

std::string FormatEngineScores(const std::vector<EngineScore>& scores);

// One JSON line per applicable entry of `run`: id, dialect, pattern, flags,
// verdict, degree, cause, reason, cpu_seconds, exploding_configs, configs
// (per configuration: explodes, coverage, attack), truth (the corpus's
// per-engine fields) and attack. Enough to re-run every attack on the real
// engines (tests/regexguard/engine_attacks).
void WriteDialectRunResults(const std::vector<CorpusEntry>& corpus,
                            const DialectRun& run, std::ostream* out);

}  // namespace robotscan::regexguard::eval

#endif  // ROBOTSCAN_BENCH_REGEXGUARD_CORPUS_EVALUATION_H_
