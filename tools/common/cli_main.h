// What every robotscan command line does with CLI11 at the end of main():
// parse, turn CLI11's errors into the exit-code table's statuses
// (robotscan/base/exit_codes.h), and return what the subcommand that ran
// stored.
#ifndef ROBOTSCAN_TOOLS_COMMON_CLI_MAIN_H_
#define ROBOTSCAN_TOOLS_COMMON_CLI_MAIN_H_

#include <CLI/CLI.hpp>

namespace robotscan::cli {

// Parses argv into `app`, which runs the chosen subcommand's callback; that
// callback stores its exit status in `exit_code`, which is returned. --help
// and --version exit 0; a usage error, after CLI11's message, 2; any other
// exception thrown while parsing, `program: what` and 2.
int ParseAndRunCli(CLI::App& app, int argc, char** argv, const char* program,
                   const int& exit_code);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_COMMON_CLI_MAIN_H_
