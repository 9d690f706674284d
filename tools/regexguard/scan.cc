// `regexguard scan`: wires file listing, extraction, the cached analysis of
// each distinct (pattern, flags, dialect, anchored use), severities,
// baseline and output formats together.
#include "scan.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "baseline.h"
#include "cache.h"
#include "output.h"
#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/extract.h"
#include "scan_config.h"
#include "source_files.h"

namespace robotscan::regexguard::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

// Ordered so that `severity >= threshold` reads naturally.
enum class Severity { kNone, kNote, kWarning, kError };

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
    case Severity::kNone:
      break;
  }
  return "none";
}

Severity SeverityFromName(std::string_view name) {
  if (name == "error") return Severity::kError;
  if (name == "warning") return Severity::kWarning;
  return Severity::kNote;
}

std::string FlagLetters(const PatternFlags& flags) {
  std::string letters;
  if (flags.case_insensitive) letters += 'i';
  if (flags.multiline) letters += 'm';
  if (flags.dot_all) letters += 's';
  if (flags.extended) letters += 'x';
  if (flags.unicode) letters += 'u';
  if (flags.ascii) letters += 'a';
  if (flags.global) letters += 'g';
  return letters;
}

std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace);
}

// The distinct analyses of one run; the cache key text covers every input
// that can change a verdict.
struct AnalysisKey {
  std::string pattern;
  std::string flags;
  Dialect dialect = Dialect::kPcre;
  bool anchored = false;

  auto Tie() const { return std::tie(pattern, flags, dialect, anchored); }
  bool operator<(const AnalysisKey& other) const { return Tie() < other.Tie(); }

  std::string CacheText(double timeout_seconds) const {
    char budget[32];
    std::snprintf(budget, sizeof(budget), "%.17g", timeout_seconds);
    return std::string("regexguard " ROBOTSCAN_VERSION_STRING) + '\0' +
           BuildIdentity() + '\0' + pattern + '\0' + flags + '\0' +
           std::string(DialectName(dialect)) + '\0' +
           (anchored ? "anchored" : "search") + '\0' + budget;
  }

  // Which build of regexguard this is: the running executable's size and
  // modification time. A rebuilt or reinstalled binary (whose analysis may
  // differ under the same version number) then misses the old entries.
  // Empty where /proc/self/exe cannot be read: the version alone decides.
  static const std::string& BuildIdentity() {
    static const std::string identity = [] {
      struct stat info {};
      if (stat("/proc/self/exe", &info) != 0) return std::string();
      return std::to_string(info.st_size) + ":" +
             std::to_string(info.st_mtim.tv_sec) + "." +
             std::to_string(info.st_mtim.tv_nsec);
    }();
    return identity;
  }
};

struct Occurrence {
  std::string path;
  RegexLiteral literal;
  std::optional<std::size_t> analysis;  // index into the distinct analyses
  Severity severity = Severity::kNone;
  std::string rule;     // empty for kNone
  std::string message;  // "exponential backtracking (ReDoS)", ...
  bool baselined = false;
};

// Severity, rule and wording for an analysed literal.
void Classify(const PatternVerdict& verdict, Severity polynomial,
              Occurrence* occurrence) {
  switch (verdict.verdict) {
    case Verdict::kExponential:
      occurrence->severity = Severity::kError;
      occurrence->rule = "regexguard/exponential";
      occurrence->message = "exponential backtracking (ReDoS)";
      return;
    case Verdict::kPolynomial: {
      const std::string growth =
          verdict.degree == 2
              ? std::string("quadratic")
              : "polynomial (degree " + std::to_string(verdict.degree) + ")";
      if (verdict.cause == Cause::kSearchRestart) {
        occurrence->severity = Severity::kWarning;
        occurrence->rule = "regexguard/search-restart";
        occurrence->message = growth + " backtracking from the search loop";
      } else {
        occurrence->severity = polynomial;
        occurrence->rule = "regexguard/polynomial";
        occurrence->message = growth + " backtracking (ReDoS)";
      }
      return;
    }
    case Verdict::kUnknown:
      if (verdict.BudgetExceeded()) {
        occurrence->severity = Severity::kWarning;
        occurrence->rule = "regexguard/budget-exceeded";
        std::string why = verdict.reason;
        if (const std::size_t colon = why.find(": ");
            colon != std::string::npos) {
          why.erase(0, colon + 2);
        }
        occurrence->message =
            "analysis budget exceeded (" + why + "), not proven safe";
      } else if (!verdict.naive_only_growth.empty()) {
        // Not safe, and not silent: the pattern is fine on PCRE2 as
        // shipped, and explodes where the same text runs on a backtracker
        // without PCRE2's optimisations (PCRE2 with them off, or ported).
        occurrence->severity = Severity::kNote;
        occurrence->rule = "regexguard/naive-only";
        occurrence->message =
            "PCRE2 as shipped (interpreter and JIT) survives, but a naive "
            "backtracker (Python, JavaScript, Java, or PCRE2 with its "
            "optimisations off) is " +
            verdict.naive_only_growth;
      } else {
        occurrence->severity = Severity::kNote;
        occurrence->rule = "regexguard/unknown";
        occurrence->message = "verdict unknown (" + verdict.reason + ")";
      }
      return;
    case Verdict::kSafe:
      return;
  }
}

