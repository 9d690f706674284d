// robotscan::report — what a crawl of robots.txt files says about the web:
// who lets which crawlers in. Computed from the crawl database's public view
// `latest_fetch` (one row per domain; storage/latest_fetch_reader.h) with the
// project's own RFC 9309 matcher (robots.h), never by string search.
//
// Seven parts (docs/report.md describes each category and denominator):
//   1. Outcome categories per domain, overall and by rank stratum.
//   2. Walled gardens: Googlebot may fetch "/", a generic crawler may not.
//   3. Most-banned user agents (full bans) and partial restrictions.
//   4. Blocking matrix for a list of named crawlers.
//   5. Comment findings: job adverts hidden in `#` comments.
//   6. File facts: sizes, line endings, BOM, UTF-8, extensions, lint codes,
//      user-agent tokens, identical files served by many domains.
//   7. Every figure carries its denominator (Share, and the
//      `*_denominator` fields), so no renderer can print a bare percentage.
//
// Memory is bounded whatever the number of rows: rows are streamed; each
// distinct body is analysed once while it stays in a bounded cache; maps of
// free-text keys (agent tokens, unknown directives, comments) stop growing at
// a cap and count what they could not track; identical bodies are grouped by
// SQLite on disk. Only the body sizes of robots.txt files are kept (4 bytes
// per file) so that percentiles are exact.
//
// Usage:
//   robotscan::report::Report report;
//   robotscan::storage::Status s =
//       robotscan::report::BuildReportFromDatabase("crawl.sqlite", {},
//       &report);
//   if (!s.ok()) return s;
//   std::string html = robotscan::report::RenderReport(report, Format::kHtml);
//
// Thread-safety: ReportBuilder is used by one thread; a finished Report is a
// plain value.
#ifndef ROBOTSCAN_REPORT_REPORT_H_
#define ROBOTSCAN_REPORT_REPORT_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/robots.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/status.h"

