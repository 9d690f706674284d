// Renderers shared by RenderReport (render_text.cc dispatches).
#ifndef ROBOTSCAN_REPORT_RENDER_INTERNAL_H_
#define ROBOTSCAN_REPORT_RENDER_INTERNAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "document.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"

namespace robotscan::report {

std::string RenderJson(const Report& report);
std::string RenderHtml(const Document& document);
std::string RenderText(const Document& document);
std::string RenderMarkdown(const Document& document);
std::string RenderCsvIndex(const Report& report);
// The same over any document (the series' too).
std::vector<TableName> ListDocumentTables(const Document& document);
bool RenderDocumentCsvTable(const Document& document, std::string_view name,
                            std::string* csv);
std::string RenderDocumentCsvIndex(const Document& document);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_RENDER_INTERNAL_H_
