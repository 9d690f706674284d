#include "app.h"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <exception>
#include <new>

#include "cli_main.h"
#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/base/version.h"

#ifdef ROBOTSCAN_WITH_MIMALLOC
#include <mimalloc.h>
#endif

namespace robotscan::cli {
namespace {

// An input too large for the memory this process may use (`check
// --max-bytes 0` on /dev/zero under `ulimit -v`, a huge URL list) used to
// end in SIGABRT without a word: mimalloc's operator new is C and cannot
// throw, so it aborts, silently in a release build. Whatever the
// allocator, running out of memory now ends the command with one line and
// the input-error status. write(2) and _exit: nothing here may allocate.
[[noreturn]] void ExitOutOfMemory() {
  static constexpr char kMessage[] =
      "robotscan: out of memory: the input is too large for the memory this "
      "process may use\n";
  [[maybe_unused]] const ssize_t written =
      ::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  ::_exit(kExitUsage);
}

#ifdef ROBOTSCAN_WITH_MIMALLOC
// mimalloc reports a failed allocation here before it returns NULL (malloc)
// or aborts (operator new); other errors keep its default (ignored in a
// release build).
void OnMimallocError(int error, void* /*arg*/) {
  if (error == ENOMEM) ExitOutOfMemory();
}
#endif

void InstallOutOfMemoryHandler() {
  // libstdc++'s operator new calls this instead of throwing bad_alloc.
  std::set_new_handler(&ExitOutOfMemory);
#ifdef ROBOTSCAN_WITH_MIMALLOC
  mi_register_error(&OnMimallocError, nullptr);
#endif
}

}  // namespace

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
  InstallOutOfMemoryHandler();
  return ParseAndRunCli(app, argc, argv, "robotscan", exit_code);
}

}  // namespace robotscan::cli
