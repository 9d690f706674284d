// The Wayback Machine's two endpoints as an import reads them, without
// I/O: the periods of a time range, the CDX API's query URL and answer
// (JSON or the plain space-separated text, with the resumeKey that pages
// on), and the snapshot URL of a capture. The CDX server is documented at
// github.com/internetarchive/wayback/tree/master/wayback-cdx-server.
//
// Thread-safety: pure functions and immutable values.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_CDX_H_
#define ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_CDX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/status.h"
#include "robotscan/crawler/history.h"

namespace robotscan::crawler::history {

// The periods of [from, to] (YYYY or YYYYMM each, both included), widened
// to whole periods. Months are counted from year 0: month = year * 12 +
// (month of the year - 1).
class WaybackPeriods {
 public:
  // kInvalidArgument naming --from or --to: not YYYY or YYYYMM, a month
  // out of 01-12, a year before 1996 (the archive's first captures), or
  // --from after --to.
  static Result<WaybackPeriods> Make(std::string_view from, std::string_view to,
                                     WaybackPeriod every);

  int size() const { return count_; }
  // "2024-03", "2024-Q1" or "2024".
  std::string Label(int period) const;
  // The index of the period holding a 14-digit capture timestamp, or -1
  // outside the range (or not a timestamp).
  int PeriodOf(std::string_view timestamp) const;
  // The range as the CDX API's from= and to= (YYYYMM, to= included).
  std::string FirstMonth() const;
  std::string LastMonth() const;
  // How many timestamp digits a CDX collapse may keep and still leave
  // the first capture of every period: 4 for years, 6 otherwise.
  int CollapseDigits() const { return every_ == WaybackPeriod::kYear ? 4 : 6; }

 private:
  WaybackPeriods(int first_month, int months_per_period, int count,
                 WaybackPeriod every)
      : first_month_(first_month),
        months_per_period_(months_per_period),
        count_(count),
        every_(every) {}

  int first_month_;
  int months_per_period_;
  int count_;
  WaybackPeriod every_;
};

// One CDX row (the fields asked for with fl=).
struct CdxCapture {
  std::string timestamp;   // 14 digits, UTC.
  std::string original;    // The URL as captured.
  std::string statuscode;  // "200", or "-" (a revisit record).
  std::string mimetype;    // As the archive recorded it; "warc/revisit".
  std::string digest;      // SHA-1 of the payload, base 32.
};

// One answer of the CDX API: its rows and the key of the next page ("":
// the last page). Malformed rows (no 14-digit timestamp, no URL) are
// counted, not returned.
struct CdxPage {
  std::vector<CdxCapture> captures;
  std::string resume_key;
  std::int64_t malformed = 0;
};

// The query of the captures of `domain`/robots.txt within `periods`:
// `base` is the archive's root (https://web.archive.org).
std::string CdxQueryUrl(std::string_view base, std::string_view domain,
                        const WaybackPeriods& periods, int page_rows,
                        bool plain_text, std::string_view resume_key);

// Reads a CDX answer, JSON (an array of string arrays, the first naming
// the fields, an empty array before the resume key) or plain text (rows of
// space-separated fields in the order of fl=, an empty line before the
// resume key). An empty body is an empty answer. kInvalidInput when the
// body is neither.
Result<CdxPage> ReadCdxAnswer(std::string_view body);

// The raw bytes of a capture: BASE/web/<timestamp>id_/<original>.
std::string SnapshotUrl(std::string_view base, const CdxCapture& capture);

// A 14-digit timestamp in the crawl database's form,
// 2024-02-20T12:34:56.000Z (the caller checked the digits).
std::string CaptureTimeOf(std::string_view timestamp);

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_CDX_H_
