// Polite GETs to one archive host (the Wayback Machine) from several
// worker threads: each request waits for the host-wide pause a 429 or 503
// asked for (Retry-After, seconds or an HTTP date) and for its kind's
// pace (a minimum gap between request starts), and is tried again on a
// 429, a 5xx or a failed transfer. Not crawler::Download: that follows
// redirects (a snapshot's 3xx is the capture, to be recorded, not
// followed), refuses a body over its cap (a snapshot is cut, as a crawl
// cuts it) and keeps no headers but two (a snapshot's X-Archive-Orig-*
// are the site's).
//
// The number of requests in flight is bounded by the caller: each worker
// thread makes one request at a time.
//
// Thread-safety: Get may be called from any number of threads.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_ARCHIVE_CLIENT_H_
#define ROBOTSCAN_CRAWLER_HISTORY_ARCHIVE_CLIENT_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "robotscan/base/status.h"

namespace robotscan::crawler::history {

struct ArchiveResponse {
  long status = 0;
  // The response's header lines, names lower-cased, in order.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;  // Decoded (Content-Encoding), at most the cap.
  bool truncated = false;
  int tries = 1;

  // The first header of that (lower-case) name, or "".
  std::string Header(std::string_view name) const;
};

struct ArchiveClientOptions {
  std::string user_agent;
  std::chrono::seconds timeout{120};
  int max_tries = 6;
  // Without a Retry-After: 2 s, doubled per try, at most this.
  std::chrono::seconds max_backoff{120};
  // Stops waiting and abandons transfers when it returns true.
  std::function<bool()> cancelled;
};

// A minimum gap between the starts of requests of one kind (CDX queries,
// snapshots), whatever thread makes them.
struct RequestPace {
  explicit RequestPace(double per_second)
      : gap(per_second > 0 ? std::chrono::nanoseconds(
                                 static_cast<std::int64_t>(1e9 / per_second))
                           : std::chrono::nanoseconds(0)) {}
  std::chrono::nanoseconds gap;
  std::chrono::steady_clock::time_point next{};  // Guarded by the client.
};

class ArchiveClient {
 public:
  explicit ArchiveClient(ArchiveClientOptions options)
      : options_(std::move(options)) {}
  ArchiveClient(const ArchiveClient&) = delete;
  ArchiveClient& operator=(const ArchiveClient&) = delete;

  // The answer, once it is not a 429, a 5xx or a failed transfer, or once
  // max_tries have been made (then the last answer, or its transfer's
  // error: kIoError naming the URL). `body_cap`: bytes of the body kept;
  // a longer body is cut (truncated) when `cut_long_bodies`, refused
  // (kInvalidInput) otherwise. kIoError "cancelled" once
  // options.cancelled() says so. `*retries` counts the tries after the
  // first.
  Result<ArchiveResponse> Get(const std::string& url, RequestPace* pace,
                              std::size_t body_cap, bool cut_long_bodies,
                              std::int64_t* retries);

 private:
  // Sleeps until the pause and the pace allow a start; false if
  // cancelled meanwhile.
  bool WaitForTurn(RequestPace* pace);
  // One transfer.
  Result<ArchiveResponse> Transfer(const std::string& url, std::size_t body_cap,
                                   bool cut_long_bodies);
  // Every worker waits `wait` from now before its next request.
  void PauseFor(std::chrono::steady_clock::duration wait);
  bool cancelled() const { return options_.cancelled && options_.cancelled(); }

  const ArchiveClientOptions options_;
  std::mutex mutex_;  // Guards paused_until_ and every RequestPace::next.
  std::chrono::steady_clock::time_point paused_until_{};
};

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_ARCHIVE_CLIENT_H_
