// `regexguard scan [PATH...]`: flags in, robotscan::regexguard::ScanSources
// out, printed as compiler-style text, JSON Lines or SARIF (output.h), with
// the exit status (commands.h). Severities, rules and the scan itself:
// scan.h.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "output.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/regexguard/scan.h"

namespace robotscan::regexguard::cli {
namespace {

using robotscan::kExitFindings;
using robotscan::kExitOk;
using robotscan::kExitUsage;

struct ScanFlags {
  ScanOptions options;
  std::string format = "text";  // text | json (JSON Lines) | sarif
  bool stats = false;           // one summary line on standard error
  // --fail-level and --polynomial-severity as given (CLI11 checks them).
  std::optional<std::string> fail_level_name;
  std::optional<std::string> polynomial_severity_name;
  std::optional<std::string> injection_severity_name;
  std::vector<std::string> engine_versions;  // "ruby=3.3", as given
};

// Compiler-style: "PATH:LINE:COLUMN: severity: message [rule]", then the
// attack as a note on the same location.
void PrintText(const Finding& finding) {
  const std::string location = finding.path + ":" +
                               std::to_string(finding.line) + ":" +
                               std::to_string(finding.column);
  std::cout << location << ": " << SeverityName(finding.severity) << ": "
            << finding.message << " [" << finding.rule << "]\n";
  const std::string attack = DescribeAttack(finding);
  if (!attack.empty()) std::cout << location << ": note: " << attack << "\n";
  if (finding.verdict && !finding.verdict->versions.empty()) {
    std::cout << location << ": note: versions: " << finding.verdict->versions
              << "\n";
  }
}

int RunScan(const ScanFlags& flags) {
  const auto started = std::chrono::steady_clock::now();
  const Result<ScanReport> scanned = ScanSources(flags.options);
  if (!scanned) {
    std::fprintf(stderr, "regexguard: %s\n",
                 scanned.status().message().c_str());
    return kExitUsage;
  }
  const ScanReport& report = *scanned;
  if (report.baseline_written) {
    std::fprintf(stderr, "regexguard: wrote %zu findings to %s\n",
                 *report.baseline_written,
                 flags.options.write_baseline.c_str());
    return kExitOk;
  }

  if (flags.format == "json") {
    for (const Finding& finding : report.findings) {
      std::cout << FindingToJson(finding, report.baseline_applied)
                       .dump(-1, ' ', false,
                             nlohmann::json::error_handler_t::replace)
                << "\n";
    }
  } else if (flags.format == "sarif") {
    std::cout << FindingsToSarif(report.findings)
                     .dump(2, ' ', false,
                           nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    for (const Finding& finding : report.findings) {
      if (finding.reported) PrintText(finding);
    }
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
                 report.files, report.findings.size(), report.distinct,
                 report.distinct - report.cache_hits, report.cache_hits,
                 report.errors, report.warnings, report.notes, report.baselined,
                 seconds);
  }
  return report.failing ? kExitFindings : kExitOk;
}

}  // namespace

void AddScanCommand(CLI::App& app, int* exit_code) {
  auto scan_flags = std::make_shared<ScanFlags>();
  CLI::App* scan = app.add_subcommand(
      "scan",
      "Find regex literals in source files (Python, JavaScript, "
      "TypeScript, Go, C/C++, Java, Kotlin, Ruby, PHP, Rust, C#) and report "
      "the dangerous ones");
  scan->add_option("paths", scan_flags->options.paths,
                   "Files or directories (default: .); in a git work tree "
                   "directories are listed by git (honouring .gitignore); "
                   "node_modules, vendor, third_party and hidden folders are "
                   "skipped");
  scan->add_option("--format", scan_flags->format,
                   "text (default), json (JSON Lines), sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}));
  scan->add_option("--fail-level", scan_flags->fail_level_name,
                   "Lowest severity that makes the exit status 1: error "
                   "(default), warning or note")
      ->check(CLI::IsMember({"error", "warning", "note"}));
  scan->add_option("--polynomial-severity",
                   scan_flags->polynomial_severity_name,
                   "Severity of polynomial backtracking inside one match: "
                   "warning (default) or error")
      ->check(CLI::IsMember({"error", "warning"}));
  scan->add_option("--injection-severity", scan_flags->injection_severity_name,
                   "Severity of regex injection (a pattern built from a "
                   "request value): error (default), warning, or off (not "
                   "looked for)")
      ->check(CLI::IsMember({"error", "warning", "off"}));
  scan->add_option("--timeout-per-regex", scan_flags->options.timeout_seconds,
                   "Analysis budget per distinct pattern in seconds "
                   "(default 1); running out is reported as budget exceeded")
      ->check(CLI::PositiveNumber);
  scan->add_option("--jobs,-j", scan_flags->options.jobs,
                   "Files read and patterns analysed in parallel")
      ->check(CLI::Range(1u, 256u));
  scan->add_flag("--show-info", scan_flags->options.show_info,
                 "Also print notes: literals of linear-time engines (Go, "
                 "RE2) and patterns that could not be analysed");
  scan->add_flag("--staged", scan_flags->options.staged,
                 "Scan the staged content of the files added, copied or "
                 "modified in the git index (PATHs limit them)");
  scan->add_flag("!--no-git", scan_flags->options.use_git,
                 "Walk directories without asking git (ignores .gitignore)");
  scan->add_option("--config", scan_flags->options.config_file,
                   "Configuration file (default: the nearest "
                   ".regexguard.toml up to the git root)");
  scan->add_flag("--no-config", scan_flags->options.no_config,
                 "Use no configuration file");
  scan->add_option("--baseline", scan_flags->options.baseline,
                   "Report only findings that are not in this baseline file "
                   "(default: `baseline` of the configuration file)");
  scan->add_option("--write-baseline", scan_flags->options.write_baseline,
                   "Record the current findings in this file and exit 0");
  scan->add_option("--cache-dir", scan_flags->options.cache_dir,
                   "Analysis cache folder (default "
                   "$XDG_CACHE_HOME/regexguard or ~/.cache/regexguard)");
  scan->add_flag("--no-cache", scan_flags->options.no_cache,
                 "Neither read nor write the analysis cache");
  scan->add_option("--engine-version", scan_flags->engine_versions,
                   "ENGINE=VERSION (ruby=3.3, node=22, dotnet=8, java=8; "
                   "repeatable): judge for that release; by default each "
                   "finding names the versions for which it holds")
      ->allow_extra_args(false);
  scan->add_flag("--stats", scan_flags->stats,
                 "Print one summary line (files, regexes, cache hits, "
                 "findings, seconds) on standard error");
  scan->callback([scan_flags, exit_code] {
    // CLI11 checked the names.
    if (scan_flags->fail_level_name) {
      scan_flags->options.fail_level =
          SeverityFromName(*scan_flags->fail_level_name);
    }
    if (scan_flags->polynomial_severity_name) {
      scan_flags->options.polynomial_severity =
          SeverityFromName(*scan_flags->polynomial_severity_name);
    }
    if (scan_flags->injection_severity_name) {
      scan_flags->options.injection_severity =
          *scan_flags->injection_severity_name == "off"
              ? Severity::kNone
              : SeverityFromName(*scan_flags->injection_severity_name);
    }
    for (const std::string& setting : scan_flags->engine_versions) {
      if (Status status =
              AddEngineVersion(setting, &scan_flags->options.engine_versions);
          !status.ok()) {
        std::fprintf(stderr, "regexguard: %s\n", status.message().c_str());
        *exit_code = kExitUsage;
        return;
      }
    }
    *exit_code = RunScan(*scan_flags);
  });
}

}  // namespace robotscan::regexguard::cli
