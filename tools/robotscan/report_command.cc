// robotscan report: the analysis of a crawl database.
//
//   robotscan report --db crawl.sqlite
//                    [--format text|markdown|json|html|csv] [--table NAME]
//                    [--out FILE] [--top N] [--agents A,B,...]
//                    [--compat rfc|google|urllib] [--no-sensitivity]
//                    [--compare OLDER] [--period PERIOD]
//   robotscan report --db history.sqlite --series [--every month|quarter|year]
//                    [--from PERIOD] [--to PERIOD] [--format ...] [--table]
//
// Reads the `latest_fetch` view (one row per domain) and prints the parts
// described in docs/report.md. OLDER is a run id of --db (the database as
// that run left it), a period of --db, or another crawl database. --period
// reports each domain's newest capture in one period (2019, 2019-Q1,
// 2019-03); --series the key figures per period (docs/history.md). Exit: 0
// on success, 2 on a usage error or when a database cannot be read or the
// output cannot be written.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent_source.h"
#include "choices.h"
#include "commands.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"
#include "robotscan/report/series.h"

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
  std::string period;
  bool series = false;
  std::string every = "year";
  std::string from, to;
};

// "--compare 3": run 3 of the report's database; "2019-03" or "2019-Q1" (and
// "2019" with --period): that period of the report's database; anything
// else is the path of another crawl database (write ./3 for a file named 3).
report::ComparisonSource ParseComparisonSource(const std::string& text,
                                               bool periods) {
  report::ComparisonSource source;
  const bool number = !text.empty() &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  std::optional<report::CaptureWindow> period = report::ParsePeriod(text);
  if (period && (!number || periods)) {
    source.period = std::move(period);
  } else if (number) {
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

// `--series`: the figures per period, in `format`.
int RunSeries(const ReportCommandOptions& options,
              const report::ReportOptions& report_options,
              report::Format format) {
  report::SeriesOptions series_options;
  series_options.report = report_options;
  series_options.from = options.from;
  series_options.to = options.to;
  const std::optional<report::PeriodLength> every =
      report::ParsePeriodLength(options.every);
  if (!every) {
    std::fprintf(stderr,
                 "robotscan report: --every takes month, quarter or year\n");
    return kExitUsage;
  }
  series_options.every = *every;
  for (const std::string* bound : {&options.from, &options.to}) {
    if (!bound->empty() && !report::ParsePeriod(*bound)) {
      std::fprintf(stderr,
                   "robotscan report: '%s' is not a period (2019, 2019-Q1 "
                   "or 2019-03)\n",
                   bound->c_str());
      return kExitUsage;
    }
  }
  report::Series series;
  const storage::Status status =
      report::BuildSeriesFromDatabase(options.db, series_options, &series);
  if (!status.ok()) {
    std::fprintf(stderr, "robotscan report: %s\n", status.message().c_str());
    return kExitUsage;
  }
  std::string output;
  if (format == report::Format::kCsv && options.table != "list") {
    if (!report::RenderSeriesCsvTable(series, options.table, &output)) {
      std::string names;
      for (const report::TableName& table : report::ListSeriesTables(series)) {
        names += (names.empty() ? "" : ", ") + table.name;
      }
      std::fprintf(stderr, "robotscan report: no table '%s'; tables: %s\n",
                   options.table.c_str(), names.c_str());
      return kExitUsage;
    }
  } else {
    output = report::RenderSeries(series, format);
  }
  if (!WriteAll(options.out, output)) {
    std::fprintf(stderr, "robotscan report: cannot write %s\n",
                 options.out.empty() ? "stdout" : options.out.c_str());
    return kExitUsage;
  }
  return kExitOk;
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
  if (options.series && (!options.compare.empty() || !options.period.empty())) {
    std::fprintf(stderr,
                 "robotscan report: --series compares every period already; "
                 "use --period P --compare Q for two periods\n");
    return kExitUsage;
  }
  if (!options.series && (!options.from.empty() || !options.to.empty())) {
    std::fprintf(stderr, "robotscan report: --from and --to need --series\n");
    return kExitUsage;
  }
  if (!options.period.empty()) {
    report_options.period = report::ParsePeriod(options.period);
    if (!report_options.period) {
      std::fprintf(stderr,
                   "robotscan report: '%s' is not a period (2019, 2019-Q1 "
                   "or 2019-03)\n",
                   options.period.c_str());
      return kExitUsage;
    }
  }
  if (!options.compare.empty()) {
    report_options.compare =
        ParseComparisonSource(options.compare, !options.period.empty());
    if (report_options.compare->run == 0 &&
        report_options.compare->database.empty() &&
        !report_options.compare->period) {
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
  if (options.series) return RunSeries(options, report_options, format);
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

// --every's choices: the report library's period lengths.
std::vector<std::string> PeriodLengthChoices() {
  std::vector<std::string> names;
  for (report::PeriodLength length :
       {report::PeriodLength::kMonth, report::PeriodLength::kQuarter,
        report::PeriodLength::kYear}) {
    names.emplace_back(report::PeriodLengthName(length));
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
  command->add_option("--period", options->period,
                      "Report each domain's newest capture in one period of "
                      "capture time: 2019, 2019-Q1 or 2019-03 (imported "
                      "history, docs/history.md); with it, --compare takes "
                      "a period too");
  command->add_flag("--series", options->series,
                    "The key figures per period over every crawl and "
                    "imported snapshot (outcomes, walled gardens, full "
                    "blocks by stratum, started/stopped blocking)");
  command
      ->add_option("--every", options->every,
                   "With --series: month, quarter or year (default year)")
      ->check(CLI::IsMember(PeriodLengthChoices()));
  command->add_option("--from", options->from,
                      "With --series: the first period (default: the first "
                      "capture's)");
  command->add_option("--to", options->to,
                      "With --series: the last period (default: the last "
                      "capture's)");
  command->callback([options, exit_code] { *exit_code = RunReport(*options); });
}

}  // namespace robotscan::cli
