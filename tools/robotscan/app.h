// The parts of the `robotscan` command line that both of its programs share:
// the top-level app (description, --version) and the parse-and-run step.
//
// bin/robotscan (main.cc) runs check, lint and --version itself, so that
// those start without loading the crawler's libraries; every other command
// line is handed to robotscan-full (full_main.cc), which has every command.
// Both build the app through these functions, so what a command line prints
// does not depend on which program ran it.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_APP_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_APP_H_

#include <memory>

namespace CLI {
class App;
}

namespace robotscan::cli {

// What `robotscan --version` prints (without the newline).
const char* RobotscanVersionText();

// The top-level app with its description and --version flag; subcommands
// are added by the caller (commands.h), in the order check, lint, crawl,
// report.
std::unique_ptr<CLI::App> MakeRobotscanApp();

// Parses argv into `app` (which runs the chosen subcommand's callback) and
// returns the process exit status: *exit_code as set by the subcommand, or
// kExitOk for --help/--version, kExitUsage for a parse error. Running out of
// memory ends the process with "robotscan: out of memory: ..." on stderr
// and kExitUsage (docs/cli.md).
int ParseAndRun(CLI::App& app, int argc, char** argv, const int& exit_code);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_APP_H_
