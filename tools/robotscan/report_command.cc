// robotscan report: the analysis of a crawl database.
//
//   robotscan report --db crawl.sqlite
//                    [--format text|markdown|json|html|csv] [--table NAME]
//                    [--out FILE] [--top N] [--agents A,B,...]
//                    [--compat rfc|google|urllib] [--no-sensitivity]
//                    [--compare OLDER]
//
// Reads the `latest_fetch` view (one row per domain) and prints the parts
// described in docs/report.md. OLDER is a run id of --db (the database as
// that run left it) or another crawl database. Exit: 0 on success, 2 on a
// usage error or when a database cannot be read or the output cannot be
// written.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "agent_source.h"
#include "choices.h"
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
  std::string agents_from;
  std::string compat = "rfc";
  std::string table;
  std::string compare;
  bool no_sensitivity = false;
};

// "--compare 3": run 3 of the report's database; anything else is the path
// of another crawl database (write ./3 for a file named 3).
report::ComparisonSource ParseComparisonSource(const std::string& text) {
  report::ComparisonSource source;
  const bool number = !text.empty() &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  if (number) {
    source.run = std::stoll(text);
  } else {
    source.database = text;
  }
  return source;
}

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
  if (format == report::Format::kCsv && options.table.empty()) {
    std::fprintf(stderr,
                 "robotscan report: --format csv needs --table NAME "
                 "(robotscan report --db FILE --format csv --table list "
                 "prints the names)\n");
    return kExitUsage;
  }
  if (format != report::Format::kCsv && !options.table.empty()) {
    std::fprintf(stderr, "robotscan report: --table needs --format csv\n");
    return kExitUsage;
  }
  report::ReportOptions report_options;
  report_options.top = options.top;
  report_options.compare_readings = !options.no_sensitivity;
  if (!options.compare.empty()) {
    report_options.compare = ParseComparisonSource(options.compare);
    if (report_options.compare->run == 0 &&
        report_options.compare->database.empty()) {
      std::fprintf(stderr,
                   "robotscan report: --compare needs a run id > 0 "
                   "or a database\n");
      return kExitUsage;
    }
  }
  if (!options.agents.empty()) report_options.crawlers = options.agents;
  if (!options.agents_from.empty()) {
    Result<report::AgentRegistry> registry =
        LoadAgentRegistry(options.agents_from);
    if (!registry.ok()) {
      std::fprintf(stderr, "robotscan report: %s\n",
                   registry.status().message().c_str());
      return ExitCodeFor(registry.status());
    }
    report_options.registry = std::move(registry).value();
  }
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
  std::string output;
  if (format == report::Format::kCsv && options.table != "list") {
    if (!report::RenderCsvTable(report, options.table, &output)) {
      std::string names;
      for (const report::TableName& table : report::ListTables(report)) {
        names += (names.empty() ? "" : ", ") + table.name;
      }
      std::fprintf(stderr, "robotscan report: no table '%s'; tables: %s\n",
                   options.table.c_str(), names.c_str());
      return kExitUsage;
    }
  } else {
    output = report::RenderReport(report, format);
  }
  if (!WriteAll(options.out, output)) {
    std::fprintf(stderr, "robotscan report: cannot write %s\n",
                 options.out.empty() ? "stdout" : options.out.c_str());
    return kExitUsage;
  }
  return kExitOk;
}

// --format's choices: the report library's names, in its order.
std::vector<std::string> FormatChoices() {
  std::vector<std::string> names;
  for (const report::FormatName& entry : report::kFormatNames) {
    names.emplace_back(entry.name);
  }
  return names;
}

}  // namespace

void AddReportCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "report",
      "Analyse a crawl database: outcomes, walled gardens, banned agents, "
      "blocking matrix, comments, file facts, parser sensitivity, change "
      "since an older crawl");
  command
      ->add_option("--db", options->db,
                   "Crawl database: an SQLite file or a postgresql:// URI")
      ->required();
  command
      ->add_option("--format", options->format,
                   "text, markdown, json, html or csv (default text)")
      ->check(CLI::IsMember(FormatChoices()));
  command->add_option("--table", options->table,
                      "With --format csv: the table to write ('list' prints "
                      "the table names)");
  command->add_option("--out", options->out, "Output file (default stdout)");
  command->add_option("--top", options->top,
                      "Rows in each ranked list (default 25)");
  command
      ->add_option("--agents", options->agents,
                   "Crawlers of the blocking matrix (comma-separated; "
                   "default: 17 search, AI and SEO crawlers)")
      ->delimiter(',');
  command->add_option(
      "--agents-from", options->agents_from,
      "Agent registry of the registry matrix (part 4b): a file or an "
      "http(s) URL, ai.robots.txt's robots.json or robotscan's format "
      "(default: the built-in one; `robotscan agents` lists it)");
  command
      ->add_option("--compat", options->compat,
                   "Matching semantics: rfc (default), google or urllib "
                   "(CPython's urllib.robotparser)")
      ->check(CLI::IsMember(CompatChoices()));
  command->add_flag("--no-sensitivity", options->no_sensitivity,
                    "Skip part 7 (the findings under all three readings)");
  command->add_option("--compare", options->compare,
                      "Part 8: compare with OLDER, a run id of --db (the "
                      "database as that run left it) or another crawl "
                      "database");
  command->callback([options, exit_code] { *exit_code = RunReport(*options); });
}

}  // namespace robotscan::cli
