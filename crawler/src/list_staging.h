// A top-sites list that can be read more than once.
//
// A crawl reads its list several times: to count it (progress, ETA), once
// per event loop, and for its provenance. A regular file allows that. A
// list read from "-" (stdin), a pipe, a process substitution (<(...)), a
// FIFO or a character device can be read only once: the second reader
// would see nothing (a crawl of 0 domains with an empty file's SHA-256 as
// its provenance), or block forever in open(2) on a FIFO whose writer has
// gone. StagedList copies such a list, as it arrives, into a temporary
// file that every later reader opens instead, so the list is read exactly
// once and its provenance is that of the bytes read.
//
// Waiting for a FIFO's writer, or for a pipe's next bytes, is done in
// steps of 100 ms that ask `cancelled` in between, so a signal still stops
// a crawl that is waiting for its list.
//
// Thread-safety: a StagedList is not shared; Stage is a function.
#ifndef ROBOTSCAN_CRAWLER_LIST_STAGING_H_
#define ROBOTSCAN_CRAWLER_LIST_STAGING_H_

#include <cstdint>
#include <functional>
#include <string>

#include "robotscan/base/status.h"

namespace robotscan::crawler {

// A staged copy is refused beyond 1 GiB (the Majestic Million is ~80 MB):
// an endless pipe must not fill the disk.
inline constexpr std::uint64_t kMaxStagedListBytes = 1ull << 30;

class StagedList {
 public:
  // `path` "-" means standard input. A regular file is used where it is;
  // anything else is copied to $TMPDIR (or /tmp). Errors:
  // kInvalidArgument (a directory), kIoError (cannot open or read, naming
  // the path), kInvalidInput (more than `max_bytes` arrived), kCancelled
  // (`cancelled` said so while waiting).
  static Result<StagedList> Stage(
      const std::string& path, const std::function<bool()>& cancelled,
      std::uint64_t max_bytes = kMaxStagedListBytes);

  StagedList(StagedList&& other) noexcept;
  StagedList& operator=(StagedList&& other) noexcept;
  StagedList(const StagedList&) = delete;
  StagedList& operator=(const StagedList&) = delete;
  ~StagedList();  // Removes the staged copy, if any.

  // The file to open: the list itself, or its staged copy.
  const std::string& path() const { return path_; }
  bool staged() const { return staged_; }

 private:
  StagedList(std::string path, bool staged)
      : path_(std::move(path)), staged_(staged) {}
  std::string path_;
  bool staged_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_LIST_STAGING_H_
