// Baseline files of a scan (scan.h), private to the library: the findings a
// project has accepted for now, so that only new ones fail the run.
//
// A finding is keyed by its file path, a hash of its pattern and flags, and
// its dialect -- not by line or column, so edits elsewhere in the file keep
// it matched; moving the regex to another file makes it new. Each key counts
// occurrences: a second copy of a baselined regex in the same file is new.
//
// Format (JSON, sorted, stable under re-writing):
//   {"version": 1, "tool": "regexguard",
//    "findings": [{"path": "src/a.py", "pattern_hash": "0123...",
//                  "dialect": "python", "rule": "regexguard/exponential",
//                  "pattern": "^(a+)+$"}, ...]}
// "rule" and "pattern" are for people reading the file; matching ignores them.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SCAN_BASELINE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SCAN_BASELINE_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard::internal {

struct BaselineEntry {
  std::string path;
  std::string pattern;
  std::string flags;
  std::string dialect;
  std::string rule;
};

class Baseline {
 public:
  // Reads `file`; kIoError when it is unreadable or malformed.
  static Result<Baseline> Read(const std::string& file);
  // Writes `entries` to `file`; kIoError when that fails.
  static Status Write(const std::string& file,
                      const std::vector<BaselineEntry>& entries);

  // True (and one occurrence used up) when `entry` is in the baseline.
  bool Consume(const BaselineEntry& entry);

 private:
  std::map<std::string, int> remaining_;  // key -> occurrences left
};

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SCAN_BASELINE_H_
