// One event loop of a crawl: carries out the per-domain state machines'
// actions (fetch_machine.h) on a Boost.Asio io_context of its own, with a
// libcurl multi handle (curl_asio_driver.h) and a c-ares resolver
// (dns_resolver.h). It takes domains from its admission stage
// (domain_admission.h) as slots free, a few per turn, bounded by the
// concurrency, the shared rate limit and the writer's backlog; applies
// --connect-to/--resolve (parsed once, in the crawl's plan) and the per-IP
// cap; configures and runs transfers;
// and hands finished records to the shared BatchWriter.
//
// Thread-safety: Run() on the loop's own thread; the methods marked
// thread-safe from any thread.
#ifndef ROBOTSCAN_CRAWLER_CRAWL_LOOP_H_
#define ROBOTSCAN_CRAWLER_CRAWL_LOOP_H_

#include <curl/curl.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "batch_writer.h"
#include "curl_asio_driver.h"
#include "curl_handles.h"
#include "dns_resolver.h"
#include "domain_admission.h"
#include "endpoint_rules.h"
#include "fetch_machine.h"
#include "request_limits.h"
#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

class CrawlLoop;

// What the event loops of one crawl share. The loops partition the list by
// a hash of the domain, so a domain (and every duplicate of it) belongs to
// exactly one loop; everything else they share is here, thread-safe.
struct SharedCrawlState {
  // `crawl_wide`: the limits are a scaled-out crawl's, granted by its
  // coordinator (request_limits.h's grant and fed modes).
  SharedCrawlState(int per_ip_limit, double rate_limit, bool crawl_wide)
      : limiter(per_ip_limit, crawl_wide), rate(rate_limit, crawl_wide) {}

  // Stops every loop (thread-safe); the first fatal message is kept.
  void StopAll(const std::string& fatal);
  std::string fatal() {
    std::lock_guard<std::mutex> lock(mutex);
    return fatal_message;
  }

  BatchWriter* writer = nullptr;  // Set before any loop runs.
  PerAddressLimiter limiter;
  RateLimiter rate;
  std::mutex callback_mutex;      // Serializes the user's callbacks.
  std::vector<CrawlLoop*> loops;  // Filled before any loop runs.
  std::mutex mutex;
  std::string fatal_message;
};

class CrawlLoop {
 public:
  // `source` (owned by the caller, outliving the loop) gives its domains;
  // `plan` outlives the loop too.
  CrawlLoop(const CrawlPlan& plan, const CrawlCallbacks& callbacks,
            SharedCrawlState* shared, std::size_t loop_count,
            DomainSource* source);
  ~CrawlLoop();
  CrawlLoop(const CrawlLoop&) = delete;
  CrawlLoop& operator=(const CrawlLoop&) = delete;

  Status CheckReady() const;
  // Runs until this loop's share of the list is done or StopAll.
  void Run();
  // After the writer has finished: counts the commit notifications that
  // Run() did not get to.
  void DrainNotifications();

  // Thread-safe.
  void PostCommitted(std::vector<std::string> domains);
  void PostStop();
  // The loop's counters as of its last progress tick.
  CrawlProgress Progress();

 private:
  struct DomainJob;

  static std::size_t OnHeaderLine(char* data, std::size_t size,
                                  std::size_t count, void* user);
  static std::size_t OnBodyBytes(char* data, std::size_t size,
                                 std::size_t count, void* user);

  void Stop(const std::string& fatal);
  void PublishProgress();
  void ScheduleProgress();
  void SchedulePump(std::chrono::milliseconds delay);
  void PostPump();
  bool TakeRateToken();
  void Pump();
  void StartJob(AdmittedDomain admitted);
  DomainJob* FindJob(std::uint64_t id);

  // Carries out what the job's machine asked for next.
  void Act(DomainJob* job, FetchAction action);
  void Resolve(DomainJob* job, const FetchAction& action);
  void AcquireSlotAndTransfer(DomainJob* job, FetchAction action);
  void StartTransfer(DomainJob* job, const FetchAction& action);
  void WaitForRetry(DomainJob* job, std::chrono::milliseconds delay);
  void OnTransferDone(CURL* easy, CURLcode code);
  // What a transfer that ended with `code` brought (`message` overrides
  // libcurl's words).
  TransferResult ResultOf(DomainJob* job, CURLcode code,
                          const std::string& message);
  void ScheduleSpeedSweep();
  void SweepSlowTransfers();
  void ReleaseAddress(DomainJob* job);
  void Finish(DomainJob* job);
  void ConfigureEasy(CURL* easy);

  const CrawlPlan& plan_;
  const CrawlOptions& options_;  // plan_.options.
  const CrawlCallbacks& callbacks_;
  SharedCrawlState* shared_;
  const std::size_t loop_count_;
  const FetchPolicy policy_;
  boost::asio::io_context io_{1};
  CurlAsioDriver driver_;
  DnsResolver resolver_;
  DomainSource* admission_;
  boost::asio::steady_timer progress_timer_;
  boost::asio::steady_timer pump_timer_;
  boost::asio::steady_timer speed_timer_;

  std::string strategy_;

  std::unordered_map<std::uint64_t, std::unique_ptr<DomainJob>> jobs_;
  static constexpr std::size_t kMaxIdleEasyHandles = 256;
  static constexpr int kStartsPerTurn = 64;
  static constexpr int kLinesPerTurn = 4096;
  std::vector<CurlEasy> idle_easy_;
  std::optional<AdmittedDomain> pending_;  // Waiting for a rate token.
  std::uint64_t next_job_id_ = 0;
  bool list_done_ = false;
  bool stopping_ = false;
  bool pump_scheduled_ = false;
  bool pump_posted_ = false;
  std::mt19937 random_{std::random_device{}()};
  CrawlProgress progress_;
  std::mutex published_mutex_;
  CrawlProgress published_;  // Guarded by published_mutex_.
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CRAWL_LOOP_H_
