// ScanSources (scan.h): file listing, extraction, the cached analysis of
// each distinct (pattern, flags, dialect, anchored use), severities and
// rules, fingerprints and the baseline.
#include "robotscan/regexguard/scan.h"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "robotscan/base/parallel_for.h"
#include "robotscan/base/version.h"
#include "scan/analysis_cache.h"
#include "scan/baseline.h"
#include "scan/scan_config.h"
#include "scan/source_files.h"

namespace robotscan::regexguard {
namespace {

namespace fs = std::filesystem;
using internal::AnalysisCache;
using internal::Baseline;
using internal::BaselineEntry;
using internal::ScanConfig;
using internal::SourceFile;

constexpr std::string_view kRuleExponential = "regexguard/exponential";
constexpr std::string_view kRulePolynomial = "regexguard/polynomial";
constexpr std::string_view kRuleSearchRestart = "regexguard/search-restart";
constexpr std::string_view kRuleBudgetExceeded = "regexguard/budget-exceeded";
constexpr std::string_view kRuleUnknown = "regexguard/unknown";
constexpr std::string_view kRuleInfo = "regexguard/info";
constexpr std::string_view kRuleNaiveOnly = "regexguard/naive-only";
constexpr std::string_view kRuleInjection = "regexguard/injection";

constexpr std::array<RuleDescription, 8> kRules = {{
    {kRuleExponential, "ExponentialBacktracking",
     "Backtracking inside one match grows exponentially with the input "
     "(ReDoS)",
     Severity::kError},
    {kRulePolynomial, "PolynomialBacktracking",
     "Backtracking inside one match grows polynomially with the input",
     Severity::kWarning},
    {kRuleSearchRestart, "SearchRestartQuadratic",
     "The unanchored search loop restarting at every position makes the "
     "regex quadratic",
     Severity::kWarning},
    {kRuleBudgetExceeded, "AnalysisBudgetExceeded",
     "The analysis ran out of its budget: the regex is not proven safe",
     Severity::kWarning},
    {kRuleUnknown, "VerdictUnknown",
     "The analysis could not decide: an ambiguity without a confirmed "
     "attack, or unsupported or invalid syntax",
     Severity::kNote},
    {kRuleInfo, "LinearEngine",
     "Regex for a linear-time engine (RE2, Go): listed for information",
     Severity::kNote},
    {kRuleNaiveOnly, "NaiveBacktrackerOnly",
     "PCRE2 as shipped survives the pattern, but a backtracker without its "
     "optimisations (Python, JavaScript, Java) explodes on it",
     Severity::kNote},
    {kRuleInjection, "RegexInjection",
     "A regex pattern is built from a request value without escaping: the "
     "client chooses the pattern (ReDoS, or a different match)",
     Severity::kError},
}};

// A JSON string literal (invalid UTF-8 replaced): how patterns and attack
// strings are quoted in messages.
std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace);
}

// Which build of regexguard this is: the running executable's size and
// modification time. A rebuilt or reinstalled binary (whose analysis may
// differ under the same version number) then misses the old entries.
// Empty where /proc/self/exe cannot be read: the version alone decides.
const std::string& BuildIdentity() {
  static const std::string identity = [] {
    struct stat info {};
    if (stat("/proc/self/exe", &info) != 0) return std::string();
    return std::to_string(info.st_size) + ":" +
           std::to_string(info.st_mtim.tv_sec) + "." +
           std::to_string(info.st_mtim.tv_nsec);
  }();
  return identity;
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

  // `versions` is EngineVersionsText of the run's engine versions, which
  // can turn a verdict safe; a key without versions is the same as before
  // they existed.
  std::string CacheText(double timeout_seconds,
                        const std::string& versions) const {
    char budget[32];
    std::snprintf(budget, sizeof(budget), "%.17g", timeout_seconds);
    return std::string("regexguard ") + kVersion + '\0' + BuildIdentity() +
           '\0' + pattern + '\0' + flags + '\0' +
           std::string(DialectName(dialect)) + '\0' +
           (anchored ? "anchored" : "search") + '\0' + budget +
           (versions.empty() ? "" : '\0' + versions);
  }
};

