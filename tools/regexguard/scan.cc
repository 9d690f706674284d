// `regexguard scan`: file walking, extraction, one analysis per distinct
// (pattern, flags, dialect, anchored use), and compiler-style output.
#include "scan.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/extract.h"

namespace robotscan::regexguard::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitFindings = 1;
constexpr int kExitUsage = 2;

// Folders never walked into: version control, dependencies and vendored
// code (which their own projects answer for), and hidden folders.
bool IsSkippedDirectory(const fs::path& dir) {
  const std::string name = dir.filename().string();
  return (name.size() > 1 && name[0] == '.' && name != "..") ||
         name == "node_modules" || name == "vendor" || name == "third_party" ||
         name == "__pycache__";
}

// A NUL byte in the first 8 KiB marks a binary file, as git decides.
bool LooksBinary(const std::string& content) {
  return content.substr(0, 8192).find('\0') != std::string::npos;
}

struct Occurrence {
  std::string path;
  RegexLiteral literal;
  std::size_t analysis = 0;  // index into the distinct analyses
};

enum class Severity { kNone, kWarning, kError };

Severity SeverityOf(const AnalysisReport& report) {
  if (report.verdict == Verdict::kExponential) return Severity::kError;
  if (report.verdict == Verdict::kPolynomial) {
    return report.cause == Cause::kSearchRestart ? Severity::kWarning
                                                 : Severity::kError;
  }
  return Severity::kNone;
}

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNone:
      break;
  }
  return "none";
}

std::string FlagLetters(const PatternFlags& flags) {
  std::string letters;
  if (flags.case_insensitive) letters += 'i';
  if (flags.multiline) letters += 'm';
  if (flags.dot_all) letters += 's';
  if (flags.extended) letters += 'x';
  if (flags.unicode) letters += 'u';
  if (flags.global) letters += 'g';
  return letters;
}

std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace);
}

std::string DescribeFinding(const AnalysisReport& report) {
  std::string what =
      report.verdict == Verdict::kExponential
          ? "exponential"
          : (report.degree == 2
                 ? std::string("quadratic")
                 : "polynomial (degree " + std::to_string(report.degree) + ")");
  what += report.cause == Cause::kSearchRestart
              ? " backtracking from the search loop"
              : " backtracking (ReDoS)";
  return what;
}

// Collects the source files under `path`; false with a message when the
// path cannot be read.
bool CollectFiles(const std::string& path, std::vector<std::string>* files) {
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) {
    std::fprintf(stderr, "regexguard: cannot read '%s'\n", path.c_str());
    return false;
  }
  if (!fs::is_directory(status)) {
    // An explicit file (as hooks pass them) is scanned if its language is
    // known, silently ignored otherwise.
    if (LanguageForPath(path)) files->push_back(path);
    return true;
  }
  fs::recursive_directory_iterator it(
      path, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_directory(error)) {
      if (IsSkippedDirectory(it->path())) it.disable_recursion_pending();
      continue;
    }
    const std::string file = it->path().generic_string();
    if (it->is_regular_file(error) && LanguageForPath(file)) {
      files->push_back(file);
    }
  }
  std::sort(files->begin(), files->end());
  return true;
}

}  // namespace

