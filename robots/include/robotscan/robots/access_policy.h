// The RFC 9309 access policy that follows from fetching /robots.txt.
//
// RFC 9309 §2.3.1: the HTTP outcome decides what a crawler may do before the
// body is even looked at:
//   * 2xx ("success"): parse the body (§2.3.1.1).
//   * 3xx that the caller could not resolve — more than five consecutive
//     redirects or a loop — is "unavailable" (§2.3.1.2, §2.3.1.3).
//   * 4xx ("unavailable", §2.3.1.3): no robots.txt, everything is allowed.
//   * 5xx or a network failure ("unreachable", §2.3.1.4): assume a complete
//     disallow.
//   * 429 Too Many Requests is a 4xx for the RFC; Google treats it like a
//     5xx. TooManyRequests selects the reading; the RFC's is the default.
// Redirects are followed by the caller (the crawler), at least five hops.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_ROBOTS_ACCESS_POLICY_H_
#define ROBOTSCAN_ROBOTS_ACCESS_POLICY_H_

#include <cstdint>
#include <string_view>

#include "robotscan/robots/robots.h"

namespace robotscan::robots {

enum class AccessClass : std::uint8_t {
  kSuccess,      // 2xx: the body is the robots.txt.
  kUnavailable,  // 4xx (or unresolved redirects): allow everything.
  kUnreachable,  // 5xx or network failure: disallow everything.
};

// "success" / "unavailable" / "unreachable" (the crawl database's values).
std::string_view AccessClassName(AccessClass access);

enum class TooManyRequests : std::uint8_t {
  kAsUnavailable,  // RFC 9309: 429 is a 4xx like any other.
  kAsUnreachable,  // Google: 429 is treated like a 5xx.
};

struct HttpOutcome {
  // Final HTTP status after redirects; 0 when no response was received.
  int status = 0;
  // True when the transfer failed (DNS, connect, TLS, timeout, reset...).
  bool network_error = false;
  // True when the redirect chain was longer than the caller's limit or
  // looped.
  bool redirects_unresolved = false;
  std::string_view body;
};

struct AccessPolicyOptions {
  ParseOptions parse;
  TooManyRequests too_many_requests = TooManyRequests::kAsUnavailable;
};

// Classifies an outcome. Statuses outside 200-599 without a network error
// (1xx, garbage) are treated as unreachable: nothing usable was received.
AccessClass ClassifyHttpOutcome(
    const HttpOutcome& outcome,
    TooManyRequests too_many_requests = TooManyRequests::kAsUnavailable);

// The effective robots.txt: the parsed body on success, AllowAll() when
// unavailable, DisallowAll() when unreachable.
RobotsTxt RobotsTxtForHttpOutcome(const HttpOutcome& outcome,
                                  const AccessPolicyOptions& options = {});

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_ACCESS_POLICY_H_
