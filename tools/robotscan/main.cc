// robotscan: command-line entry point (usage and exit codes: docs/cli.md).
//
// `check`, `lint` and `--version` run here. This program links only the
// robots library (and the C++ runtime statically), so it starts in about
// 1.5 ms: loading the crawler's libraries (libcurl with its TLS, Kerberos
// and LDAP stack, SQLite, c-ares: 37 shared objects, 12,000 symbol
// relocations) made every start take 7.5 ms, which a script calling
// `robotscan check` once per file pays each time (bench/RESULTS.md,
// "Start-up"). Every other command line is handed unchanged, argv[0]
// included, to robotscan-full (full_main.cc), which has every subcommand
// and prints and exits exactly as this program would.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <system_error>

#include "app.h"
#include "commands.h"

namespace {

// Where robotscan-full is, relative to this program's directory; the same
// in the build tree and in an installation (tools/robotscan/CMakeLists.txt).
constexpr char kFullProgramRelativePath[] = ROBOTSCAN_FULL_PROGRAM_PATH;

// True for the command lines this program runs itself: `check ...` or
// `lint ...` with no argument naming another subcommand (CLI11 may read such
// an argument as a switch to that subcommand, which only robotscan-full
// knows). main() answers exactly `--version` itself.
bool RunsHere(int argc, char** argv) {
  if (argc < 2) return false;
  const std::string_view command = argv[1];
  if (command != "check" && command != "lint") return false;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "crawl" || arg == "report" || arg == "toplist" ||
        arg == "agents" || arg == "enqueue" || arg == "migrate" ||
        arg == "import") {
      return false;
    }
  }
  return true;
}

// Replaces this process with robotscan-full (same pid, so signals and exit
// statuses are the caller's to see directly); returns only on failure.
int RunFullProgram(char** argv) {
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    std::fprintf(stderr, "robotscan: cannot locate this program: %s\n",
                 error.message().c_str());
    return robotscan::kExitNotInstalled;
  }
  const std::string full =
      (self.parent_path() / kFullProgramRelativePath).lexically_normal();
  execv(full.c_str(), argv);
  std::fprintf(stderr, "robotscan: cannot run %s: %s\n", full.c_str(),
               std::strerror(errno));
  return robotscan::kExitNotInstalled;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    // What CLI11's --version flag prints, without the exception it throws
    // to get there: the first unwinding of a process costs 0.3 ms.
    std::printf("%s\n", robotscan::cli::RobotscanVersionText());
    return robotscan::kExitOk;
  }
  if (!RunsHere(argc, argv)) return RunFullProgram(argv);
  const std::unique_ptr<CLI::App> app = robotscan::cli::MakeRobotscanApp();
  int exit_code = robotscan::kExitOk;
  robotscan::cli::AddCheckCommand(*app, &exit_code);
  robotscan::cli::AddLintCommand(*app, &exit_code);
  return robotscan::cli::ParseAndRun(*app, argc, argv, exit_code);
}
