// One error convention for every robotscan library: a fallible call returns
// a Status (or a Result<T>, a T or a Status), never throws across a library
// boundary, prints or exits. A Status carries a code that says what kind of
// failure it is — so that the command line can answer "disk full" and
// "database busy" with different exit statuses (robotscan/base/exit_codes.h)
// — a message for people, and, where the failure is in a piece of text the
// caller gave (a pattern, a line of a list), the byte span of the offending
// fragment. Model: LevelDB's and Abseil's Status, RE2's error_code() +
// error_arg().
//
// Usage:
//   Result<int> ParsePort(std::string_view text);
//   Result<int> port = ParsePort("80a");
//   if (!port.ok()) return port.status();  // kInvalidInput, span {2, 3}
//   Use(*port);
//
// Thread-safety: plain values; safe to copy and share.
#ifndef ROBOTSCAN_BASE_STATUS_H_
#define ROBOTSCAN_BASE_STATUS_H_

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace robotscan {

enum class StatusCode : std::uint8_t {
  kOk,
  // A caller error: a bad option, an unknown run id, a flag out of range.
  kInvalidArgument,
  // The input data is malformed: a pattern that is not a regex in its
  // dialect, a top list that is not a list, a file that is not gzip.
  kInvalidInput,
  // The input is valid but uses something this version cannot handle
  // (regex recursion, conditionals, ...). Never "fine".
  kUnsupported,
  // A named thing is not there (a file, a run, a list ID).
  kNotFound,
  // The operating system refused a read or write.
  kIoError,
  // The disk (or the database's size cap) is full; the transaction was
  // rolled back, nothing half-written.
  kDiskFull,
  // Another process holds a lock the call needs (SQLite's write lock).
  kBusy,
  // A file is not a (healthy) database, or stored data does not decode.
  kCorrupt,
  // Written by a newer robotscan; never downgraded.
  kSchemaTooNew,
  // Another live crawl writes the database (the one-crawl lock).
  kLocked,
  // The network could not be set up or reached (resolver, TLS, download).
  kNetwork,
  // A state, step or time budget ran out before an answer was reached.
  kBudgetExceeded,
  // The caller cancelled the work (a signal, CrawlHandle::Cancel).
  kCancelled,
  // A failure that is nobody's input: a library (SQLite, PCRE2, zstd)
  // failed in a way it should not.
  kInternal,
};

// "ok", "invalid argument", "disk full", ... (for messages and JSON).
constexpr std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kInvalidArgument:
      return "invalid argument";
    case StatusCode::kInvalidInput:
      return "invalid input";
    case StatusCode::kUnsupported:
      return "unsupported";
    case StatusCode::kNotFound:
      return "not found";
    case StatusCode::kIoError:
      return "I/O error";
    case StatusCode::kDiskFull:
      return "disk full";
    case StatusCode::kBusy:
      return "busy";
    case StatusCode::kCorrupt:
      return "corrupt";
    case StatusCode::kSchemaTooNew:
      return "schema too new";
    case StatusCode::kLocked:
      return "locked";
    case StatusCode::kNetwork:
      return "network";
    case StatusCode::kBudgetExceeded:
      return "budget exceeded";
    case StatusCode::kCancelled:
      return "cancelled";
    case StatusCode::kInternal:
      return "internal";
  }
  return "unknown";
}

// A half-open range [begin, end) of byte offsets into the caller's text.
struct SourceSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  friend bool operator==(const SourceSpan&, const SourceSpan&) = default;
};

class [[nodiscard]] Status {
 public:
  // The enumerators read as Status::Code::kDiskFull at call sites.
  using Code = StatusCode;

  Status() = default;
  Status(Code code, std::string message,
         std::optional<SourceSpan> span = std::nullopt)
      : code_(code), message_(std::move(message)), span_(span) {}
  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // Where in the caller's text, when the failure is in one fragment of it.
  const std::optional<SourceSpan>& span() const { return span_; }

  // The same failure with `context` in front of its message ("crawl.sqlite:
  // database disk image is malformed"), code and span kept.
  Status WithContext(std::string_view context) const {
    if (ok()) return *this;
    std::string message(context);
    message += ": ";
    message += message_;
    return Status(code_, std::move(message), span_);
  }

  // "disk full: <message>", or "ok".
  std::string ToString() const {
    if (ok()) return "ok";
    std::string text(StatusCodeName(code_));
    text += ": ";
    text += message_;
    return text;
  }

 private:
  Code code_ = Code::kOk;
  std::string message_;
  std::optional<SourceSpan> span_;
};

// A T, or the Status saying why there is none. A Result built from an ok
// Status is a programming error (there would be neither): debug builds stop
// at the assert; release builds hold a kInternal status instead, so that
// ok() and status().ok() never disagree (as Abseil's StatusOr does).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status)                            // NOLINT: implicit by design
      : storage_(NotOk(std::move(status))) {}

  bool ok() const { return storage_.index() == 0; }
  explicit operator bool() const { return ok(); }
  // An ok Status when there is a value. A reference, so that
  // `result.status().message()` may be held while `result` lives.
  const Status& status() const {
    static const Status kOk;  // Immutable; shared by every Result<T>.
    return ok() ? kOk : std::get<1>(storage_);
  }

  T& value() & { return std::get<0>(storage_); }
  const T& value() const& { return std::get<0>(storage_); }
  T&& value() && { return std::get<0>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  static Status NotOk(Status status) {
    assert(!status.ok() && "Result<T> built from an ok Status");
    if (status.ok()) {
      return Status(StatusCode::kInternal, "Result<T> built from an ok Status");
    }
    return status;
  }

  std::variant<T, Status> storage_;
};

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_STATUS_H_
