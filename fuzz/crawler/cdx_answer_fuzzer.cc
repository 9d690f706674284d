// Fuzzes the reader of the Wayback Machine's CDX answers (JSON or plain
// text) and the period of a timestamp (crawler/src/history/wayback_cdx.h):
// any bytes give captures, a refusal or an empty answer, never a crash;
// every capture returned has a 14-digit timestamp and a URL.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "history/wayback_cdx.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using robotscan::crawler::WaybackPeriod;
  using robotscan::crawler::history::CdxPage;
  using robotscan::crawler::history::ReadCdxAnswer;
  using robotscan::crawler::history::WaybackPeriods;
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  robotscan::Result<CdxPage> page = ReadCdxAnswer(body);
  if (!page.ok()) return 0;
  static const WaybackPeriods periods =
      WaybackPeriods::Make("1996", "2030", WaybackPeriod::kQuarter).value();
  for (const auto& capture : page->captures) {
    if (capture.timestamp.size() != 14 || capture.original.empty()) {
      std::abort();
    }
    const int period = periods.PeriodOf(capture.timestamp);
    if (period < -1 || period >= periods.size()) std::abort();
  }
  return 0;
}
