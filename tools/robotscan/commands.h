// Subcommands of the `robotscan` tool. Each Add*Command registers one
// subcommand on `app`; when it runs, it stores its exit status in
// *exit_code. Usage and exit codes are documented in docs/cli.md.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_

namespace CLI {
class App;
}

namespace robotscan::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;        // Success; nothing to report.
inline constexpr int kExitFindings = 1;  // Ran fine; something was found
                                         // (a disallowed URL, a lint error).
inline constexpr int kExitUsage = 2;     // Usage or input error.

void AddCheckCommand(CLI::App& app, int* exit_code);
void AddLintCommand(CLI::App& app, int* exit_code);
void AddCrawlCommand(CLI::App& app, int* exit_code);
void AddReportCommand(CLI::App& app, int* exit_code);
void AddTopListCommand(CLI::App& app, int* exit_code);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_
