// Part 7 of the report: the headline findings of parts 2-4 counted in each
// reading (RFC 9309, Google, urllib), and the files the readings disagree
// on. Fed one robots.txt file at a time by ReportBuilder; memory is bounded
// (token maps capped at ReportOptions::max_distinct_keys, top-N lists).
#ifndef ROBOTSCAN_REPORT_SRC_READING_TALLY_H_
#define ROBOTSCAN_REPORT_SRC_READING_TALLY_H_

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "body_analysis.h"
#include "ranking.h"
#include "robotscan/report/report.h"
#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::report::internal {

class ReadingTally {
 public:
  // `primary`: ReadingIndex of the report's own reading, whose token
  // counts ReportBuilder keeps (part 3) and passes to Finish.
  ReadingTally(const ReportOptions& options, std::size_t primary);

  // A robots.txt file analysed in all readings.
  void Add(const storage::LatestFetchRow& row, const BodyAnalysis& analysis);

  ParserSensitivity Finish(std::int64_t files,
                           std::vector<AgentRestriction> primary_most_banned);

 private:
  struct TokenBans {
    std::int64_t full = 0;
    std::int64_t named = 0;
  };
  struct CrawlerCounts {
    std::int64_t full = 0;
    std::int64_t singled_out = 0;
  };

  const ReportOptions& options_;
  std::size_t primary_;
  std::array<std::int64_t, kReadingCount> walled_{};
  std::array<std::vector<CrawlerCounts>, kReadingCount> crawlers_;
  std::array<std::unordered_map<std::string, TokenBans>, kReadingCount> tokens_;
  std::array<std::int64_t, kReadingCount> untracked_tokens_{};
  std::int64_t walled_differ_ = 0, files_differ_ = 0;
  std::vector<std::int64_t> full_differ_, singled_differ_;
  BestRanked<ReadingChange> changes_;
};

}  // namespace robotscan::report::internal

#endif  // ROBOTSCAN_REPORT_SRC_READING_TALLY_H_
