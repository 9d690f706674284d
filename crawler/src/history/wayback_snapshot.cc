#include "history/wayback_snapshot.h"

#include <algorithm>
#include <utility>

#include "curl_handles.h"
#include "fetch_machine.h"
#include "robotscan/robots/access_policy.h"

namespace robotscan::crawler::history {
namespace {

bool IsStatusCode(std::string_view s) {
  return s.size() == 3 && std::all_of(s.begin(), s.end(), [](char c) {
           return c >= '0' && c <= '9';
         });
}

bool IsRedirect(long status) { return status >= 300 && status <= 399; }

bool IsReplay(const ArchiveResponse& response) {
  if (!response.Header("memento-datetime").empty()) return true;
  return std::any_of(
      response.headers.begin(), response.headers.end(),
      [](const auto& h) { return h.first.rfind("x-archive-orig-", 0) == 0; });
}

// `reference` resolved against `base` (RFC 3986 §5, libcurl's URL API);
// "" when either cannot be read.
std::string ResolvedUrl(const std::string& base, const std::string& reference) {
  CurlUrl url(curl_url());
  if (url == nullptr || reference.empty() ||
      curl_url_set(url.get(), CURLUPART_URL, base.c_str(), 0) != CURLUE_OK ||
      curl_url_set(url.get(), CURLUPART_URL, reference.c_str(),
                   CURLU_URLENCODE) != CURLUE_OK) {
    return "";
  }
  char* text = nullptr;
  if (curl_url_get(url.get(), CURLUPART_URL, &text, 0) != CURLUE_OK) return "";
  std::string out(text);
  curl_free(text);
  return out;
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

// The 14-digit timestamp of a snapshot URL (BASE/web/<timestamp>id_/...),
// or "".
std::string TimestampInUrl(std::string_view url, std::string_view base) {
  const std::string prefix = std::string(base) + "/web/";
  if (url.rfind(prefix, 0) != 0) return "";
  std::string_view rest = url.substr(prefix.size());
  std::size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') {
    ++digits;
  }
  return digits == 14 ? std::string(rest.substr(0, 14)) : "";
}

// The site's headers as the archive replays them (X-Archive-Orig-*).
ResponseHeaders SiteHeaders(const ArchiveResponse& response,
                            std::string_view base) {
  auto original = [&](const char* name) {
    return response.Header(std::string("x-archive-orig-") + name);
  };
  ResponseHeaders headers;
  headers.content_type = original("content-type");
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
  return headers;
}

}  // namespace

SnapshotChain::SnapshotChain(CdxCapture first, std::string base,
                             std::function<bool(std::string_view)> in_period,
                             std::size_t max_body)
    : first_(std::move(first)),
      base_(std::move(base)),
      in_period_(std::move(in_period)),
      max_body_(max_body),
      next_url_(SnapshotUrl(base_, first_)),
      next_original_(first_.original) {}

void SnapshotChain::Stop(storage::ErrorClass error, std::string message) {
  unresolved_ = error;
  unresolved_message_ = std::move(message);
  next_url_.clear();
}

void SnapshotChain::Answer(const ArchiveResponse& response) {
  if (!IsReplay(response)) {
    // The archive's own redirect to the capture nearest the time asked.
    if (IsRedirect(response.status) &&
        archive_redirects_ < kMaxArchiveRedirects) {
      const std::string to =
          ResolvedUrl(next_url_, response.Header("location"));
      if (to.rfind(base_ + "/web/", 0) == 0) {
        ++archive_redirects_;
        next_url_ = to;
        return;
      }
    }
    const std::string answer = "HTTP " + std::to_string(response.status);
    if (hops_.empty()) {
      not_replayed_ = true;
      archive_answer_ = response;
      next_url_.clear();
    } else if (response.status == 429 || response.status >= 500) {
      failed_ = true;
      Stop(storage::ErrorClass::kOther, "the archive answered " + answer +
                                            " for " + next_original_ +
                                            " to every try");
    } else {
      Stop(storage::ErrorClass::kOther,
           "the redirect's target " + next_original_ +
               " is not in the archive (" + answer + ")");
    }
    return;
  }
  std::string timestamp = TimestampInUrl(next_url_, base_);
  if (timestamp.empty()) timestamp = first_.timestamp;
  if (!hops_.empty() && !in_period_(timestamp)) {
    Stop(storage::ErrorClass::kOther,
         "the redirect's target " + next_original_ +
             " was captured only outside the period (nearest: " + timestamp +
             ")");
    return;
  }
  Hop hop;
  hop.timestamp = timestamp;
  hop.url = next_original_;
  // The CDX row says what the site answered; a revisit's ("-") is the
  // replay's, which is the revisited capture's.
  hop.status = hops_.empty() && IsStatusCode(first_.statuscode)
                   ? std::stoi(first_.statuscode)
                   : static_cast<int>(response.status);
  hop.response = response;
  hops_.push_back(std::move(hop));
  archive_redirects_ = 0;
  const Hop& last = hops_.back();
  if (!IsRedirect(last.status)) {
    next_url_.clear();
    return;
  }
  const std::string location = SiteHeaders(last.response, base_).location;
  const std::string target = ResolvedUrl(last.url, location);
  if (location.empty() || target.empty()) {
    Stop(storage::ErrorClass::kOther,
         location.empty()
             ? "a captured redirect without a Location"
             : "a captured redirect to '" + location + "', which is no URL");
    return;
  }
  if (target.rfind("http://", 0) != 0 && target.rfind("https://", 0) != 0) {
    Stop(storage::ErrorClass::kRedirectScheme,
         "a captured redirect to " + target + ", neither http nor https");
    return;
  }
  if (hops_.size() > kMaxRedirects) {
    Stop(storage::ErrorClass::kTooManyRedirects,
         "more than " + std::to_string(kMaxRedirects) + " captured redirects");
    return;
  }
  for (const Hop& earlier : hops_) {
    if (earlier.url == target) {
      Stop(storage::ErrorClass::kRedirectLoop,
           "captured redirects loop back to " + target);
      return;
    }
  }
  // The target as it was nearest the first capture's time: the archive
  // redirects to that capture.
  next_original_ = target;
  next_url_ = base_ + "/web/" + first_.timestamp + "id_/" + target;
}

SnapshotOutcome SnapshotChain::Finish(storage::FetchRecord* r,
                                      std::string* why) {
  if (not_replayed_) {
    const ArchiveResponse& a = archive_answer_;
    if (a.status == 429 || a.status >= 500) {
      *why = "the archive answered HTTP " + std::to_string(a.status) +
             " to every try";
      return SnapshotOutcome::kFailed;
    }
    *why = "the archive answered HTTP " + std::to_string(a.status) + " (" +
           a.Header("content-type") +
           ") with a page of its own, not the capture of " + first_.timestamp;
    return SnapshotOutcome::kArchiveError;
  }
  if (failed_ || hops_.empty()) {
    *why = unresolved_message_.empty() ? "no answer" : unresolved_message_;
    return SnapshotOutcome::kFailed;
  }
  const Hop& last = hops_.back();
  ResponseHeaders headers = SiteHeaders(last.response, base_);
  if (headers.content_type.empty() && hops_.size() == 1 &&
      first_.mimetype != "unk" && first_.mimetype != "warc/revisit") {
    headers.content_type = first_.mimetype;
  }
  if (headers.content_type.empty()) {
    headers.content_type = last.response.Header("content-type");
  }
  r->url = first_.original;
  r->final_url = last.url;
  r->http_status = last.status;
  const bool unresolved = IsRedirect(last.status);
  r->redirects = static_cast<int>(hops_.size()) - 1 + (unresolved ? 1 : 0);
  robots::HttpOutcome outcome;
  outcome.status = last.status;
  outcome.redirects_unresolved = unresolved;
  r->access = robots::ClassifyHttpOutcome(outcome);
  if (unresolved) {
    r->error_class = unresolved_ == storage::ErrorClass::kNone
                         ? storage::ErrorClass::kOther
                         : unresolved_;
    r->error_message = unresolved_message_;
  }
  if (last.status >= 200 && last.status <= 299) {
    r->body = last.response.body.substr(0, max_body_);
    r->truncated =
        last.response.truncated || last.response.body.size() > max_body_;
  }
  CopyResponseHeaders(headers, r);
  for (const Hop& hop : hops_) {
    storage::FetchStep step;
    step.url = hop.url;
    step.http_status = hop.status;
    step.location = SiteHeaders(hop.response, base_).location;
    step.total_ms = -1;
    r->steps.push_back(std::move(step));
  }
  r->fetched_at = CaptureTimeOf(first_.timestamp);
  r->source = storage::FetchSource::kWayback;
  r->source_timestamp = first_.timestamp;
  return SnapshotOutcome::kFetch;
}

}  // namespace robotscan::crawler::history
