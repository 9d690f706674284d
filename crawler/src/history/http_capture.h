// The HTTP response inside a WARC response record (its "application/http"
// block), read the way the crawler keeps a live response: the status, the
// headers the crawl database keeps (fetch_machine.h's ResponseHeaders),
// and the body decoded and cut at the body cap with the truncated flag.
//
// Two writers, two conventions. GNU Wget (and most archivers) keep the
// bytes as they came: the body may be chunked and content-encoded, and is
// decoded here (chunked; gzip, x-gzip and deflate; another encoding is a
// `protocol` error, as a live fetch the crawler cannot decode would be).
// Common Crawl keeps the body decoded and renames the headers it undid to
// X-Crawler-Transfer-Encoding, X-Crawler-Content-Encoding and
// X-Crawler-Content-Length: the body is taken as it is, and the renamed
// headers are recorded as what the server sent.
//
// Thread-safety: a pure function.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_HTTP_CAPTURE_H_
#define ROBOTSCAN_CRAWLER_HISTORY_HTTP_CAPTURE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "fetch_machine.h"

namespace robotscan::crawler::history {

struct CapturedResponse {
  int http_status = 0;
  ResponseHeaders headers;
  std::string body;  // Decoded, at most max_body bytes.
  bool truncated = false;
  // kProtocol when the body could not be decoded (broken chunking or
  // content encoding, an encoding not supported); the body is then empty.
  ErrorClass error = ErrorClass::kNone;
  std::string error_message;
};

// Reads `block`. `block_truncated`: the record's block was longer than
// what was kept (the body is then cut, never an error). False, with
// *why, when the block is no HTTP response (no status line, no end of
// the header).
bool ReadCapturedResponse(std::string_view block, bool block_truncated,
                          std::size_t max_body, CapturedResponse* response,
                          std::string* why);

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_HTTP_CAPTURE_H_
