// Parsers for the values of non-standard directives. Private. Each returns
// nullopt for a value it cannot read; the linter reports those lines.
#ifndef ROBOTSCAN_ROBOTS_SRC_EXTENSIONS_H_
#define ROBOTSCAN_ROBOTS_SRC_EXTENSIONS_H_

#include <optional>
#include <string_view>

#include "robotscan/robots/robots.h"

namespace robotscan::robots::internal {

// "10", "0.5", "2.5s": non-negative seconds. Rejects NaN, infinities,
// negatives and trailing garbage other than an 's' unit.
std::optional<double> ParseCrawlDelay(std::string_view value);

// "1/10", "1/10s", "3/1m", "1/1h" (optionally followed by a visit window).
std::optional<RequestRate> ParseRequestRate(std::string_view value, int line);

// "0600-0845" or "06:00-08:45" (UTC).
std::optional<VisitTime> ParseVisitTime(std::string_view value, int line);

// "utm_source&utm_medium /news/" — parameters, then an optional path.
std::optional<CleanParam> ParseCleanParam(std::string_view value, int line);

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_EXTENSIONS_H_