// An injection is keyed by its sink and pattern argument as written, in the
// place of the flags (which a literal spells as letters), so that it never
// takes a literal's key.
std::string FlagsKeyOf(const Finding& finding) {
  if (finding.injection) return "injection:" + finding.injection->sink;
  return PatternFlagLetters(finding.literal.flags);
}

std::string FingerprintOf(const Finding& finding) {
  return internal::StableHash(
      fs::path(finding.path).lexically_normal().generic_string() + '\0' +
      finding.literal.pattern + '\0' + FlagsKeyOf(finding) + '\0' +
      std::string(DialectName(finding.literal.dialect)));
}

BaselineEntry BaselineEntryOf(const Finding& finding) {
  return {finding.path, finding.literal.pattern, FlagsKeyOf(finding),
          std::string(DialectName(finding.literal.dialect)), finding.rule};
}

// Options over the configuration file over the defaults.
struct ScanSettings {
  ScanConfig config;
  Severity threshold = Severity::kError;
  Severity polynomial = Severity::kWarning;
  Severity injection = Severity::kError;  // kNone: not looked for
  double timeout_seconds = 1.0;
  std::string baseline_file;  // empty: no baseline
  // The configuration's engine versions, each overridden by the options'.
  EngineVersions engine_versions;
};

Result<ScanSettings> ResolveSettings(const ScanOptions& options) {
  ScanSettings settings;
  if (!options.no_config) {
    std::error_code error;
    const std::optional<fs::path> file =
        options.config_file.empty()
            ? internal::FindScanConfig(fs::current_path(error))
            : std::optional<fs::path>(options.config_file);
    if (file) {
      Result<ScanConfig> loaded = internal::LoadScanConfig(*file);
      if (!loaded) return loaded.status();
      settings.config = std::move(*loaded);
    }
  }
  const ScanConfig& config = settings.config;
  // The configuration's values were checked against these names.
  auto from_config = [](const std::optional<std::string>& name,
                        Severity fallback) {
    if (!name) return fallback;
    return SeverityFromName(*name).value_or(fallback);
  };
  settings.threshold = options.fail_level.value_or(
      from_config(config.fail_level, Severity::kError));
  settings.polynomial = options.polynomial_severity.value_or(
      from_config(config.polynomial_severity, Severity::kWarning));
  settings.injection = options.injection_severity.value_or(
      config.injection_severity == "off"
          ? Severity::kNone
          : from_config(config.injection_severity, Severity::kError));
  settings.timeout_seconds =
      options.timeout_seconds.value_or(config.timeout_seconds.value_or(1.0));
  settings.engine_versions = config.engine_versions;
  for (auto [from_options, into] :
       {std::pair{&options.engine_versions.ruby,
                  &settings.engine_versions.ruby},
        std::pair{&options.engine_versions.node,
                  &settings.engine_versions.node},
        std::pair{&options.engine_versions.dotnet,
                  &settings.engine_versions.dotnet}}) {
    if (*from_options) *into = *from_options;
  }
  if (!options.baseline.empty()) {
    settings.baseline_file = options.baseline;
  } else if (config.baseline) {
    settings.baseline_file = config.baseline->string();
  }
  return settings;
}

// The finding's severity, rule, message and attack from its verdict.
void ClassifyFinding(Severity polynomial, Finding* finding) {
  const PatternVerdict& verdict = *finding->verdict;
  Classification classification = ClassifyVerdict(verdict, polynomial);
  finding->severity = classification.severity;
  finding->rule = std::move(classification.rule);
  finding->message = std::move(classification.message);
  if (verdict.attack) {
    finding->attack = verdict.attack;
  } else if (verdict.naive_only_attack) {
    finding->attack = verdict.naive_only_attack;
    finding->attack_on_naive_backtracker = true;
  }
}

// What one file holds: its regex literals and its regex injections.
struct FileExtraction {
  std::vector<RegexLiteral> literals;
  std::vector<RegexInjection> injections;
};

