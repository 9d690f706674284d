// Limits shared by every event loop of a crawl: concurrent requests per IP
// address (--per-ip-limit) and new domains per second (--rate). Private to
// the crawler; thread-safe.
//
// Both have a second mode for a worker of a scaled-out crawl (crawl
// --worker, docs/scale-out.md), where the limits are the crawl's, shared by
// every worker on every host: the per-IP limiter then starts a request only
// within the slots the crawl's quota granted this worker (Demand/Grant,
// driven by the worker's coordinator), and the rate limiter spends only
// tokens taken from the crawl's bucket (AddTokens).
#ifndef ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_
#define ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "robotscan/storage/shared_frontier.h"

namespace robotscan::crawler {

// Limits concurrent requests per IP address across every event loop of a
// crawl; requests beyond the limit wait in FIFO order and are started on
// their own loop. One mutex: uncontended, it costs far less than a request.
class PerAddressLimiter {
 public:
  using Start = std::function<void()>;
  // `limit` per IP (0: none). With `needs_grants`, a request also needs a
  // slot granted by Grant (the crawl-wide quota); until then it waits.
  explicit PerAddressLimiter(int limit, bool needs_grants = false)
      : limit_(limit), needs_grants_(needs_grants) {}
  // Calls start() now (on the caller's thread) or later, posted to `io`.
  void Acquire(const std::string& ip, boost::asio::io_context& io,
               Start start) {
    if (limit_ <= 0) {
      start();
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Slot& slot = slots_[ip];
      if (slot.active >= Allowance(slot)) {
        slot.waiting.push_back({&io, std::move(start)});
        return;
      }
      ++slot.active;
    }
    start();
  }
  // Hands the slot to the next waiter, if any.
  void Release(const std::string& ip) {
    if (limit_ <= 0) return;
    Waiter next;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = slots_.find(ip);
      if (it == slots_.end()) return;
      Slot& slot = it->second;
      if (slot.waiting.empty() || slot.active > Allowance(slot)) {
        --slot.active;
        if (slot.active <= 0 && slot.waiting.empty() && slot.granted == 0) {
          slots_.erase(it);
        }
        return;
      }
      next = std::move(slot.waiting.front());
      slot.waiting.pop_front();
    }
    boost::asio::post(*next.io, std::move(next.start));
  }

  // Grant mode: what to ask the crawl's quota for, one request per IP this
  // worker holds slots on or waits for. A slot not in use and not wanted
  // is given up here at once (`held` is what this worker may still use
  // until the answer comes, never less than what runs), so the sum over
  // workers stays within the cap. While other workers wait for an IP, this
  // one asks only for its fair share (cap / workers wanting it).
  std::vector<storage::IpSlotRequest> Demand() {
    std::vector<storage::IpSlotRequest> requests;
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto it = slots_.begin(); it != slots_.end();) {
      Slot& slot = it->second;
      const int want = std::min(
          FairShare(slot), slot.active + static_cast<int>(slot.waiting.size()));
      const int keep = std::max(slot.active, want);
      const bool held_any = slot.granted > 0;
      if (slot.granted > keep) slot.granted = keep;
      // Also when all was given up: the quota must hear it.
      if (held_any || want > 0) {
        requests.push_back({it->first, slot.granted, std::max(want, keep)});
      }
      if (slot.active == 0 && slot.waiting.empty() && slot.granted == 0) {
        it = slots_.erase(it);
      } else {
        ++it;
      }
    }
    return requests;
  }
  // Grant mode: the quota's answer; starts waiters that now fit.
  void Grant(const std::vector<storage::IpSlotGrant>& grants) {
    std::vector<Waiter> ready;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const storage::IpSlotGrant& grant : grants) {
        auto it = slots_.find(grant.ip);
        if (it == slots_.end()) continue;
        Slot& slot = it->second;
        slot.granted = grant.slots;
        slot.others_wanting = grant.others_wanting;
        while (!slot.waiting.empty() && slot.active < Allowance(slot)) {
          ++slot.active;
          ready.push_back(std::move(slot.waiting.front()));
          slot.waiting.pop_front();
        }
      }
    }
    for (Waiter& w : ready) boost::asio::post(*w.io, std::move(w.start));
  }
  // Requests waiting for a slot (all IPs).
  std::size_t waiting() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::size_t n = 0;
    for (const auto& [ip, slot] : slots_) n += slot.waiting.size();
    return n;
  }

 private:
  struct Waiter {
    boost::asio::io_context* io = nullptr;
    Start start;
  };
  struct Slot {
    int active = 0;
    int granted = 0;  // Grant mode: slots the quota gave this worker.
    int others_wanting = 0;
    std::deque<Waiter> waiting;
  };
  // The cap, or while other workers wait for this IP, an equal share.
  int FairShare(const Slot& slot) const {
    return std::max(1, limit_ / (slot.others_wanting + 1));
  }
  int Allowance(const Slot& slot) const {
    return needs_grants_ ? std::min(FairShare(slot), slot.granted) : limit_;
  }
  const int limit_;
  const bool needs_grants_;
  std::mutex mutex_;
  std::unordered_map<std::string, Slot> slots_;
};

// Token bucket for --rate, shared by the event loops.
class RateLimiter {
 public:
  // `per_second` (0: none). With `fed`, the bucket does not refill by
  // itself: AddTokens puts in what the crawl's bucket granted.
  explicit RateLimiter(double per_second, bool fed = false)
      : per_second_(per_second), fed_(fed), tokens_(fed ? 0 : 1) {}
  // True when a domain may start now; else how long to wait.
  bool Take(std::chrono::milliseconds* wait) {
    if (per_second_ <= 0) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (!fed_) {
      const double burst = std::max(1.0, per_second_ / 10);
      tokens_ = std::min(
          burst,
          tokens_ + std::chrono::duration<double>(now - last_refill_).count() *
                        per_second_);
      last_refill_ = now;
    }
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return true;
    }
    *wait = std::chrono::milliseconds(
        static_cast<long>(std::ceil((1 - tokens_) / per_second_ * 1000)));
    return false;
  }
  // Fed mode: tokens from the crawl's bucket.
  void AddTokens(double tokens) {
    std::lock_guard<std::mutex> lock(mutex_);
    tokens_ += tokens;
  }
  // Fed mode: tokens held and not yet spent.
  double tokens() {
    std::lock_guard<std::mutex> lock(mutex_);
    return tokens_;
  }

 private:
  const double per_second_;
  const bool fed_;
  std::mutex mutex_;
  double tokens_;
  std::chrono::steady_clock::time_point last_refill_ =
      std::chrono::steady_clock::now();
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_
