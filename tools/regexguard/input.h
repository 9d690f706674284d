// Reading the patterns to check: one on the command line, or a file with one
// pattern a line (.txt) or one JSON object a line (.jsonl).
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_INPUT_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_INPUT_H_

#include <optional>
#include <string>
#include <vector>

namespace robotscan::regexguard::cli {

struct PatternInput {
  std::string pattern;
  std::optional<std::string> id;       // from .jsonl "id"
  std::optional<std::string> flags;    // from .jsonl "flags"
  std::optional<std::string> dialect;  // from .jsonl "dialect"
  int line = 0;                        // 1-based line in the file, 0 if none
};

struct InputError {
  std::string message;
};

// Reads `path` ("-" for stdin). JSON Lines when the name ends in ".jsonl"
// (each object needs a string "pattern"); otherwise one pattern per line,
// blank lines skipped. Returns an error message naming `path` for
// unreadable input: a missing file, a directory, a failed read.
std::optional<InputError> ReadPatternFile(const std::string& path,
                                          std::vector<PatternInput>* out);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_INPUT_H_