// Reads and extracts every file in parallel; kIoError for the first file
// that cannot be read.
Result<std::vector<FileExtraction>> ExtractAll(
    const std::vector<SourceFile>& files, const ScanConfig& config,
    bool find_injections, unsigned jobs) {
  std::vector<std::optional<FileExtraction>> extracted(files.size());
  ParallelFor(files.size(), jobs, [&](std::size_t i) {
    std::optional<std::string> source = internal::ReadSourceFile(files[i]);
    if (!source) return;
    extracted[i].emplace();
    if (internal::LooksBinary(*source)) return;
    const SourceLanguage language = *LanguageForPath(files[i].path);
    extracted[i]->literals = ExtractRegexLiterals(*source, language);
    if (find_injections) {
      extracted[i]->injections = FindRegexInjections(*source, language);
    }
    auto dialect =
        config.dialects.find(std::string(SourceLanguageName(language)));
    if (dialect == config.dialects.end()) return;
    for (RegexLiteral& literal : extracted[i]->literals) {
      literal.dialect = dialect->second;
    }
  });
  std::vector<FileExtraction> out;
  out.reserve(files.size());
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!extracted[i]) {
      return Status{StatusCode::kIoError, "cannot read '" + files[i].path + "'",
                    std::nullopt};
    }
    out.push_back(std::move(*extracted[i]));
  }
  return out;
}

// The finding of a regex injection: an error where the engine backtracks,
// a warning where it cannot (the pattern's meaning is still the client's);
// none when suppressed.
Finding InjectionFinding(const std::string& path, RegexInjection injection,
                         Severity severity) {
  Finding finding;
  finding.path = path;
  finding.line = injection.line;
  finding.column = injection.column;
  finding.literal.pattern = injection.expression;
  finding.literal.dialect = injection.dialect;
  finding.literal.call = injection.sink;
  finding.literal.line = injection.line;
  finding.literal.column = injection.column;
  finding.literal.offset = injection.offset;
  finding.literal.suppression = injection.suppression;
  if (!injection.suppression) {
    finding.severity = injection.linear_engine
                           ? std::min(severity, Severity::kWarning)
                           : severity;
    finding.rule = std::string(kRuleInjection);
    finding.message =
        "regex injection: the pattern " + Quoted(injection.expression) +
        " of " + injection.sink + " comes from the request value " +
        injection.source + " (line " + std::to_string(injection.source_line) +
        ") without escaping (" + std::string(DialectName(injection.dialect)) +
        (injection.linear_engine ? ", linear engine: not a ReDoS" : "") +
        "); escape it with " + injection.escape_with +
        " or match it as plain text";
  }
  finding.injection = std::move(injection);
  finding.fingerprint = FingerprintOf(finding);
  return finding;
}

// Analyzes each key once, from the cache when it holds the verdict.
std::vector<PatternVerdict> AnalyzeAll(const std::vector<AnalysisKey>& keys,
                                       const ScanOptions& options,
                                       double timeout_seconds,
                                       const EngineVersions& engine_versions,
                                       std::size_t* cache_hits) {
  const AnalysisCache cache(options.no_cache ? fs::path()
                            : options.cache_dir.empty()
                                ? internal::DefaultCacheDirectory()
                                : fs::path(options.cache_dir));
  std::vector<PatternVerdict> verdicts(keys.size());
  std::atomic<std::size_t> hits{0};
  const std::string versions = EngineVersionsText(engine_versions);
  ParallelFor(keys.size(), options.jobs, [&](std::size_t i) {
    const std::string cache_key = keys[i].CacheText(timeout_seconds, versions);
    if (std::optional<PatternVerdict> cached = cache.Lookup(cache_key)) {
      verdicts[i] = std::move(*cached);
      ++hits;
      return;
    }
    AnalyzeOptions analyze;
    analyze.parse.dialect = keys[i].dialect;
    Result<PatternFlags> parsed = ParseFlagLetters(keys[i].flags);
    if (parsed) analyze.parse.flags = *parsed;
    analyze.anchored = keys[i].anchored;
    analyze.time_budget_seconds = timeout_seconds;
    analyze.engine_versions = engine_versions;
    verdicts[i] = VerdictOf(AnalyzePattern(keys[i].pattern, analyze));
    cache.Store(cache_key, verdicts[i]);
  });
  *cache_hits = hits.load();
  return verdicts;
}

}  // namespace

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

std::optional<Severity> SeverityFromName(std::string_view name) {
  if (name == "error") return Severity::kError;
  if (name == "warning") return Severity::kWarning;
  if (name == "note") return Severity::kNote;
  return std::nullopt;
}

bool PatternVerdict::BudgetExceeded() const {
  return verdict == Verdict::kUnknown &&
         reason_code == StatusCode::kBudgetExceeded;
}

