// Errors as values for the regexguard library: nothing in this library throws
// across its API, prints or exits. Every fallible call returns robotscan's
// one Result<T> (a value or a Status) or a Status (robotscan/base/status.h),
// whose code, message and span (the byte range of the offending fragment of
// the pattern, when there is one) regexguard uses as follows:
//   kInvalidInput     the pattern is not a valid regular expression in the
//                     chosen dialect;
//   kUnsupported      valid, but uses syntax regexguard cannot analyze
//                     (recursion, conditionals, backtracking verbs, ...);
//                     never "safe";
//   kInvalidArgument  a caller-supplied option is out of range (unknown
//                     dialect, flag letter, a configuration value);
//   kBudgetExceeded   a state, step or time budget ran out before an answer;
//   kInternal         PCRE2 or RE2 failed in a way that is not the
//                     pattern's fault;
//   kIoError          a file or folder the caller named (source,
//                     configuration, baseline, hook) cannot be read or
//                     written, or git could not list it.
//
// Thread safety: plain values; safe to copy and share.
#ifndef ROBOTSCAN_REGEXGUARD_STATUS_H_
#define ROBOTSCAN_REGEXGUARD_STATUS_H_

#include "robotscan/base/status.h"

namespace robotscan::regexguard {

using ::robotscan::SourceSpan;
using ::robotscan::Status;
using ::robotscan::StatusCode;
template <typename T>
using Result = ::robotscan::Result<T>;

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_STATUS_H_
