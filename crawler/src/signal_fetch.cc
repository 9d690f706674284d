#include "signal_fetch.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <utility>

#include "endpoint_rules.h"
#include "robotscan/base/ascii.h"

namespace robotscan::crawler {
namespace {

std::string_view PathOf(std::string_view kind) {
  if (kind == "llms.txt") return "/llms.txt";
  if (kind == "tdmrep.json") return "/.well-known/tdmrep.json";
  return "/";
}

std::string OriginUrl(const UrlParts& origin) {
  const bool default_port = (origin.scheme == "https" && origin.port == 443) ||
                            (origin.scheme == "http" && origin.port == 80);
  std::string url = origin.scheme + "://" + BracketIfIpv6(origin.host);
  if (!default_port) url += ":" + std::to_string(origin.port);
  return url;
}

// The path of `url` ("/" for "https://a.test"), without query.
std::string_view PathOfUrl(std::string_view url) {
  const std::size_t scheme = url.find("://");
  if (scheme == std::string_view::npos) return "/";
  const std::size_t slash = url.find('/', scheme + 3);
  if (slash == std::string_view::npos) return "/";
  std::string_view path = url.substr(slash);
  const std::size_t end = path.find_first_of("?#");
  return end == std::string_view::npos ? path : path.substr(0, end);
}

}  // namespace

bool LooksLikeHtml(std::string_view content_type, std::string_view body) {
  const std::string mime = ToAsciiLower(
      StripAsciiWhitespace(content_type.substr(0, content_type.find(';'))));
  if (mime == "text/html" || mime == "application/xhtml+xml") return true;
  if (body.substr(0, 3) == "\xEF\xBB\xBF") body.remove_prefix(3);
  body = StripAsciiWhitespace(body);
  const std::string start = ToAsciiLower(body.substr(0, 16));
  for (const std::string_view tag :
       {"<!doctype html", "<html", "<head", "<body"}) {
    if (start.rfind(tag, 0) == 0) return true;
  }
  return false;
}

std::string ValidateTdmRep(std::string_view body) {
  const nlohmann::json json =
      nlohmann::json::parse(body.begin(), body.end(), nullptr,
                            /*allow_exceptions=*/false);
  if (json.is_discarded()) return "not JSON";
  if (!json.is_array()) return "not a JSON array";
  for (std::size_t i = 0; i < json.size(); ++i) {
    const nlohmann::json& entry = json[i];
    const std::string where = "entry " + std::to_string(i + 1) + ": ";
    if (!entry.is_object()) return where + "not an object";
    const auto location = entry.find("location");
    if (location == entry.end() || !location->is_string()) {
      return where + "no location string";
    }
    const auto reservation = entry.find("tdm-reservation");
    if (reservation == entry.end()) return where + "no tdm-reservation";
    if (!reservation->is_number_integer() ||
        (reservation->get<long long>() != 0 &&
         reservation->get<long long>() != 1)) {
      return where + "tdm-reservation is not 0 or 1";
    }
    const auto policy = entry.find("tdm-policy");
    if (policy != entry.end() && !policy->is_string()) {
      return where + "tdm-policy is not a string";
    }
  }
  return "";
}

void JudgeSignal(storage::SignalRecord* r) {
  r->present = false;
  r->absent_reason.clear();
  r->valid = -1;
  r->validation_error.clear();
  if (r->url.empty()) {
    r->absent_reason = "not-fetched";
    return;
  }
  if (r->error_class != ErrorClass::kNone) {
    // A redirect that goes nowhere usable still answered.
    r->absent_reason = r->http_status == 0 ? "no-response" : "status";
    return;
  }
  if (r->http_status < 200 || r->http_status > 299) {
    r->absent_reason = "status";
    return;
  }
  if (r->kind == "homepage") {
    r->present = true;
    return;
  }
  // A file asked for by name that ends on the site's front page is the
  // site saying "not here" (a soft 404), whatever the status.
  if (r->redirects > 0 && PathOfUrl(r->final_url) == "/") {
    r->absent_reason = "soft-404";
    return;
  }
  if (LooksLikeHtml(r->content_type, r->body)) {
    r->absent_reason = "html";
    return;
  }
  if (StripAsciiWhitespace(r->body).empty()) {
    r->absent_reason = "empty";
    return;
  }
  r->present = true;
  if (r->kind == "tdmrep.json") {
    r->validation_error =
        r->truncated ? "truncated at the body limit" : ValidateTdmRep(r->body);
    r->valid = r->validation_error.empty() ? 1 : 0;
  }
}

SignalFetch::SignalFetch(const FetchPolicy* policy,
                         const storage::FetchRecord& robots)
    : policy_(policy) {
  for (const storage::FetchStep& step : robots.steps) {
    if (step.http_status > 0 && SplitUrl(step.url, &origin_)) {
      reachable_ = true;
      break;
    }
  }
}

FetchAction SignalFetch::Start() { return StartSignal(); }

std::size_t SignalFetch::BodyLimit() const {
  return current_.kind == "homepage" ? kHomepageBodyLimitBytes
                                     : kSignalBodyLimitBytes;
}

FetchAction SignalFetch::StartSignal() {
  while (next_kind_ < std::size(kSignalKinds)) {
    current_ = storage::SignalRecord();
    current_.kind = std::string(kSignalKinds[next_kind_]);
    if (!reachable_) {
      // Nothing answered the robots.txt request: the host is not asked
      // again (no request, no politeness cost).
      JudgeSignal(&current_);
      records_.push_back(std::move(current_));
      ++next_kind_;
      continue;
    }
    current_.url = OriginUrl(origin_) + std::string(PathOf(current_.kind));
    visited_.clear();
    return StartHop(current_.url, origin_);
  }
  FetchAction done;
  done.kind = FetchAction::Kind::kFinished;
  return done;
}

FetchAction SignalFetch::StartHop(std::string url, UrlParts parts) {
  url_ = std::move(url);
  parts_ = std::move(parts);
  visited_.push_back(url_);
  FetchAction action;
  action.url = url_;
  action.parts = parts_;
  action.max_body = BodyLimit();
  if (policy_->via_proxy) {
    ip_.clear();
    action.kind = FetchAction::Kind::kTransfer;
    return action;
  }
  action.kind = FetchAction::Kind::kResolve;
  return action;
}

FetchAction SignalFetch::OnAddresses(const std::vector<std::string>& addresses,
                                     int connect_port, double /*dns_ms*/) {
  const std::string* allowed = FirstAllowedAddress(*policy_, addresses);
  if (allowed == nullptr) {
    return Fail(ErrorClass::kBlockedAddress,
                "resolves only to non-public addresses", 0);
  }
  ip_ = *allowed;
  FetchAction action;
  action.kind = FetchAction::Kind::kTransfer;
  action.url = url_;
  action.parts = parts_;
  action.ip = ip_;
  action.connect_port = connect_port;
  action.max_body = BodyLimit();
  return action;
}

FetchAction SignalFetch::OnResolveFailed(ErrorClass error,
                                         const std::string& message,
                                         double /*dns_ms*/) {
  return Fail(error, message, 0);
}

FetchAction SignalFetch::OnStartFailed(const std::string& message) {
  return Fail(ErrorClass::kOther, message, 0);
}

FetchAction SignalFetch::OnRetryDue() { return EndSignal(); }

FetchAction SignalFetch::OnTransferDone(TransferResult result) {
  storage::SignalRecord& r = current_;
  if (result.error != ErrorClass::kNone) {
    return Fail(result.error, result.error_message, result.http_status);
  }
  r.http_status = result.http_status;
  r.final_url = url_;
  r.error_class = ErrorClass::kNone;
  r.error_message.clear();
  const int status = result.http_status;
  if (status >= 300 && status < 400 && status != 304 &&
      !result.redirect_url.empty()) {
    UrlParts parts;
    std::string ascii_next;
    if (r.redirects >= policy_->max_redirects) {
      return Fail(
          ErrorClass::kTooManyRedirects,
          "more than " + std::to_string(policy_->max_redirects) + " redirects",
          status);
    }
    if (!SplitUrl(result.redirect_url, &parts, &ascii_next) ||
        (parts.scheme != "http" && parts.scheme != "https")) {
      return Fail(ErrorClass::kRedirectScheme,
                  "redirect to a non-HTTP URL: " + result.redirect_url, status);
    }
    if (std::find(visited_.begin(), visited_.end(), ascii_next) !=
        visited_.end()) {
      return Fail(ErrorClass::kRedirectLoop,
                  "redirect loop at " + result.redirect_url, status);
    }
    ++r.redirects;
    return StartHop(std::move(ascii_next), std::move(parts));
  }
  const ResponseHeaders& h = result.headers;
  r.content_type = h.content_type;
  r.x_robots_tag = h.x_robots_tag;
  r.content_usage = h.content_usage;
  r.tdm_reservation = h.tdm_reservation;
  r.tdm_policy = h.tdm_policy;
  r.bytes = static_cast<std::int64_t>(result.body.size());
  r.truncated = result.truncated;
  r.body = std::move(result.body);
  JudgeSignal(&r);
  // The homepage's body was read only to end the transfer; a non-file
  // answer (an error page, HTML) is not kept either.
  if (r.kind == "homepage" || !r.present) r.body.clear();
  return EndSignal();
}

FetchAction SignalFetch::Fail(ErrorClass error, const std::string& message,
                              int http_status) {
  current_.error_class = error;
  current_.error_message = message;
  current_.http_status = http_status;
  if (http_status > 0) current_.final_url = url_;
  JudgeSignal(&current_);
  current_.body.clear();
  return EndSignal();
}

FetchAction SignalFetch::EndSignal() {
  records_.push_back(std::move(current_));
  ++next_kind_;
  return StartSignal();
}

}  // namespace robotscan::crawler
