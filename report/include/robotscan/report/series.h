// robotscan::report series — the report's key figures per period of capture
// time, over every crawl and imported snapshot in a database
// (`robotscan report --series`, docs/history.md).
//
// A period (a month, a quarter or a year of UTC capture time) sees each
// domain's newest capture inside it (LatestFetchQuery::captured_from/
// before), so a database holding a crawl, several Common Crawl crawls and
// monthly Wayback snapshots becomes one row per period. Each row is the
// report itself run on that period (BuildReportFromDatabase with
// ReportOptions::period): the outcome table by rank stratum, walled gardens
// and each named crawler's full blocks by stratum, with the report's own
// categories and denominators. "Started blocking" is part 8 run between the
// period and each domain's newest capture before it: domains fully blocking
// the crawler now that did not at their previous capture, of the domains
// captured both in the period and before it.
//
// Every figure names its denominator. A period also counts the domains of
// the database without a capture in it (`not_captured`), so a share that
// moves because coverage moved can be told from one that moves because
// sites changed.
//
// Cost: one pass of the period's captures and one of everything captured
// before it, per period (each distinct body is analysed once per pass).
//
// Usage:
//   robotscan::report::SeriesOptions options;
//   options.every = robotscan::report::PeriodLength::kYear;
//   robotscan::report::Series series;
//   robotscan::storage::Status s =
//       robotscan::report::BuildSeriesFromDatabase("history.sqlite",
//                                                  options, &series);
//
// Thread-safety: a finished Series is a plain value.
#ifndef ROBOTSCAN_REPORT_SERIES_H_
#define ROBOTSCAN_REPORT_SERIES_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/report/render.h"
#include "robotscan/report/report.h"
#include "robotscan/storage/status.h"

namespace robotscan::report {

enum class PeriodLength : std::uint8_t { kMonth, kQuarter, kYear };
std::string_view PeriodLengthName(PeriodLength length);  // "month", ...
std::optional<PeriodLength> ParsePeriodLength(std::string_view name);

// A period by name: "2019" (a year), "2019-Q1" (a quarter), "2019-03" (a
// month); nullopt when the text is none of these. The window's label is the
// name as given, normalised ("2019-q1" -> "2019-Q1").
std::optional<CaptureWindow> ParsePeriod(std::string_view name);

// The periods of `length` from the one holding `first` to the one holding
// `last` (ISO 8601 capture times, or period names), in order; empty when
// either cannot be read or last < first.
std::vector<CaptureWindow> PeriodsBetween(std::string_view first,
                                          std::string_view last,
                                          PeriodLength length);

struct SeriesOptions {
  // The report's settings (crawlers, reading, agent for walled gardens).
  // Part 7 is never run for a series.
  ReportOptions report;
  PeriodLength every = PeriodLength::kYear;
  // The first and last periods (names, or capture times); empty: the
  // database's first and last capture.
  std::string from, to;
};

struct SeriesCrawler {
  std::string agent;
  // Full blocks per rank stratum; denominator: the stratum's robots.txt
  // files in this period.
  std::array<Share, kStratumCount> full{};
  // Fully blocking now, not at the domain's previous capture (started), and
  // the reverse (stopped). Denominator: domains captured in this period and
  // before it (`SeriesPoint::captured_before_too`).
  Share started;
  Share stopped;
};

struct SeriesPoint {
  CaptureWindow period;
  // Domains with a capture in this period, and domains of the database
  // (`Series::domains`) without one.
  std::int64_t captured = 0;
  std::int64_t not_captured = 0;
  // Of `captured`, the domains that also have a capture before it.
  std::int64_t captured_before_too = 0;
  std::string first_capture, last_capture;  // In this period.
  OutcomeTable outcomes;                    // Part 1, of `captured`.
  // Robots.txt files per stratum (the denominator of the two below).
  std::array<std::int64_t, kStratumCount> files{};
  std::array<Share, kStratumCount> walled_gardens{};
  std::vector<SeriesCrawler> crawlers;  // ReportOptions::crawlers order.
};

struct Series {
  PeriodLength every = PeriodLength::kYear;
  // Domains with any fetch in the database: the base of `not_captured`.
  std::int64_t domains = 0;
  std::vector<std::string> crawlers;
  std::vector<SeriesPoint> points;  // Oldest first, one per period.
};

[[nodiscard]] storage::Status BuildSeriesFromDatabase(
    std::string_view path, const SeriesOptions& options, Series* series);

// The series in `format` (render.h): text, Markdown and HTML (a line chart
// per figure) print the tables below; JSON has every number; kCsv is the
// index of the tables RenderSeriesCsvTable writes: series-coverage,
// series-outcomes, series-walled-gardens, series-full-blocks,
// series-started-blocking, series-stopped-blocking.
std::string RenderSeries(const Series& series, Format format);
std::vector<TableName> ListSeriesTables(const Series& series);
[[nodiscard]] bool RenderSeriesCsvTable(const Series& series,
                                        std::string_view name,
                                        std::string* csv);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_SERIES_H_
