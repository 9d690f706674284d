// Diagnostics for robots.txt authors: what each line was recognised as and
// what was wrong with it. A listener on the same tokenizer the matcher uses
// (tokenizer.h), so the linter never disagrees with the matcher.
//
// Severities: `error` means part of the file is ignored or misread by
// crawlers (a rule outside any group, a line cut at the length limit, content
// past the size limit, an HTML page served as robots.txt); `warning` means
// crawlers disagree or the author probably meant something else (typos and
// missing colons only Google accepts, unknown directives, patterns that can
// never match); `info` is worth knowing (byte order mark, CR-only endings).
//
// Thread-safety: pure function.
#ifndef ROBOTSCAN_ROBOTS_LINT_H_
#define ROBOTSCAN_ROBOTS_LINT_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/robots.h"
#include "robotscan/robots/tokenizer.h"

namespace robotscan::robots {

enum class Severity : std::uint8_t { kInfo, kWarning, kError };

// "info" / "warning" / "error".
std::string_view SeverityName(Severity severity);

struct Diagnostic {
  int line = 0;  // 1-based; 0 for file-wide findings.
  Severity severity = Severity::kWarning;
  std::string code;     // Stable identifier, e.g. "unknown-directive".
  std::string message;  // One sentence for humans.
};

// The size of an input whose size a reader cannot know (a pipe, a device).
inline constexpr std::uint64_t kUnknownInputBytes =
    std::numeric_limits<std::uint64_t>::max();

struct LintOptions {
  // Same meaning as ParseOptions::max_body_bytes.
  std::size_t max_body_bytes = kMinParseLimitBytes;
  // When `body` is only the beginning of a longer input: the whole input's
  // size, or kUnknownInputBytes. A reader that stops one byte past the
  // parse limit (robotscan lint does, so that a 1 GB file or /dev/zero costs
  // no more memory than the limit) passes it so that the `size-limit`
  // finding names the input's size, or says that the rest was not read.
  // Unset: `body` is the whole input.
  std::optional<std::uint64_t> input_bytes;
};

// Every diagnostic, ordered by line (file-wide ones first).
std::vector<Diagnostic> LintRobotsTxt(std::string_view body,
                                      const LintOptions& options = {});

// LintRobotsTxt as a tokenizer listener, for a caller that feeds one
// tokenizer pass to several listeners (LineFanOut, tokenizer.h): tokenize
// exactly parsed_body() into it, then Finish(). The result equals
// LintRobotsTxt(body, options).
//
// Usage:
//   RobotsTxtLinter linter(body);
//   TokenizeRobotsTxt(linter.parsed_body(), linter);
//   std::vector<Diagnostic> diagnostics = std::move(linter).Finish();
//
// Thread-safety: one thread at a time.
class RobotsTxtLinter : public LineListener {
 public:
  explicit RobotsTxtLinter(std::string_view body,
                           const LintOptions& options = {});
  ~RobotsTxtLinter() override;
  RobotsTxtLinter(const RobotsTxtLinter&) = delete;
  RobotsTxtLinter& operator=(const RobotsTxtLinter&) = delete;

  // The part of the body read: all of it, or up to the last line end before
  // the parse limit.
  std::string_view parsed_body() const { return parsed_; }

  void OnLine(const Line& line) override;
  void OnEnd(const BodySummary& summary) override;

  // Every diagnostic, ordered by line (file-wide ones first); the linter is
  // spent.
  std::vector<Diagnostic> Finish() &&;

 private:
  class Linter;
  std::string_view parsed_;
  std::vector<Diagnostic> diagnostics_;
  std::unique_ptr<Linter> linter_;
};

// True if any diagnostic is an error.
bool HasErrors(const std::vector<Diagnostic>& diagnostics);

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_LINT_H_
