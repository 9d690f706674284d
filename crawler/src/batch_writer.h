// The single writer: a thread that takes finished fetch records from the
// event loop and commits them to the crawl database in batches (one
// transaction per batch), so that the loop never waits for the disk. What a
// commit is belongs to the caller: CrawlStore::AppendFetches for a crawl,
// SharedFrontier::CommitFetches (records with their leases) for a worker.
//
// Thread-safety: Push, backlog and failed are safe from any thread; Start
// and Finish from the owning thread only.
#ifndef ROBOTSCAN_CRAWLER_BATCH_WRITER_H_
#define ROBOTSCAN_CRAWLER_BATCH_WRITER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "robotscan/storage/crawl_store.h"

namespace robotscan::crawler {

class BatchWriter {
 public:
  // Called on the writer thread after each commit with the committed
  // domains, and once with the storage failure if a commit fails (after
  // which nothing more is written).
  using CommittedHandler = std::function<void(std::vector<std::string>)>;
  using FailureHandler = std::function<void(const Status&)>;
  // Commits one batch, all or nothing (called on the writer thread).
  using WriteBatch =
      std::function<storage::Status(std::span<const storage::FetchRecord>)>;

  BatchWriter(WriteBatch write, int batch_size,
              std::chrono::milliseconds interval, CommittedHandler committed,
              FailureHandler failed);
  ~BatchWriter();
  BatchWriter(const BatchWriter&) = delete;
  BatchWriter& operator=(const BatchWriter&) = delete;

  void Start();
  void Push(storage::FetchRecord record);
  std::size_t backlog() const;
  bool failed() const { return failed_.load(); }
  // Writes everything queued, stops the thread; returns the storage
  // failure that stopped the writing, its code kept (kDiskFull, kBusy, ...).
  Status Finish();

 private:
  void Loop();

  WriteBatch write_;
  std::size_t batch_size_;
  std::chrono::milliseconds interval_;
  CommittedHandler committed_;
  FailureHandler on_failure_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<storage::FetchRecord> queue_;
  bool stopping_ = false;
  std::atomic<bool> failed_{false};
  Status failure_;
  std::thread thread_;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_BATCH_WRITER_H_
