#include "history/wayback_snapshot.h"

#include <algorithm>
#include <utility>

#include "fetch_machine.h"
#include "robotscan/robots/access_policy.h"

namespace robotscan::crawler::history {
namespace {

bool IsStatusCode(std::string_view s) {
  return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

bool IsReplay(const ArchiveResponse& response) {
  if (!response.Header("memento-datetime").empty()) return true;
  return std::any_of(
      response.headers.begin(), response.headers.end(),
      [](const auto& h) { return h.first.rfind("x-archive-orig-", 0) == 0; });
}

// A Location the archive rewrote into its own space
// (BASE/web/<timestamp>[id_]/<original>) back to the original URL.
std::string OriginalLocation(std::string_view location, std::string_view base) {
  const std::string prefix = std::string(base) + "/web/";
  std::string_view rest = location;
  if (rest.rfind(prefix, 0) == 0) {
    rest.remove_prefix(prefix.size());
  } else if (rest.rfind("/web/", 0) == 0) {
    rest.remove_prefix(5);
  } else {
    return std::string(location);
  }
  const std::size_t slash = rest.find('/');
  return slash == std::string_view::npos ? std::string(location)
                                         : std::string(rest.substr(slash + 1));
}

}  // namespace

SnapshotOutcome ReadSnapshot(const CdxCapture& capture,
                             const ArchiveResponse& response,
                             std::string_view base, std::size_t max_body,
                             storage::FetchRecord* r, std::string* why) {
  if (!IsReplay(response)) {
    if (response.status == 429 || response.status >= 500) {
      *why = "the archive answered HTTP " + std::to_string(response.status) +
             " to every try";
      return SnapshotOutcome::kFailed;
    }
    *why = "the archive answered HTTP " + std::to_string(response.status) +
           " (" + response.Header("content-type") +
           ") with a page of its own, not the capture of " + capture.timestamp;
    return SnapshotOutcome::kArchiveError;
  }
  // The CDX row says what the site answered; a revisit's ("-") is the
  // replay's, which is the revisited capture's.
  const int status = IsStatusCode(capture.statuscode)
                         ? std::stoi(capture.statuscode)
                         : static_cast<int>(response.status);
  auto original = [&](const char* name) {
    return response.Header(std::string("x-archive-orig-") + name);
  };
  ResponseHeaders headers;
  headers.content_type = original("content-type");
  if (headers.content_type.empty() && capture.mimetype != "unk" &&
      capture.mimetype != "warc/revisit") {
    headers.content_type = capture.mimetype;
  }
  if (headers.content_type.empty()) {
    headers.content_type = response.Header("content-type");
  }
  headers.content_encoding = original("content-encoding");
  headers.content_length = original("content-length");
  headers.cache_control = original("cache-control");
  headers.expires = original("expires");
  headers.last_modified = original("last-modified");
  headers.etag = original("etag");
  headers.retry_after = original("retry-after");
  headers.location = original("location");
  if (headers.location.empty()) {
    headers.location = OriginalLocation(response.Header("location"), base);
  }
  r->url = capture.original;
  r->final_url = capture.original;
  r->http_status = status;
  const bool redirect = status >= 300 && status <= 399;
  robots::HttpOutcome outcome;
  outcome.status = status;
  outcome.redirects_unresolved = redirect;
  r->access = robots::ClassifyHttpOutcome(outcome);
  if (redirect) {
    // The target was captured (or not) at another time; following it
    // would mix two captures into one fetch.
    r->redirects = 1;
    r->error_class = storage::ErrorClass::kOther;
    r->error_message =
        "a captured redirect; its target is not followed in the archive";
  }
  if (status >= 200 && status <= 299) {
    r->body = response.body;
    r->truncated = response.truncated || r->body.size() > max_body;
    if (r->body.size() > max_body) r->body.resize(max_body);
  }
  CopyResponseHeaders(headers, r);
  storage::FetchStep step;
  step.url = capture.original;
  step.http_status = status;
  step.location = headers.location;
  step.error_class = r->error_class;
  step.error_message = r->error_message;
  step.total_ms = -1;
  r->steps.push_back(std::move(step));
  r->fetched_at = CaptureTimeOf(capture.timestamp);
  r->source = storage::FetchSource::kWayback;
  r->source_timestamp = capture.timestamp;
  return SnapshotOutcome::kFetch;
}

}  // namespace robotscan::crawler::history
