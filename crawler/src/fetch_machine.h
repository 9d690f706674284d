// The per-domain fetch state machine: what the crawler does for one domain,
// as events in and actions out, with no I/O of its own. The event loop
// (crawl_loop.h) carries the actions out (resolve a host, run a transfer,
// wait for a retry) and reports what happened; the machine decides every
// rule of RFC 9309 §2.3 the crawler follows:
//   * start URLs in order (https, then http; then www.DOMAIN with
//     --www-fallback), moving on after a connection-level failure, a DNS
//     failure or a blocked address (the latter two skip the same host's
//     other URLs: same name, same answer);
//   * redirects hop by hop, at least five (§2.3.1.2), http(s) only, loops
//     detected; unresolved redirects are "unavailable";
//   * retries of network errors, 5xx and 429 with doubling, jittered delays
//     and Retry-After (capped);
//   * the address policy (no private addresses unless allowed);
//   * the final record: every step, the access class (§2.3.1), the body of
//     a 2xx, a 304's reuse of the previous body.
// Tests drive it from tables (tests/crawler/fetch_machine_test.cc).
//
//   Start ─► Resolve ─(addresses)─► Transfer ─(result)─► Finished
//              │  ▲                   │  ▲  └─(3xx)─► Resolve (next hop)
//              │  └──(retry due)── WaitRetry ◄─(retryable)─┘
//              └─(DNS failure / blocked)─► next start URL | WaitRetry |
//              Finished
//
// Thread-safety: one machine per domain, used by one thread.
#ifndef ROBOTSCAN_CRAWLER_FETCH_MACHINE_H_
#define ROBOTSCAN_CRAWLER_FETCH_MACHINE_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "robotscan/crawler/crawler.h"
#include "robotscan/robots/access_policy.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/fetch_classes.h"
#include "url_parts.h"

namespace robotscan::crawler {

using storage::ErrorClass;

// The crawl options the machine decides by.
struct FetchPolicy {
  std::vector<Scheme> schemes = {Scheme::kHttps, Scheme::kHttp};
  bool www_fallback = false;
  int max_redirects = 5;  // Raised to 5 if lower (RFC 9309 §2.3.1.2).
  int retries = 2;
  bool retry_timeouts = false;
  std::chrono::milliseconds retry_delay{1000};
  std::chrono::milliseconds max_retry_after{30000};
  bool allow_private_addresses = false;
  bool via_proxy = false;  // The proxy resolves: no address policy.
  bool signals = false;    // crawl --signals (signal_fetch.h).
};
FetchPolicy FetchPolicyFrom(const CrawlPlan& plan);

// The first of a host's `addresses` the address policy lets the crawler
// connect to (any, with allow_private_addresses; else a public one), or
// nullptr. Every request of a domain, robots.txt and signals alike.
const std::string* FirstAllowedAddress(
    const FetchPolicy& policy, const std::vector<std::string>& addresses);

// Selected headers of one response (caching and type information for
// analyses; Location and Retry-After for the machine).
struct ResponseHeaders {
  std::string content_type, content_encoding, content_length, cache_control,
      expires, last_modified, etag, retry_after, location;
  // AI-preference headers (crawl --signals, signal_fetch.h); a header sent
  // on several lines is joined with ", " (RFC 9110 §5.3).
  std::string x_robots_tag, content_usage, tdm_reservation, tdm_policy;
};

// The headers a fetch record keeps (all but Location, which each step
// keeps): one place for the crawl and the archive importers.
void CopyResponseHeaders(const ResponseHeaders& headers,
                         storage::FetchRecord* record);

// One finished transfer, as the event loop saw it.
struct TransferResult {
  ErrorClass error = ErrorClass::kNone;  // kNone: completed (or cut at the
                                         // body cap, see truncated).
  std::string error_message;
  int http_status = 0;  // 0: no response began.
  // For a 3xx: the Location resolved against the request URL (libcurl's
  // CURLINFO_REDIRECT_URL); empty when there was none.
  std::string redirect_url;
  ResponseHeaders headers;
  std::string body;  // Decoded, up to the cap.
  bool truncated = false;
  double connect_ms = -1, tls_ms = -1, first_byte_ms = -1, total_ms = 0;
};

struct FetchAction {
  enum class Kind : std::uint8_t {
    kResolve,    // Find addresses for `parts` (after --connect-to), then
                 // OnAddresses or OnResolveFailed.
    kTransfer,   // Request `url` from `ip`:`connect_port` (no ip: through
                 // the proxy), then OnTransferDone.
    kWaitRetry,  // Wait `delay`, then OnRetryDue.
    kFinished,   // TakeRecord() has the outcome.
  };
  Kind kind = Kind::kFinished;
  std::string url;
  UrlParts parts;
  std::string ip;
  int connect_port = 0;
  // Send If-None-Match / If-Modified-Since from previous() (RFC 9309 §2.4).
  bool conditional = false;
  std::chrono::milliseconds delay{0};
  // Bytes of the body to keep; 0: the crawl's body limit (robots.txt).
  std::size_t max_body = 0;
};

class DomainFetch {
 public:
  // `random` jitters retry delays (0.5x-1.5x); null: no jitter (tests).
  DomainFetch(const FetchPolicy* policy, std::string strategy,
              TopListEntry entry,
              std::optional<storage::PreviousFetch> previous,
              std::mt19937* random);

  FetchAction Start();
  // Addresses of the host (IPv4 first), the port to connect to, and how
  // long the lookup took (-1: no lookup, e.g. an IP literal).
  FetchAction OnAddresses(const std::vector<std::string>& addresses,
                          int connect_port, double dns_ms);
  FetchAction OnResolveFailed(ErrorClass error, const std::string& message,
                              double dns_ms);
  FetchAction OnTransferDone(TransferResult result);
  FetchAction OnRetryDue();
  // A transfer that could not even start (e.g. curl_multi_add_handle).
  FetchAction OnStartFailed(const std::string& message);

  const TopListEntry& entry() const { return entry_; }
  const std::optional<storage::PreviousFetch>& previous() const {
    return previous_;
  }
  // Valid after kFinished.
  robots::AccessClass access() const { return access_; }
  storage::FetchRecord TakeRecord() { return std::move(record_); }

 private:
  FetchAction StartUrl();
  FetchAction StartHop(std::string url, UrlParts parts);
  FetchAction FailStep(ErrorClass error, const std::string& message,
                       int http_status);
  FetchAction ScheduleRetry(std::optional<std::chrono::milliseconds> after);
  FetchAction FinishUnresolvedRedirect(ErrorClass error, std::string message);
  FetchAction Finish(bool network_error, bool redirects_unresolved);

  const FetchPolicy* policy_;
  TopListEntry entry_;
  std::optional<storage::PreviousFetch> previous_;
  std::mt19937* random_;
  std::vector<std::string> start_urls_;
  std::vector<UrlParts> start_parts_;
  std::size_t start_index_ = 0;
  std::string url_;  // Current request.
  UrlParts parts_;
  std::vector<std::string> visited_;  // This start URL's chain.
  int redirects_ = 0;
  int retries_used_ = 0;   // For the current URL.
  int retries_total_ = 0;  // For the whole domain.
  std::string ip_;
  double dns_ms_ = -1;
  ResponseHeaders last_headers_;
  std::string last_body_;
  robots::AccessClass access_ = robots::AccessClass::kUnreachable;
  storage::FetchRecord record_;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_FETCH_MACHINE_H_
