#include "list_staging.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace robotscan::crawler {
namespace {

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }
  // Closes now, reporting the error close(2) may find (NFS, a full disk).
  bool Close() {
    const int fd = std::exchange(fd_, -1);
    return fd < 0 || ::close(fd) == 0;
  }

 private:
  int fd_;
};

std::string Why(const std::string& what) {
  return what + ": " + std::strerror(errno);
}

bool WriteAll(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

std::string TemporaryDirectory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

}  // namespace

Result<StagedList> StagedList::Stage(const std::string& path,
                                     const std::function<bool()>& cancelled,
                                     std::uint64_t max_bytes) {
  const std::string source = path == "-" ? "/dev/stdin" : path;
  struct stat info {};
  if (::stat(source.c_str(), &info) != 0) {
    return Status(StatusCode::kIoError, Why("cannot open " + path));
  }
  if (S_ISDIR(info.st_mode)) {
    return Status(StatusCode::kInvalidArgument,
                  path + " is a directory, not a list");
  }
  if (S_ISREG(info.st_mode)) return StagedList(source, false);

  // Non-blocking, so that opening a FIFO does not wait for its writer here
  // (poll below does, a step at a time) and a read never blocks.
  Descriptor in(::open(source.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (in.get() < 0) {
    return Status(StatusCode::kIoError, Why("cannot open " + path));
  }
  std::string copy = TemporaryDirectory() + "/robotscan-list-XXXXXX";
  Descriptor out(::mkostemp(copy.data(), O_CLOEXEC));
  if (out.get() < 0) {
    return Status(StatusCode::kIoError,
                  Why("cannot stage the list from " + path + " in " +
                      TemporaryDirectory()));
  }
  StagedList staged(copy, true);  // Removed again on any failure below.
  std::vector<char> buffer(64 * 1024);
  std::uint64_t total = 0;
  pollfd ready{in.get(), POLLIN, 0};
  for (;;) {
    if (cancelled && cancelled()) {
      return Status(StatusCode::kCancelled,
                    "stopped while reading the list from " + path);
    }
    // A FIFO with no writer yet reports nothing (Linux), one whose writer
    // has gone reports POLLHUP and then reads 0: the end.
    const int events = ::poll(&ready, 1, 100);
    if (events < 0 && errno != EINTR) {
      return Status(StatusCode::kIoError, Why("cannot read " + path));
    }
    if (events <= 0) continue;
    const ssize_t n = ::read(in.get(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      return Status(StatusCode::kIoError, Why("cannot read " + path));
    }
    if (n == 0) break;
    total += static_cast<std::uint64_t>(n);
    if (total > max_bytes) {
      return Status(StatusCode::kInvalidInput,
                    "the list from " + path + " is longer than " +
                        std::to_string(max_bytes) +
                        " bytes (a million-domain list is about 25 MB)");
    }
    if (!WriteAll(out.get(), buffer.data(), static_cast<std::size_t>(n))) {
      return Status(
          errno == ENOSPC ? StatusCode::kDiskFull : StatusCode::kIoError,
          Why("cannot stage the list from " + path + " in " + copy));
    }
  }
  if (!out.Close()) {
    return Status(StatusCode::kIoError,
                  Why("cannot stage the list from " + path + " in " + copy));
  }
  return staged;
}

StagedList::StagedList(StagedList&& other) noexcept
    : path_(std::move(other.path_)),
      staged_(std::exchange(other.staged_, false)) {}

StagedList& StagedList::operator=(StagedList&& other) noexcept {
  if (this != &other) {
    if (staged_) ::unlink(path_.c_str());
    path_ = std::move(other.path_);
    staged_ = std::exchange(other.staged_, false);
  }
  return *this;
}

StagedList::~StagedList() {
  if (staged_) ::unlink(path_.c_str());
}

}  // namespace robotscan::crawler
