#include "comparison_tally.h"

#include <algorithm>
#include <utility>

namespace robotscan::report::internal {
namespace {

bool FullyBlocks(const FetchSide& side, std::size_t reading,
                 std::size_t crawler) {
  return side.analysis != nullptr &&
         (side.analysis->readings[reading].crawler_flags[crawler] &
          kCrawlerFull) != 0;
}

// How many of `urls` (sorted hashes) are missing from `other`.
std::int64_t Missing(const std::vector<std::uint64_t>& urls,
                     const std::vector<std::uint64_t>& other) {
  std::int64_t missing = 0;
  for (std::uint64_t url : urls) {
    missing += !std::binary_search(other.begin(), other.end(), url);
  }
  return missing;
}

// The first example URL of `from` that `other` does not have.
std::string FirstMissingExample(const BodyAnalysis& from,
                                const std::vector<std::uint64_t>& other) {
  for (const std::string& url : from.sitemap_examples) {
    if (!std::binary_search(other.begin(), other.end(), HashSitemapUrl(url))) {
      return url;
    }
  }
  return std::string();
}

}  // namespace

ComparisonTally::ComparisonTally(const ReportOptions& options,
                                 std::size_t primary)
    : options_(options),
      primary_(primary),
      full_before_(options.crawlers.size()),
      full_after_(options.crawlers.size()),
      started_(options.crawlers.size()),
      stopped_(options.crawlers.size()),
      changed_files_(options.top),
      sitemap_changes_(options.top) {
  for (std::size_t i = 0; i < options.crawlers.size(); ++i) {
    started_by_.emplace_back(options.top);
    stopped_by_.emplace_back(options.top);
  }
}

void ComparisonTally::AddOlderRow(const storage::LatestFetchRow& row) {
  ++older_domains_;
  if (row.fetched_at.empty()) return;
  // ISO 8601 UTC timestamps order as strings.
  if (older_first_fetched_at_.empty() ||
      row.fetched_at < older_first_fetched_at_) {
    older_first_fetched_at_ = row.fetched_at;
  }
  older_last_fetched_at_ = std::max(older_last_fetched_at_, row.fetched_at);
}

void ComparisonTally::AddDomainInBoth(const FetchSide& before,
                                      const FetchSide& after) {
  ++domains_in_both_;
  ++transitions_[static_cast<std::size_t>(before.outcome)]
                [static_cast<std::size_t>(after.outcome)];
  const storage::LatestFetchRow& row = *after.row;
  for (std::size_t i = 0; i < options_.crawlers.size(); ++i) {
    const bool was = FullyBlocks(before, primary_, i);
    const bool is = FullyBlocks(after, primary_, i);
    full_before_[i] += was;
    full_after_[i] += is;
    if (is && !was) {
      ++started_[i];
      started_by_[i].Add(row.rank, row.domain, {row.domain, row.rank});
    } else if (was && !is) {
      ++stopped_[i];
      stopped_by_[i].Add(row.rank, row.domain, {row.domain, row.rank});
    }
  }
  if (before.analysis == nullptr || after.analysis == nullptr) return;
  ++files_in_both_;
  if (before.row->body_sha256 != row.body_sha256) {
    ++files_changed_;
    changed_files_.Add(
        row.rank, row.domain,
        ChangedFile{row.domain, row.rank, before.row->bytes, row.bytes,
                    before.analysis->rules, after.analysis->rules});
  }
  AddSitemaps(row, *before.analysis, *after.analysis);
}

void ComparisonTally::AddSitemaps(const storage::LatestFetchRow& row,
                                  const BodyAnalysis& before,
                                  const BodyAnalysis& after) {
  const std::int64_t added =
      Missing(after.sitemap_hashes, before.sitemap_hashes);
  const std::int64_t removed =
      Missing(before.sitemap_hashes, after.sitemap_hashes);
  if (added == 0 && removed == 0) return;
  sitemaps_added_ += added > 0;
  sitemaps_removed_ += removed > 0;
  sitemap_urls_added_ += added;
  sitemap_urls_removed_ += removed;
  if (!sitemap_changes_.WouldKeep(row.rank, row.domain)) return;
  sitemap_changes_.Add(
      row.rank, row.domain,
      SitemapChange{row.domain, row.rank, added, removed,
                    FirstMissingExample(after, before.sitemap_hashes),
                    FirstMissingExample(before, after.sitemap_hashes)});
}

Comparison ComparisonTally::Finish(std::string older_label) {
  Comparison comparison;
  comparison.computed = true;
  comparison.older = std::move(older_label);
  comparison.older_first_fetched_at = older_first_fetched_at_;
  comparison.older_last_fetched_at = older_last_fetched_at_;
  comparison.older_domains = older_domains_;
  comparison.domains_in_both = domains_in_both_;
  comparison.new_domains = new_domains_;
  comparison.gone_domains = gone_domains_;
  comparison.transitions = transitions_;
  comparison.files_in_both = files_in_both_;
  comparison.files_changed = {files_changed_, files_in_both_};
  comparison.changed_files = changed_files_.Take();
  for (std::size_t i = 0; i < options_.crawlers.size(); ++i) {
    Comparison::Crawler crawler;
    crawler.agent = options_.crawlers[i];
    crawler.full_before = full_before_[i];
    crawler.full_after = full_after_[i];
    crawler.started = {started_[i], domains_in_both_};
    crawler.stopped = {stopped_[i], domains_in_both_};
    crawler.started_by = started_by_[i].Take();
    crawler.stopped_by = stopped_by_[i].Take();
    comparison.crawlers.push_back(std::move(crawler));
  }
  comparison.sitemaps_added = {sitemaps_added_, files_in_both_};
  comparison.sitemaps_removed = {sitemaps_removed_, files_in_both_};
  comparison.sitemap_urls_added = sitemap_urls_added_;
  comparison.sitemap_urls_removed = sitemap_urls_removed_;
  comparison.sitemap_changes = sitemap_changes_.Take();
  return comparison;
}

}  // namespace robotscan::report::internal
