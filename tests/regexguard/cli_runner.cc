#include "cli_runner.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>

namespace robotscan::regexguard::testing {

CliRun RunCommand(const std::string& binary, const std::string& arguments,
                  bool merge_stderr) {
  CliRun run;
  const std::string command =
      binary + " " + arguments + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    run.out.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

}  // namespace robotscan::regexguard::testing
