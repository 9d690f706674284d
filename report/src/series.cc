#include "robotscan/report/series.h"

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::report {
namespace {

int MonthsIn(PeriodLength length) {
  switch (length) {
    case PeriodLength::kMonth:
      return 1;
    case PeriodLength::kQuarter:
      return 3;
    case PeriodLength::kYear:
      return 12;
  }
  return 12;
}

std::optional<int> Digits(std::string_view text) {
  if (text.empty() || text.size() > 4) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// Months since year 0: the unit periods are counted in.
using MonthIndex = int;

MonthIndex IndexOf(int year, int month) { return year * 12 + (month - 1); }

// The first instant of a month as capture times are compared: as text.
// Stored times come with milliseconds ("…T00:00:00.000Z", crawls and the
// Wayback import) or without ("…T00:00:00Z", WARC-Date), and '.' sorts
// before 'Z': with ".000Z" the bound is at or below both spellings of the
// same instant, so a capture at midnight on the 1st falls in the month it
// begins, whichever way it was written.
std::string MonthStart(MonthIndex index) {
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02d-01T00:00:00.000Z", index / 12,
                index % 12 + 1);
  return text;
}

std::string LabelOf(MonthIndex start, PeriodLength length) {
  char text[16];
  switch (length) {
    case PeriodLength::kMonth:
      std::snprintf(text, sizeof text, "%04d-%02d", start / 12, start % 12 + 1);
      break;
    case PeriodLength::kQuarter:
      std::snprintf(text, sizeof text, "%04d-Q%d", start / 12,
                    start % 12 / 3 + 1);
      break;
    case PeriodLength::kYear:
      std::snprintf(text, sizeof text, "%04d", start / 12);
      break;
  }
  return text;
}

CaptureWindow WindowOf(MonthIndex start, PeriodLength length) {
  return {LabelOf(start, length), MonthStart(start),
          MonthStart(start + MonthsIn(length))};
}

// The month of a period name or of an ISO 8601 capture time ("2019",
// "2019-Q2" and "2019-04-..." read as their first month).
std::optional<MonthIndex> FirstMonthOf(std::string_view text) {
  const std::optional<int> year = Digits(text.substr(0, 4));
  if (!year || text.size() < 4) return std::nullopt;
  if (text.size() == 4) return IndexOf(*year, 1);
  if (text[4] != '-' || text.size() < 7) return std::nullopt;
  if (text[5] == 'Q' || text[5] == 'q') {
    if (text.size() != 7 || text[6] < '1' || text[6] > '4') return std::nullopt;
    return IndexOf(*year, (text[6] - '1') * 3 + 1);
  }
  const std::optional<int> month = Digits(text.substr(5, 2));
  if (!month || *month < 1 || *month > 12) return std::nullopt;
  return IndexOf(*year, *month);
}

std::optional<PeriodLength> LengthOfName(std::string_view name) {
  if (name.size() == 4) return PeriodLength::kYear;
  if (name.size() == 7 && (name[5] == 'Q' || name[5] == 'q')) {
    return PeriodLength::kQuarter;
  }
  if (name.size() == 7) return PeriodLength::kMonth;
  return std::nullopt;
}

}  // namespace

std::string_view PeriodLengthName(PeriodLength length) {
  switch (length) {
    case PeriodLength::kMonth:
      return "month";
    case PeriodLength::kQuarter:
      return "quarter";
    case PeriodLength::kYear:
      return "year";
  }
  return "year";
}

std::optional<PeriodLength> ParsePeriodLength(std::string_view name) {
  for (PeriodLength length :
       {PeriodLength::kMonth, PeriodLength::kQuarter, PeriodLength::kYear}) {
    if (name == PeriodLengthName(length)) return length;
  }
  return std::nullopt;
}

std::optional<CaptureWindow> ParsePeriod(std::string_view name) {
  const std::optional<PeriodLength> length = LengthOfName(name);
  const std::optional<MonthIndex> first = FirstMonthOf(name);
  if (!length || !first) return std::nullopt;
  return WindowOf(*first, *length);
}

std::vector<CaptureWindow> PeriodsBetween(std::string_view first,
                                          std::string_view last,
                                          PeriodLength length) {
  std::vector<CaptureWindow> periods;
  const std::optional<MonthIndex> begin = FirstMonthOf(first);
  const std::optional<MonthIndex> end = FirstMonthOf(last);
  if (!begin || !end || *end < *begin) return periods;
  const int step = MonthsIn(length);
  for (MonthIndex start = *begin - *begin % step; start <= *end;
       start += step) {
    periods.push_back(WindowOf(start, length));
  }
  return periods;
}

storage::Status BuildSeriesFromDatabase(std::string_view path,
                                        const SeriesOptions& options,
                                        Series* series) {
  *series = Series{};
  series->every = options.every;
  series->crawlers = options.report.crawlers;
  std::string first = options.from, last = options.to;
  {
    auto reader = storage::LatestFetchReader::Open(path);
    if (!reader.ok()) return reader.status();
    storage::Result<std::int64_t> domains = reader.value()->CountRows();
    if (!domains.ok()) return domains.status();
    series->domains = *domains;
    storage::Result<storage::CaptureSpan> span =
        reader.value()->ReadCaptureSpan();
    if (!span.ok()) return span.status();
    if (first.empty()) first = span->first;
    if (last.empty()) last = span->last;
  }
  if (first.empty() || last.empty()) return storage::Status::Ok();
  // A period named as `to` ends with that period: "2024" includes December.
  const std::optional<CaptureWindow> last_period = ParsePeriod(last);
  const std::vector<CaptureWindow> periods = PeriodsBetween(
      first, last_period ? last_period->from : last, options.every);
  if (periods.empty()) {
    return storage::Status(storage::Status::Code::kInvalidArgument,
                           "no period from " + first + " to " + last);
  }
  for (const CaptureWindow& period : periods) {
    ReportOptions report_options = options.report;
    report_options.compare_readings = false;
    report_options.period = period;
    ComparisonSource before;
    before.period = CaptureWindow{"before " + period.label, "", period.from};
    report_options.compare = before;
    Report report;
    storage::Status status =
        BuildReportFromDatabase(path, report_options, &report);
    if (!status.ok()) return status;

    SeriesPoint& point = series->points.emplace_back();
    point.period = period;
    point.captured = report.domains;
    point.not_captured = series->domains - report.domains;
    point.captured_before_too = report.comparison.domains_in_both;
    point.first_capture = report.first_fetched_at;
    point.last_capture = report.last_fetched_at;
    point.outcomes = report.outcomes;
    for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
      point.walled_gardens[stratum] =
          report.walled_gardens.sites_by_stratum[stratum];
      point.files[stratum] = point.walled_gardens[stratum].denominator;
    }
    for (std::size_t i = 0; i < report.blocking.crawlers.size(); ++i) {
      const CrawlerBlocking& blocking = report.blocking.crawlers[i];
      SeriesCrawler& crawler = point.crawlers.emplace_back();
      crawler.agent = blocking.agent;
      crawler.full = blocking.full_by_stratum;
      if (i < report.comparison.crawlers.size()) {
        crawler.started = report.comparison.crawlers[i].started;
        crawler.stopped = report.comparison.crawlers[i].stopped;
      }
    }
  }
  return storage::Status::Ok();
}

}  // namespace robotscan::report
