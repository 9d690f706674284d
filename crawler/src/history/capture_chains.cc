#include "history/capture_chains.h"

#include <utility>

namespace robotscan::crawler::history {

using storage::ErrorClass;

void CaptureChains::Expire(std::vector<CaptureChain>* finished) {
  while (!open_.empty() && seen_ - open_.front().last_seen > window_) {
    CaptureChain chain = std::move(open_.front().chain);
    chain.unresolved = ErrorClass::kOther;
    chain.unresolved_message = "the redirect's target was not captured nearby";
    finished->push_back(std::move(chain));
    open_.pop_front();
  }
}

void CaptureChains::Tick(std::vector<CaptureChain>* finished) {
  ++seen_;
  Expire(finished);
}

void CaptureChains::Continue(Open open, std::vector<CaptureChain>* finished) {
  CaptureChain& chain = open.chain;
  const Capture& last = chain.hops.back();
  const int status = last.response.http_status;
  if (status < 300 || status > 399 ||
      last.response.error != ErrorClass::kNone) {
    finished->push_back(std::move(chain));
    return;
  }
  auto end = [&](ErrorClass error, std::string message) {
    chain.unresolved = error;
    chain.unresolved_message = std::move(message);
    finished->push_back(std::move(chain));
  };
  if (last.redirect_url.empty()) {
    end(ErrorClass::kOther, "a redirect without a usable Location");
    return;
  }
  if (!last.redirect_is_http) {
    end(ErrorClass::kRedirectScheme,
        "a redirect to " + last.redirect_url.substr(0, 200));
    return;
  }
  for (const Capture& hop : chain.hops) {
    if (hop.url == last.redirect_url) {
      end(ErrorClass::kRedirectLoop, "a redirect back to " + hop.url);
      return;
    }
  }
  if (static_cast<int>(chain.hops.size()) > max_redirects_) {
    end(ErrorClass::kTooManyRedirects,
        "more than " + std::to_string(max_redirects_) + " redirects");
    return;
  }
  open.last_seen = seen_;
  open_.push_back(std::move(open));
}

CaptureChains::Added CaptureChains::Add(Capture capture,
                                        std::vector<CaptureChain>* finished) {
  ++seen_;
  Added added = Added::kNotRobotsTxt;
  // The oldest open chain waiting for this URL takes it.
  for (auto it = open_.begin(); it != open_.end(); ++it) {
    if (it->chain.hops.back().redirect_url == capture.url) {
      Open open = std::move(*it);
      open_.erase(it);
      open.chain.hops.push_back(std::move(capture));
      Continue(std::move(open), finished);
      added = Added::kLinked;
      break;
    }
  }
  if (added != Added::kLinked && capture.robots_path) {
    Open open;
    open.chain.hops.push_back(std::move(capture));
    Continue(std::move(open), finished);
    added = Added::kStarted;
  }
  Expire(finished);
  return added;
}

void CaptureChains::FinishAll(std::vector<CaptureChain>* finished) {
  seen_ += window_ + 1;
  Expire(finished);
}

}  // namespace robotscan::crawler::history
