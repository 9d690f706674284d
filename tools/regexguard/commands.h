// Subcommands of the `regexguard` tool, registered as the robotscan tool
// registers its own (tools/robotscan/commands.h): each Add*Command adds one
// subcommand to `app`; when it runs, it stores its exit status in
// *exit_code, from the one table in robotscan/base/exit_codes.h.
//
//   regexguard check 'PATTERN' [--dialect D] [--flags F] [--anchored]
//   regexguard check --file patterns.txt|patterns.jsonl|- [--jobs N]
//       [--format text|json|sarif] [--timeout-per-regex SECONDS]
//       [--engine-version ruby=3.3|node=22|dotnet=8|java=8 ...]
//     exit 0: no findings; 1: at least one exponential/polynomial finding;
//     2: usage error, unreadable input, or (without findings) an invalid
//     pattern.
//
//   regexguard scan [PATH...] [--format text|json|sarif] [--staged]
//       [--fail-level error|warning|note] [--baseline FILE] ...
//     exit 0: no finding at or above --fail-level (outside the baseline),
//     or --write-baseline done; 1: some; 2: usage error, bad configuration
//     or unreadable path.
//
//   regexguard install-hook [--force]
//     exit 0: hook written (or already ours and rewritten); 2: not in a git
//     work tree, or a hook not written by regexguard exists and --force was
//     not given.
//
// Usage in full: docs/regexguard.md. Severities, rules and the scan itself:
// robotscan/regexguard/scan.h.
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_COMMANDS_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_COMMANDS_H_

#include "robotscan/base/exit_codes.h"

namespace CLI {
class App;
}

namespace robotscan::regexguard::cli {

void AddCheckCommand(CLI::App& app, int* exit_code);
void AddScanCommand(CLI::App& app, int* exit_code);
void AddInstallHookCommand(CLI::App& app, int* exit_code);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_COMMANDS_H_
