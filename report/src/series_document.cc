// report --series laid out as a document (text, Markdown, HTML, CSV tables)
// and as JSON, with the same tables, names and denominators as the report.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "document.h"
#include "render_internal.h"
#include "robotscan/report/series.h"

namespace robotscan::report {
namespace {

constexpr std::size_t kAll = kStratumCount - 1;

std::optional<double> PercentOrGap(const Share& share) {
  if (share.denominator == 0) return std::nullopt;
  return share.percent();
}

std::vector<std::string> PeriodLabels(const Series& series) {
  std::vector<std::string> labels;
  for (const SeriesPoint& point : series.points) {
    labels.push_back(point.period.label);
  }
  return labels;
}

Share OutcomeShare(const SeriesPoint& point, std::size_t stratum,
                   std::size_t outcome) {
  return {point.outcomes.counts[stratum][outcome],
          point.outcomes.domains[stratum]};
}

Section CoverageSection(const Series& series) {
  Section section;
  section.id = "coverage";
  section.title = "Coverage per period";
  section.paragraphs.push_back(
      "Each period sees each domain's newest capture inside it (a crawl's "
      "fetch, a Common Crawl or Wayback Machine snapshot). Domains of the "
      "database without a capture in a period are counted, never dropped: a "
      "share that moves because coverage moved is not a change of the web.");
  Table table;
  table.name = "series-coverage";
  table.caption = "Domains captured per period";
  table.denominator =
      "domains in the database (" + FormatCount(series.domains) + ")";
  table.headers = {"Period",        "Captured",
                   "Not captured",  "Captured before too",
                   "First capture", "Last capture"};
  for (const SeriesPoint& point : series.points) {
    table.rows.push_back({TextCell(point.period.label),
                          ShareCell({point.captured, series.domains}),
                          ShareCell({point.not_captured, series.domains}),
                          CountCell(point.captured_before_too),
                          TextCell(point.first_capture),
                          TextCell(point.last_capture)});
  }
  section.blocks.emplace_back(std::move(table));
  return section;
}

Section OutcomeSection(const Series& series) {
  Section section;
  section.id = "series-outcomes";
  section.title = "Outcome categories per period";
  section.paragraphs.push_back(
      "The report's part 1 for each period. Strata are cumulative; "
      "denominator of a row: the period's captured domains in the stratum.");
  Table table;
  table.name = "series-outcomes";
  table.caption = "Outcome per captured domain, by period and rank stratum";
  table.denominator = "captured domains in the period and stratum (Domains)";
  table.headers = {"Period", "Stratum", "Domains"};
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    table.headers.emplace_back(OutcomeTitle(static_cast<Outcome>(o)));
  }
  for (const SeriesPoint& point : series.points) {
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      std::vector<Cell> row{TextCell(point.period.label),
                            TextCell(std::string(StratumName(s))),
                            CountCell(point.outcomes.domains[s])};
      for (std::size_t o = 0; o < kOutcomeCount; ++o) {
        row.push_back(ShareCell(OutcomeShare(point, s, o)));
      }
      table.rows.push_back(std::move(row));
    }
  }
  LineChart chart;
  chart.title = "Outcome categories, all captured domains";
  chart.denominator = "the period's captured domains";
  chart.periods = PeriodLabels(series);
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    LineChart::Line line{std::string(OutcomeTitle(static_cast<Outcome>(o))),
                         {}};
    bool any = false;
    for (const SeriesPoint& point : series.points) {
      const Share share = OutcomeShare(point, kAll, o);
      any = any || share.count > 0;
      line.percents.push_back(PercentOrGap(share));
    }
    if (any) chart.lines.push_back(std::move(line));
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
  return section;
}

