// Reading command inputs: files (binary-safe), standard input, pipes, FIFOs
// and character devices, up to a limit.
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "robotscan/base/status.h"

namespace robotscan::cli {

// A `max_bytes` for ReadInput that reads the whole input.
inline constexpr std::size_t kReadWholeInput =
    std::numeric_limits<std::size_t>::max();

// What ReadInput read: the input's first bytes, and its size when known.
struct InputHead {
  // The whole input, or its first max_bytes + 1 bytes when it is longer.
  std::string bytes;
  // The input's whole size, when it is a regular file; nullopt for a pipe,
  // a terminal, a device (/dev/zero never ends).
  std::optional<std::uint64_t> size;
};

// Reads `path` ("-" = standard input) up to `max_bytes` bytes and one byte
// more, which is how a cut input is told from one of exactly `max_bytes`:
// memory stays O(max_bytes) whatever the input, a 1 GB file, a pipe or
// /dev/urandom, and reading stops there. With kReadWholeInput it reads to
// the end (an input too large for memory then ends the process through the
// out-of-memory handler, app.h).
//
// Errors, kInvalidArgument (exit 2: the input was named on the command
// line), with a message naming the file: it cannot be opened or read.
Result<InputHead> ReadInput(const std::string& path, std::size_t max_bytes);

// The parse limit that `--max-bytes N` asks for: N bytes, or no limit for 0
// (robots::kNoParseLimit). The library raises values below 500 KiB to it.
std::size_t ParseLimitFromFlag(std::size_t max_bytes);

// How much of the robots.txt check and lint need to read for `--max-bytes
// N`: the parse limit as the library applies it (raised to 500 KiB), or
// the whole input for 0.
std::size_t ReadLimitFromFlag(std::size_t max_bytes);

// Accepts a --max-bytes value only if it is a decimal number (CLI11 would
// read "-1" as the largest size_t).
CLI::Validator MaxBytesValidator();

// Help text of check's and lint's --max-bytes.
inline constexpr char kMaxBytesHelp[] =
    "parse limit in bytes: content past it is ignored, cut at a line end, "
    "and not read (default and minimum 512000, the RFC 9309 minimum, with "
    "--compat rfc and google; 0: no limit, as Google's open-source parser; "
    "--compat urllib always reads the whole file)";

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_INPUT_H_
