#include "hook.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

#include "process.h"

namespace robotscan::regexguard::cli {
namespace {

namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitUsage = 2;

// Identifies hooks this command wrote, which it may replace without --force.
constexpr char kMarker[] = "installed by `regexguard install-hook`";

std::string HookScript() {
  // The absolute path of this binary first, so the hook works when git runs
  // it with a different PATH; `regexguard` on PATH if that path is gone.
  std::error_code error;
  const fs::path self = fs::read_symlink("/proc/self/exe", error);
  std::string quoted = "regexguard";
  if (!error && self.string().find('\'') == std::string::npos) {
    quoted = "'" + self.string() + "'";
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

}  // namespace

int RunInstallHook(bool force) {
  // --git-path honours core.hooksPath and linked worktrees.
  const ProcessResult run =
      RunProcess({"git", "rev-parse", "--git-path", "hooks"});
  std::string hooks = run.out;
  while (!hooks.empty() && (hooks.back() == '\n' || hooks.back() == '\r')) {
    hooks.pop_back();
  }
  if (run.exit_code != 0 || hooks.empty()) {
    std::fprintf(stderr, "regexguard: install-hook: not in a git work tree\n");
    return kExitUsage;
  }
  const fs::path hook = fs::path(hooks) / "pre-commit";
  std::error_code error;
  if (fs::exists(hook, error)) {
    std::ifstream in(hook, std::ios::binary);
    std::ostringstream existing;
    existing << in.rdbuf();
    if (existing.str().find(kMarker) == std::string::npos && !force) {
      std::fprintf(stderr,
                   "regexguard: install-hook: %s exists and was not written "
                   "by regexguard; use --force to replace it\n",
                   hook.c_str());
      return kExitUsage;
    }
  }
  fs::create_directories(hook.parent_path(), error);
  {
    std::ofstream out(hook, std::ios::binary | std::ios::trunc);
    out << HookScript();
    if (!out) {
      std::fprintf(stderr, "regexguard: install-hook: cannot write %s\n",
                   hook.c_str());
      return kExitUsage;
    }
  }
  fs::permissions(hook,
                  fs::perms::owner_all | fs::perms::group_read |
                      fs::perms::group_exec | fs::perms::others_read |
                      fs::perms::others_exec,
                  error);
  if (error) {
    std::fprintf(stderr,
                 "regexguard: install-hook: cannot make %s executable\n",
                 hook.c_str());
    return kExitUsage;
  }
  std::printf("regexguard: installed %s\n", hook.c_str());
  return kExitOk;
}

}  // namespace robotscan::regexguard::cli
