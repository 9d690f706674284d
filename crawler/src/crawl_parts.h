// Parts of a crawl's run shared by RunCrawl (crawl.cc, one process on its
// own database) and RunCrawlWorker (crawl_worker.cc, one worker of a
// scaled-out crawl). Private to the crawler.
#ifndef ROBOTSCAN_CRAWLER_CRAWL_PARTS_H_
#define ROBOTSCAN_CRAWLER_CRAWL_PARTS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "batch_writer.h"
#include "crawl_loop.h"
#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

// Sums the loops' counters into one picture of the crawl.
CrawlProgress SumProgress(const std::vector<std::unique_ptr<CrawlLoop>>& loops,
                          std::int64_t total,
                          std::chrono::steady_clock::time_point started);

// Runs every loop on a thread of its own while the calling thread reports
// progress (amend_progress, when set, completes each report). A Cancel()
// on `handle` calls on_cancel (default: stop every loop at once). Returns
// whether the crawl was cancelled.
bool RunLoops(const CrawlOptions& options, const CrawlCallbacks& callbacks,
              std::int64_t total, SharedCrawlState* shared,
              const std::vector<std::unique_ptr<CrawlLoop>>& loops,
              BatchWriter* writer, CrawlHandle* handle,
              const std::function<void()>& on_cancel,
              const std::function<void(CrawlProgress*)>& amend_progress);

// The crawl options as JSON for crawl_run.options (no database location:
// a PostgreSQL URI may carry a password).
std::string OptionsAsJson(const CrawlPlan& plan);

std::string HostName();
std::size_t LoopCount(const CrawlOptions& options);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CRAWL_PARTS_H_
