// Error values returned by the storage library (no exceptions cross its API).
//
// Thread-safety: Status is a plain value type.
#ifndef ROBOTSCAN_STORAGE_STATUS_H_
#define ROBOTSCAN_STORAGE_STATUS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace robotscan::storage {

class [[nodiscard]] Status {
 public:
  enum class Code : std::uint8_t {
    kOk,
    kInvalidArgument,  // A caller error (bad option, unknown run id).
    kIoError,          // The operating system refused a read or write.
    kDiskFull,         // SQLITE_FULL: the transaction was rolled back.
    kBusy,             // Another process holds the write lock.
    kCorrupt,          // The file is not a (healthy) SQLite database.
    kSchemaTooNew,     // Written by a newer robotscan; never downgraded.
    kInternal,         // Any other SQLite failure.
  };

  Status() = default;
  Status(Code code, std::string message)
      : code_(code), message_(std::move(message)) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_STATUS_H_
