// Part 8 of the report: a crawl against an older one, domain by domain —
// full blocks started and stopped per crawler, outcome transitions, changed
// files, Sitemap URLs added and removed. Fed by ReportBuilder as it merges
// the two sides in domain order; memory is bounded (counts and top-N
// lists).
#ifndef ROBOTSCAN_REPORT_SRC_COMPARISON_TALLY_H_
#define ROBOTSCAN_REPORT_SRC_COMPARISON_TALLY_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "body_analysis.h"
#include "ranking.h"
#include "robotscan/report/report.h"
#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::report::internal {

// One side of a domain: its outcome and, for a robots.txt file, the
// analysis of its body.
struct FetchSide {
  Outcome outcome = Outcome::kNoResponse;
  const BodyAnalysis* analysis = nullptr;
  const storage::LatestFetchRow* row = nullptr;
};

class ComparisonTally {
 public:
  // `primary`: ReadingIndex of the reading whose full blocks are compared.
  ComparisonTally(const ReportOptions& options, std::size_t primary);

  // Every row of the older side (for its count and fetch times).
  void AddOlderRow(const storage::LatestFetchRow& row);
  // A domain only in the current crawl, or only in the older one.
  void AddNewDomain() { ++new_domains_; }
  void AddGoneDomain() { ++gone_domains_; }
  // A domain in both.
  void AddDomainInBoth(const FetchSide& before, const FetchSide& after);

  Comparison Finish(std::string older_label);

 private:
  void AddSitemaps(const storage::LatestFetchRow& row,
                   const BodyAnalysis& before, const BodyAnalysis& after);

  const ReportOptions& options_;
  std::size_t primary_;
  std::string older_first_fetched_at_, older_last_fetched_at_;
  std::int64_t older_domains_ = 0, domains_in_both_ = 0, new_domains_ = 0,
               gone_domains_ = 0, files_in_both_ = 0, files_changed_ = 0;
  std::array<std::array<std::int64_t, kOutcomeCount>, kOutcomeCount>
      transitions_{};
  std::vector<std::int64_t> full_before_, full_after_, started_, stopped_;
  std::vector<BestRanked<RankedDomain>> started_by_, stopped_by_;
  BestRanked<ChangedFile> changed_files_;
  std::int64_t sitemaps_added_ = 0, sitemaps_removed_ = 0,
               sitemap_urls_added_ = 0, sitemap_urls_removed_ = 0;
  BestRanked<SitemapChange> sitemap_changes_;
};

}  // namespace robotscan::report::internal

#endif  // ROBOTSCAN_REPORT_SRC_COMPARISON_TALLY_H_
