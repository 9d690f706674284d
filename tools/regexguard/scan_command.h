// `regexguard scan [PATH...]` and `regexguard install-hook`: flags in,
// robotscan::regexguard::ScanSources / InstallPreCommitHook, output and exit
// status out. Severities, rules and the scan itself: scan.h.
//
//   scan exit 0: no finding at or above --fail-level (outside the
//   baseline), or --write-baseline done; 1: some; 2: usage error, bad
//   configuration or unreadable path.
//   install-hook exit 0: hook written (or already ours and rewritten);
//   2: not in a git work tree, or a hook not written by regexguard exists
//   and --force was not given.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_COMMAND_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_COMMAND_H_

#include <string>

#include "robotscan/regexguard/scan.h"

namespace robotscan::regexguard::cli {

struct ScanFlags {
  ScanOptions options;
  std::string format = "text";  // text | json (JSON Lines) | sarif
  bool stats = false;           // one summary line on standard error
};

int RunScan(const ScanFlags& flags);

int RunInstallHook(bool force);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_COMMAND_H_