PatternVerdict VerdictOf(const AnalysisReport& report) {
  PatternVerdict out;
  out.verdict = report.verdict;
  out.degree = report.degree;
  out.cause = report.cause;
  out.attack = report.attack;
  out.reason = report.unknown_reason;
  out.reason_code = report.unknown_code;
  out.versions = report.versions;
  if (out.reason.empty() && report.error) out.reason = report.error->message();
  if (report.verdict == Verdict::kUnknown && report.dialect == Dialect::kPcre &&
      report.configs.size() == 3) {
    const ConfigVerdict& interpreter = report.configs[0];
    const ConfigVerdict& jit = report.configs[1];
    const ConfigVerdict& naive = report.configs[2];
    const bool survives = interpreter.coverage == SearchCoverage::kExhausted &&
                          (jit.coverage == SearchCoverage::kExhausted ||
                           jit.coverage == SearchCoverage::kUnavailable);
    if (survives && naive.Explodes() && naive.attack) {
      out.naive_only_growth =
          naive.growth == Growth::kExponential
              ? std::string("exponential")
              : "polynomial degree " + std::to_string(naive.degree);
      out.naive_only_attack = naive.attack;
    }
  }
  return out;
}

Classification ClassifyVerdict(const PatternVerdict& verdict,
                               Severity polynomial) {
  switch (verdict.verdict) {
    case Verdict::kExponential:
      return {Severity::kError, std::string(kRuleExponential),
              "exponential backtracking (ReDoS)"};
    case Verdict::kPolynomial: {
      const std::string growth =
          verdict.degree == 2
              ? std::string("quadratic")
              : "polynomial (degree " + std::to_string(verdict.degree) + ")";
      if (verdict.cause == Cause::kSearchRestart) {
        return {Severity::kWarning, std::string(kRuleSearchRestart),
                growth + " backtracking from the search loop"};
      }
      return {polynomial, std::string(kRulePolynomial),
              growth + " backtracking (ReDoS)"};
    }
    case Verdict::kUnknown:
      if (verdict.BudgetExceeded()) {
        std::string why = verdict.reason;
        if (const std::size_t colon = why.find(": ");
            colon != std::string::npos) {
          why.erase(0, colon + 2);
        }
        return {Severity::kWarning, std::string(kRuleBudgetExceeded),
                "analysis budget exceeded (" + why + "), not proven safe"};
      }
      if (!verdict.naive_only_growth.empty()) {
        // Not safe, and not silent: the pattern is fine on PCRE2 as
        // shipped, and explodes where the same text runs on a backtracker
        // without PCRE2's optimisations (PCRE2 with them off, or ported).
        return {Severity::kNote, std::string(kRuleNaiveOnly),
                "PCRE2 as shipped (interpreter and JIT) survives, but a naive "
                "backtracker (Python, JavaScript, Java, or PCRE2 with its "
                "optimisations off) is " +
                    verdict.naive_only_growth};
      }
      return {Severity::kNote, std::string(kRuleUnknown),
              "verdict unknown (" + verdict.reason + ")"};
    case Verdict::kSafe:
      break;
  }
  return {};
}

std::span<const RuleDescription> ScanRules() { return kRules; }

std::string DescribeAttack(const Finding& finding) {
  if (!finding.attack) return "";
  const Attack& attack = *finding.attack;
  return "attack: " + Quoted(attack.prefix) + " + " + Quoted(attack.pump) +
         " * n + " + Quoted(attack.suffix) +
         (finding.attack_on_naive_backtracker ? " (naive backtracker)" : "");
}

