#include "cli_main.h"

#include <cstdio>
#include <exception>

#include "robotscan/base/exit_codes.h"

namespace robotscan::cli {

int ParseAndRunCli(CLI::App& app, int argc, char** argv, const char* program,
                   const int& exit_code) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version are "errors" with exit code 0.
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return kExitUsage;
  }
  return exit_code;
}

}  // namespace robotscan::cli
