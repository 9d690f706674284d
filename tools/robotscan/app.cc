#include "app.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>

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
      "report)");
  app->set_version_flag("--version", RobotscanVersionText());
  app->require_subcommand(1);
  return app;
}

int ParseAndRun(CLI::App& app, int argc, char** argv, const int& exit_code) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0.
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "robotscan: %s\n", e.what());
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace robotscan::cli