Section WalledGardenSeriesSection(const Series& series) {
  Section section;
  section.id = "series-walled-gardens";
  section.title = "Walled gardens per period";
  section.paragraphs.push_back(
      "Robots.txt files that let Googlebot fetch / and not a generic "
      "crawler (the report's part 2), per rank stratum.");
  Table table;
  table.name = "series-walled-gardens";
  table.caption = "Walled gardens by period and rank stratum";
  table.denominator = "the period's robots.txt files in the stratum (column)";
  table.headers = {"Period"};
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    table.headers.emplace_back(StratumName(s));
  }
  LineChart chart;
  chart.title = "Walled gardens";
  chart.denominator = "the period's robots.txt files";
  chart.periods = PeriodLabels(series);
  LineChart::Line line{"walled gardens (all)", {}};
  for (const SeriesPoint& point : series.points) {
    std::vector<Cell> row{TextCell(point.period.label)};
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      row.push_back(ShareCell(point.walled_gardens[s]));
    }
    table.rows.push_back(std::move(row));
    line.percents.push_back(PercentOrGap(point.walled_gardens[kAll]));
  }
  chart.lines.push_back(std::move(line));
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
  return section;
}

Section FullBlockSection(const Series& series) {
  Section section;
  section.id = "series-full-blocks";
  section.title = "Full blocks per crawler and period";
  section.paragraphs.push_back(
      "Robots.txt files under which the crawler may not fetch / (the "
      "report's part 4), per rank stratum.");
  Table table;
  table.name = "series-full-blocks";
  table.caption = "Full blocks by period, rank stratum and crawler";
  table.denominator = "the period's robots.txt files in the stratum (Files)";
  table.headers = {"Period", "Stratum", "Files"};
  for (const std::string& agent : series.crawlers)
    table.headers.push_back(agent);
  for (const SeriesPoint& point : series.points) {
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      std::vector<Cell> row{TextCell(point.period.label),
                            TextCell(std::string(StratumName(s))),
                            CountCell(point.files[s])};
      for (const SeriesCrawler& crawler : point.crawlers) {
        row.push_back(ShareCell(crawler.full[s]));
      }
      table.rows.push_back(std::move(row));
    }
  }
  LineChart chart;
  chart.title = "Full blocks per crawler";
  chart.denominator = "the period's robots.txt files";
  chart.periods = PeriodLabels(series);
  for (std::size_t c = 0; c < series.crawlers.size(); ++c) {
    LineChart::Line line{series.crawlers[c], {}};
    for (const SeriesPoint& point : series.points) {
      line.percents.push_back(c < point.crawlers.size()
                                  ? PercentOrGap(point.crawlers[c].full[kAll])
                                  : std::nullopt);
    }
    chart.lines.push_back(std::move(line));
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
  return section;
}

