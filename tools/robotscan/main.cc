// robotscan: command-line entry point. Parses flags and dispatches to one
// subcommand (commands.h); the subcommands call the libraries.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "robotscan: RFC 9309 robots.txt toolkit (check, lint, toplist, crawl, "
      "enqueue, migrate, report)"};
#ifdef ROBOTSCAN_WITH_MIMALLOC
  // Benchmarks record which allocator the binary runs on.
  app.set_version_flag("--version", "robotscan " ROBOTSCAN_VERSION_STRING
                                    " (allocator: mimalloc)");
#else
  app.set_version_flag("--version", "robotscan " ROBOTSCAN_VERSION_STRING);
#endif
  app.require_subcommand(1);
  int exit_code = robotscan::cli::kExitOk;
  robotscan::cli::AddCheckCommand(app, &exit_code);
  robotscan::cli::AddLintCommand(app, &exit_code);
  robotscan::cli::AddCrawlCommand(app, &exit_code);
  robotscan::cli::AddReportCommand(app, &exit_code);
  robotscan::cli::AddTopListCommand(app, &exit_code);
  robotscan::cli::AddEnqueueCommand(app, &exit_code);
  robotscan::cli::AddMigrateCommand(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0.
    const int rc = app.exit(e);
    return rc == 0 ? robotscan::cli::kExitOk : robotscan::cli::kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "robotscan: %s\n", e.what());
    return robotscan::cli::kExitUsage;
  }
  return exit_code;
}
