// regexguard: command-line entry point. The subcommands (check, scan,
// install-hook) are one file each, registered here in that order; their
// usage and exit codes are in commands.h and docs/regexguard.md.
//
// This program only wires flags to robotscan::regexguard and prints results.
#include <CLI/CLI.hpp>

#include "cli_main.h"
#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/base/version.h"

int main(int argc, char** argv) {
  CLI::App app{
      "regexguard: finds regexes whose backtracking explodes (ReDoS) and "
      "proves each finding on PCRE2"};
  app.set_version_flag("--version", "regexguard " ROBOTSCAN_VERSION_STRING);
  app.require_subcommand(1);
  int exit_code = robotscan::kExitOk;
  robotscan::regexguard::cli::AddCheckCommand(app, &exit_code);
  robotscan::regexguard::cli::AddScanCommand(app, &exit_code);
  robotscan::regexguard::cli::AddInstallHookCommand(app, &exit_code);
  return robotscan::cli::ParseAndRunCli(app, argc, argv, "regexguard",
                                        exit_code);
}
