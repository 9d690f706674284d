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
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/robots.h"

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

struct LintOptions {
  // Same meaning as ParseOptions::max_body_bytes.
  std::size_t max_body_bytes = kMinParseLimitBytes;
};

// Every diagnostic, ordered by line (file-wide ones first).
std::vector<Diagnostic> LintRobotsTxt(std::string_view body,
                                      const LintOptions& options = {});

// True if any diagnostic is an error.
bool HasErrors(const std::vector<Diagnostic>& diagnostics);

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_LINT_H_
