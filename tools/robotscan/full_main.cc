// robotscan-full: the `robotscan` command line with every subcommand. It is
// installed in libexec and run by bin/robotscan (main.cc) for every command
// line that program does not handle itself (toplist, crawl, enqueue,
// migrate, report, --help, errors), with the same argv, so it prints and
// exits exactly as `robotscan` would.
#include <CLI/CLI.hpp>

#include "app.h"
#include "commands.h"

int main(int argc, char** argv) {
  const std::unique_ptr<CLI::App> app = robotscan::cli::MakeRobotscanApp();
  int exit_code = robotscan::kExitOk;
  robotscan::cli::AddCheckCommand(*app, &exit_code);
  robotscan::cli::AddLintCommand(*app, &exit_code);
  robotscan::cli::AddCrawlCommand(*app, &exit_code);
  robotscan::cli::AddReportCommand(*app, &exit_code);
  robotscan::cli::AddAgentsCommand(*app, &exit_code);
  robotscan::cli::AddTopListCommand(*app, &exit_code);
  robotscan::cli::AddEnqueueCommand(*app, &exit_code);
  robotscan::cli::AddMigrateCommand(*app, &exit_code);
  robotscan::cli::AddImportCommand(*app, &exit_code);
  return robotscan::cli::ParseAndRun(*app, argc, argv, exit_code);
}
