// regexguard: command-line entry point. Usage and exit codes:
//
//   regexguard check 'PATTERN' [--dialect D] [--flags F] [--anchored]
//   regexguard check --file patterns.txt|patterns.jsonl|- [--jobs N]
//       [--format text|json|sarif] [--timeout-per-regex SECONDS]
//
//   regexguard scan [PATH...] [--format text|json|sarif] [--staged]
//       [--fail-level error|warning|note] [--baseline FILE] ...
//
//   regexguard install-hook [--force]   (both: scan_command.h)
//
//   exit 0: no findings; 1: at least one exponential/polynomial finding;
//   2: usage error, unreadable input, or (without findings) an invalid
//   pattern.
//
// This file only wires flags to robotscan::regexguard and prints results.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli_main.h"
#include "input.h"
#include "output.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/base/version.h"
#include "robotscan/regexguard/analyzer.h"
#include "scan_command.h"

namespace {

namespace rg = robotscan::regexguard;

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
};

// Builds the options for one input; a .jsonl line may override the dialect
// and flags. Returns an error message for bad values.
std::optional<std::string> OptionsFor(const CheckFlags& flags,
                                      const rg::cli::PatternInput& input,
                                      rg::AnalyzeOptions* options) {
  const std::string dialect_name = input.dialect.value_or(flags.dialect);
  std::optional<rg::Dialect> dialect = rg::DialectFromName(dialect_name);
  if (!dialect) return "unknown dialect '" + dialect_name + "'";
  rg::Result<rg::PatternFlags> pattern_flags =
      rg::ParseFlagLetters(input.flags.value_or(flags.flags));
  if (!pattern_flags) return pattern_flags.status().message();
  options->parse.dialect = *dialect;
  options->parse.flags = *pattern_flags;
  options->anchored = flags.anchored;
  options->time_budget_seconds = flags.timeout_seconds;
  return std::nullopt;
}

