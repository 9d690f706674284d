// Text and Markdown renderers, and the format dispatch.
#include <algorithm>
#include <string>
#include <variant>

#include "document.h"
#include "render_internal.h"
#include "robotscan/base/terminal_text.h"
#include "robotscan/report/render.h"

namespace robotscan::report {
namespace {

// Longest cell printed in text and Markdown tables; comment blocks and
// excerpts are cut (JSON and HTML keep them whole).
constexpr std::size_t kMaxCellChars = 100;

// Terminal-safe: crawled bytes (and what a database says of its crawl)
// could carry escape sequences that rewrite the reader's screen. Control
// characters, C0, DEL and C1 alike (terminal_text.h), become '?', line
// breaks " / ". Every string the text renderer prints goes through here.
std::string SanitizeForTerminal(std::string_view text) {
  return ReplaceControlCharacters(text, [](std::string_view control) {
    return std::string(control == "\n" ? " / " : "?");
  });
}

// Cuts at kMaxCellChars code points, never inside a UTF-8 sequence.
std::string Cut(std::string text) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (++chars > kMaxCellChars) {
      text.resize(i);
      text += "...";
      break;
    }
  }
  return text;
}

std::size_t DisplayWidth(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(),
      [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

// The line under a table cut at Table::text_rows.
std::string MoreRows(const Table& table, std::size_t shown) {
  return "  ... and " + std::to_string(table.rows.size() - shown) +
         " more rows: all " + std::to_string(table.rows.size()) +
         " are in --format csv --table " + table.name +
         ", --format json and --format html\n";
}

void AppendText(const Table& table, std::string* out) {
  *out += "\n" + SanitizeForTerminal(table.caption) +
          "  [denominator: " + SanitizeForTerminal(table.denominator) + "]\n";
  if (table.rows.empty()) {
    *out += "  (none)\n";
    return;
  }
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> headers;
  for (const std::string& header : table.headers) {
    headers.push_back(SanitizeForTerminal(header));
  }
  cells.push_back(std::move(headers));
  const std::size_t shown = table.text_rows == 0
                                ? table.rows.size()
                                : std::min(table.text_rows, table.rows.size());
  for (std::size_t r = 0; r < shown; ++r) {
    const auto& row = table.rows[r];
    std::vector<std::string> line;
    for (const Cell& cell : row)
      line.push_back(Cut(SanitizeForTerminal(cell.text)));
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> widths(table.headers.size(), 0);
  for (const auto& line : cells) {
    for (std::size_t c = 0; c < line.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], DisplayWidth(line[c]));
    }
  }
  for (std::size_t r = 0; r < cells.size(); ++r) {
    std::string line = " ";
    for (std::size_t c = 0; c < cells[r].size() && c < widths.size(); ++c) {
      const std::string& text = cells[r][c];
      const std::size_t pad = widths[c] - DisplayWidth(text);
      const bool right = r > 0 && table.rows[r - 1][c].numeric;
      line += ' ';
      if (right) line.append(pad, ' ');
      line += text;
      if (!right) line.append(pad, ' ');
      line += ' ';
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    *out += line + "\n";
    if (r == 0) {
      std::size_t total = 1;
      for (std::size_t w : widths) total += w + 2;
      *out += " " + std::string(total - 1, '-') + "\n";
    }
  }
  if (shown < table.rows.size()) *out += MoreRows(table, shown);
}

}  // namespace

std::string RenderText(const Document& document) {
  const std::string title = SanitizeForTerminal(document.title);
  std::string out = title + "\n" + std::string(DisplayWidth(title), '=') + "\n";
  for (const std::string& line : document.summary) {
    out += SanitizeForTerminal(line) + "\n";
  }
  out += "\n";
  for (const Highlight& highlight : document.highlights) {
    out += "  " + SanitizeForTerminal(highlight.value) + "  " +
           SanitizeForTerminal(highlight.label) + " (" +
           SanitizeForTerminal(highlight.denominator) + ")\n";
  }
  for (const Section& section : document.sections) {
    const std::string section_title = SanitizeForTerminal(section.title);
    out += "\n" + section_title + "\n" +
           std::string(DisplayWidth(section_title), '-') + "\n";
    for (const std::string& paragraph : section.paragraphs) {
      out += SanitizeForTerminal(paragraph) + "\n";
    }
    for (const Block& block : section.blocks) {
      // Charts repeat a table's figures; a terminal gets the table.
      if (const auto* table = std::get_if<Table>(&block)) {
        AppendText(*table, &out);
      }
    }
  }
  return out;
}

namespace {

// Markdown: table syntax and inline HTML in crawled text are escaped so a
// hostile token cannot break the table or inject markup where Markdown is
// rendered to HTML.
std::string EscapeMarkdown(std::string_view text) {
  std::string out;
  for (char c : SanitizeForTerminal(text)) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '|':
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '#':
      case '~':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

std::string RenderMarkdown(const Document& document) {
  std::string out = "# " + SanitizeForTerminal(document.title) + "\n\n";
  for (const std::string& line : document.summary) {
    out += EscapeMarkdown(line) + "\n\n";
  }
  for (const Highlight& highlight : document.highlights) {
    out += "- **" + EscapeMarkdown(highlight.value) + "** " +
           EscapeMarkdown(highlight.label) + " (" +
           EscapeMarkdown(highlight.denominator) + ")\n";
  }
  out += "\n";
  for (const Section& section : document.sections) {
    out += "## " + SanitizeForTerminal(section.title) + "\n\n";
    for (const std::string& paragraph : section.paragraphs) {
      out += EscapeMarkdown(paragraph) + "\n\n";
    }
    for (const Block& block : section.blocks) {
      const auto* table = std::get_if<Table>(&block);
      if (table == nullptr) continue;
      out += "**" + EscapeMarkdown(table->caption) +
             "** (denominator: " + EscapeMarkdown(table->denominator) + ")\n\n";
      if (table->rows.empty()) {
        out += "(none)\n\n";
        continue;
      }
      out += "|";
      for (const std::string& header : table->headers) {
        out += " " + EscapeMarkdown(header) + " |";
      }
      out += "\n|";
      for (std::size_t c = 0; c < table->headers.size(); ++c) {
        out += table->rows[0][c].numeric ? " ---: |" : " --- |";
      }
      out += "\n";
      const std::size_t shown =
          table->text_rows == 0
              ? table->rows.size()
              : std::min(table->text_rows, table->rows.size());
      for (std::size_t r = 0; r < shown; ++r) {
        const auto& row = table->rows[r];
        out += "|";
        for (const Cell& cell : row) {
          out += " " + EscapeMarkdown(Cut(cell.text)) + " |";
        }
        out += "\n";
      }
      if (shown < table->rows.size()) {
        out += "\n" + EscapeMarkdown(MoreRows(*table, shown));
      }
      out += "\n";
    }
  }
  return out;
}

bool ParseFormatName(std::string_view name, Format* format) {
  for (const FormatName& entry : kFormatNames) {
    if (entry.name == name) {
      *format = entry.format;
      return true;
    }
  }
  return false;
}

std::string RenderReport(const Report& report, Format format) {
  switch (format) {
    case Format::kJson:
      return RenderJson(report);
    case Format::kHtml:
      return RenderHtml(BuildDocument(report));
    case Format::kMarkdown:
      return RenderMarkdown(BuildDocument(report));
    case Format::kCsv:
      return RenderCsvIndex(report);
    case Format::kText:
      break;
  }
  return RenderText(BuildDocument(report));
}

}  // namespace robotscan::report
