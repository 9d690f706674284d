// Renderers of a robotscan::report::Report: plain text and Markdown for a
// terminal or a paper, JSON with every number, and one self-contained HTML
// page (inline CSS, SVG charts, a few lines of inline JavaScript to sort
// tables; no network fetch).
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

#include "robotscan/report/report.h"

namespace robotscan::report {

enum class Format : std::uint8_t { kText, kMarkdown, kJson, kHtml };

// "text", "markdown", "json", "html"; false for anything else.
bool ParseFormatName(std::string_view name, Format* format);

std::string RenderReport(const Report& report, Format format);

// Escapes &, <, >, " and ' for HTML text and attribute values.
std::string EscapeHtml(std::string_view text);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_RENDER_H_
