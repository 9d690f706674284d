#include "input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "robotscan/base/terminal_text.h"
#include "robotscan/robots/robots.h"

namespace robotscan::cli {
namespace {

// Closes a descriptor this module opened (never standard input).
class OwnedDescriptor {
 public:
  explicit OwnedDescriptor(int fd) : fd_(fd) {}
  OwnedDescriptor(const OwnedDescriptor&) = delete;
  OwnedDescriptor& operator=(const OwnedDescriptor&) = delete;
  ~OwnedDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_;
};

Status CannotRead(const char* what, const std::string& path, int error) {
  return Status(StatusCode::kInvalidArgument,
                std::string("cannot ") + what + " '" +
                    EscapeControlCharacters(path) +
                    "': " + std::strerror(error));
}

}  // namespace

Result<InputHead> ReadInput(const std::string& path, std::size_t max_bytes) {
  const bool is_stdin = path == "-";
  // Opening a FIFO waits for its writer, as reading it would.
  const int fd =
      is_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return CannotRead("open", path, errno);
  const OwnedDescriptor owned(is_stdin ? -1 : fd);

  InputHead head;
  struct stat info;
  if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    head.size = static_cast<std::uint64_t>(info.st_size);
  }
  // One byte past the limit tells an input that goes on from one that ends
  // exactly there, and lets the parser see that there is more to cut.
  const std::size_t wanted =
      max_bytes == kReadWholeInput ? kReadWholeInput : max_bytes + 1;
  // A regular file's bytes go straight into place, without the doubling
  // of a growing string; a 1 GB file with a limit costs only the limit.
  // (Too large to hold, and --max-bytes 0 given, the allocation fails
  // here: the out-of-memory handler names that.)
  if (head.size) {
    head.bytes.reserve(
        static_cast<std::size_t>(std::min<std::uint64_t>(*head.size, wanted)));
  }
  char buffer[1 << 16];
  while (head.bytes.size() < wanted) {
    const std::size_t chunk =
        std::min(sizeof(buffer), wanted - head.bytes.size());
    const ssize_t n = ::read(fd, buffer, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return CannotRead("read", path, errno);
    }
    if (n == 0) break;
    head.bytes.append(buffer, static_cast<std::size_t>(n));
  }
  // A file that reports fewer bytes than it gave (/proc, or one that grew
  // while it was read) has no size worth naming.
  if (head.size && *head.size < head.bytes.size()) head.size.reset();
  return head;
}

std::size_t ParseLimitFromFlag(std::size_t max_bytes) {
  return max_bytes == 0 ? robots::kNoParseLimit : max_bytes;
}

std::size_t ReadLimitFromFlag(std::size_t max_bytes) {
  return max_bytes == 0 ? kReadWholeInput
                        : std::max(max_bytes, robots::kMinParseLimitBytes);
}

CLI::Validator MaxBytesValidator() {
  return CLI::Validator(
      [](const std::string& value) -> std::string {
        if (value.empty() ||
            value.find_first_not_of("0123456789") != std::string::npos) {
          return "must be a number of bytes (0: no limit), not '" + value + "'";
        }
        return "";
      },
      "BYTES");
}

}  // namespace robotscan::cli
