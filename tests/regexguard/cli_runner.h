// Runs the built `regexguard` binary for the end-to-end tests (cli_test.cc,
// scan_cli_test.cc) and captures its standard output and exit status.
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_

#include <string>

namespace robotscan::regexguard::testing {

struct CliRun {
  int exit_code = -1;  // -1 when the process could not run or was killed.
  std::string out;     // Standard output (and standard error if merged).
};

// Runs `binary arguments` through the shell (`arguments` is shell text).
// Standard error is discarded, or appended to `out` with `merge_stderr`.
CliRun RunCommand(const std::string& binary, const std::string& arguments,
                  bool merge_stderr = false);

}  // namespace robotscan::regexguard::testing

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_
