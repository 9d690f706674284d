// `regexguard install-hook [--force]`: writes the git pre-commit hook that
// runs `regexguard scan --staged` (pre_commit_hook.h), naming this binary;
// exit statuses in commands.h.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <system_error>

#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/regexguard/pre_commit_hook.h"

namespace robotscan::regexguard::cli {
namespace {

using robotscan::kExitOk;
using robotscan::kExitUsage;

int RunInstallHook(bool force) {
  HookOptions options;
  options.force = force;
  std::error_code error;
  options.regexguard_binary =
      std::filesystem::read_symlink("/proc/self/exe", error);
  const Result<std::filesystem::path> hook = InstallPreCommitHook(options);
  if (!hook) {
    std::fprintf(stderr, "regexguard: install-hook: %s\n",
                 hook.status().message().c_str());
    return kExitUsage;
  }
  std::printf("regexguard: installed %s\n", hook->c_str());
  return kExitOk;
}

}  // namespace

void AddInstallHookCommand(CLI::App& app, int* exit_code) {
  auto force = std::make_shared<bool>(false);
  CLI::App* install_hook = app.add_subcommand(
      "install-hook",
      "Write .git/hooks/pre-commit running `regexguard scan --staged`");
  install_hook->add_flag("--force", *force,
                         "Replace a pre-commit hook not written by regexguard");
  install_hook->callback(
      [force, exit_code] { *exit_code = RunInstallHook(*force); });
}

}  // namespace robotscan::regexguard::cli