Result<ScanReport> ScanSources(const ScanOptions& options) {
  Result<ScanSettings> resolved = ResolveSettings(options);
  if (!resolved) return resolved.status();
  const ScanSettings& settings = *resolved;
  const ScanConfig& config = settings.config;

  Result<std::vector<SourceFile>> files =
      options.staged ? internal::CollectStagedFiles(options.paths, config)
                     : internal::CollectSourceFiles(
                           options.paths.empty() ? std::vector<std::string>{"."}
                                                 : options.paths,
                           config, options.use_git);
  if (!files) return files.status();
  Result<std::vector<FileExtraction>> extracted = ExtractAll(
      *files, config, settings.injection != Severity::kNone, options.jobs);
  if (!extracted) return extracted.status();

  // One analysis per distinct key; informational and suppressed literals
  // need none.
  ScanReport report;
  report.files = files->size();
  std::map<AnalysisKey, std::size_t> distinct;
  std::vector<AnalysisKey> keys;
  std::vector<std::optional<std::size_t>> analysis_of;
  for (std::size_t i = 0; i < files->size(); ++i) {
    // Literals and injections of the file in position order.
    std::vector<RegexInjection>& injections = (*extracted)[i].injections;
    std::size_t next_injection = 0;
    const auto add_injections_before = [&](std::size_t offset) {
      while (next_injection < injections.size() &&
             injections[next_injection].offset <= offset) {
        report.findings.push_back(InjectionFinding(
            (*files)[i].path, std::move(injections[next_injection++]),
            settings.injection));
        analysis_of.push_back(std::nullopt);
      }
    };
    for (RegexLiteral& literal : (*extracted)[i].literals) {
      add_injections_before(literal.offset);
      if (literal.informational && !options.show_info) continue;
      Finding finding;
      finding.path = (*files)[i].path;
      finding.line = literal.line;
      finding.column = literal.column;
      finding.literal = std::move(literal);
      std::optional<std::size_t> analysis;
      if (finding.literal.informational) {
        // Linear-time engines cannot explode: information only.
        finding.severity = Severity::kNote;
        finding.rule = std::string(kRuleInfo);
        finding.message = "regex for a linear-time engine, no backtracking";
      } else if (!finding.literal.suppression) {
        AnalysisKey key{finding.literal.pattern,
                        PatternFlagLetters(finding.literal.flags),
                        finding.literal.dialect, finding.literal.anchored};
        auto [it, inserted] = distinct.emplace(key, keys.size());
        if (inserted) keys.push_back(std::move(key));
        analysis = it->second;
      }
      finding.fingerprint = FingerprintOf(finding);
      report.findings.push_back(std::move(finding));
      analysis_of.push_back(analysis);
    }
    add_injections_before(std::string_view::npos);
  }
  report.distinct = keys.size();
  const std::vector<PatternVerdict> verdicts =
      AnalyzeAll(keys, options, settings.timeout_seconds,
                 settings.engine_versions, &report.cache_hits);
  for (std::size_t i = 0; i < report.findings.size(); ++i) {
    Finding& finding = report.findings[i];
    if (analysis_of[i]) {
      finding.verdict = verdicts[*analysis_of[i]];
      ClassifyFinding(settings.polynomial, &finding);
    }
    if (!finding.message.empty() && !finding.injection) {
      finding.message += " in regex " + Quoted(finding.literal.pattern) + " (" +
                         finding.literal.call + ", " +
                         std::string(DialectName(finding.literal.dialect)) +
                         ")";
    }
  }

  if (!options.write_baseline.empty()) {
    std::vector<BaselineEntry> entries;
    for (const Finding& finding : report.findings) {
      if (finding.severity >= Severity::kWarning) {
        entries.push_back(BaselineEntryOf(finding));
      }
    }
    if (Status written = Baseline::Write(options.write_baseline, entries);
        !written.ok()) {
      return written;
    }
    report.baseline_written = entries.size();
    return report;
  }
  if (!settings.baseline_file.empty()) {
    Result<Baseline> baseline = Baseline::Read(settings.baseline_file);
    if (!baseline) return baseline.status();
    report.baseline_applied = true;
    for (Finding& finding : report.findings) {
      if (finding.severity >= Severity::kWarning &&
          baseline->Consume(BaselineEntryOf(finding))) {
        finding.baselined = true;
        ++report.baselined;
      }
    }
  }

  for (Finding& finding : report.findings) {
    finding.reported = finding.severity != Severity::kNone &&
                       !finding.baselined &&
                       (finding.severity > Severity::kNote ||
                        options.show_info || finding.rule == kRuleNaiveOnly);
    if (!finding.reported) continue;
    if (finding.severity >= settings.threshold) report.failing = true;
    switch (finding.severity) {
      case Severity::kError:
        ++report.errors;
        break;
      case Severity::kWarning:
        ++report.warnings;
        break;
      case Severity::kNote:
        ++report.notes;
        break;
      case Severity::kNone:
        break;
    }
  }
  return report;
}

}  // namespace robotscan::regexguard
