// robotscan lint: diagnostics for robots.txt files, compiler style.
//
//   robotscan lint [--json] [--max-bytes N] FILE...
//
// Prints "FILE:LINE: severity: message [code]" (LINE 0 for findings about the
// whole file). Exit: 0 no errors (warnings allowed), 1 some file has errors,
// 2 usage error or unreadable file.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "input.h"
#include "robotscan/base/terminal_text.h"
#include "robotscan/robots/lint.h"

namespace robotscan::cli {
namespace {

struct LintCommandOptions {
  std::vector<std::string> files;
  bool json = false;
  std::size_t max_bytes = robots::kMinParseLimitBytes;
};

int RunLint(const LintCommandOptions& options) {
  bool any_error = false;
  bool unreadable = false;
  for (const std::string& file : options.files) {
    const std::size_t read_limit = ReadLimitFromFlag(options.max_bytes);
    const Result<InputHead> body = ReadInput(file, read_limit);
    if (!body.ok()) {
      std::fprintf(stderr, "robotscan lint: %s\n",
                   body.status().message().c_str());
      unreadable = true;
      continue;
    }
    robots::LintOptions lint;
    lint.max_body_bytes = ParseLimitFromFlag(options.max_bytes);
    if (body->bytes.size() > read_limit) {
      // Only the limit and a byte were read: the finding names the size of
      // the whole file, or says that a stream went on.
      lint.input_bytes = body->size.value_or(robots::kUnknownInputBytes);
    }
    const std::vector<robots::Diagnostic> diagnostics =
        robots::LintRobotsTxt(body->bytes, lint);
    any_error = any_error || robots::HasErrors(diagnostics);
    for (const robots::Diagnostic& d : diagnostics) {
      if (options.json) {
        const nlohmann::json out = {
            {"file", file},
            {"line", d.line},
            {"severity", std::string(robots::SeverityName(d.severity))},
            {"code", d.code},
            {"message", d.message}};
        std::printf("%s\n", out.dump(-1, ' ', false,
                                     nlohmann::json::error_handler_t::replace)
                                .c_str());
      } else {
        // For a terminal: no control character of a file name's (or a
        // message's) is printed raw. --json is exact.
        std::printf("%s:%d: %s: %s [%s]\n",
                    EscapeControlCharacters(file).c_str(), d.line,
                    std::string(robots::SeverityName(d.severity)).c_str(),
                    EscapeControlCharacters(d.message).c_str(), d.code.c_str());
      }
    }
  }
  std::fflush(stdout);
  if (unreadable) return kExitUsage;
  return any_error ? kExitFindings : kExitOk;
}

}  // namespace

void AddLintCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<LintCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint",
      "Report problems in robots.txt files as FILE:LINE: severity: message. "
      "Exit 0: no errors; 1: errors found; 2: usage error or unreadable file.");
  cmd->add_option("files", options->files, "robots.txt files ('-' for stdin)")
      ->required();
  cmd->add_flag("--json", options->json,
                "print one JSON object per diagnostic");
  cmd->add_option("--max-bytes", options->max_bytes, kMaxBytesHelp)
      ->check(MaxBytesValidator());
  cmd->callback([options, exit_code] { *exit_code = RunLint(*options); });
}

}  // namespace robotscan::cli