// Parallel for over [0, count) with `jobs` threads (the caller's included).
template <typename Body>
void ParallelFor(std::size_t count, unsigned jobs, const Body& body) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  };
  const unsigned threads_wanted = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(jobs, count)));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < threads_wanted; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

std::string Fingerprint(const Occurrence& occurrence) {
  return StableHash(
      fs::path(occurrence.path).lexically_normal().generic_string() + '\0' +
      occurrence.literal.pattern + '\0' +
      FlagLetters(occurrence.literal.flags) + '\0' +
      std::string(DialectName(occurrence.literal.dialect)));
}

BaselineEntry BaselineEntryOf(const Occurrence& occurrence) {
  return {occurrence.path, occurrence.literal.pattern,
          FlagLetters(occurrence.literal.flags),
          std::string(DialectName(occurrence.literal.dialect)),
          occurrence.rule};
}

// Command-line flags over the configuration file over the defaults.
struct ScanSettings {
  ScanConfig config;
  Severity threshold = Severity::kError;
  Severity polynomial = Severity::kWarning;
  double timeout_seconds = 1.0;
  std::string baseline_file;  // empty: no baseline
};

std::optional<std::string> ResolveSettings(const ScanFlags& flags,
                                           ScanSettings* settings) {
  ScanConfig& config = settings->config;
  if (!flags.no_config) {
    std::error_code error;
    const std::optional<fs::path> file =
        flags.config_file.empty() ? FindScanConfig(fs::current_path(error))
                                  : std::optional<fs::path>(flags.config_file);
    if (file) {
      if (auto config_error = LoadScanConfig(*file, &config)) {
        return config_error->message;
      }
    }
  }
  settings->threshold = SeverityFromName(
      flags.fail_level.value_or(config.fail_level.value_or("error")));
  settings->polynomial = SeverityFromName(flags.polynomial_severity.value_or(
      config.polynomial_severity.value_or("warning")));
  settings->timeout_seconds =
      flags.timeout_seconds.value_or(config.timeout_seconds.value_or(1.0));
  if (!flags.baseline.empty()) {
    settings->baseline_file = flags.baseline;
  } else if (config.baseline) {
    settings->baseline_file = config.baseline->string();
  }
  return std::nullopt;
}

std::string AttackText(const Attack& attack) {
  return "attack: " + Quoted(attack.prefix) + " + " + Quoted(attack.pump) +
         " * n + " + Quoted(attack.suffix);
}

// One JSON Lines row: every literal found, reported or not.
nlohmann::json OccurrenceToJson(const Occurrence& occurrence,
                                const PatternVerdict* verdict,
                                bool with_baseline) {
  const RegexLiteral& literal = occurrence.literal;
  nlohmann::json out = {
      {"path", occurrence.path},
      {"line", literal.line},
      {"column", literal.column},
      {"pattern", literal.pattern},
      {"flags", FlagLetters(literal.flags)},
      {"dialect", DialectName(literal.dialect)},
      {"call", literal.call},
      {"severity", SeverityName(occurrence.severity)},
      {"rule", occurrence.rule.empty() ? nlohmann::json(nullptr)
                                       : nlohmann::json(occurrence.rule)},
      {"suppressed", literal.suppression ? nlohmann::json(*literal.suppression)
                                         : nlohmann::json(nullptr)},
  };
  if (with_baseline) out["baselined"] = occurrence.baselined;
  if (verdict == nullptr) return out;
  out["verdict"] = VerdictName(verdict->verdict);
  out["degree"] = verdict->verdict == Verdict::kPolynomial
                      ? nlohmann::json(verdict->degree)
                      : nlohmann::json(nullptr);
  out["cause"] = CauseName(verdict->cause);
  out["attack"] = verdict->attack
                      ? nlohmann::json{{"prefix", verdict->attack->prefix},
                                       {"pump", verdict->attack->pump},
                                       {"suffix", verdict->attack->suffix}}
                      : nlohmann::json(nullptr);
  if (verdict->verdict == Verdict::kUnknown) out["reason"] = verdict->reason;
  return out;
}

}  // namespace

