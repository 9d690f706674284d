#include "extensions.h"

#include <charconv>
#include <cmath>
#include <string>

#include "robotscan/base/ascii.h"

namespace robotscan::robots::internal {
namespace {

// Parses a non-negative decimal number at the start of `s` (locale-free).
std::optional<double> ParseNumber(std::string_view& s) {
  double value = 0;
  const char* begin = s.data();
  const char* end = s.data() + s.size();
  // from_chars accepts no leading '+'; robots.txt authors do not write one.
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range) {
    // Too large for a double: clamp, it is "very long" either way.
    value = HUGE_VAL;
  } else if (ec != std::errc() || ptr == begin) {
    return std::nullopt;
  }
  if (std::isnan(value) || value < 0) return std::nullopt;
  s.remove_prefix(static_cast<std::size_t>(ptr - begin));
  return value;
}

std::optional<int> ParseClock(std::string_view s) {
  // "HHMM" or "HH:MM".
  std::string digits;
  for (char c : s) {
    if (IsAsciiDigit(c)) {
      digits.push_back(c);
    } else if (c != ':') {
      return std::nullopt;
    }
  }
  if (digits.size() != 4) return std::nullopt;
  const int hours = (digits[0] - '0') * 10 + (digits[1] - '0');
  const int minutes = (digits[2] - '0') * 10 + (digits[3] - '0');
  if (hours > 24 || minutes > 59 || (hours == 24 && minutes != 0)) {
    return std::nullopt;
  }
  return hours * 60 + minutes;
}

}  // namespace

std::optional<double> ParseCrawlDelay(std::string_view value) {
  value = StripAsciiWhitespace(value);
  std::optional<double> seconds = ParseNumber(value);
  if (!seconds) return std::nullopt;
  value = StripAsciiWhitespace(value);
  if (!value.empty() && value != "s" && value != "S") return std::nullopt;
  return seconds;
}

std::optional<RequestRate> ParseRequestRate(std::string_view value, int line) {
  value = StripAsciiWhitespace(value);
  std::optional<double> requests = ParseNumber(value);
  if (!requests || value.empty() || value.front() != '/') return std::nullopt;
  value.remove_prefix(1);
  std::optional<double> period = ParseNumber(value);
  if (!period || *period <= 0) return std::nullopt;
  double unit = 1;
  if (!value.empty()) {
    switch (ToAsciiLower(value.front())) {
      case 's':
        value.remove_prefix(1);
        break;
      case 'm':
        unit = 60;
        value.remove_prefix(1);
        break;
      case 'h':
        unit = 3600;
        value.remove_prefix(1);
        break;
      case 'd':
        unit = 86400;
        value.remove_prefix(1);
        break;
      default:
        break;
    }
  }
  // Anything after whitespace (a visit window) is allowed and ignored.
  if (!value.empty() && !IsAsciiSpace(value.front())) return std::nullopt;
  return RequestRate{*requests, *period * unit, line};
}

std::optional<VisitTime> ParseVisitTime(std::string_view value, int line) {
  value = StripAsciiWhitespace(value);
  const std::size_t dash = value.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::optional<int> start =
      ParseClock(StripAsciiWhitespace(value.substr(0, dash)));
  const std::optional<int> end =
      ParseClock(StripAsciiWhitespace(value.substr(dash + 1)));
  if (!start || !end) return std::nullopt;
  return VisitTime{*start, *end, line};
}

std::optional<CleanParam> ParseCleanParam(std::string_view value, int line) {
  value = StripAsciiWhitespace(value);
  if (value.empty()) return std::nullopt;
  CleanParam param;
  param.line = line;
  std::size_t space = 0;
  while (space < value.size() && !IsAsciiSpace(value[space])) ++space;
  std::string_view params = value.substr(0, space);
  param.path_prefix = std::string(StripAsciiWhitespace(value.substr(space)));
  while (!params.empty()) {
    const std::size_t amp = params.find('&');
    const std::string_view name = params.substr(0, amp);
    if (!name.empty()) param.params.emplace_back(name);
    if (amp == std::string_view::npos) break;
    params.remove_prefix(amp + 1);
  }
  if (param.params.empty()) return std::nullopt;
  return param;
}

}  // namespace robotscan::robots::internal
