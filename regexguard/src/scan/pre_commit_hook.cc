#include "robotscan/regexguard/pre_commit_hook.h"

#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "scan/process.h"

namespace robotscan::regexguard {
namespace {

namespace fs = std::filesystem;

// Identifies hooks this command wrote, which it may replace without force.
constexpr char kMarker[] = "installed by `regexguard install-hook`";

std::string HookScript(const fs::path& binary) {
  // The absolute path of the binary first, so the hook works when git runs
  // it with a different PATH; `regexguard` on PATH if that path is gone.
  std::string quoted = "regexguard";
  if (!binary.empty() && binary.string().find('\'') == std::string::npos) {
    quoted = "'" + binary.string() + "'";
  }
  return "#!/bin/sh\n"
         "# regexguard pre-commit hook, " +
         std::string(kMarker) +
         ".\n"
         "# Scans the staged content of added, copied and modified files; a\n"
         "# finding at the fail level blocks the commit (bypass once with\n"
         "# `git commit --no-verify`).\n"
         "regexguard=" +
         quoted +
         "\n"
         "[ -x \"$regexguard\" ] || regexguard=regexguard\n"
         "exec \"$regexguard\" scan --staged\n";
}

Status HookError(std::string message) {
  return Status{StatusCode::kIoError, std::move(message), std::nullopt};
}

}  // namespace

Result<fs::path> InstallPreCommitHook(const HookOptions& options) {
  // --git-path honours core.hooksPath and linked worktrees.
  const internal::ProcessResult run =
      internal::RunProcess({"git", "rev-parse", "--git-path", "hooks"});
  std::string hooks = run.out;
  while (!hooks.empty() && (hooks.back() == '\n' || hooks.back() == '\r')) {
    hooks.pop_back();
  }
  if (run.exit_code != 0 || hooks.empty()) {
    return HookError("not in a git work tree");
  }
  const fs::path hook = fs::path(hooks) / "pre-commit";
  std::error_code error;
  if (fs::exists(hook, error)) {
    std::ifstream in(hook, std::ios::binary);
    std::ostringstream existing;
    existing << in.rdbuf();
    if (existing.str().find(kMarker) == std::string::npos && !options.force) {
      return HookError(hook.string() +
                       " exists and was not written by regexguard; use "
                       "--force to replace it");
    }
  }
  fs::create_directories(hook.parent_path(), error);
  {
    std::ofstream out(hook, std::ios::binary | std::ios::trunc);
    out << HookScript(options.regexguard_binary);
    if (!out) return HookError("cannot write " + hook.string());
  }
  fs::permissions(hook,
                  fs::perms::owner_all | fs::perms::group_read |
                      fs::perms::group_exec | fs::perms::others_read |
                      fs::perms::others_exec,
                  error);
  if (error) return HookError("cannot make " + hook.string() + " executable");
  return hook;
}

}  // namespace robotscan::regexguard
