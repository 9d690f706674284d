// Renderers shared by RenderReport (render_text.cc dispatches).
#ifndef ROBOTSCAN_REPORT_RENDER_INTERNAL_H_
#define ROBOTSCAN_REPORT_RENDER_INTERNAL_H_

#include <string>

#include "document.h"
#include "robotscan/report/report.h"

namespace robotscan::report {

std::string RenderJson(const Report& report);
std::string RenderHtml(const Document& document);
std::string RenderCsvIndex(const Report& report);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_RENDER_INTERNAL_H_
