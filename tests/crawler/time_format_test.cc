#include "time_format.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>

namespace robotscan::crawler {
namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

system_clock::time_point At(long long ms_since_epoch) {
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(
          milliseconds(ms_since_epoch)));
}

// The straightforward formatting (gmtime_r + snprintf) as the reference.
std::string Reference(long long ms) {
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[96];
  std::snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
                utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday, utc.tm_hour,
                utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
  return text;
}

TEST(FormatIso8601Test, KnownInstants) {
  EXPECT_EQ(FormatIso8601(At(0)), "1970-01-01T00:00:00.000Z");
  // 2024-02-29T23:59:59.999Z, a leap day's last millisecond.
  EXPECT_EQ(FormatIso8601(At(1709251199999)), "2024-02-29T23:59:59.999Z");
  EXPECT_EQ(FormatIso8601(At(1709251200000)), "2024-03-01T00:00:00.000Z");
  EXPECT_EQ(FormatIso8601(At(1796094245006)), "2026-12-01T03:04:05.006Z");
}

TEST(FormatIso8601Test, AgreesWithGmtimeOnRandomInstantsUntil2200) {
  std::mt19937_64 random(20261201);
  std::uniform_int_distribution<long long> ms(0, 7258118400000LL);  // 2200
  for (int i = 0; i < 20000; ++i) {
    const long long when = ms(random);
    ASSERT_EQ(FormatIso8601(At(when)), Reference(when)) << when;
  }
}

TEST(FormatIso8601Test, TextSortsInTimeOrder) {
  std::string previous;
  for (long long when = 946684799000LL; when < 946684801500LL; when += 7) {
    const std::string text = FormatIso8601(At(when));
    ASSERT_LT(previous, text);
    previous = text;
  }
}

}  // namespace
}  // namespace robotscan::crawler
