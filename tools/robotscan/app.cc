#include "app.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

#include "cli_main.h"
#include "commands.h"
#include "robotscan/base/version.h"

namespace robotscan::cli {

const char* RobotscanVersionText() {
#ifdef ROBOTSCAN_WITH_MIMALLOC
  // Benchmarks record which allocator the binary runs on.
  return "robotscan " ROBOTSCAN_VERSION_STRING " (allocator: mimalloc)";
#else
  return "robotscan " ROBOTSCAN_VERSION_STRING;
#endif
}

std::unique_ptr<CLI::App> MakeRobotscanApp() {
  auto app = std::make_unique<CLI::App>(
      "robotscan: RFC 9309 robots.txt toolkit (check, lint, toplist, crawl, "
      "enqueue, migrate, report)");
  app->set_version_flag("--version", RobotscanVersionText());
  app->require_subcommand(1);
  return app;
}

int ParseAndRun(CLI::App& app, int argc, char** argv, const int& exit_code) {
  return ParseAndRunCli(app, argc, argv, "robotscan", exit_code);
}

}  // namespace robotscan::cli