int RunCheck(const CheckFlags& flags) {
  std::vector<rg::cli::PatternInput> inputs;
  if (!flags.file.empty()) {
    if (!flags.pattern.empty()) {
      std::fprintf(stderr, "regexguard: give a PATTERN or --file, not both\n");
      return kExitUsage;
    }
    if (auto error = rg::cli::ReadPatternFile(flags.file, &inputs)) {
      std::fprintf(stderr, "regexguard: %s\n", error->message.c_str());
      return kExitUsage;
    }
  } else {
    rg::cli::PatternInput input;
    input.pattern = flags.pattern;
    inputs.push_back(input);
  }
  std::vector<rg::AnalyzeOptions> options(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (auto error = OptionsFor(flags, inputs[i], &options[i])) {
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
  for (const rg::cli::PatternInput& input : inputs) {
    patterns.push_back(input.pattern);
  }
  const std::vector<rg::AnalysisReport> reports =
      rg::AnalyzePatterns(patterns, options, flags.jobs);

  bool findings = false;
  bool invalid = false;
  for (const rg::AnalysisReport& report : reports) {
    findings = findings || report.verdict == rg::Verdict::kExponential ||
               report.verdict == rg::Verdict::kPolynomial;
    invalid = invalid || (report.error && report.error->code() ==
                                              rg::StatusCode::kInvalidInput);
  }

  if (flags.format == "json") {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      std::cout << rg::cli::ReportToJson(reports[i], inputs[i])
                       .dump(-1, ' ', false,
                             nlohmann::json::error_handler_t::replace)
                << "\n";
    }
  } else if (flags.format == "sarif") {
    const std::string uri = flags.file.empty() || flags.file == "-"
                                ? std::string("command-line")
                                : flags.file;
    std::cout << rg::cli::ReportsToSarif(reports, inputs, uri)
                     .dump(2, ' ', false,
                           nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    for (std::size_t i = 0; i < reports.size(); ++i) {
      if (i > 0) std::cout << "\n";
      if (inputs[i].line > 0) {
        std::cout << flags.file << ":" << inputs[i].line << ":\n";
      }
      std::cout << rg::FormatTextReport(reports[i]);
    }
  }
  std::cout.flush();
  if (findings) return kExitFindings;
  if (invalid) return kExitUsage;
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "regexguard: finds regexes whose backtracking explodes (ReDoS) and "
      "proves each finding on PCRE2"};
  app.set_version_flag("--version", "regexguard " ROBOTSCAN_VERSION_STRING);
  app.require_subcommand(1);
  CheckFlags flags;
  CLI::App* check = app.add_subcommand(
      "check", "Analyse one pattern, or every pattern of a file");
  check->add_option("pattern", flags.pattern, "The regex to analyse");
  check->add_option("--file", flags.file,
                    "Patterns to analyse: one per line, or .jsonl objects "
                    "with \"pattern\" (and optional flags, dialect, id); - "
                    "reads stdin");
  check
      ->add_option("--dialect", flags.dialect,
                   "pcre (default), python, javascript, java, ruby, go, "
                   "dotnet")
      ->check(CLI::IsMember({"pcre", "php", "python", "javascript", "js",
                             "java", "ruby", "go", "dotnet"}));
  check->add_option("--flags", flags.flags,
                    "Flag letters among imsxu, plus g when the pattern is "
                    "used for all matches (replace-all, split, finditer)");
  check->add_option("--format", flags.format, "text (default), json, sarif")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  check
      ->add_option("--timeout-per-regex", flags.timeout_seconds,
                   "Analysis budget per pattern in seconds (default 1); "
                   "running out gives verdict unknown")
      ->check(CLI::PositiveNumber);
  check->add_option("--jobs,-j", flags.jobs, "Patterns analysed in parallel")
      ->check(CLI::Range(1u, 256u));
  check->add_flag("--anchored", flags.anchored,
                  "Analyse matches anchored at the subject start (re.match, "
                  "sticky) instead of an unanchored search");
  int exit_code = kExitOk;
  check->callback([&] {
    if (flags.pattern.empty() && flags.file.empty()) {
      throw CLI::ValidationError("check", "give a PATTERN or --file");
    }
    exit_code = RunCheck(flags);
  });
  rg::cli::ScanFlags scan_flags;
  CLI::App* scan = app.add_subcommand(
      "scan",
      "Find regex literals in source files (Python, JavaScript, "
      "TypeScript, Go, C/C++, Java, Kotlin, Ruby, PHP, Rust, C#) and report "
      "the dangerous ones");
  scan->add_option("paths", scan_flags.options.paths,
                   "Files or directories (default: .); in a git work tree "
                   "directories are listed by git (honouring .gitignore); "
                   "node_modules, vendor, third_party and hidden folders are "
                   "skipped");
  scan->add_option("--format", scan_flags.format,
                   "text (default), json (JSON Lines), sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  std::optional<std::string> fail_level;
  std::optional<std::string> polynomial_severity;
  scan->add_option("--fail-level", fail_level,
                   "Lowest severity that makes the exit status 1: error "
                   "(default), warning or note")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  scan->add_option("--polynomial-severity", polynomial_severity,
                   "Severity of polynomial backtracking inside one match: "
                   "warning (default) or error")
      ->check(CLI::IsMember({"error", "warning"}));
  scan->add_option("--timeout-per-regex", scan_flags.options.timeout_seconds,
                   "Analysis budget per distinct pattern in seconds "
                   "(default 1); running out is reported as budget exceeded")
      ->check(CLI::PositiveNumber);
  scan->add_option("--jobs,-j", scan_flags.options.jobs,
                   "Files read and patterns analysed in parallel")
      ->check(CLI::Range(1u, 256u));
  scan->add_flag("--show-info", scan_flags.options.show_info,
                 "Also print notes: literals of linear-time engines (Go, "
                 "RE2) and patterns that could not be analysed");
  scan->add_flag("--staged", scan_flags.options.staged,
                 "Scan the staged content of the files added, copied or "
                 "modified in the git index (PATHs limit them)");
  scan->add_flag("!--no-git", scan_flags.options.use_git,
                 "Walk directories without asking git (ignores .gitignore)");
  scan->add_option("--config", scan_flags.options.config_file,
                   "Configuration file (default: the nearest "
                   ".regexguard.toml up to the git root)");
  scan->add_flag("--no-config", scan_flags.options.no_config,
                 "Use no configuration file");
  scan->add_option("--baseline", scan_flags.options.baseline,
                   "Report only findings that are not in this baseline file "
                   "(default: `baseline` of the configuration file)");
  scan->add_option("--write-baseline", scan_flags.options.write_baseline,
                   "Record the current findings in this file and exit 0");
  scan->add_option("--cache-dir", scan_flags.options.cache_dir,
                   "Analysis cache folder (default "
                   "$XDG_CACHE_HOME/regexguard or ~/.cache/regexguard)");
  scan->add_flag("--no-cache", scan_flags.options.no_cache,
                 "Neither read nor write the analysis cache");
  scan->add_flag("--stats", scan_flags.stats,
                 "Print one summary line (files, regexes, cache hits, "
                 "findings, seconds) on standard error");
  scan->callback([&] {
    // CLI11 checked the names.
    if (fail_level) {
      scan_flags.options.fail_level = rg::SeverityFromName(*fail_level);
    }
    if (polynomial_severity) {
      scan_flags.options.polynomial_severity =
          rg::SeverityFromName(*polynomial_severity);
    }
    exit_code = rg::cli::RunScan(scan_flags);
  });
  bool force_hook = false;
  CLI::App* install_hook = app.add_subcommand(
      "install-hook",
      "Write .git/hooks/pre-commit running `regexguard scan --staged`");
  install_hook->add_flag("--force", force_hook,
                         "Replace a pre-commit hook not written by regexguard");
  install_hook->callback(
      [&] { exit_code = rg::cli::RunInstallHook(force_hook); });
  return robotscan::cli::ParseAndRunCli(app, argc, argv, "regexguard",
                                        exit_code);
}
