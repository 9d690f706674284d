// `regexguard scan [PATH...]`: finds regex literals in source files and
// reports the ones whose backtracking explodes, compiler-style.
//
//   exit 0: no finding at or above --fail-level; 1: some; 2: usage error or
//   unreadable path.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_

#include <string>
#include <vector>

namespace robotscan::regexguard::cli {

struct ScanFlags {
  std::vector<std::string> paths;    // files or directories; default "."
  std::string format = "text";       // text | json (JSON Lines)
  std::string fail_level = "error";  // error | warning
  double timeout_seconds = 1.0;
  unsigned jobs = 1;
};

int RunScan(const ScanFlags& flags);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_
