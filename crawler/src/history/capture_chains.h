// Redirect chains among the HTTP responses of one WARC file: a capture of
// /robots.txt starts a chain; a 3xx whose Location (resolved against its
// URL) is captured later in the file, within `window` records, is linked
// to that capture, hop by hop, as the crawler follows a chain (fetch_step
// per hop). A chain ends at a response that is no redirect, at a redirect
// the crawler would not follow (another scheme, a loop, more than
// max_redirects hops), or when its target has not come within the window.
// Responses that neither start nor continue a chain are reported as such.
//
// The window bounds memory and keeps a file's import deterministic: the
// importer commits a batch only when no chain is open, so a resumed import
// starts from the same (empty) state as the first one did.
//
// Thread-safety: one per file, used by one thread.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_CAPTURE_CHAINS_H_
#define ROBOTSCAN_CRAWLER_HISTORY_CAPTURE_CHAINS_H_

#include <cstdint>
#include <list>
#include <string>
#include <vector>

#include "history/http_capture.h"
#include "robotscan/storage/fetch_classes.h"

namespace robotscan::crawler::history {

// One HTTP response record, read.
struct Capture {
  std::string url;           // WARC-Target-URI, as libcurl normalizes it.
  std::string host;          // Its host, normalized (lower case, punycode).
  bool robots_path = false;  // The path is /robots.txt (no query).
  std::string date;          // WARC-Date as written.
  std::int64_t offset = 0;   // Of its record in the file.
  std::string ip;            // WARC-IP-Address.
  CapturedResponse response;
  // For a 3xx: its Location resolved against url, normalized; empty when
  // there is none or it cannot be resolved.
  std::string redirect_url;
  bool redirect_is_http = false;  // redirect_url is http(s).
};

// A finished chain, first capture first, with why it ended unresolved
// (kNone when its last capture is no redirect).
struct CaptureChain {
  std::vector<Capture> hops;
  storage::ErrorClass unresolved = storage::ErrorClass::kNone;
  std::string unresolved_message;
};

class CaptureChains {
 public:
  explicit CaptureChains(int window = 64, int max_redirects = 5)
      : window_(window), max_redirects_(max_redirects) {}

  enum class Added : std::uint8_t { kStarted, kLinked, kNotRobotsTxt };
  // Adds the next response of the file; chains it ends go to *finished.
  Added Add(Capture capture, std::vector<CaptureChain>* finished);
  // Counts a record that is no response (chains age by records).
  void Tick(std::vector<CaptureChain>* finished);
  // Ends every open chain (the end of the file, a forced commit).
  void FinishAll(std::vector<CaptureChain>* finished);
  bool empty() const { return open_.empty(); }

 private:
  struct Open {
    CaptureChain chain;
    std::int64_t last_seen = 0;  // Record count at its last hop.
  };
  // Ends `chain` (its last hop a redirect) or keeps it open for its target.
  void Continue(Open open, std::vector<CaptureChain>* finished);
  void Expire(std::vector<CaptureChain>* finished);

  int window_;
  int max_redirects_;
  std::int64_t seen_ = 0;
  std::list<Open> open_;  // Oldest first; at most `window` long.
};

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_CAPTURE_CHAINS_H_
