// `regexguard check`: one pattern, or every pattern of a file (commands.h
// has the usage and exit codes), analyzed with AnalyzePatterns and printed
// as text (FormatTextReport), JSON Lines or SARIF (output.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "input.h"
#include "output.h"
#include "robotscan/regexguard/analyzer.h"

namespace robotscan::regexguard::cli {
namespace {

using robotscan::kExitFindings;
using robotscan::kExitOk;
using robotscan::kExitUsage;

struct CheckFlags {
  std::string pattern;
  std::string file;
  std::string dialect = "pcre";
  std::string flags;
  std::string format = "text";
  double timeout_seconds = 1.0;
  unsigned jobs = 1;
  bool anchored = false;
  std::vector<std::string> engine_versions;  // "ruby=3.3", "node=22"
};

// Builds the options for one input; a .jsonl line may override the dialect
// and flags. Returns an error message for bad values.
std::optional<std::string> OptionsFor(const CheckFlags& flags,
                                      const EngineVersions& versions,
                                      const PatternInput& input,
                                      AnalyzeOptions* options) {
  const std::string dialect_name = input.dialect.value_or(flags.dialect);
  std::optional<Dialect> dialect = DialectFromName(dialect_name);
  if (!dialect) return "unknown dialect '" + dialect_name + "'";
  Result<PatternFlags> pattern_flags =
      ParseFlagLetters(input.flags.value_or(flags.flags));
  if (!pattern_flags) return pattern_flags.status().message();
  options->parse.dialect = *dialect;
  options->parse.flags = *pattern_flags;
  options->anchored = flags.anchored;
  options->time_budget_seconds = flags.timeout_seconds;
  options->engine_versions = versions;
  return std::nullopt;
}

int RunCheck(const CheckFlags& flags) {
  EngineVersions versions;
  for (const std::string& setting : flags.engine_versions) {
    if (Status status = AddEngineVersion(setting, &versions); !status.ok()) {
      std::fprintf(stderr, "regexguard: %s\n", status.message().c_str());
      return kExitUsage;
    }
  }
  std::vector<PatternInput> inputs;
  if (!flags.file.empty()) {
    if (!flags.pattern.empty()) {
      std::fprintf(stderr, "regexguard: give a PATTERN or --file, not both\n");
      return kExitUsage;
    }
    if (auto error = ReadPatternFile(flags.file, &inputs)) {
      std::fprintf(stderr, "regexguard: %s\n", error->message.c_str());
      return kExitUsage;
    }
  } else {
    PatternInput input;
    input.pattern = flags.pattern;
    inputs.push_back(input);
  }
  std::vector<AnalyzeOptions> options(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (auto error = OptionsFor(flags, versions, inputs[i], &options[i])) {
      std::fprintf(
          stderr, "regexguard: %s%s\n",
          inputs[i].line > 0
              ? ("line " + std::to_string(inputs[i].line) + ": ").c_str()
              : "",
          error->c_str());
      return kExitUsage;
    }
  }

  std::vector<std::string> patterns;
  for (const PatternInput& input : inputs) {
    patterns.push_back(input.pattern);
  }
  const std::vector<AnalysisReport> reports =
      AnalyzePatterns(patterns, options, flags.jobs);

  bool findings = false;
  bool invalid = false;
  for (const AnalysisReport& report : reports) {
    findings = findings || report.verdict == Verdict::kExponential ||
               report.verdict == Verdict::kPolynomial;
    invalid = invalid || (report.error &&
                          report.error->code() == StatusCode::kInvalidInput);
  }

  if (flags.format == "json") {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      std::cout << ReportToJson(reports[i], inputs[i])
                       .dump(-1, ' ', false,
                             nlohmann::json::error_handler_t::replace)
                << "\n";
    }
  } else if (flags.format == "sarif") {
    const std::string uri = flags.file.empty() || flags.file == "-"
                                ? std::string("command-line")
                                : flags.file;
    std::cout << ReportsToSarif(reports, inputs, uri)
                     .dump(2, ' ', false,
                           nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      if (i > 0) std::cout << "\n";
      if (inputs[i].line > 0) {
        std::cout << flags.file << ":" << inputs[i].line << ":\n";
      }
      std::cout << FormatTextReport(reports[i]);
    }
  }
  std::cout.flush();
  if (findings) return kExitFindings;
  if (invalid) return kExitUsage;
  return kExitOk;
}

}  // namespace

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CheckFlags>();
  CLI::App* check = app.add_subcommand(
      "check", "Analyse one pattern, or every pattern of a file");
  check->add_option("pattern", flags->pattern, "The regex to analyse");
  check->add_option("--file", flags->file,
                    "Patterns to analyse: one per line, or .jsonl objects "
                    "with \"pattern\" (and optional flags, dialect, id); - "
                    "reads stdin");
  check
      ->add_option("--dialect", flags->dialect,
                   "pcre (default), python, javascript, java, ruby, go, "
                   "dotnet")
      ->check(CLI::IsMember({"pcre", "php", "python", "javascript", "js",
                             "java", "ruby", "go", "dotnet"}));
  check->add_option("--flags", flags->flags,
                    "Flag letters among imsxu, plus g when the pattern is "
                    "used for all matches (replace-all, split, finditer), "
                    "and l for V8's linear engine (javascript)");
  check->add_option("--format", flags->format, "text (default), json, sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  check
      ->add_option("--timeout-per-regex", flags->timeout_seconds,
                   "Analysis budget per pattern in seconds (default 1); "
                   "running out gives verdict unknown")
      ->check(CLI::PositiveNumber);
  check->add_option("--jobs,-j", flags->jobs, "Patterns analysed in parallel")
      ->check(CLI::Range(1u, 256u));
  check
      ->add_option("--engine-version", flags->engine_versions,
                   "ENGINE=VERSION (ruby=3.3, node=22, dotnet=8, java=8; "
                   "repeatable): judge for that release; by default the "
                   "verdict names the versions for which it holds")
      ->allow_extra_args(false);
  check->add_flag("--anchored", flags->anchored,
                  "Analyse matches anchored at the subject start (re.match, "
                  "sticky) instead of an unanchored search");
  check->callback([flags, exit_code] {
    if (flags->pattern.empty() && flags->file.empty()) {
      throw CLI::ValidationError("check", "give a PATTERN or --file");
    }
    *exit_code = RunCheck(*flags);
  });
}

}  // namespace robotscan::regexguard::cli
