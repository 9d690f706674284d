// robotscan::crawler download — one blocking HTTP(S) GET of a whole
// document: a top list, an agent registry, a file a command names by URL.
// Not the crawl's fetch (fetch_machine.h): no robots.txt semantics, no
// politeness, no concurrency; redirects are followed (at most 5, http and
// https only) and the body is decoded (gzip, br, zstd, deflate).
//
// Usage:
//   robotscan::crawler::NetworkLibraries libraries;  // once per process
//   robotscan::crawler::DownloadRequest request;
//   request.url = "https://example.org/robots.json";
//   robotscan::Result<robotscan::crawler::Downloaded> file =
//       robotscan::crawler::Download(request);
//   if (!file.ok()) return file.status();
//   const bool found = file->http_status == 200;  // any status is an answer
//
// Thread-safety: Download may run on several threads at once (one easy
// handle each), once curl_global_init has run (NetworkLibraries).
#ifndef ROBOTSCAN_CRAWLER_DOWNLOAD_H_
#define ROBOTSCAN_CRAWLER_DOWNLOAD_H_

#include <chrono>
#include <cstddef>
#include <string>

#include "robotscan/base/status.h"

namespace robotscan::crawler {

struct DownloadRequest {
  std::string url;
  std::chrono::seconds timeout{600};
  std::size_t max_bytes = 256u << 20;  // The decoded body's size cap.
  std::string user_agent;              // Empty: DefaultUserAgent().
};

struct Downloaded {
  long http_status = 0;  // The last response's, after redirects.
  std::string body;      // Decoded.
  std::string content_type;
  std::string last_modified;  // The header as sent; empty if none.
};

// Any completed response, whatever its status (the caller decides what a
// 404 means). Errors: kInvalidInput (a body larger than max_bytes),
// kIoError (the transfer failed: DNS, refused, TLS, timeout; the message
// names the URL and libcurl's reason), kNetwork (libcurl could not be set
// up).
Result<Downloaded> Download(const DownloadRequest& request);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_DOWNLOAD_H_
