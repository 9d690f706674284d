// Running a helper program (git) and capturing its standard output, for the
// scan's file listing and staged-content reads. No shell is involved, so
// paths need no quoting. Private to the library.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SCAN_PROCESS_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SCAN_PROCESS_H_

#include <string>
#include <vector>

namespace robotscan::regexguard::internal {

struct ProcessResult {
  int exit_code = -1;  // -1 when the program could not start or was killed
  std::string out;     // standard output; standard error goes to /dev/null
};

// Runs argv[0] (looked up on PATH) with the given arguments and waits for it.
ProcessResult RunProcess(const std::vector<std::string>& argv);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SCAN_PROCESS_H_