int RunScan(const ScanFlags& flags) {
  std::vector<std::string> files;
  const std::vector<std::string> paths =
      flags.paths.empty() ? std::vector<std::string>{"."} : flags.paths;
  for (const std::string& path : paths) {
    if (!CollectFiles(path, &files)) return kExitUsage;
  }

  // Extraction, then one analysis per distinct (pattern, flags, dialect).
  using Key = std::tuple<std::string, std::string, Dialect, bool>;
  std::map<Key, std::size_t> distinct;
  std::vector<Key> keys;
  std::vector<Occurrence> occurrences;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "regexguard: cannot read '%s'\n", file.c_str());
      return kExitUsage;
    }
    std::ostringstream content;
    content << in.rdbuf();
    const std::string source = content.str();
    if (LooksBinary(source)) continue;
    for (RegexLiteral& literal :
         ExtractRegexLiterals(source, *LanguageForPath(file))) {
      if (literal.informational) continue;  // RE2 engines cannot explode
      Occurrence occurrence{file, std::move(literal), 0};
      if (!occurrence.literal.suppression) {
        Key key{occurrence.literal.pattern,
                FlagLetters(occurrence.literal.flags),
                occurrence.literal.dialect, occurrence.literal.anchored};
        auto [it, inserted] = distinct.emplace(key, keys.size());
        if (inserted) keys.push_back(key);
        occurrence.analysis = it->second;
      }
      occurrences.push_back(std::move(occurrence));
    }
  }

  std::vector<AnalysisReport> reports(keys.size());
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < keys.size(); i = next++) {
      AnalyzeOptions options;
      options.parse.dialect = std::get<2>(keys[i]);
      Result<PatternFlags> parsed = ParseFlagLetters(std::get<1>(keys[i]));
      if (parsed) options.parse.flags = *parsed;
      options.anchored = std::get<3>(keys[i]);
      options.time_budget_seconds = flags.timeout_seconds;
      reports[i] = AnalyzePattern(std::get<0>(keys[i]), options);
    }
  };
  const unsigned jobs = std::max(
      1u, std::min<unsigned>(flags.jobs, static_cast<unsigned>(keys.size())));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  const Severity threshold =
      flags.fail_level == "warning" ? Severity::kWarning : Severity::kError;
  bool failing = false;
  for (const Occurrence& occurrence : occurrences) {
    const RegexLiteral& literal = occurrence.literal;
    const AnalysisReport* report =
        literal.suppression ? nullptr : &reports[occurrence.analysis];
    const Severity severity =
        report != nullptr ? SeverityOf(*report) : Severity::kNone;
    if (severity != Severity::kNone && severity >= threshold) failing = true;
    const std::string location = occurrence.path + ":" +
                                 std::to_string(literal.line) + ":" +
                                 std::to_string(literal.column);
    if (flags.format == "json") {
      nlohmann::json out = {
          {"path", occurrence.path},
          {"line", literal.line},
          {"column", literal.column},
          {"pattern", literal.pattern},
          {"flags", FlagLetters(literal.flags)},
          {"dialect", DialectName(literal.dialect)},
          {"call", literal.call},
          {"severity", SeverityName(severity)},
          {"suppressed", literal.suppression
                             ? nlohmann::json(*literal.suppression)
                             : nlohmann::json(nullptr)},
      };
      if (report != nullptr) {
        out["verdict"] = VerdictName(report->verdict);
        out["degree"] = report->verdict == Verdict::kPolynomial
                            ? nlohmann::json(report->degree)
                            : nlohmann::json(nullptr);
        out["cause"] = CauseName(report->cause);
        out["attack"] = report->attack
                            ? nlohmann::json{{"prefix", report->attack->prefix},
                                             {"pump", report->attack->pump},
                                             {"suffix", report->attack->suffix}}
                            : nlohmann::json(nullptr);
      }
      std::cout << out.dump(-1, ' ', false,
                            nlohmann::json::error_handler_t::replace)
                << "\n";
      continue;
    }
    if (severity == Severity::kNone) continue;
    std::cout << location << ": " << SeverityName(severity) << ": "
              << DescribeFinding(*report) << " in regex "
              << Quoted(literal.pattern) << " (" << literal.call << ", "
              << DialectName(literal.dialect) << ")\n";
    if (report->attack) {
      std::cout << location
                << ": note: attack: " << Quoted(report->attack->prefix) << " + "
                << Quoted(report->attack->pump) << " * n + "
                << Quoted(report->attack->suffix) << "\n";
    }
  }
  std::cout.flush();
  return failing ? kExitFindings : kExitOk;
}

}  // namespace robotscan::regexguard::cli
