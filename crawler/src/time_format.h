// ISO 8601 UTC timestamps with milliseconds, the crawl database's format:
// they sort as text in time order. Private to the crawler.
#ifndef ROBOTSCAN_CRAWLER_TIME_FORMAT_H_
#define ROBOTSCAN_CRAWLER_TIME_FORMAT_H_

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace robotscan::crawler {

inline std::string FormatIso8601(std::chrono::system_clock::time_point when) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      when.time_since_epoch())
                      .count();
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[96];  // Room for any int the compiler can imagine.
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
  return text;
}

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_TIME_FORMAT_H_
