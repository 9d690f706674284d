// What kind of failure a fetch met, in the crawl database's error classes
// (docs/crawler.md), and what the crawler does about each. Private to the
// crawler.
#ifndef ROBOTSCAN_CRAWLER_FETCH_ERRORS_H_
#define ROBOTSCAN_CRAWLER_FETCH_ERRORS_H_

#include <curl/curl.h>

#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include "robotscan/storage/fetch_classes.h"

namespace robotscan::crawler {

using storage::ErrorClass;

// The error class of a failed transfer: what kind of failure, not
// libcurl's words. `detail` is libcurl's error buffer.
ErrorClass ClassifyCurlError(CURL* easy, CURLcode code,
                             std::string_view detail);

// Failures where the server was never talked to over HTTP: the next start
// URL (http after https, www.) may still work.
bool IsConnectionLevel(ErrorClass error);

using storage::IsDnsError;

// Whether a failure is worth a retry. A server that accepted the
// connection and then let the whole timeout pass (kTimeout) is retried
// only on request: each retry holds a slot for another full timeout, and
// such servers rarely answer the second time.
bool IsRetryableError(ErrorClass error, bool retry_timeouts);

// Retry-After (RFC 9110 §10.2.3): delta-seconds or an HTTP-date, as a wait
// from `now`; nullopt when it is neither. Absurd delays come back as a
// year, for the caller's cap to shorten.
std::optional<std::chrono::milliseconds> ParseRetryAfter(
    const std::string& value, std::time_t now = std::time(nullptr));

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_FETCH_ERRORS_H_
