#include "fetch_machine.h"

#include <algorithm>
#include <utility>

#include "endpoint_rules.h"
#include "fetch_errors.h"

namespace robotscan::crawler {

FetchPolicy FetchPolicyFrom(const CrawlPlan& plan) {
  const CrawlOptions& options = plan.options;
  FetchPolicy policy;
  policy.schemes = plan.schemes;
  policy.www_fallback = options.www_fallback;
  policy.max_redirects = std::max(options.max_redirects, 5);
  policy.retries = options.retries;
  policy.retry_timeouts = options.retry_timeouts;
  policy.retry_delay = options.retry_delay;
  policy.max_retry_after = options.max_retry_after;
  policy.allow_private_addresses = options.allow_private_addresses;
  policy.via_proxy = !options.proxy.empty();
  policy.signals = options.signals;
  return policy;
}

const std::string* FirstAllowedAddress(
    const FetchPolicy& policy, const std::vector<std::string>& addresses) {
  for (const std::string& address : addresses) {
    if (policy.allow_private_addresses || IsPublicAddress(address)) {
      return &address;
    }
  }
  return nullptr;
}

DomainFetch::DomainFetch(const FetchPolicy* policy, std::string strategy,
                         TopListEntry entry,
                         std::optional<storage::PreviousFetch> previous,
                         std::mt19937* random)
    : policy_(policy),
      entry_(std::move(entry)),
      previous_(std::move(previous)),
      random_(random) {
  // Start URLs split once, here: parsing a URL costs more than the rest of
  // starting a transfer.
  const auto add_start = [this](Scheme scheme, const std::string& host) {
    const std::string name(SchemeName(scheme));
    start_urls_.push_back(name + "://" + host + "/robots.txt");
    start_parts_.push_back(
        UrlParts{name, host, scheme == Scheme::kHttps ? 443 : 80});
  };
  for (const Scheme scheme : policy_->schemes) {
    add_start(scheme, entry_.domain);
  }
  if (policy_->www_fallback && entry_.domain.rfind("www.", 0) != 0) {
    for (const Scheme scheme : policy_->schemes) {
      add_start(scheme, "www." + entry_.domain);
    }
  }
  record_.domain = entry_.domain;
  record_.rank = entry_.rank;
  record_.url = start_urls_.empty() ? "" : start_urls_.front();
  record_.strategy = std::move(strategy);
}

FetchAction DomainFetch::Start() {
  if (start_urls_.empty()) {
    return FailStep(ErrorClass::kOther, "no scheme to try", 0);
  }
  return StartUrl();
}

FetchAction DomainFetch::StartUrl() {
  redirects_ = 0;
  visited_.clear();
  return StartHop(start_urls_[start_index_], start_parts_[start_index_]);
}

FetchAction DomainFetch::StartHop(std::string url, UrlParts parts) {
  url_ = std::move(url);
  parts_ = std::move(parts);
  visited_.push_back(url_);
  FetchAction action;
  action.url = url_;
  action.parts = parts_;
  if (policy_->via_proxy) {
    // The proxy resolves and connects; our address policy cannot see
    // where, so it does not apply (documented).
    ip_.clear();
    action.kind = FetchAction::Kind::kTransfer;
    action.conditional = previous_ && redirects_ == 0 && previous_->has_body;
    return action;
  }
  action.kind = FetchAction::Kind::kResolve;
  return action;
}

FetchAction DomainFetch::OnAddresses(const std::vector<std::string>& addresses,
                                     int connect_port, double dns_ms) {
  dns_ms_ = dns_ms;
  const std::string* allowed = FirstAllowedAddress(*policy_, addresses);
  if (allowed == nullptr) {
    ip_ = addresses.empty() ? "" : addresses.front();
    return FailStep(ErrorClass::kBlockedAddress,
                    "resolves only to non-public addresses (" + ip_ +
                        "); see --allow-private-addresses",
                    0);
  }
  ip_ = *allowed;
  FetchAction action;
  action.kind = FetchAction::Kind::kTransfer;
  action.url = url_;
  action.parts = parts_;
  action.ip = ip_;
  action.connect_port = connect_port;
  action.conditional = previous_ && redirects_ == 0 && previous_->has_body;
  return action;
}

FetchAction DomainFetch::OnResolveFailed(ErrorClass error,
                                         const std::string& message,
                                         double dns_ms) {
  dns_ms_ = dns_ms;
  return FailStep(error, message, 0);
}

FetchAction DomainFetch::OnStartFailed(const std::string& message) {
  return FailStep(ErrorClass::kOther, message, 0);
}

FetchAction DomainFetch::OnTransferDone(TransferResult result) {
  storage::FetchRecord& r = record_;
  r.dns_ms = dns_ms_;
  r.connect_ms = result.connect_ms;
  r.tls_ms = result.tls_ms;
  r.first_byte_ms = result.first_byte_ms;
  r.total_ms = result.total_ms;
  r.ip = ip_;
  last_headers_ = std::move(result.headers);
  last_body_ = std::move(result.body);

  if (result.error != ErrorClass::kNone) {
    // A response may have begun (reset mid-body, bad chunking, stall): its
    // status is kept, it is still a network error.
    return FailStep(result.error, result.error_message, result.http_status);
  }

  if (result.http_status < 100 || result.http_status > 599) {
    // libcurl takes any three digits; an answer outside HTTP's status
    // classes (RFC 9110 §15) is a broken answer, not a server error to
    // retry.
    return FailStep(ErrorClass::kProtocol,
                    "HTTP status " + std::to_string(result.http_status) +
                        " is outside 100-599",
                    result.http_status);
  }

  storage::FetchStep step;
  step.url = url_;
  step.http_status = result.http_status;
  step.location = last_headers_.location;
  step.ip = ip_;
  step.total_ms = r.total_ms;
  r.steps.push_back(std::move(step));
  r.http_status = result.http_status;
  r.final_url = url_;
  r.error_class = ErrorClass::kNone;
  r.error_message.clear();

  const int status = result.http_status;
  if (status >= 300 && status < 400 && status != 304 &&
      !result.redirect_url.empty()) {
    const std::string& next = result.redirect_url;
    ++redirects_;
    if (redirects_ > policy_->max_redirects) {
      return FinishUnresolvedRedirect(
          ErrorClass::kTooManyRedirects,
          "more than " + std::to_string(policy_->max_redirects) + " redirects");
    }
    UrlParts parts;
    std::string ascii_next;
    if (!SplitUrl(next, &parts, &ascii_next) ||
        (parts.scheme != "http" && parts.scheme != "https")) {
      return FinishUnresolvedRedirect(ErrorClass::kRedirectScheme,
                                      "redirect to a non-HTTP URL: " + next);
    }
    if (std::find(visited_.begin(), visited_.end(), ascii_next) !=
        visited_.end()) {
      return FinishUnresolvedRedirect(ErrorClass::kRedirectLoop,
                                      "redirect loop at " + next);
    }
    retries_used_ = 0;
    return StartHop(std::move(ascii_next), std::move(parts));
  }
  if ((status >= 500 || status == 429) && retries_used_ < policy_->retries) {
    // (status <= 599: see above.)
    return ScheduleRetry(ParseRetryAfter(last_headers_.retry_after));
  }
  r.truncated = result.truncated;
  return Finish(/*network_error=*/false, /*redirects_unresolved=*/false);
}

FetchAction DomainFetch::OnRetryDue() {
  visited_.pop_back();  // The same URL again is not a loop.
  std::string url = url_;
  UrlParts parts = parts_;
  return StartHop(std::move(url), std::move(parts));
}

// Records a failed step and decides what follows: the next start URL, a
// retry, or the end.
FetchAction DomainFetch::FailStep(ErrorClass error, const std::string& message,
                                  int http_status) {
  storage::FetchRecord& r = record_;
  storage::FetchStep step;
  step.url = url_;
  step.http_status = http_status;
  step.error_class = error;
  step.error_message = message;
  step.ip = ip_;
  r.steps.push_back(std::move(step));
  r.error_class = error;
  r.error_message = message;
  r.http_status = http_status;
  if (http_status > 0) r.final_url = url_;

  if (http_status == 0 && redirects_ == 0 &&
      start_index_ + 1 < start_urls_.size() &&
      (IsConnectionLevel(error) || error == ErrorClass::kBlockedAddress ||
       IsDnsError(error))) {
    // A DNS failure or a blocked address rules out the same host's URLs.
    std::size_t next = start_index_ + 1;
    if (IsDnsError(error) || error == ErrorClass::kBlockedAddress) {
      const std::string& failed = start_parts_[start_index_].host;
      while (next < start_urls_.size() && start_parts_[next].host == failed) {
        ++next;
      }
    }
    if (next < start_urls_.size()) {
      start_index_ = next;
      retries_used_ = 0;
      return StartUrl();
    }
  }
  if (IsRetryableError(error, policy_->retry_timeouts) &&
      retries_used_ < policy_->retries) {
    return ScheduleRetry(std::nullopt);
  }
  return Finish(/*network_error=*/true, /*redirects_unresolved=*/false);
}

FetchAction DomainFetch::ScheduleRetry(
    std::optional<std::chrono::milliseconds> retry_after) {
  ++retries_used_;
  ++retries_total_;
  auto delay = policy_->retry_delay * (1 << std::min(retries_used_ - 1, 10));
  if (random_ != nullptr) {
    // Jitter (0.5x-1.5x) so that retries of one provider's sites spread
    // out.
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    delay = std::chrono::milliseconds(static_cast<long>(
        static_cast<double>(delay.count()) * jitter(*random_)));
  }
  if (retry_after) {
    delay = std::max(delay, std::min(*retry_after, policy_->max_retry_after));
  }
  FetchAction action;
  action.kind = FetchAction::Kind::kWaitRetry;
  action.url = url_;
  action.delay = delay;
  return action;
}

FetchAction DomainFetch::FinishUnresolvedRedirect(ErrorClass error,
                                                  std::string message) {
  record_.error_class = error;
  record_.error_message = std::move(message);
  return Finish(/*network_error=*/false, /*redirects_unresolved=*/true);
}

void CopyResponseHeaders(const ResponseHeaders& h, storage::FetchRecord* r) {
  r->content_type = h.content_type;
  r->content_encoding = h.content_encoding;
  r->content_length = h.content_length;
  r->cache_control = h.cache_control;
  r->expires = h.expires;
  r->last_modified = h.last_modified;
  r->etag = h.etag;
  r->retry_after = h.retry_after;
}

FetchAction DomainFetch::Finish(bool network_error, bool redirects_unresolved) {
  storage::FetchRecord& r = record_;
  r.redirects = redirects_;
  r.attempts = 1 + retries_total_;
  r.ip = ip_;
  // The last lookup's time, also when it failed (a dns_timeout's wait).
  r.dns_ms = dns_ms_;
  if (r.http_status > 0) CopyResponseHeaders(last_headers_, &r);
  if (r.http_status == 304 && previous_ && previous_->has_body) {
    r.not_modified = true;
    r.body_from_fetch_id = previous_->fetch_id;
    access_ = previous_->access;
    // A 304 carries no validators of its own in some servers; keep the
    // previous ones so the next conditional request still works.
    if (r.etag.empty()) r.etag = previous_->etag;
    if (r.last_modified.empty()) r.last_modified = previous_->last_modified;
  } else {
    robots::HttpOutcome outcome;
    outcome.status = r.http_status;
    outcome.network_error = network_error;
    outcome.redirects_unresolved = redirects_unresolved;
    access_ = robots::ClassifyHttpOutcome(outcome);
    if (r.http_status >= 200 && r.http_status < 300 && !network_error) {
      r.body = std::move(last_body_);
    }
  }
  r.access = access_;
  FetchAction action;
  action.kind = FetchAction::Kind::kFinished;
  return action;
}

}  // namespace robotscan::crawler
