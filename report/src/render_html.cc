// One self-contained HTML page: inline CSS, inline SVG charts and a few
// lines of inline JavaScript that sort tables. Nothing is fetched: the
// Content-Security-Policy forbids every network source, and only the
// page's own script (by nonce) may run.
//
// Every string from crawled content goes through EscapeHtml, in text and in
// attributes alike; crawled text never lands inside <script> or <style>.
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <variant>

#include "document.h"
#include "render_internal.h"
#include "robotscan/base/terminal_text.h"
#include "robotscan/report/render.h"

namespace robotscan::report {
namespace {

constexpr char kStyle[] = R"css(
:root{--ink:#1d2330;--muted:#5b6475;--line:#e3e6ec;--bg:#f6f7f9;--card:#fff;--accent:#2f6fde}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--ink);background:var(--bg)}
header{background:#182033;color:#fff;padding:28px 32px 18px}
header h1{margin:0 0 6px;font-size:26px;font-weight:650}
header p{margin:2px 0;color:#c9d2e3}
nav{display:flex;flex-wrap:wrap;gap:6px 16px;padding:10px 32px;background:#222c44;position:sticky;top:0;z-index:2}
nav a{color:#dfe6f5;text-decoration:none;font-size:13px}
nav a:hover{color:#fff;text-decoration:underline}
main{max-width:1180px;margin:0 auto;padding:20px 24px 60px}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 22px;margin:18px 0;box-shadow:0 1px 2px rgba(0,0,0,.03)}
h2{margin:0 0 10px;font-size:19px}
h3{margin:18px 0 4px;font-size:15px}
.den{color:var(--muted);font-size:12px;margin:0 0 8px}
p{margin:6px 0}
.wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:13px;margin:4px 0 8px}
th,td{padding:5px 9px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
td.w{overflow-wrap:anywhere}
th{background:#f0f2f6;cursor:pointer;user-select:none;white-space:nowrap;position:relative}
th:hover{background:#e6eaf1}
th[data-dir=a]::after{content:" \25B2";font-size:10px}
th[data-dir=d]::after{content:" \25BC";font-size:10px}
td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tfoot td{font-weight:600;background:#fafbfc}
pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,"DejaVu Sans Mono",monospace;max-height:9em;overflow:auto}
svg{display:block;max-width:100%;height:auto;margin:6px 0 4px}
svg text{font:12px system-ui,-apple-system,"DejaVu Sans",sans-serif;fill:#1d2330}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:12px;color:var(--muted);margin:0 0 6px}
.legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.empty{color:var(--muted);font-style:italic}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0 4px}
.card{background:rgba(255,255,255,.07);border:1px solid rgba(255,255,255,.12);border-radius:8px;padding:10px 16px;min-width:170px}
.card b{display:block;font-size:24px;font-weight:650;color:#fff}
.card span{display:block;color:#dfe6f5}
.card small{display:block;color:#9fb0cc;font-size:11px}
)css";

// Sorts a table by the clicked column: numeric cells by data-v, text by
// locale order; a tfoot row (totals) stays put. Marks the page ready so a
// test can tell scripts ran.
constexpr char kScript[] = R"js(
(function(){
document.querySelectorAll('table.sortable th').forEach(function(th){
th.addEventListener('click',function(){
var t=th.closest('table'),b=t.tBodies[0];
var i=Array.prototype.indexOf.call(th.parentNode.children,th);
var d=th.getAttribute('data-dir')==='a'?'d':'a';
t.querySelectorAll('th').forEach(function(h){h.removeAttribute('data-dir');});
th.setAttribute('data-dir',d);
var rows=Array.prototype.slice.call(b.rows);
rows.sort(function(x,y){
var p=x.cells[i],q=y.cells[i],u=p.getAttribute('data-v'),v=q.getAttribute('data-v');
var c=(u!==null&&v!==null)?parseFloat(u)-parseFloat(v):p.textContent.localeCompare(q.textContent);
return d==='a'?c:-c;});
rows.forEach(function(r){b.appendChild(r);});});});
document.documentElement.setAttribute('data-ready','1');
})();
)js";

constexpr const char* kPalette[] = {"#c0392b", "#e67e22", "#8e44ad", "#d35400",
                                    "#f1c40f", "#7f8c8d", "#95a5a6", "#5dade2",
                                    "#2f6fde", "#27ae60"};

// One-series charts (distributions) are not categories: one calm colour.
constexpr const char* kSingleSeriesColor = "#2f6fde";

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

std::string Percent(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer,
                value > 0 && value < 0.1 ? "%.2f%%" : "%.1f%%", value);
  return buffer;
}

std::string Nonce() {
  std::random_device random;
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string nonce;
  for (int i = 0; i < 32; ++i) nonce += kDigits[random() % 16];
  return nonce;
}

void AppendChart(const BarChart& chart, std::string* out) {
  *out += "<h3>" + EscapeHtml(chart.title) + "</h3><p class=\"den\">" +
          "Share of " + EscapeHtml(chart.denominator) + "</p>";
  if (chart.series.size() > 1) {
    *out += "<div class=\"legend\">";
    for (std::size_t s = 0; s < chart.series.size(); ++s) {
      *out += "<span><i style=\"background:" +
              std::string(kPalette[s % std::size(kPalette)]) + "\"></i>" +
              EscapeHtml(chart.series[s]) + "</span>";
    }
    *out += "</div>";
  }
  // Grouped charts draw one thin bar per series in each row; stacked ones
  // one bar of segments.
  const int series = static_cast<int>(chart.series.size());
  const int bar_height = chart.grouped ? 10 : 18;
  const int row_height = chart.grouped ? series * (bar_height + 2) + 8 : 24;
  const int label_width = chart.label_width;
  constexpr int kBarWidth = 640;
  const int width = label_width + kBarWidth + 70;
  const int height = static_cast<int>(chart.bars.size()) * row_height + 24;
  *out += "<svg class=\"chart\" role=\"img\" viewBox=\"0 0 " +
          std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
          std::to_string(width) + "\" height=\"" + std::to_string(height) +
          "\" xmlns=\"http://www.w3.org/2000/svg\">";
  *out += "<title>" + EscapeHtml(chart.title) + "</title>";
  // Grid lines at 0, 25, 50, 75, 100 %.
  for (int tick = 0; tick <= 4; ++tick) {
    const double x = label_width + kBarWidth * tick / 4.0;
    *out += "<line x1=\"" + Number(x) + "\" x2=\"" + Number(x) +
            "\" y1=\"0\" y2=\"" + std::to_string(height - 18) +
            "\" stroke=\"#e3e6ec\"/><text x=\"" + Number(x) + "\" y=\"" +
            std::to_string(height - 4) +
            "\" text-anchor=\"middle\" style=\"fill:#5b6475\">" +
            std::to_string(tick * 25) + "%</text>";
  }
  const std::size_t label_chars = static_cast<std::size_t>(label_width / 6);
  for (std::size_t b = 0; b < chart.bars.size(); ++b) {
    const BarChart::Bar& bar = chart.bars[b];
    const int y = static_cast<int>(b) * row_height + 3;
    // Cut at a code point boundary, never inside a UTF-8 sequence.
    std::size_t cut = std::min(bar.label.size(), label_chars);
    while (cut < bar.label.size() &&
           (static_cast<unsigned char>(bar.label[cut]) & 0xC0) == 0x80) {
      --cut;
    }
    *out += "<text x=\"" + std::to_string(label_width - 8) + "\" y=\"" +
            std::to_string(y + (chart.grouped ? row_height / 2 : 14)) +
            "\" text-anchor=\"end\">" + EscapeHtml(bar.label.substr(0, cut)) +
            "</text>";
    double x = label_width;
    double total = 0;
    for (std::size_t s = 0; s < bar.percents.size(); ++s) {
      const double bar_width = kBarWidth * bar.percents[s] / 100.0;
      total += bar.percents[s];
      const int bar_y =
          chart.grouped ? y + static_cast<int>(s) * (bar_height + 2) : y;
      const double bar_x = chart.grouped ? label_width : x;
      if (chart.grouped) {
        *out += "<text x=\"" + Number(bar_x + bar_width + 4) + "\" y=\"" +
                std::to_string(bar_y + bar_height - 1) +
                "\" style=\"fill:#5b6475;font-size:9px\">" +
                Percent(bar.percents[s]) + "</text>";
      }
      if (bar_width <= 0) continue;
      *out += "<rect class=\"bar\" x=\"" + Number(bar_x) + "\" y=\"" +
              std::to_string(bar_y) + "\" width=\"" + Number(bar_width) +
              "\" height=\"" + std::to_string(bar_height) +
              "\" rx=\"2\" fill=\"" +
              (chart.series.size() == 1 ? kSingleSeriesColor
                                        : kPalette[s % std::size(kPalette)]) +
              "\"><title>" + EscapeHtml(bar.label) + ": " +
              EscapeHtml(chart.series[s % chart.series.size()]) + " " +
              Percent(bar.percents[s]) + "</title></rect>";
      if (!chart.grouped) x += bar_width;
    }
    if (!chart.grouped) {
      *out += "<text x=\"" + Number(x + 6) + "\" y=\"" +
              std::to_string(y + 14) + "\" style=\"fill:#5b6475\">" +
              (chart.series.size() == 1 ? Percent(total) : "") + "</text>";
    }
  }
  *out += "</svg>";
}

void AppendLineChart(const LineChart& chart, std::string* out) {
  *out += "<h3>" + EscapeHtml(chart.title) + "</h3><p class=\"den\">" +
          "Share of " + EscapeHtml(chart.denominator) + "</p>";
  *out += "<div class=\"legend\">";
  for (std::size_t l = 0; l < chart.lines.size(); ++l) {
    *out += "<span><i style=\"background:" +
            std::string(kPalette[l % std::size(kPalette)]) + "\"></i>" +
            EscapeHtml(chart.lines[l].name) + "</span>";
  }
  *out += "</div>";
  // The y axis ends at the next of 5, 10, 25, 50, 100 % above the highest
  // point: blocking shares of a few percent stay readable.
  double highest = 0;
  for (const LineChart::Line& line : chart.lines) {
    for (const std::optional<double>& p : line.percents) {
      if (p) highest = std::max(highest, *p);
    }
  }
  double top = 100;
  for (double candidate : {5.0, 10.0, 25.0, 50.0}) {
    if (highest <= candidate) {
      top = candidate;
      break;
    }
  }
  constexpr int kLeft = 48, kPlotWidth = 680, kPlotHeight = 220, kTopPad = 8;
  const int width = kLeft + kPlotWidth + 20;
  const int height = kTopPad + kPlotHeight + 40;
  const std::size_t periods = chart.periods.size();
  auto x_of = [&](std::size_t i) {
    return kLeft + (periods <= 1 ? kPlotWidth / 2.0
                                 : kPlotWidth * static_cast<double>(i) /
                                       static_cast<double>(periods - 1));
  };
  auto y_of = [&](double percent) {
    return kTopPad + kPlotHeight * (1 - percent / top);
  };
  *out += "<svg class=\"chart line-chart\" role=\"img\" viewBox=\"0 0 " +
          std::to_string(width) + " " + std::to_string(height) + "\" width=\"" +
          std::to_string(width) + "\" height=\"" + std::to_string(height) +
          "\" xmlns=\"http://www.w3.org/2000/svg\">";
  *out += "<title>" + EscapeHtml(chart.title) + "</title>";
  for (int tick = 0; tick <= 4; ++tick) {
    const double y = y_of(top * tick / 4.0);
    *out += "<line x1=\"" + std::to_string(kLeft) + "\" x2=\"" +
            std::to_string(kLeft + kPlotWidth) + "\" y1=\"" + Number(y) +
            "\" y2=\"" + Number(y) + "\" stroke=\"#e3e6ec\"/><text x=\"" +
            std::to_string(kLeft - 6) + "\" y=\"" + Number(y + 4) +
            "\" text-anchor=\"end\" style=\"fill:#5b6475\">" +
            Percent(top * tick / 4.0) + "</text>";
  }
  // At most ~12 period labels, evenly spaced, the last always shown.
  const std::size_t every = periods > 12 ? (periods + 11) / 12 : 1;
  for (std::size_t i = 0; i < periods; ++i) {
    if (i % every != 0 && i + 1 != periods) continue;
    *out += "<text x=\"" + Number(x_of(i)) + "\" y=\"" +
            std::to_string(kTopPad + kPlotHeight + 18) +
            "\" text-anchor=\"middle\" style=\"fill:#5b6475\">" +
            EscapeHtml(chart.periods[i]) + "</text>";
  }
  for (std::size_t l = 0; l < chart.lines.size(); ++l) {
    const LineChart::Line& line = chart.lines[l];
    const std::string color = kPalette[l % std::size(kPalette)];
    // A gap (a period without a denominator) breaks the line.
    std::string points;
    auto flush = [&] {
      if (points.find(' ') != std::string::npos) {
        *out += "<polyline class=\"series\" fill=\"none\" stroke=\"" + color +
                "\" stroke-width=\"2\" points=\"" + points + "\"/>";
      }
      points.clear();
    };
    for (std::size_t i = 0; i < line.percents.size() && i < periods; ++i) {
      if (!line.percents[i]) {
        flush();
        continue;
      }
      const double x = x_of(i), y = y_of(*line.percents[i]);
      if (!points.empty()) points += ' ';
      points += Number(x) + "," + Number(y);
      *out += "<circle class=\"point\" cx=\"" + Number(x) + "\" cy=\"" +
              Number(y) + "\" r=\"3\" fill=\"" + color + "\"><title>" +
              EscapeHtml(line.name) + ", " + EscapeHtml(chart.periods[i]) +
              ": " + Percent(*line.percents[i]) + "</title></circle>";
    }
    flush();
  }
  *out += "</svg>";
}

// A run of more than 30 bytes without white space.
bool HasLongWord(std::string_view text) {
  std::size_t run = 0;
  for (char c : text) {
    run = (c == ' ' || c == '\n' || c == '\t') ? 0 : run + 1;
    if (run > 30) return true;
  }
  return false;
}

void AppendRow(const std::vector<Cell>& row, bool preformatted_first,
               std::string* out) {
  *out += "<tr>";
  for (std::size_t c = 0; c < row.size(); ++c) {
    const Cell& cell = row[c];
    if (cell.numeric) {
      *out += "<td class=\"n\" data-v=\"" + Number(cell.sort_value) + "\">";
    } else if (HasLongWord(cell.text)) {
      // Only cells with a long unbroken word may break anywhere: it keeps a
      // 100-byte key from pushing the table out of view, while short names
      // keep their column wide enough to stay whole.
      *out += "<td class=\"w\">";
    } else {
      *out += "<td>";
    }
    if (c == 0 && preformatted_first) {
      *out += "<pre>" + EscapeHtml(cell.text) + "</pre>";
    } else {
      *out += EscapeHtml(cell.text);
    }
    *out += "</td>";
  }
  *out += "</tr>";
}

void AppendTable(const Table& table, std::string* out) {
  *out += "<h3>" + EscapeHtml(table.caption) + "</h3>";
  *out +=
      "<p class=\"den\">Denominator: " + EscapeHtml(table.denominator) + "</p>";
  if (table.rows.empty()) {
    *out += "<p class=\"empty\">None.</p>";
    return;
  }
  *out += "<div class=\"wrap\"><table class=\"sortable\"><thead><tr>";
  for (const std::string& header : table.headers) {
    *out += "<th>" + EscapeHtml(header) + "</th>";
  }
  *out += "</tr></thead><tbody>";
  const std::size_t body_rows =
      table.rows.size() - (table.last_row_is_total ? 1 : 0);
  for (std::size_t r = 0; r < body_rows; ++r) {
    AppendRow(table.rows[r], table.preformatted_first_column, out);
  }
  *out += "</tbody>";
  if (table.last_row_is_total) {
    *out += "<tfoot>";
    AppendRow(table.rows.back(), false, out);
    *out += "</tfoot>";
  }
  *out += "</table></div>";
}

}  // namespace

std::string EscapeHtml(std::string_view text) {
  // Control characters (NUL, ESC, the C1 set...) carry no text; they become
  // U+FFFD rather than being left to the browser's error recovery. Line
  // breaks and tabs are text in <pre>.
  const std::string clean =
      ReplaceControlCharacters(text, [](std::string_view control) {
        return std::string(control == "\n" || control == "\t"
                               ? control
                               : std::string_view("\xEF\xBF\xBD"));
      });
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (const char c : clean) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderHtml(const Document& document) {
  const std::string nonce = Nonce();
  std::string out;
  out.reserve(1 << 16);
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out +=
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src 'unsafe-inline'; img-src data:; script-src "
      "'nonce-" +
      nonce + "'\">";
  out +=
      "<meta name=\"viewport\" content=\"width=device-width, "
      "initial-scale=1\">";
  out += "<title>" + EscapeHtml(document.title) + "</title>";
  out += "<style>";
  out += kStyle;
  out += "</style></head><body><header><h1>" + EscapeHtml(document.title) +
         "</h1>";
  for (const std::string& line : document.summary) {
    out += "<p>" + EscapeHtml(line) + "</p>";
  }
  out += "<div class=\"cards\">";
  for (const Highlight& highlight : document.highlights) {
    out += "<div class=\"card\"><b>" + EscapeHtml(highlight.value) +
           "</b><span>" + EscapeHtml(highlight.label) + "</span><small>" +
           EscapeHtml(highlight.denominator) + "</small></div>";
  }
  out += "</div></header><nav>";
  for (const Section& section : document.sections) {
    out += "<a href=\"#" + EscapeHtml(section.id) + "\">" +
           EscapeHtml(section.title) + "</a>";
  }
  out += "</nav><main>";
  for (const Section& section : document.sections) {
    out += "<section id=\"" + EscapeHtml(section.id) + "\"><h2>" +
           EscapeHtml(section.title) + "</h2>";
    for (const std::string& paragraph : section.paragraphs) {
      out += "<p>" + EscapeHtml(paragraph) + "</p>";
    }
    for (const Block& block : section.blocks) {
      if (const auto* table = std::get_if<Table>(&block)) {
        AppendTable(*table, &out);
      } else if (const auto* bars = std::get_if<BarChart>(&block)) {
        AppendChart(*bars, &out);
      } else {
        AppendLineChart(std::get<LineChart>(block), &out);
      }
    }
    out += "</section>";
  }
  out += "</main><script nonce=\"" + nonce + "\">";
  out += kScript;
  out += "</script></body></html>\n";
  return out;
}

}  // namespace robotscan::report
