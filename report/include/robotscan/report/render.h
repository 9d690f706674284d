// Renderers of a robotscan::report::Report: plain text and Markdown for a
// terminal or a paper, JSON with every number, one self-contained HTML
// page (inline CSS, SVG charts, a few lines of inline JavaScript to sort
// tables; no network fetch), and CSV of any one table.
//
// Everything taken from crawled content (domains, agent tokens, comments,
// excerpts, keys) is hostile input: the HTML renderer escapes it for the
// context it lands in, Markdown escapes table syntax and HTML, text and
// JSON keep it as data (JSON escapes it; text replaces control bytes).
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_REPORT_RENDER_H_
#define ROBOTSCAN_REPORT_RENDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/report/report.h"

namespace robotscan::report {

enum class Format : std::uint8_t { kText, kMarkdown, kJson, kHtml, kCsv };

// The formats' names ("md" is short for "markdown"): the one table
// ParseFormatName reads and `robotscan report --format` offers, in order.
struct FormatName {
  std::string_view name;
  Format format;
};
inline constexpr FormatName kFormatNames[] = {
    {"text", Format::kText},   {"markdown", Format::kMarkdown},
    {"md", Format::kMarkdown}, {"json", Format::kJson},
    {"html", Format::kHtml},   {"csv", Format::kCsv},
};

// The format named `name` in kFormatNames; false for anything else.
bool ParseFormatName(std::string_view name, Format* format);

// The report in `format`; for kCsv, the index of the tables RenderCsvTable
// writes (columns "table", "caption").
std::string RenderReport(const Report& report, Format format);

// A table of the report (the same tables as text, Markdown and HTML), by
// its stable name, in report order.
struct TableName {
  std::string name;     // "outcomes", "blocking", "job-adverts", ...
  std::string caption;  // As printed above the table.
};
std::vector<TableName> ListTables(const Report& report);

// Table `name` as CSV (RFC 4180, CRLF line ends, UTF-8): a header line,
// then one line per row; numbers are plain, and a share column becomes
// "<header>", "<header> denominator", "<header> percent". Text that a
// spreadsheet would evaluate as a formula is prefixed with "'". False (and
// *csv untouched) when no table has that name.
[[nodiscard]] bool RenderCsvTable(const Report& report, std::string_view name,
                                  std::string* csv);

// Escapes &, <, >, " and ' for HTML text and attribute values; control
// characters other than line feed and tab (C0, DEL, C1: terminal_text.h)
// become U+FFFD.
std::string EscapeHtml(std::string_view text);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_RENDER_H_
