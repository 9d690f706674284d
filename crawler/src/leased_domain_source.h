// The DomainSource of one event loop of a worker (crawl --worker): the
// domains of the batches the worker's coordinator leased from the shared
// frontier, in lease order. The coordinator adds, ends and (when the worker
// drains) takes back the unstarted ones; the loop takes the next.
//
// Thread-safety: every method may be called from any thread.
#ifndef ROBOTSCAN_CRAWLER_LEASED_DOMAIN_SOURCE_H_
#define ROBOTSCAN_CRAWLER_LEASED_DOMAIN_SOURCE_H_

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "domain_admission.h"

namespace robotscan::crawler {

class LeasedDomainSource final : public DomainSource {
 public:
  void Add(AdmittedDomain domain) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(domain));
  }
  // Nothing more will be added: once the queue is empty, Next says kEnd.
  void End() {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
  }
  // Ends the source and returns the domains never handed to the loop.
  std::vector<std::string> TakeUnstarted() {
    std::lock_guard<std::mutex> lock(mutex_);
    ended_ = true;
    std::vector<std::string> domains;
    for (AdmittedDomain& d : queue_)
      domains.push_back(std::move(d.entry.domain));
    queue_.clear();
    return domains;
  }
  std::size_t queued() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
  }

  Outcome Next(int* lines_left, AdmittedDomain* out) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty()) return ended_ ? Outcome::kEnd : Outcome::kWait;
    --*lines_left;
    *out = std::move(queue_.front());
    queue_.pop_front();
    return Outcome::kDomain;
  }
  void Committed(const std::vector<std::string>&) override {}
  std::string error() const override { return ""; }
  // The frontier has no duplicates; domains found present are the
  // coordinator's to count.
  std::int64_t duplicates() const override { return 0; }
  std::int64_t already_present() const override { return 0; }
  std::int64_t malformed_lines() const override { return 0; }

 private:
  mutable std::mutex mutex_;
  std::deque<AdmittedDomain> queue_;
  bool ended_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_LEASED_DOMAIN_SOURCE_H_
