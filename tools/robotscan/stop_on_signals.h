// Stopping a crawl or an import on SIGINT and SIGTERM through its
// crawler::CrawlHandle (robotscan crawl, robotscan import).
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_STOP_ON_SIGNALS_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_STOP_ON_SIGNALS_H_

#include <pthread.h>
#include <signal.h>

#include <atomic>
#include <ctime>
#include <thread>

#include "robotscan/crawler/crawler.h"

namespace robotscan::cli {

// SIGINT and SIGTERM stop the work through its handle: they are blocked
// in every thread (set before the crawl's threads exist, which inherit the
// mask) and taken by this waiter with sigtimedwait, which then calls
// Cancel() from an ordinary thread.
class StopOnSignals {
 public:
  explicit StopOnSignals(crawler::CrawlHandle* handle) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, &previous_);
    waiter_ = std::thread([this, handle] {
      const timespec tick{0, 100 * 1000 * 1000};
      while (!done_) {
        const int sig = sigtimedwait(&set_, nullptr, &tick);
        if (sig == SIGINT || sig == SIGTERM) {
          received_ = sig;
          handle->Cancel();
          return;
        }
      }
    });
  }
  ~StopOnSignals() {
    done_ = true;
    waiter_.join();
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;
  int received() const { return received_; }

 private:
  sigset_t set_{};
  sigset_t previous_{};
  std::atomic<bool> done_{false};
  std::atomic<int> received_{0};
  std::thread waiter_;
};

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_STOP_ON_SIGNALS_H_
