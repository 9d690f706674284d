// `regexguard scan [PATH...]`: finds regex literals in source files and
// reports the ones whose backtracking explodes, compiler-style.
//
// Severities (rule ids as in SARIF):
//   error    regexguard/exponential      exponential backtracking
//   warning  regexguard/polynomial       polynomial inside one match
//                                        (--polynomial-severity error)
//   warning  regexguard/search-restart   quadratic only via the search loop
//   warning  regexguard/budget-exceeded  analysis ran out: not proven safe
//   note     regexguard/unknown          undecided: ambiguous without a
//                                        confirmed attack, or bad syntax
//   note     regexguard/info             linear engine (Go/RE2): no ReDoS
// Notes are printed only with --show-info.
//
//   exit 0: no finding at or above --fail-level (outside the baseline);
//   1: some; 2: usage error, bad configuration or unreadable path.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_

#include <optional>
#include <string>
#include <vector>

namespace robotscan::regexguard::cli {

struct ScanFlags {
  std::vector<std::string> paths;  // files or directories; default "."
  std::string format = "text";     // text | json (JSON Lines) | sarif
  // Unset values come from the configuration file, then the defaults
  // (error, warning, 1 second).
  std::optional<std::string> fail_level;           // error | warning | note
  std::optional<std::string> polynomial_severity;  // error | warning
  std::optional<double> timeout_seconds;
  unsigned jobs = 1;
  bool show_info = false;   // print notes (Go/RE2 literals, unknowns)
  bool staged = false;      // the staged content of the git index
  bool use_git = true;      // list directories with git ls-files when able
  std::string config_file;  // empty: search .regexguard.toml upward
  bool no_config = false;
  std::string baseline;        // report only findings not in this file
  std::string write_baseline;  // record the findings here, exit 0
  std::string cache_dir;       // empty: the default cache folder
  bool no_cache = false;
  bool stats = false;  // one summary line on standard error
};

int RunScan(const ScanFlags& flags);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_SCAN_H_
