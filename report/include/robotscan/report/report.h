// robotscan::report — what a crawl of robots.txt files says about the web:
// who lets which crawlers in. Computed from the crawl database's public view
// `latest_fetch` (one row per domain; storage/latest_fetch_reader.h) with the
// project's own RFC 9309 matcher (robots.h), never by string search.
//
// The parts (docs/report.md describes each category and denominator):
//   1. Outcome categories per domain, overall and by rank stratum, and the
//      list entries the crawl skipped (ranks without a domain).
//   2. Walled gardens: Googlebot may fetch "/", a generic crawler may not.
//   3. Most-banned user agents (full bans) and partial restrictions.
//   4. Blocking matrix for a list of named crawlers, and (4b) for every
//      agent of an agent registry, grouped by purpose (agent_registry.h).
//   5. Comment findings: job adverts hidden in `#` comments.
//   6. File facts: sizes, line endings, BOM, UTF-8, extensions, lint codes,
//      user-agent tokens, identical files served by many domains.
//   7. Parser sensitivity: the headline findings of parts 2-4 under the
//      RFC 9309, Google and CPython urllib.robotparser readings, and the
//      domains whose files read differently.
//   8. Change over time (optional): against an older run or database, who
//      started or stopped fully blocking each crawler, outcome transitions,
//      changed files, sitemaps added and removed.
//   9. AI preferences: Content-Usage, Content-Signal, License and
//      Cloudflare's managed file by rank stratum; per purpose class, rules
//      versus preference lines; signals that contradict the rules.
// Every figure carries its denominator (Share, and the `*_denominator`
// fields), so no renderer can print a bare percentage.
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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/report/agent_registry.h"
#include "robotscan/robots/robots.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/status.h"

