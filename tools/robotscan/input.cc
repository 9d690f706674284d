#include "input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "robotscan/robots/robots.h"

namespace robotscan::cli {

Result<std::string> ReadWholeFile(const std::string& path) {
  const bool is_stdin = path == "-";
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(
      is_stdin ? stdin : std::fopen(path.c_str(), "rb"),
      is_stdin ? [](std::FILE*) { return 0; } : &std::fclose);
  if (file == nullptr) {
    return Status(StatusCode::kInvalidArgument,
                  "cannot open '" + path + "': " + std::strerror(errno));
  }
  std::string contents;
  char buffer[1 << 16];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), file.get())) > 0) {
    contents.append(buffer, n);
  }
  if (std::ferror(file.get())) {
    return Status(StatusCode::kInvalidArgument,
                  "cannot read '" + path + "': " + std::strerror(errno));
  }
  return contents;
}

std::size_t ParseLimitFromFlag(std::size_t max_bytes) {
  return max_bytes == 0 ? robots::kNoParseLimit : max_bytes;
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
