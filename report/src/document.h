// The report laid out once as sections of tables and charts, so the text,
// Markdown and HTML renderers print the same figures with the same
// denominators and cannot drift apart. JSON is rendered from the Report
// itself (every number, unrounded).
#ifndef ROBOTSCAN_REPORT_DOCUMENT_H_
#define ROBOTSCAN_REPORT_DOCUMENT_H_

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "robotscan/report/report.h"

namespace robotscan::report {

struct Cell {
  std::string text;
  bool numeric = false;
  double sort_value = 0;  // For numeric cells: what the HTML table sorts by.
  // The value for CSV: the text, or the plain number ("" for "-"), or, for
  // a share, its count, denominator and percent in three columns.
  std::string raw;
  std::optional<Share> share;
};

struct Table {
  std::string name;  // Stable id for --format csv --table NAME.
  std::string caption;
  std::string denominator;  // "Denominator: ..." printed under the caption.
  std::vector<std::string> headers;
  std::vector<std::vector<Cell>> rows;
  bool preformatted_first_column = false;  // Comment text, file excerpts.
  bool last_row_is_total = false;  // Kept last when the table is sorted.
  // Text and Markdown print this many rows at most (0: all) and say where
  // the rest is (CSV and JSON); HTML prints every row.
  std::size_t text_rows = 0;
};

// Horizontal bars; each bar has one or more stacked segments (percent of
// the denominator), e.g. full and partial blocks of one crawler.
struct BarChart {
  std::string title;
  std::string denominator;
  std::vector<std::string> series;  // Segment names (legend).
  // Series drawn as separate bars of a row instead of stacked segments,
  // for figures that overlap (a file can both fully block and single out).
  bool grouped = false;
  int label_width = 170;  // Room for the bar labels (SVG units).
  struct Bar {
    std::string label;
    std::vector<double> percents;  // One per series.
  };
  std::vector<Bar> bars;
};

// Lines over periods (report --series): one point per period and line, a
// percent of that period's denominator; no point where the period has no
// denominator (nothing captured), so a gap is never drawn as 0%.
struct LineChart {
  std::string title;
  std::string denominator;
  std::vector<std::string> periods;  // X axis labels, oldest first.
  struct Line {
    std::string name;
    std::vector<std::optional<double>> percents;  // One per period.
  };
  std::vector<Line> lines;
};

using Block = std::variant<Table, BarChart, LineChart>;

struct Section {
  std::string id;  // HTML anchor.
  std::string title;
  std::vector<std::string> paragraphs;
  std::vector<Block> blocks;
};

// A headline figure: "59.9%" / "serve a robots.txt" / "of 20,000 domains".
struct Highlight {
  std::string value;
  std::string label;
  std::string denominator;
};

struct Document {
  std::string title;
  std::vector<std::string> summary;
  std::vector<Highlight> highlights;
  std::vector<Section> sections;
};

Document BuildDocument(const Report& report);

// Cells as every table of the report writes them: text; a count; a share
// ("12 (3.4%)", CSV count/denominator/percent).
Cell TextCell(std::string text);
Cell CountCell(std::int64_t count);
Cell ShareCell(const Share& share);

// "12.3%"; "0%" for an empty denominator.
std::string FormatPercent(const Share& share);
// "1,234,567".
std::string FormatCount(std::int64_t count);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_DOCUMENT_H_
