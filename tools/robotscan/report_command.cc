// robotscan report: the analysis of a crawl database.
//
//   robotscan report --db crawl.sqlite [--format text|markdown|json|html]
//                    [--out FILE] [--top N] [--agents A,B,...]
//                    [--compat rfc|google]
//
// Reads the `latest_fetch` view (one row per domain) and prints the seven
// parts described in docs/report.md. Exit: 0 on success, 2 on a usage error
// or when the database cannot be read or the output cannot be written.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"

namespace robotscan::cli {
namespace {

struct ReportCommandOptions {
  std::string db;
  std::string format = "text";
  std::string out;
  std::size_t top = 25;
  std::vector<std::string> agents;
  std::string compat = "rfc";
};

bool WriteAll(const std::string& path, const std::string& text) {
  std::FILE* file =
      path.empty() || path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (file == stdout) {
    ok = std::fflush(file) == 0 && ok;
  } else {
    ok = std::fclose(file) == 0 && ok;
  }
  return ok;
}

int RunReport(const ReportCommandOptions& options) {
  report::Format format;
  if (!report::ParseFormatName(options.format, &format)) {
    std::fprintf(stderr, "robotscan report: unknown format '%s'\n",
                 options.format.c_str());
    return kExitUsage;
  }
  report::ReportOptions report_options;
  report_options.top = options.top;
  if (!options.agents.empty()) report_options.crawlers = options.agents;
  if (!robots::ParseCompatName(options.compat, &report_options.compat)) {
    std::fprintf(stderr, "robotscan report: unknown compat mode '%s'\n",
                 options.compat.c_str());
    return kExitUsage;
  }
  report::Report report;
  const storage::Status status =
      report::BuildReportFromDatabase(options.db, report_options, &report);
  if (!status.ok()) {
    std::fprintf(stderr, "robotscan report: %s\n", status.message().c_str());
    return kExitUsage;
  }
  if (!WriteAll(options.out, report::RenderReport(report, format))) {
    std::fprintf(stderr, "robotscan report: cannot write %s\n",
                 options.out.empty() ? "stdout" : options.out.c_str());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void AddReportCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Analyse a crawl database: outcomes, walled gardens, banned agents, "
      "blocking matrix, comments, file facts");
  command->add_option("--db", options->db, "Crawl database (SQLite)")
      ->required();
  command
      ->add_option("--format", options->format,
                   "text, markdown, json or html (default text)")
      ->check(CLI::IsMember({"text", "markdown", "md", "json", "html"}));
  command->add_option("--out", options->out, "Output file (default stdout)");
  command->add_option("--top", options->top,
                      "Rows in each ranked list (default 25)");
  command
      ->add_option("--agents", options->agents,
                   "Crawlers of the blocking matrix (comma-separated; "
                   "default: 17 search, AI and SEO crawlers)")
      ->delimiter(',');
  command
      ->add_option("--compat", options->compat,
                   "Matching semantics: rfc (default) or google")
      ->check(CLI::IsMember({"rfc", "rfc9309", "google"}));
  command->callback([options, exit_code] { *exit_code = RunReport(*options); });
}

}  // namespace robotscan::cli
