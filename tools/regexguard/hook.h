// `regexguard install-hook`: writes the git pre-commit hook that runs
// `regexguard scan --staged`, so a commit adding a finding at the fail level
// is blocked (`git commit --no-verify` bypasses it once).
//
//   exit 0: hook written (or already ours and rewritten); 2: not in a git
//   work tree, or a hook not written by regexguard exists and --force was
//   not given.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_HOOK_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_HOOK_H_

namespace robotscan::regexguard::cli {

int RunInstallHook(bool force);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_HOOK_H_
