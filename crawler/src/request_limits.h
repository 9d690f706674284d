// Limits shared by every event loop of a crawl: concurrent requests per IP
// address (--per-ip-limit) and new domains per second (--rate). Private to
// the crawler; thread-safe.
#ifndef ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_
#define ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <unordered_map>

namespace robotscan::crawler {

// Limits concurrent requests per IP address across every event loop of a
// crawl; requests beyond the limit wait in FIFO order and are started on
// their own loop. One mutex: uncontended, it costs far less than a request.
class PerAddressLimiter {
 public:
  using Start = std::function<void()>;
  explicit PerAddressLimiter(int limit) : limit_(limit) {}
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
      if (slot.active >= limit_) {
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
      if (slot.waiting.empty()) {
        if (--slot.active <= 0) slots_.erase(it);
        return;
      }
      next = std::move(slot.waiting.front());
      slot.waiting.pop_front();
    }
    boost::asio::post(*next.io, std::move(next.start));
  }

 private:
  struct Waiter {
    boost::asio::io_context* io = nullptr;
    Start start;
  };
  struct Slot {
    int active = 0;
    std::deque<Waiter> waiting;
  };
  const int limit_;
  std::mutex mutex_;
  std::unordered_map<std::string, Slot> slots_;
};

// Token bucket for --rate, shared by the event loops.
class RateLimiter {
 public:
  explicit RateLimiter(double per_second) : per_second_(per_second) {}
  // True when a domain may start now; else how long to wait.
  bool Take(std::chrono::milliseconds* wait) {
    if (per_second_ <= 0) return true;
    std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    const double burst = std::max(1.0, per_second_ / 10);
    tokens_ = std::min(
        burst,
        tokens_ + std::chrono::duration<double>(now - last_refill_).count() *
                      per_second_);
    last_refill_ = now;
    if (tokens_ >= 1) {
      tokens_ -= 1;
      return true;
    }
    *wait = std::chrono::milliseconds(
        static_cast<long>(std::ceil((1 - tokens_) / per_second_ * 1000)));
    return false;
  }

 private:
  const double per_second_;
  std::mutex mutex_;
  double tokens_ = 1;
  std::chrono::steady_clock::time_point last_refill_ =
      std::chrono::steady_clock::now();
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_REQUEST_LIMITS_H_
