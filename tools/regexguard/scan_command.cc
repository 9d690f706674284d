#include "scan_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "output.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/regexguard/pre_commit_hook.h"

namespace robotscan::regexguard::cli {
namespace {

using robotscan::kExitFindings;
using robotscan::kExitOk;
using robotscan::kExitUsage;

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
}

}  // namespace

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

int RunInstallHook(bool force) {
  HookOptions options;
  options.force = force;
  std::error_code error;
  options.regexguard_binary =
      std::filesystem::read_symlink("/proc/self/exe", error);
  const Result<std::filesystem::path> hook = InstallPreCommitHook(options);
  if (!hook) {
    std::fprintf(stderr, "regexguard: install-hook: %s\n",
                 hook.status().message().c_str());
    return kExitUsage;
  }
  std::printf("regexguard: installed %s\n", hook->c_str());
  return kExitOk;
}

}  // namespace robotscan::regexguard::cli
