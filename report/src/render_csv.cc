// CSV (RFC 4180) of one table of the report, for spreadsheets and pandas:
// the same tables as the other formats, with plain numbers. A share column
// becomes three: the count, its denominator and the percent.
//
// Crawled text is data here too: a cell that a spreadsheet would run as a
// formula (starting with = + - @, a tab or a CR; OWASP "CSV injection") is
// prefixed with a single quote, control bytes become U+FFFD and invalid
// UTF-8 is replaced, so every file opens as UTF-8 text.
#include <algorithm>
#include <cstdio>
#include <string>
#include <variant>

#include "document.h"
#include "render_internal.h"
#include "robotscan/base/utf8.h"
#include "robotscan/report/render.h"

namespace robotscan::report {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Valid UTF-8 with controls (other than tab and line breaks) replaced.
std::string CleanText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) {
        out += kReplacement;
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t length = Utf8SequenceLength(text.substr(i));
    // U+0080-U+009F are the C1 controls (terminal_text.h).
    const bool c1_control = length == 2 && c == 0xC2 &&
                            static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (length > 0 && !c1_control) {
      out.append(text.substr(i, length));
    } else {
      out += kReplacement;
    }
    i += std::max<std::size_t>(length, 1);
  }
  return out;
}

std::string Field(std::string_view value, bool crawled_text) {
  std::string text = CleanText(value);
  if (crawled_text && !text.empty() &&
      (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' ||
       text[0] == '\t' || text[0] == '\r')) {
    text.insert(0, "'");
  }
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string PercentText(const Share& share) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", share.percent());
  return buffer;
}

void AppendLine(const std::vector<std::string>& fields, std::string* out) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) *out += ',';
    *out += fields[i];
  }
  *out += "\r\n";
}

std::string TableCsv(const Table& table) {
  const std::size_t columns = table.headers.size();
  std::vector<bool> share_column(columns, false);
  for (const auto& row : table.rows) {
    for (std::size_t c = 0; c < row.size() && c < columns; ++c) {
      if (row[c].share) share_column[c] = true;
    }
  }
  std::string out;
  std::vector<std::string> fields;
  for (std::size_t c = 0; c < columns; ++c) {
    fields.push_back(Field(table.headers[c], false));
    if (share_column[c]) {
      fields.push_back(Field(table.headers[c] + " denominator", false));
      fields.push_back(Field(table.headers[c] + " percent", false));
    }
  }
  AppendLine(fields, &out);
  for (const auto& row : table.rows) {
    fields.clear();
    for (std::size_t c = 0; c < columns; ++c) {
      const Cell* cell = c < row.size() ? &row[c] : nullptr;
      if (cell != nullptr && cell->share) {
        fields.push_back(std::to_string(cell->share->count));
        fields.push_back(std::to_string(cell->share->denominator));
        fields.push_back(PercentText(*cell->share));
        continue;
      }
      fields.push_back(cell == nullptr ? "" : Field(cell->raw, !cell->numeric));
      if (share_column[c]) {
        fields.emplace_back();
        fields.emplace_back();
      }
    }
    AppendLine(fields, &out);
  }
  return out;
}

template <typename Visit>
void ForEachTable(const Document& document, Visit visit) {
  for (const Section& section : document.sections) {
    for (const Block& block : section.blocks) {
      if (const auto* table = std::get_if<Table>(&block)) visit(*table);
    }
  }
}

}  // namespace

std::vector<TableName> ListDocumentTables(const Document& document) {
  std::vector<TableName> names;
  ForEachTable(document, [&](const Table& table) {
    names.push_back({table.name, table.caption});
  });
  return names;
}

bool RenderDocumentCsvTable(const Document& document, std::string_view name,
                            std::string* csv) {
  bool found = false;
  ForEachTable(document, [&](const Table& table) {
    if (found || table.name != name) return;
    *csv = TableCsv(table);
    found = true;
  });
  return found;
}

std::string RenderDocumentCsvIndex(const Document& document) {
  std::string out;
  AppendLine({"table", "caption"}, &out);
  for (const TableName& table : ListDocumentTables(document)) {
    AppendLine({Field(table.name, false), Field(table.caption, false)}, &out);
  }
  return out;
}

std::vector<TableName> ListTables(const Report& report) {
  return ListDocumentTables(BuildDocument(report));
}

bool RenderCsvTable(const Report& report, std::string_view name,
                    std::string* csv) {
  return RenderDocumentCsvTable(BuildDocument(report), name, csv);
}

std::string RenderCsvIndex(const Report& report) {
  return RenderDocumentCsvIndex(BuildDocument(report));
}

}  // namespace robotscan::report
