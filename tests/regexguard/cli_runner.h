// Runs the built `regexguard` binary for the end-to-end tests (cli_test.cc,
// scan_cli_test.cc) and captures its standard output and exit status.
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_

#include <string>

namespace robotscan::regexguard::testing {

struct CliRun {
  int exit_code = -1;  // -1 when the process could not run or was killed.
  std::string out;     // Standard output; standard error is discarded.
};

// Runs `binary arguments` through the shell (`arguments` is shell text).
CliRun RunCommand(const std::string& binary, const std::string& arguments);

}  // namespace robotscan::regexguard::testing

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_CLI_RUNNER_H_
