// Reading command inputs: whole files (binary-safe) or standard input.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_

#include <optional>
#include <string>

namespace robotscan::cli {

// Reads all of `path` ("-" = standard input). On failure returns nullopt and
// sets *error to a message naming the file and the reason.
std::optional<std::string> ReadWholeFile(const std::string& path,
                                         std::string* error);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
