// Subcommands of the `robotscan` tool. Each Add*Command registers one
// subcommand on `app`; when it runs, it stores its exit status in
// *exit_code, from the one table in robotscan/base/exit_codes.h. Usage and
// exit codes are documented in docs/cli.md.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_

#include "robotscan/base/exit_codes.h"

namespace CLI {
class App;
}

namespace robotscan::cli {

void AddCheckCommand(CLI::App& app, int* exit_code);
void AddLintCommand(CLI::App& app, int* exit_code);
void AddCrawlCommand(CLI::App& app, int* exit_code);
void AddReportCommand(CLI::App& app, int* exit_code);
void AddAgentsCommand(CLI::App& app, int* exit_code);
void AddTopListCommand(CLI::App& app, int* exit_code);
void AddEnqueueCommand(CLI::App& app, int* exit_code);
void AddMigrateCommand(CLI::App& app, int* exit_code);
void AddImportCommand(CLI::App& app, int* exit_code);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_COMMANDS_H_
