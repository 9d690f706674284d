#include "robotscan/robots/access_policy.h"

namespace robotscan::robots {

std::string_view AccessClassName(AccessClass access) {
  switch (access) {
    case AccessClass::kSuccess:
      return "success";
    case AccessClass::kUnavailable:
      return "unavailable";
    case AccessClass::kUnreachable:
      return "unreachable";
  }
  return "unreachable";
}

AccessClass ClassifyHttpOutcome(const HttpOutcome& outcome,
                                TooManyRequests too_many_requests) {
  if (outcome.network_error) return AccessClass::kUnreachable;
  if (outcome.redirects_unresolved) return AccessClass::kUnavailable;
  const int status = outcome.status;
  if (status >= 200 && status < 300) return AccessClass::kSuccess;
  if (status == 429) {
    return too_many_requests == TooManyRequests::kAsUnreachable
               ? AccessClass::kUnreachable
               : AccessClass::kUnavailable;
  }
  // A final 3xx means the caller could not follow the redirect (no Location,
  // or past its hop limit): RFC 9309 §2.3.1.2 lets it assume "unavailable".
  if (status >= 300 && status < 500) return AccessClass::kUnavailable;
  return AccessClass::kUnreachable;  // 5xx, 1xx, 0 or garbage.
}

RobotsTxt RobotsTxtForHttpOutcome(const HttpOutcome& outcome,
                                  const AccessPolicyOptions& options) {
  switch (ClassifyHttpOutcome(outcome, options.too_many_requests)) {
    case AccessClass::kSuccess:
      return RobotsTxt::Parse(outcome.body, options.parse);
    case AccessClass::kUnavailable:
      return RobotsTxt::AllowAll(options.parse.compat);
    case AccessClass::kUnreachable:
      return RobotsTxt::DisallowAll(options.parse.compat);
  }
  return RobotsTxt::DisallowAll(options.parse.compat);
}

}  // namespace robotscan::robots
