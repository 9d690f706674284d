// The exit statuses of robotscan's command lines (robotscan, regexguard), in
// one table: commands return a Status and ExitCodeFor turns its code into
// the number scripts test. Documented in docs/cli.md ("Exit codes"); a
// status once documented keeps its meaning.
//
// Thread-safety: constants and a pure function.
#ifndef ROBOTSCAN_BASE_EXIT_CODES_H_
#define ROBOTSCAN_BASE_EXIT_CODES_H_

#include "robotscan/base/status.h"

namespace robotscan {

inline constexpr int kExitOk = 0;           // Success; nothing to report.
inline constexpr int kExitFindings = 1;     // Ran fine and found something: a
                                            // disallowed URL, a lint error, a
                                            // ReDoS finding.
inline constexpr int kExitUsage = 2;        // Usage or input named on the
                                            // command line: a bad flag, an
                                            // unreadable --robots-file, another
                                            // live crawl holding the database.
inline constexpr int kExitInput = 3;        // The work's data failed: a list or
                                            // download that is not a list, a
                                            // read or write the OS refused.
inline constexpr int kExitStorageFull = 4;  // Disk or database cap full.
inline constexpr int kExitStorageBusy = 5;  // Database locked by another
                                            // process past the timeout.
inline constexpr int kExitStorageCorrupt = 6;  // Damaged database, or one
                                               // written by a newer robotscan.
inline constexpr int kExitNetworkSetup = 7;    // Resolver, TLS or libcurl
                                               // could not be set up.
inline constexpr int kExitNotInstalled = 127;  // bin/robotscan cannot run
                                               // robotscan-full (what shells
                                               // answer for a missing command).
inline constexpr int kExitSignalBase = 128;    // + the signal: 130 SIGINT,
                                               // 143 SIGTERM.

// The exit status for a command that failed with `status` (kExitOk for an
// ok one). kCancelled has no status of its own: the command that was
// cancelled by a signal exits kExitSignalBase + that signal.
constexpr int ExitCodeFor(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return kExitOk;
    case StatusCode::kInvalidArgument:
    case StatusCode::kNotFound:
    case StatusCode::kUnsupported:
    case StatusCode::kLocked:
      return kExitUsage;
    case StatusCode::kInvalidInput:
    case StatusCode::kIoError:
    case StatusCode::kBudgetExceeded:
    case StatusCode::kCancelled:
    case StatusCode::kInternal:
      return kExitInput;
    case StatusCode::kDiskFull:
      return kExitStorageFull;
    case StatusCode::kBusy:
      return kExitStorageBusy;
    case StatusCode::kCorrupt:
    case StatusCode::kSchemaTooNew:
      return kExitStorageCorrupt;
    case StatusCode::kNetwork:
      return kExitNetworkSetup;
  }
  return kExitInput;
}

inline int ExitCodeFor(const Status& status) {
  return ExitCodeFor(status.code());
}

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_EXIT_CODES_H_
