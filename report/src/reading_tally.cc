#include "reading_tally.h"

#include <utility>

namespace robotscan::report::internal {
namespace {

using ByReading = std::array<bool, kReadingCount>;

bool Differ(const ByReading& by_reading) {
  for (bool answer : by_reading) {
    if (answer != by_reading[0]) return true;
  }
  return false;
}

ByReading FlagByReading(const BodyAnalysis& analysis, std::size_t crawler,
                        std::uint8_t flag) {
  ByReading by_reading{};
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    by_reading[r] = (analysis.readings[r].crawler_flags[crawler] & flag) != 0;
  }
  return by_reading;
}

}  // namespace

ReadingTally::ReadingTally(const ReportOptions& options, std::size_t primary)
    : options_(options),
      primary_(primary),
      full_differ_(options.crawlers.size()),
      singled_differ_(options.crawlers.size()),
      changes_(options.top) {
  for (auto& counts : crawlers_) counts.resize(options.crawlers.size());
}

void ReadingTally::Add(const storage::LatestFetchRow& row,
                       const BodyAnalysis& analysis) {
  const std::size_t crawlers = options_.crawlers.size();
  ByReading walled{};
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    const ReadingVerdicts& verdicts = analysis.readings[r];
    walled[r] = verdicts.walled_garden();
    walled_[r] += walled[r];
    for (std::size_t i = 0; i < crawlers; ++i) {
      const std::uint8_t flags = verdicts.crawler_flags[i];
      crawlers_[r][i].full += (flags & kCrawlerFull) != 0;
      crawlers_[r][i].singled_out += (flags & kCrawlerSingledOut) != 0;
    }
    if (r == primary_) continue;  // ReportBuilder counts those (part 3).
    for (const TokenVerdict& verdict : verdicts.tokens) {
      TokenBans* bans = BoundedCounter::Find(&tokens_[r], verdict.token,
                                             options_.max_distinct_keys,
                                             &untracked_tokens_[r]);
      if (bans == nullptr) continue;
      ++bans->named;
      if (verdict.full_ban) ++bans->full;
    }
  }

  // The findings that differ; their text only for files that make the list.
  const bool listed = changes_.WouldKeep(row.rank, row.domain);
  std::vector<ReadingChange::Finding> findings;
  bool any = Differ(walled);
  if (any) {
    ++walled_differ_;
    if (listed) findings.push_back({"walled garden", walled});
  }
  for (std::size_t i = 0; i < crawlers; ++i) {
    const ByReading full = FlagByReading(analysis, i, kCrawlerFull);
    const ByReading singled = FlagByReading(analysis, i, kCrawlerSingledOut);
    if (Differ(full)) {
      any = true;
      ++full_differ_[i];
      if (listed) {
        findings.push_back({options_.crawlers[i] + ": full block", full});
      }
    }
    if (Differ(singled)) {
      any = true;
      ++singled_differ_[i];
      if (listed) {
        findings.push_back({options_.crawlers[i] + ": singled out", singled});
      }
    }
  }
  if (!any) return;
  ++files_differ_;
  if (listed) {
    changes_.Add(row.rank, row.domain,
                 ReadingChange{row.domain, row.rank, std::move(findings)});
  }
}

ParserSensitivity ReadingTally::Finish(
    std::int64_t files, std::vector<AgentRestriction> primary_most_banned) {
  ParserSensitivity sensitivity;
  sensitivity.computed = true;
  sensitivity.files = files;
  auto by_full = [](const AgentRestriction& a) { return a.full_ban.count; };
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    sensitivity.walled_gardens[r] = {walled_[r], files};
    if (r == primary_) {
      sensitivity.most_banned[r] = std::move(primary_most_banned);
      continue;
    }
    std::vector<AgentRestriction> tokens;
    tokens.reserve(tokens_[r].size());
    for (const auto& [token, bans] : tokens_[r]) {
      tokens.push_back({token, "", {bans.full, files}, {}, bans.named});
    }
    sensitivity.most_banned[r] =
        TopAgents(std::move(tokens), options_.top, by_full);
  }
  sensitivity.walled_gardens_differ = walled_differ_;
  for (std::size_t i = 0; i < options_.crawlers.size(); ++i) {
    ParserSensitivity::Crawler crawler;
    crawler.agent = options_.crawlers[i];
    for (std::size_t r = 0; r < kReadingCount; ++r) {
      crawler.full[r] = {crawlers_[r][i].full, files};
      crawler.singled_out[r] = {crawlers_[r][i].singled_out, files};
    }
    crawler.full_differ = full_differ_[i];
    crawler.singled_out_differ = singled_differ_[i];
    sensitivity.crawlers.push_back(std::move(crawler));
  }
  sensitivity.files_differ = files_differ_;
  sensitivity.changes = changes_.Take();
  return sensitivity;
}

}  // namespace robotscan::report::internal
