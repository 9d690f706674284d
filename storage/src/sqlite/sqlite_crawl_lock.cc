#include "robotscan/storage/crawl_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <utility>

namespace robotscan::storage {
namespace {

// Owns one file descriptor.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// A full disk (or quota) is the storage-full error every command exits 4
// for, not a generic I/O failure: the crawl that filled the disk exits 4
// from SQLite, and so must its rerun, which fails here first.
Status IoError(const std::string& what) {
  const int error = errno;
  return Status(error == ENOSPC || error == EDQUOT ? Status::Code::kDiskFull
                                                   : Status::Code::kIoError,
                what + ": " + std::strerror(error));
}

// The lock file is a few lines; anything longer is not ours.
constexpr std::size_t kMaxHolderText = 4096;

std::string ReadAll(int fd) {
  std::string text(kMaxHolderText, '\0');
  const ssize_t n = pread(fd, text.data(), text.size(), 0);
  text.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
  return text;
}

Status WriteAll(int fd, const std::string& text) {
  if (ftruncate(fd, 0) != 0) return IoError("truncate lock file");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = pwrite(fd, text.data() + done, text.size() - done,
                             static_cast<off_t>(done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return IoError("write lock file");
    done += static_cast<std::size_t>(n);
  }
  return Status::Ok();
}

class SqliteCrawlLock final : public CrawlLock {
 public:
  SqliteCrawlLock(int fd, CrawlHolder holder)
      : fd_(fd), holder_(std::move(holder)) {}
  // Emptied before the descriptor closes (which drops the flock): an empty
  // file is what "nobody holds it" looks like.
  ~SqliteCrawlLock() override {
    if (ftruncate(fd_.get(), 0) != 0) {
      // Nothing to do: the next crawl finds the lock free and reports our
      // description as a stale hold, which is still correct.
    }
  }
  const CrawlHolder& holder() const override { return holder_; }
  Status SetRunId(std::int64_t run_id) override {
    holder_.run_id = run_id;
    return WriteAll(fd_.get(), FormatCrawlHolder(holder_));
  }

 private:
  FileDescriptor fd_;
  CrawlHolder holder_;
};

}  // namespace

std::string FormatCrawlHolder(const CrawlHolder& h) {
  std::string text;
  text += "pid=" + std::to_string(h.pid) + "\n";
  text += "host=" + h.host + "\n";
  text += "started_at=" + h.started_at + "\n";
  text += "run_id=" + std::to_string(h.run_id) + "\n";
  return text;
}

std::optional<CrawlHolder> ParseCrawlHolder(std::string_view text) {
  CrawlHolder h;
  bool has_pid = false;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view()
                                         : text.substr(end + 1);
    const std::size_t eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, eq);
    const std::string_view value = line.substr(eq + 1);
    const auto number = [&value](std::int64_t* out) {
      const auto [ptr, ec] =
          std::from_chars(value.data(), value.data() + value.size(), *out);
      return ec == std::errc() && ptr == value.data() + value.size();
    };
    if (key == "pid") {
      has_pid = number(&h.pid) && h.pid > 0;
    } else if (key == "host") {
      h.host = std::string(value);
    } else if (key == "started_at") {
      h.started_at = std::string(value);
    } else if (key == "run_id") {
      if (!number(&h.run_id)) h.run_id = 0;
    }
  }
  if (!has_pid) return std::nullopt;
  return h;
}

Result<LockAttempt> AcquireSqliteCrawlLock(std::string_view db_path,
                                           const CrawlHolder& me) {
  LockAttempt attempt;
  const std::string path = std::string(db_path) + "-lock";
  auto fd = std::make_unique<FileDescriptor>(
      open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  // O_CLOEXEC: a child the crawl might start must not inherit the hold.
  if (fd->get() < 0) return IoError("open " + path);
  if (flock(fd->get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) return IoError("lock " + path);
    // A live crawl holds it. It writes its description right after taking
    // the lock; give it a moment if we came in between.
    std::optional<CrawlHolder> holder;
    for (int tries = 0; tries < 20; ++tries) {
      holder = ParseCrawlHolder(ReadAll(fd->get()));
      if (holder) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    attempt.held_by = holder.value_or(CrawlHolder());
    return attempt;
  }
  // Ours. Whatever the file still says was written by a crawl that died
  // holding it (a clean release empties it).
  attempt.stale = ParseCrawlHolder(ReadAll(fd->get()));
  if (Status s = WriteAll(fd->get(), FormatCrawlHolder(me)); !s.ok()) {
    return s;
  }
  attempt.lock = std::make_unique<SqliteCrawlLock>(fd->release(), me);
  return attempt;
}

}  // namespace robotscan::storage