Table StartedOrStopped(const Series& series, bool started) {
  Table table;
  table.name = started ? "series-started-blocking" : "series-stopped-blocking";
  table.caption = started ? "Domains that started fully blocking each crawler"
                          : "Domains that stopped fully blocking each crawler";
  table.denominator = "domains captured in the period and before it (Compared)";
  table.headers = {"Period", "Compared"};
  for (const std::string& agent : series.crawlers)
    table.headers.push_back(agent);
  for (const SeriesPoint& point : series.points) {
    std::vector<Cell> row{TextCell(point.period.label),
                          CountCell(point.captured_before_too)};
    for (const SeriesCrawler& crawler : point.crawlers) {
      row.push_back(ShareCell(started ? crawler.started : crawler.stopped));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

Section FirstSeenSection(const Series& series) {
  Section section;
  section.id = "series-first-seen";
  section.title = "First seen blocking";
  section.paragraphs.push_back(
      "Per crawler, the domains whose capture in the period fully blocks it "
      "while their newest capture before the period did not (started), and "
      "the reverse (stopped): the report's part 8 between each period and "
      "everything captured before it. A domain first captured in the period "
      "has nothing to compare with and is not counted.");
  section.blocks.emplace_back(StartedOrStopped(series, true));
  section.blocks.emplace_back(StartedOrStopped(series, false));
  return section;
}

Document BuildSeriesDocument(const Series& series) {
  Document document;
  document.title = "robots.txt over time";
  document.summary.push_back(
      FormatCount(static_cast<std::int64_t>(series.points.size())) + " " +
      std::string(PeriodLengthName(series.every)) + "s, " +
      FormatCount(series.domains) + " domains in the database.");
  if (!series.points.empty()) {
    document.summary.push_back("From " + series.points.front().period.label +
                               " to " + series.points.back().period.label +
                               " (UTC capture time).");
  }
  document.sections.push_back(CoverageSection(series));
  document.sections.push_back(OutcomeSection(series));
  document.sections.push_back(WalledGardenSeriesSection(series));
  document.sections.push_back(FullBlockSection(series));
  document.sections.push_back(FirstSeenSection(series));
  return document;
}

nlohmann::ordered_json ShareJson(const Share& share) {
  return {{"count", share.count},
          {"denominator", share.denominator},
          {"percent", share.percent()}};
}

std::string RenderSeriesJson(const Series& series) {
  nlohmann::ordered_json out;
  out["every"] = std::string(PeriodLengthName(series.every));
  out["domains"] = series.domains;
  out["crawlers"] = series.crawlers;
  nlohmann::ordered_json periods = nlohmann::ordered_json::array();
  for (const SeriesPoint& point : series.points) {
    nlohmann::ordered_json p;
    p["period"] = point.period.label;
    p["from"] = point.period.from;
    p["before"] = point.period.before;
    p["captured"] = point.captured;
    p["not_captured"] = point.not_captured;
    p["captured_before_too"] = point.captured_before_too;
    p["first_capture"] = point.first_capture;
    p["last_capture"] = point.last_capture;
    nlohmann::ordered_json strata = nlohmann::ordered_json::object();
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      nlohmann::ordered_json stratum;
      stratum["domains"] = point.outcomes.domains[s];
      nlohmann::ordered_json outcomes = nlohmann::ordered_json::object();
      for (std::size_t o = 0; o < kOutcomeCount; ++o) {
        outcomes[std::string(OutcomeName(static_cast<Outcome>(o)))] =
            point.outcomes.counts[s][o];
      }
      stratum["outcomes"] = std::move(outcomes);
      stratum["robots_files"] = point.files[s];
      stratum["walled_gardens"] = ShareJson(point.walled_gardens[s]);
      nlohmann::ordered_json full = nlohmann::ordered_json::object();
      for (const SeriesCrawler& crawler : point.crawlers) {
        full[crawler.agent] = ShareJson(crawler.full[s]);
      }
      stratum["full_block"] = std::move(full);
      strata[std::string(StratumName(s))] = std::move(stratum);
    }
    p["strata"] = std::move(strata);
    nlohmann::ordered_json started = nlohmann::ordered_json::object();
    nlohmann::ordered_json stopped = nlohmann::ordered_json::object();
    for (const SeriesCrawler& crawler : point.crawlers) {
      started[crawler.agent] = ShareJson(crawler.started);
      stopped[crawler.agent] = ShareJson(crawler.stopped);
    }
    p["started_blocking"] = std::move(started);
    p["stopped_blocking"] = std::move(stopped);
    periods.push_back(std::move(p));
  }
  out["periods"] = std::move(periods);
  return out.dump(2) + "\n";
}

}  // namespace

std::string RenderSeries(const Series& series, Format format) {
  switch (format) {
    case Format::kJson:
      return RenderSeriesJson(series);
    case Format::kHtml:
      return RenderHtml(BuildSeriesDocument(series));
    case Format::kMarkdown:
      return RenderMarkdown(BuildSeriesDocument(series));
    case Format::kCsv:
      return RenderDocumentCsvIndex(BuildSeriesDocument(series));
    case Format::kText:
      break;
  }
  return RenderText(BuildSeriesDocument(series));
}

std::vector<TableName> ListSeriesTables(const Series& series) {
  return ListDocumentTables(BuildSeriesDocument(series));
}

bool RenderSeriesCsvTable(const Series& series, std::string_view name,
                          std::string* csv) {
  return RenderDocumentCsvTable(BuildSeriesDocument(series), name, csv);
}

}  // namespace robotscan::report
