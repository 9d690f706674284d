// Installing the git pre-commit hook that runs `regexguard scan --staged`,
// so that a commit adding a finding at the fail level is blocked
// (`git commit --no-verify` bypasses it once). docs/regexguard.md,
// "regexguard install-hook".
//
// The hook goes where git looks for it (`git rev-parse --git-path hooks`:
// core.hooksPath and linked worktrees are honoured). It is a small shell
// script that runs the given regexguard binary by absolute path, or
// `regexguard` on PATH when that path is gone. A pre-commit hook not written
// by this call is kept unless `force` is set; one it wrote is replaced.
//
// Usage:
//   const auto hook = robotscan::regexguard::InstallPreCommitHook(
//       {.regexguard_binary = "/usr/bin/regexguard"});
//   if (!hook) { /* hook.status().message() */ }
//
// Thread safety: runs git in the current directory and writes one file;
// do not run two installs into the same repository at once.
#ifndef ROBOTSCAN_REGEXGUARD_PRE_COMMIT_HOOK_H_
#define ROBOTSCAN_REGEXGUARD_PRE_COMMIT_HOOK_H_

#include <filesystem>

#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard {

struct HookOptions {
  // The binary the hook runs; empty (or a path holding a single quote,
  // which the script could not quote) means `regexguard` on PATH.
  std::filesystem::path regexguard_binary;
  bool force = false;  // replace a pre-commit hook regexguard did not write
};

// The hook's path once written. Errors (kIoError): not in a git work tree,
// a foreign hook exists and `force` is not set, or the hook cannot be
// written or made executable.
Result<std::filesystem::path> InstallPreCommitHook(const HookOptions& options);

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_PRE_COMMIT_HOOK_H_