namespace robotscan::report {

// The crawlers of the blocking matrix when the caller names none: search
// engines, AI crawlers and SEO tools that studies of robots.txt track.
std::vector<std::string> DefaultCrawlers();

struct ReportOptions {
  std::vector<std::string> crawlers = DefaultCrawlers();
  // A product token no robots.txt names, so it is governed by the `*` group
  // (or by nothing): what a new, unknown crawler may fetch.
  std::string generic_agent = "RobotscanGenericCrawler";
  // Rows in each ranked list (walled gardens, agents, comments, templates).
  std::size_t top = 25;
  robots::Compat compat = robots::Compat::kRfc9309;
  // A body is a "template" when at least this many domains serve it.
  std::int64_t template_min_domains = 2;
  // Memory budgets: distinct free-text keys tracked per map, and distinct
  // bodies whose analysis is cached (the cache is emptied when full).
  std::size_t max_distinct_keys = 200'000;
  // Distinct job-advert comment blocks kept (each up to 2,000 bytes).
  std::size_t max_comment_findings = 20'000;
  std::size_t max_cached_bodies = 20'000;
};

// A count and what it is a share of. The denominator is always named.
struct Share {
  std::int64_t count = 0;
  std::int64_t denominator = 0;
  double percent() const {
    return denominator == 0 ? 0.0
                            : 100.0 * static_cast<double>(count) /
                                  static_cast<double>(denominator);
  }
};

struct KeyCount {
  std::string key;
  std::int64_t count = 0;
};

// Part 1. Categories are exclusive; each domain is in exactly one.
enum class Outcome : std::uint8_t {
  kNoResponse,          // No HTTP response (by error class, see below).
  kRedirectUnresolved,  // Too many hops, a loop, a non-HTTP target, or a
                        // final 3xx (no usable Location).
  kHttpForbidden,       // 401, 403.
  kHttpDefer,           // 5xx, 429: crawlers must wait (disallow all).
  kAllowAll,            // 404 and every other 4xx: allow all.
  kOtherStatus,         // 1xx, >= 600.
  kNotRobotsTxt,        // 2xx, but HTML or a non-text MIME type.
  kNoRules,             // 2xx robots.txt without any allow/disallow rule.
  kWithRules,           // 2xx robots.txt with at least one rule.
};
inline constexpr std::size_t kOutcomeCount = 9;
std::string_view OutcomeName(Outcome outcome);   // "no-response", ...
std::string_view OutcomeTitle(Outcome outcome);  // "No response", ...

enum class NetworkError : std::uint8_t {
  kDns,
  kConnect,
  kTls,
  kTimeout,
  kReset,
  kBlockedAddress,  // Resolved to a private/loopback address (not fetched).
  kOther,
};
inline constexpr std::size_t kNetworkErrorCount = 7;
std::string_view NetworkErrorName(NetworkError error);  // "dns", ...

// Rank strata are cumulative: "top 10k" includes "top 1k". Unranked domains
// (rank 0) are only in "all".
inline constexpr std::array<std::int64_t, 4> kStratumLimits = {
    1'000, 10'000, 100'000, 1'000'000};
inline constexpr std::size_t kStratumCount = kStratumLimits.size() + 1;
std::string_view StratumName(std::size_t stratum);  // "top 1k" ... "all"

struct OutcomeTable {
  // Denominator of row s: domains in stratum s.
  std::array<std::int64_t, kStratumCount> domains{};
  std::array<std::array<std::int64_t, kOutcomeCount>, kStratumCount> counts{};
  // Denominator: domains with no response, in the same stratum.
  std::array<std::array<std::int64_t, kNetworkErrorCount>, kStratumCount>
      no_response_by_error{};
};

// Part 2.
struct WalledGarden {
  std::string domain;
  std::int64_t rank = 0;
  bool bingbot_allowed = false;
  bool duckduckbot_allowed = false;
};
struct WalledGardens {
  Share sites;  // Denominator: robots.txt files (kNoRules + kWithRules).
  Share bingbot_allowed;                  // Denominator: walled gardens.
  Share duckduckbot_allowed;              // Denominator: walled gardens.
  std::vector<WalledGarden> best_ranked;  // Up to `top`, best rank first.
};

// Part 3.
struct AgentRestriction {
  std::string token;       // Lower-case product token as matched.
  Share full_ban;          // Denominator: robots.txt files.
  Share partial;           // Denominator: robots.txt files.
  std::int64_t named = 0;  // Files with a group naming the token.
};
struct BannedAgents {
  std::int64_t files = 0;  // The denominator: robots.txt files.
  std::vector<AgentRestriction> most_banned;      // By full_ban, top N.
  std::vector<AgentRestriction> most_restricted;  // By partial, top N.
  std::int64_t distinct_tokens = 0;               // Tokens tracked.
  std::int64_t untracked_mentions = 0;            // Beyond max_distinct_keys.
};

// Part 4.
struct CrawlerBlocking {
  std::string agent;
  Share full;         // "/" disallowed and no allow rule applies.
  Share partial;      // Some disallow rule applies, not a full block.
  Share singled_out;  // A group naming it disallows "/" while Googlebot may
                      // fetch "/".
  Share named;        // A group names it.
};
struct BlockingMatrix {
  std::int64_t files = 0;  // The denominator: robots.txt files.
  std::vector<CrawlerBlocking> crawlers;
};

// Part 5.
struct CommentFinding {
  std::string text;    // The comment block (first domain's copy), cut.
  std::string domain;  // Best-ranked domain carrying it.
  std::int64_t rank = 0;
  std::int64_t domains = 0;  // Domains carrying the same block.
};
struct CommentFindings {
  Share files_with_comments;  // Denominator: robots.txt files.
  Share files_with_findings;  // Denominator: robots.txt files.
  std::int64_t distinct_findings = 0;
  std::int64_t untracked_findings = 0;   // Beyond max_comment_findings.
  std::vector<CommentFinding> findings;  // Best rank first, up to 4 x top.
};

// Part 6.
struct Bucket {
  std::string label;
  Share share;
};
struct SharedFile {
  std::string sha256;
  Share domains;  // Denominator: domains with a 2xx body.
  std::int64_t bytes = 0;
  std::string example_domain;
  std::int64_t example_rank = 0;
  std::string excerpt;
};
struct FileFacts {
  std::int64_t files = 0;  // Denominator of all shares below unless named.
  // Body size percentiles, bytes (robots.txt files).
  std::int64_t size_p50 = 0, size_p90 = 0, size_p99 = 0, size_max = 0;
  std::vector<Bucket> size_buckets;
  Share truncated;  // Over the 500 KiB cap.
  Share lf, crlf, cr, mixed_endings, no_line_end;
  Share bom;
  Share not_utf8;
  Share crawl_delay;
  std::vector<Bucket> crawl_delay_values;  // Denominator: crawl_delay.count.
  Share sitemap;
  std::int64_t sitemap_lines = 0;
  std::vector<Bucket> sitemaps_per_file;
  Share host;
  Share clean_param;
  Share unknown_directive;
  std::vector<KeyCount> unknown_keys;       // Files using each key.
  std::int64_t untracked_unknown_keys = 0;  // Beyond max_distinct_keys.
  Share lint_error;                         // Files with a lint error.
  std::vector<KeyCount> lint_codes;         // Files with each code.
  std::vector<KeyCount> agent_tokens;       // Files naming each token.
  std::int64_t two_xx_bodies = 0;           // Denominator of shared_files.
  std::vector<SharedFile> shared_files;
};

struct Report {
  std::int64_t domains = 0;
  // The crawl_run rows, for the top list each crawl read (its provenance).
  std::vector<storage::RunRecord> runs;
  // Oldest and newest fetched_at of the rows (ISO 8601 UTC); empty if none.
  std::string first_fetched_at, last_fetched_at;
  robots::Compat compat = robots::Compat::kRfc9309;
  std::string generic_agent;
  OutcomeTable outcomes;
  WalledGardens walled_gardens;
  BannedAgents banned_agents;
  BlockingMatrix blocking;
  CommentFindings comments;
  FileFacts facts;
};

// Accumulates rows one at a time. Memory as described at the top.
class ReportBuilder {
 public:
  explicit ReportBuilder(ReportOptions options = {});
  ~ReportBuilder();
  ReportBuilder(const ReportBuilder&) = delete;
  ReportBuilder& operator=(const ReportBuilder&) = delete;

  void AddFetch(const storage::LatestFetchRow& row);

  // The report; `shared_bodies` come from LatestFetchReader::
  // FindSharedBodies (their denominator is counted here).
  Report Finish(std::vector<storage::SharedBody> shared_bodies);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Streams `latest_fetch` of the database at `path` through a ReportBuilder.
[[nodiscard]] storage::Status BuildReportFromDatabase(
    std::string_view path, const ReportOptions& options, Report* report);

// Exposed for tests and for other analyses.
// The outcome category of one row (see Outcome).
Outcome ClassifyFetch(const storage::LatestFetchRow& row);
// True when a 2xx body is not a robots.txt: an HTML page (sniffed) or a
// MIME type other than text/* (text/html included).
bool LooksLikeNotRobotsTxt(std::string_view content_type,
                           std::string_view body);
// True when a comment mentions jobs, careers, hiring or recruiting.
bool MentionsJobs(std::string_view comment);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_REPORT_H_
