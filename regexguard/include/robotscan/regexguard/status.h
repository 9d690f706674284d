// Errors as values for the regexguard library: nothing in this library throws
// across its API, prints or exits. Every fallible call returns a Result<T>
// carrying either a value or an Error (code, message, and the byte span of the
// offending fragment of the pattern when there is one); calls that return
// nothing else return a Status. Model: RE2's error_code() + error_arg(),
// LevelDB's Status. This header is the library's only error type: every
// public call (analysis, extraction, scan, hook) uses it.
//
// Thread safety: plain values; safe to copy and share.
#ifndef ROBOTSCAN_REGEXGUARD_STATUS_H_
#define ROBOTSCAN_REGEXGUARD_STATUS_H_

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace robotscan::regexguard {

// A half-open range [begin, end) of byte offsets into the pattern text.
struct SourceSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
  friend bool operator==(const SourceSpan&, const SourceSpan&) = default;
};

enum class ErrorCode {
  // The pattern is not a valid regular expression in the chosen dialect.
  kInvalidPattern,
  // The pattern is valid but uses syntax regexguard cannot analyse
  // (recursion, conditionals, backtracking verbs, ...). Never "safe".
  kUnsupportedSyntax,
  // A caller-supplied option is out of range (unknown dialect, flag letter).
  kInvalidArgument,
  // A state, step or time budget ran out before an answer was reached.
  kBudgetExceeded,
  // PCRE2 or RE2 failed in a way that is not the pattern's fault.
  kEngineError,
  // A file or folder the caller named (source, configuration, baseline,
  // hook) cannot be read or written, or git could not list it.
  kIoError,
};

struct Error {
  ErrorCode code = ErrorCode::kInvalidPattern;
  std::string message;
  std::optional<SourceSpan> span;  // where in the pattern, when known
};

// Either a T or an Error. Deliberately small: has_value(), value(), error().
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : storage_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : storage_(std::move(error)) {}  // NOLINT

  bool has_value() const { return storage_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & { return std::get<0>(storage_); }
  const T& value() const& { return std::get<0>(storage_); }
  T&& value() && { return std::get<0>(std::move(storage_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(storage_); }

 private:
  std::variant<T, Error> storage_;
};

// Success or an Error, for calls that return nothing else: ok(), error().
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}  // NOLINT: implicit

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

}  // namespace robotscan::regexguard

#endif  // ROBOTSCAN_REGEXGUARD_STATUS_H_