int RunScan(const ScanFlags& flags) {
  const auto started = std::chrono::steady_clock::now();

  ScanSettings settings;
  if (auto error = ResolveSettings(flags, &settings)) {
    std::fprintf(stderr, "regexguard: %s\n", error->c_str());
    return kExitUsage;
  }
  const ScanConfig& config = settings.config;

  std::vector<SourceFile> files;
  const std::optional<WalkError> walk_error =
      flags.staged ? CollectStagedFiles(flags.paths, config, &files)
                   : CollectSourceFiles(flags.paths.empty()
                                            ? std::vector<std::string>{"."}
                                            : flags.paths,
                                        config, flags.use_git, &files);
  if (walk_error) {
    std::fprintf(stderr, "regexguard: %s\n", walk_error->message.c_str());
    return kExitUsage;
  }

  // Reading and extraction, in parallel: per-file results, merged in order.
  std::vector<std::optional<std::vector<RegexLiteral>>> extracted(files.size());
  ParallelFor(files.size(), flags.jobs, [&](std::size_t i) {
    std::optional<std::string> source = ReadSourceFile(files[i]);
    if (!source) return;
    extracted[i].emplace();
    if (LooksBinary(*source)) return;
    const SourceLanguage language = *LanguageForPath(files[i].path);
    *extracted[i] = ExtractRegexLiterals(*source, language);
    auto dialect =
        config.dialects.find(std::string(SourceLanguageName(language)));
    if (dialect == config.dialects.end()) return;
    for (RegexLiteral& literal : *extracted[i]) {
      literal.dialect = dialect->second;
    }
  });

  std::map<AnalysisKey, std::size_t> distinct;
  std::vector<AnalysisKey> keys;
  std::vector<Occurrence> occurrences;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!extracted[i]) {
      std::fprintf(stderr, "regexguard: cannot read '%s'\n",
                   files[i].path.c_str());
      return kExitUsage;
    }
    for (RegexLiteral& literal : *extracted[i]) {
      Occurrence occurrence;
      occurrence.path = files[i].path;
      occurrence.literal = std::move(literal);
      if (occurrence.literal.informational) {
        // Linear-time engines cannot explode: information only.
        if (!flags.show_info) continue;
        occurrence.severity = Severity::kNote;
        occurrence.rule = "regexguard/info";
        occurrence.message = "regex for a linear-time engine, no backtracking";
      } else if (!occurrence.literal.suppression) {
        AnalysisKey key{
            occurrence.literal.pattern, FlagLetters(occurrence.literal.flags),
            occurrence.literal.dialect, occurrence.literal.anchored};
        auto [it, inserted] = distinct.emplace(key, keys.size());
        if (inserted) keys.push_back(std::move(key));
        occurrence.analysis = it->second;
      }
      occurrences.push_back(std::move(occurrence));
    }
  }

  const AnalysisCache cache(flags.no_cache ? fs::path()
                            : flags.cache_dir.empty()
                                ? DefaultCacheDirectory()
                                : fs::path(flags.cache_dir));
  std::vector<PatternVerdict> verdicts(keys.size());
  std::atomic<std::size_t> cache_hits{0};
  ParallelFor(keys.size(), flags.jobs, [&](std::size_t i) {
    const std::string cache_key = keys[i].CacheText(settings.timeout_seconds);
    if (std::optional<PatternVerdict> cached = cache.Lookup(cache_key)) {
      verdicts[i] = std::move(*cached);
      ++cache_hits;
      return;
    }
    AnalyzeOptions options;
    options.parse.dialect = keys[i].dialect;
    Result<PatternFlags> parsed = ParseFlagLetters(keys[i].flags);
    if (parsed) options.parse.flags = *parsed;
    options.anchored = keys[i].anchored;
    options.time_budget_seconds = settings.timeout_seconds;
    verdicts[i] = VerdictOf(AnalyzePattern(keys[i].pattern, options));
    cache.Store(cache_key, verdicts[i]);
  });

  for (Occurrence& occurrence : occurrences) {
    if (occurrence.analysis) {
      Classify(verdicts[*occurrence.analysis], settings.polynomial,
               &occurrence);
    }
  }

  if (!flags.write_baseline.empty()) {
    std::vector<BaselineEntry> entries;
    for (const Occurrence& occurrence : occurrences) {
      if (occurrence.severity >= Severity::kWarning) {
        entries.push_back(BaselineEntryOf(occurrence));
      }
    }
    if (auto error = Baseline::Write(flags.write_baseline, entries)) {
      std::fprintf(stderr, "regexguard: %s\n", error->c_str());
      return kExitUsage;
    }
    std::fprintf(stderr, "regexguard: wrote %zu findings to %s\n",
                 entries.size(), flags.write_baseline.c_str());
    return kExitOk;
  }
  std::size_t baselined = 0;
  if (!settings.baseline_file.empty()) {
    Baseline baseline;
    if (auto error = Baseline::Read(settings.baseline_file, &baseline)) {
      std::fprintf(stderr, "regexguard: %s\n", error->c_str());
      return kExitUsage;
    }
    for (Occurrence& occurrence : occurrences) {
      if (occurrence.severity >= Severity::kWarning &&
          baseline.Consume(BaselineEntryOf(occurrence))) {
        occurrence.baselined = true;
        ++baselined;
      }
    }
  }

  bool failing = false;
  std::map<Severity, std::size_t> counts;
  std::vector<ScanResult> sarif_results;
  for (const Occurrence& occurrence : occurrences) {
    const RegexLiteral& literal = occurrence.literal;
    const PatternVerdict* verdict =
        occurrence.analysis ? &verdicts[*occurrence.analysis] : nullptr;
    const bool reported =
        occurrence.severity != Severity::kNone && !occurrence.baselined &&
        (occurrence.severity > Severity::kNote || flags.show_info ||
         occurrence.rule == "regexguard/naive-only");
    if (reported) {
      ++counts[occurrence.severity];
      if (occurrence.severity >= settings.threshold) failing = true;
    }
    if (flags.format == "json") {
      const nlohmann::json out = OccurrenceToJson(
          occurrence, verdict, !settings.baseline_file.empty());
      std::cout << out.dump(-1, ' ', false,
                            nlohmann::json::error_handler_t::replace)
                << "\n";
      continue;
    }
    if (!reported) continue;
    const std::string what =
        occurrence.message + " in regex " + Quoted(literal.pattern) + " (" +
        literal.call + ", " + std::string(DialectName(literal.dialect)) + ")";
    const std::string attack =
        verdict == nullptr ? std::string()
        : verdict->attack  ? AttackText(*verdict->attack)
        : verdict->naive_only_attack
            ? AttackText(*verdict->naive_only_attack) + " (naive backtracker)"
            : std::string();
    if (flags.format == "sarif") {
      sarif_results.push_back(
          {occurrence.rule, std::string(SeverityName(occurrence.severity)),
           what + (attack.empty() ? "" : "; " + attack), occurrence.path,
           literal.line, literal.column, Fingerprint(occurrence)});
      continue;
    }
    const std::string location = occurrence.path + ":" +
                                 std::to_string(literal.line) + ":" +
                                 std::to_string(literal.column);
    std::cout << location << ": " << SeverityName(occurrence.severity) << ": "
              << what << " [" << occurrence.rule << "]\n";
    if (!attack.empty()) std::cout << location << ": note: " << attack << "\n";
  }
  if (flags.format == "sarif") {
    std::cout << ScanResultsToSarif(sarif_results)
                     .dump(2, ' ', false,
                           nlohmann::json::error_handler_t::replace)
              << "\n";
  }
  std::cout.flush();

  if (flags.stats) {
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - started)
                               .count();
    std::fprintf(stderr,
                 "regexguard: stats: files=%zu regexes=%zu distinct=%zu "
                 "analysed=%zu cache-hits=%zu errors=%zu warnings=%zu "
                 "notes=%zu baselined=%zu seconds=%.2f\n",
                 files.size(), occurrences.size(), keys.size(),
                 keys.size() - cache_hits.load(), cache_hits.load(),
                 counts[Severity::kError], counts[Severity::kWarning],
                 counts[Severity::kNote], baselined, seconds);
  }
  return failing ? kExitFindings : kExitOk;
}

}  // namespace robotscan::regexguard::cli
