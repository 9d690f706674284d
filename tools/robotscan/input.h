// Reading command inputs: whole files (binary-safe) or standard input.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>

#include "robotscan/base/status.h"

namespace robotscan::cli {

// Reads all of `path` ("-" = standard input). A file named on the command
// line that cannot be read is the caller's (kInvalidArgument, exit 2), with
// a message naming the file and the reason.
Result<std::string> ReadWholeFile(const std::string& path);

// The parse limit that `--max-bytes N` asks for: N bytes, or no limit for 0
// (robots::kNoParseLimit). The library raises values below 500 KiB to it.
std::size_t ParseLimitFromFlag(std::size_t max_bytes);

// Accepts a --max-bytes value only if it is a decimal number (CLI11 would
// read "-1" as the largest size_t).
CLI::Validator MaxBytesValidator();

// Help text of check's and lint's --max-bytes.
inline constexpr char kMaxBytesHelp[] =
    "parse limit in bytes: content past it is ignored, cut at a line end "
    "(default and minimum 512000, the RFC 9309 minimum, with --compat rfc "
    "and google; 0: no limit, as Google's open-source parser; --compat "
    "urllib always reads the whole file)";

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
