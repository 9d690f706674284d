#include "batch_writer.h"

#include <utility>

namespace robotscan::crawler {

BatchWriter::BatchWriter(WriteBatch write, int batch_size,
                         std::chrono::milliseconds interval,
                         CommittedHandler committed, FailureHandler failed)
    : write_(std::move(write)),
      batch_size_(static_cast<std::size_t>(batch_size > 0 ? batch_size : 1)),
      interval_(interval),
      committed_(std::move(committed)),
      on_failure_(std::move(failed)) {}

BatchWriter::~BatchWriter() {
  // The owner has read Finish()'s answer already if it wanted it.
  if (thread_.joinable()) (void)Finish();
}

void BatchWriter::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void BatchWriter::Push(storage::FetchRecord record) {
  if (failed_) return;  // Nothing more is written; a rerun refetches.
  std::size_t size = 0;
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(record));
    size = queue_.size();
  }
  if (size >= batch_size_) wake_.notify_one();
}

std::size_t BatchWriter::backlog() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

Status BatchWriter::Finish() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  return failure_;
}

void BatchWriter::Loop() {
  std::vector<storage::FetchRecord> batch;
  for (;;) {
    batch.clear();
    bool last = false;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, interval_, [this] {
        return stopping_ || queue_.size() >= batch_size_;
      });
      const std::size_t n = std::min(queue_.size(), batch_size_);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      last = stopping_ && queue_.empty();
    }
    if (!batch.empty()) {
      const storage::Status status = write_(batch);
      if (!status.ok()) {
        {
          std::lock_guard lock(mutex_);
          failure_ = status;
          queue_.clear();
        }
        failed_ = true;
        if (on_failure_) on_failure_(status);
        return;
      }
      if (committed_) {
        std::vector<std::string> domains;
        domains.reserve(batch.size());
        for (storage::FetchRecord& record : batch) {
          domains.push_back(std::move(record.domain));
        }
        committed_(std::move(domains));
      }
    }
    if (last) return;
  }
}

}  // namespace robotscan::crawler