namespace robotscan::report {

// The crawlers of the blocking matrix when the caller names none: search
// engines, AI crawlers and SEO tools that studies of robots.txt track.
std::vector<std::string> DefaultCrawlers();

// The readings compared in part 7, in this order (index = ReadingIndex).
inline constexpr std::size_t kReadingCount = 3;
inline constexpr std::array<robots::Compat, kReadingCount> kReadings = {
    robots::Compat::kRfc9309, robots::Compat::kGoogle, robots::Compat::kUrllib};
std::size_t ReadingIndex(robots::Compat compat);

// A span of capture time, [from, before), as ISO 8601 UTC text ("2019-03-
// 01T00:00:00Z"); an empty bound is open. series.h makes them from period
// names ("2019", "2019-Q1", "2019-03").
struct CaptureWindow {
  std::string label;  // How reports name it: "2019-03", "before 2019-03".
  std::string from;
  std::string before;
};

// The older side of part 8.
struct ComparisonSource {
  std::string database;  // Empty: the report's own database.
  std::int64_t run = 0;  // > 0: the database as it was when this run ended.
  // Set (with run 0): each domain's newest capture in this window
  // (LatestFetchQuery::captured_from/before), e.g. an earlier period.
  std::optional<CaptureWindow> period;
};

struct ReportOptions {
  std::vector<std::string> crawlers = DefaultCrawlers();
  // Part 4's registry matrix: every agent of this registry, in the report's
  // own reading (agent_registry.h; `robotscan report --agents-from`).
  AgentRegistry registry = BuiltInAgentRegistry();
  // A product token no robots.txt names, so it is governed by the `*` group
  // (or by nothing): what a new, unknown crawler may fetch.
  std::string generic_agent = "RobotscanGenericCrawler";
  // Rows in each ranked list (walled gardens, agents, comments, templates).
  std::size_t top = 25;
  // Part 9: the best-ranked domains kept for each contradiction (all of
  // them are counted).
  std::size_t contradiction_domains = 1000;
  robots::Compat compat = robots::Compat::kRfc9309;
  // A body is a "template" when at least this many domains serve it.
  std::int64_t template_min_domains = 2;
  // Memory budgets: distinct free-text keys tracked per map, and distinct
  // bodies whose analysis is cached (the cache is emptied when full).
  std::size_t max_distinct_keys = 200'000;
  // Distinct job-advert comment blocks kept (each up to 2,000 bytes).
  std::size_t max_comment_findings = 20'000;
  std::size_t max_cached_bodies = 20'000;
  // Part 7. Each distinct body is then parsed and matched in all three
  // readings instead of one.
  bool compare_readings = true;
  // Part 8, when set (BuildReportFromDatabase reads both sides in domain
  // order and merges them).
  std::optional<ComparisonSource> compare;
  // When set: the report is of each domain's newest capture in this window
  // (one period of imported history, docs/history.md), not of
  // latest_fetch. Part 6's shared files are then not computed (they are
  // grouped from latest_fetch by the database).
  std::optional<CaptureWindow> period;
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
  // Agent tokens: how the name was most often written when the matcher cut
  // it to this token (RFC 9309 §2.2.1: "MJ12bot" is read as "mj"); empty
  // when it was written as the token.
  std::string written_as;
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
  // Ranks 1..min(stratum limit, highest rank seen) that no domain has: list
  // entries the crawl skipped (an IP address, a malformed line), so that a
  // "top 1k" of 999 domains says why. "all" repeats "top 1M". Ranks above
  // 1,000,000 are not tracked.
  std::array<std::int64_t, kStratumCount> missing_ranks{};
  std::vector<std::int64_t> missing_rank_examples;  // The first ones.
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
  // Per rank stratum; denominator: the stratum's robots.txt files.
  std::array<Share, kStratumCount> sites_by_stratum{};
  Share bingbot_allowed;                  // Denominator: walled gardens.
  Share duckduckbot_allowed;              // Denominator: walled gardens.
  std::vector<WalledGarden> best_ranked;  // Up to `top`, best rank first.
};

// Part 3.
struct AgentRestriction {
  std::string token;       // Lower-case product token as matched.
  std::string written_as;  // See KeyCount::written_as.
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
  Share full;  // "/" disallowed and no allow rule applies.
  // `full` per rank stratum; denominator: the stratum's robots.txt files.
  std::array<Share, kStratumCount> full_by_stratum{};
  Share partial;      // Some disallow rule applies, not a full block.
  Share singled_out;  // A group naming it disallows "/" while Googlebot may
                      // fetch "/".
  Share named;        // A group names it.
};
struct BlockingMatrix {
  std::int64_t files = 0;  // The denominator: robots.txt files.
  std::vector<CrawlerBlocking> crawlers;
};

// Part 4, the registry matrix: the same four figures for every agent of
// ReportOptions::registry, and per purpose class how many files keep the
// class out. Computed in the report's own reading only.
struct RegistryAgentBlocking {
  std::string token;  // As a matcher reads it (RegisteredAgent::token).
  std::string name;   // As the registry spells it.
  std::string operator_name;
  AgentPurpose purpose = AgentPurpose::kOther;
  Share full;
  Share partial;
  Share singled_out;
  Share named;
};
struct PurposeBlocking {
  AgentPurpose purpose = AgentPurpose::kOther;
  std::int64_t agents = 0;  // Agents of this class in the registry.
  Share any_full;           // Files that fully block at least one of them.
  Share all_full;           // Files that fully block every one of them.
  Share any_named;          // Files with a group naming at least one of them.
};
struct RegistryMatrix {
  std::string origin;      // AgentRegistry::origin.
  std::int64_t files = 0;  // The denominator: robots.txt files.
  std::size_t top = 25;    // ReportOptions::top: the chart's agents.
  std::vector<RegistryAgentBlocking> agents;  // Registry order.
  std::vector<PurposeBlocking> purposes;      // Classes with agents.
};

// Part 5.
struct CommentFinding {
  std::string text;    // The comment block (best-ranked domain's copy), cut.
  std::string domain;  // Best-ranked domain carrying it.
  std::int64_t rank = 0;
  std::int64_t domains = 0;  // Domains carrying the same block.
};
struct CommentFindings {
  Share files_with_comments;  // Denominator: robots.txt files.
  Share files_with_findings;  // Denominator: robots.txt files.
  std::int64_t distinct_findings = 0;
  std::int64_t untracked_findings = 0;  // Beyond max_comment_findings.
  // Every distinct advert tracked, best rank first, so that each counted
  // file's text can be read.
  std::vector<CommentFinding> findings;
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
  Share crawl_delay;  // Files with a Crawl-delay line, anywhere, any value.
  Share crawl_delay_outside_group;  // ... one before any user-agent line.
  Share crawl_delay_not_a_number;   // ... one whose value is not a number.
  // The first numeric value in the file (in a group or before the first),
  // plus "not a number" when no line has one. Denominator: crawl_delay.count.
  std::vector<Bucket> crawl_delay_values;
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

// Part 7: the findings of parts 2-4 in each reading (index: ReadingIndex).
struct ReadingChange {
  std::string domain;
  std::int64_t rank = 0;
  // "walled garden", "GPTBot: full block", "Bingbot: singled out", ... with
  // the answer of each reading.
  struct Finding {
    std::string what;
    std::array<bool, kReadingCount> by_reading{};
  };
  std::vector<Finding> findings;
};
struct ParserSensitivity {
  bool computed = false;
  std::int64_t files = 0;  // The denominator: robots.txt files.
  std::array<Share, kReadingCount> walled_gardens;
  std::int64_t walled_gardens_differ = 0;  // Files the readings disagree on.
  struct Crawler {
    std::string agent;
    std::array<Share, kReadingCount> full;
    std::array<Share, kReadingCount> singled_out;
    std::int64_t full_differ = 0;
    std::int64_t singled_out_differ = 0;
  };
  std::vector<Crawler> crawlers;
  std::array<std::vector<AgentRestriction>, kReadingCount> most_banned;
  std::int64_t files_differ = 0;       // Files where any finding above differs.
  std::vector<ReadingChange> changes;  // Best-ranked such files, up to top.
};

// Part 8.
struct RankedDomain {
  std::string domain;
  std::int64_t rank = 0;
};
struct ChangedFile {
  std::string domain;
  std::int64_t rank = 0;
  std::int64_t bytes_before = 0, bytes_after = 0;
  std::int64_t rules_before = 0, rules_after = 0;
};
struct SitemapChange {
  std::string domain;
  std::int64_t rank = 0;
  std::int64_t added = 0, removed = 0;
  std::string example_added, example_removed;  // One URL each, if any.
};
struct Comparison {
  bool computed = false;
  std::string older;  // What was compared: "run 3 of crawl.sqlite", a path.
  std::string older_first_fetched_at, older_last_fetched_at;
  std::int64_t older_domains = 0;
  std::int64_t domains_in_both = 0;  // The denominator unless named.
  std::int64_t new_domains = 0;      // Only in this crawl.
  std::int64_t gone_domains = 0;     // Only in the older one.
  // [older outcome][current outcome], domains in both.
  std::array<std::array<std::int64_t, kOutcomeCount>, kOutcomeCount>
      transitions{};
  std::int64_t files_in_both = 0;          // robots.txt files on both sides.
  Share files_changed;                     // Denominator: files_in_both.
  std::vector<ChangedFile> changed_files;  // Best-ranked, up to top.
  struct Crawler {
    std::string agent;
    std::int64_t full_before = 0, full_after = 0;  // Of domains_in_both.
    Share started;  // Fully blocked now, not before. Of domains_in_both.
    Share stopped;  // Fully blocked before, not now.
    std::vector<RankedDomain> started_by, stopped_by;  // Best-ranked, top.
  };
  std::vector<Crawler> crawlers;
  Share sitemaps_added;    // Files adding a Sitemap URL. Of files_in_both.
  Share sitemaps_removed;  // Files dropping one.
  std::int64_t sitemap_urls_added = 0, sitemap_urls_removed = 0;
  std::vector<SitemapChange> sitemap_changes;  // Best-ranked, up to top.
};

// Part 9: AI usage preferences in robots.txt (robots/preferences.h), read
// as RFC 9309 (as Google with --compat google; CPython's parser has no such
// lines, so the urllib reading is never used here).
enum class AiSignal : std::uint8_t {
  kContentUsage,       // A Content-Usage line (IETF aipref).
  kContentSignal,      // A Content-Signal line (Cloudflare).
  kLicense,            // A License line (RSL).
  kCloudflareManaged,  // Cloudflare's managed robots.txt (its comments).
};
inline constexpr std::array<std::string_view, 4> kAiSignalNames = {
    "content-usage", "content-signal", "license", "cloudflare-managed"};
enum class AiContradiction : std::uint8_t {
  // Content-Signal ai-train=no, while no training agent of the registry has
  // any path disallowed.
  kAiTrainNoButTrainingAllowed,
  // A Content-Usage statement with train-ai=y, while GPTBot may not fetch /.
  kTrainAiYesButGptBotBlocked,
  // A TDMRep reservation (tdm-reservation: 1 on the homepage, or a valid
  // tdmrep.json reserving any location) while no training agent of the
  // registry is kept out of anything by robots.txt (crawl --signals; its
  // denominator is the domains whose signals were fetched).
  kTdmReservationButAiCrawlersAllowed,
};
inline constexpr std::array<std::string_view, 3> kAiContradictionNames = {
    "ai-train-no-but-training-crawlers-allowed",
    "train-ai-yes-but-gptbot-disallowed",
    "tdm-reservation-but-ai-crawlers-allowed"};

// Signals outside robots.txt (crawl --signals; storage's SignalSummary).
enum class OutsideSignal : std::uint8_t {
  kLlmsTxt,             // /llms.txt present (not HTML, not a soft 404).
  kTdmRepJson,          // /.well-known/tdmrep.json present and valid TDMRep.
  kXRobotsTagNoai,      // The homepage's X-Robots-Tag says noai.
  kContentUsageHeader,  // The homepage sends a Content-Usage header.
  kTdmReservation,      // tdm-reservation: 1, by header or tdmrep.json.
};
inline constexpr std::array<std::string_view, 5> kOutsideSignalNames = {
    "llms-txt", "tdmrep-json", "x-robots-tag-noai", "content-usage-header",
    "tdm-reservation"};
struct AiPreferences {
  std::int64_t files = 0;  // robots.txt files (the denominator of `by_*`).
  // [stratum][AiSignal]; denominator: the stratum's robots.txt files.
  std::array<std::array<Share, kAiSignalNames.size()>, kStratumCount>
      presence{};
  // Per purpose class with agents, how files keep it out: by rules (a
  // registry agent of the class may not fetch /) or by preference lines (a
  // `n`/`no` for the class's use applies at / to an agent of the class:
  // train-ai or ai-train for training, search for search, ai-input for
  // user-triggered and agent; "other" has no use of its own).
  struct PurposeOut {
    AgentPurpose purpose = AgentPurpose::kOther;
    Share by_rules;
    Share by_preference;
    Share by_either;
    Share by_both;
  };
  std::vector<PurposeOut> purposes;
  struct Contradiction {
    AiContradiction kind = AiContradiction::kAiTrainNoButTrainingAllowed;
    Share files;                        // Denominator: robots.txt files.
    std::vector<RankedDomain> domains;  // Best-ranked, up to the cap.
  };
  std::vector<Contradiction> contradictions;  // kAiContradictionNames order.
  std::size_t domains_listed_cap = 0;  // ReportOptions::contradiction_domains.
  // Signals outside robots.txt, by stratum; [stratum][OutsideSignal], each
  // a share of the stratum's domains whose signals were fetched (every
  // domain of a crawl with --signals; none otherwise, and then the part
  // says so).
  std::array<std::int64_t, kStratumCount> signal_domains{};
  std::array<std::array<Share, kOutsideSignalNames.size()>, kStratumCount>
      outside{};
};

struct Report {
  std::int64_t domains = 0;
  // ReportOptions::period's label; empty for the whole database.
  std::string period;
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
  RegistryMatrix registry_blocking;
  CommentFindings comments;
  FileFacts facts;
  ParserSensitivity sensitivity;
  Comparison comparison;
  AiPreferences ai_preferences;
};

// Accumulates rows one at a time. Memory as described at the top.
class ReportBuilder {
 public:
  explicit ReportBuilder(ReportOptions options = {});
  ~ReportBuilder();
  ReportBuilder(const ReportBuilder&) = delete;
  ReportBuilder& operator=(const ReportBuilder&) = delete;

  void AddFetch(const storage::LatestFetchRow& row);

  // Part 8: one domain of the older side and of this crawl (either null
  // when the domain is on one side only); `current` is also added as by
  // AddFetch. Pairs come in any order.
  void AddFetchPair(const storage::LatestFetchRow* older,
                    const storage::LatestFetchRow* current);
  // Part 8's label and the older side's fetch times.
  void DescribeOlder(std::string label);

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
// True when a 2xx body is not a robots.txt: an HTML page (sniffed) or a
// MIME type other than text/* (text/html included).
bool LooksLikeNotRobotsTxt(std::string_view content_type,
                           std::string_view body);
// True when a comment mentions jobs, careers, hiring or recruiting (a
// cheap first filter).
bool MentionsJobs(std::string_view comment);
// True when a block of comment lines reads as a job advert: a hiring or
// recruiting phrase, or "job(s)"/"career(s)" with an invitation (a URL, an
// e-mail address, "apply", "visit", "see", "looking for"...), leaving out
// commented-out directives ("# Disallow: /jobs/"), lines about sitemaps and
// jobs that are not work ("cron job", "batch job", "print job"...).
bool ReadsAsJobAdvert(std::string_view block);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_REPORT_H_
