// What the report needs to know about one robots.txt body, independent of
// the domain that served it, so that a body shared by many domains (a CMS
// default, a hosting template) is parsed, linted and matched once.
#ifndef ROBOTSCAN_REPORT_BODY_ANALYSIS_H_
#define ROBOTSCAN_REPORT_BODY_ANALYSIS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "robotscan/report/report.h"
#include "robotscan/robots/robots.h"

namespace robotscan::report {

enum class LineEndings : std::uint8_t { kNone, kLf, kCrlf, kCr, kMixed };

// Per named crawler (ReportOptions::crawlers), as bits.
enum CrawlerFlag : std::uint8_t {
  kCrawlerNamed = 1,       // A group names it.
  kCrawlerFull = 2,        // "/" disallowed and no allow rule applies.
  kCrawlerPartial = 4,     // Some disallow applies; not a full block.
  kCrawlerSingledOut = 8,  // Its own group disallows "/" while Googlebot
                           // may fetch "/".
};

struct TokenVerdict {
  std::string token;  // Lower-case product token, not "*".
  // The name as written when the token was cut from it ("MJ12bot" for
  // "mj"); empty otherwise.
  std::string written_as;
  bool full_ban = false;
  bool partial = false;
};

// The verdicts of one reading (robots::Compat) of a body.
struct ReadingVerdicts {
  bool googlebot_root_allowed = true;
  bool generic_root_allowed = true;
  bool bingbot_root_allowed = true;
  bool duckduckbot_root_allowed = true;
  std::vector<std::uint8_t> crawler_flags;  // Parallel to the crawler list.
  // Parallel to AnalysisSettings::registry_tokens; the report's own
  // reading only (empty in the others).
  std::vector<std::uint8_t> registry_flags;
  std::vector<TokenVerdict> tokens;  // Distinct, file order.

  bool walled_garden() const {
    return googlebot_root_allowed && !generic_root_allowed;
  }
};

// Part 9's facts of one body (see AiPreferences in report.h).
struct AiFacts {
  std::array<bool, kAiSignalNames.size()> signals{};  // By AiSignal.
  // By AgentPurpose: a `n`/`no` for the class's use applies at / to an agent
  // of the class (registry agents; the ones the file does not name answer
  // as the generic agent).
  std::array<bool, kAgentPurposeNames.size()> out_by_preference{};
  bool ai_train_no = false;     // Content-Signal ai-train=no applies at /.
  bool train_ai_yes = false;    // Some Content-Usage statement: train-ai=y.
  bool gptbot_blocked = false;  // GPTBot may not fetch /.
};

struct BodyAnalysis {
  bool has_rules = false;
  AiFacts ai;
  // The linter's html-body finding: an HTML page, not a robots.txt.
  bool html_body = false;
  // By ReadingIndex; only the report's own reading is filled unless
  // AnalysisSettings::all_readings.
  std::array<ReadingVerdicts, kReadingCount> readings;
  int groups = 0;
  int rules = 0;

  LineEndings line_endings = LineEndings::kNone;
  bool bom = false;
  bool not_utf8 = false;
  bool crawl_delay_line = false;  // Any Crawl-delay line.
  bool crawl_delay_outside_group = false;
  bool crawl_delay_not_a_number = false;
  std::optional<double> crawl_delay;  // First numeric value in the file.
  int sitemaps = 0;
  // Hashes of the distinct Sitemap URLs (sorted; at most kMaxSitemapHashes)
  // and the first few URLs, for part 8.
  std::vector<std::uint64_t> sitemap_hashes;
  std::vector<std::string> sitemap_examples;
  bool host = false;
  bool clean_param = false;
  std::vector<std::string> unknown_keys;  // Distinct, lower-case.
  std::vector<std::string> lint_codes;    // Distinct.
  bool lint_error = false;
  bool has_comments = false;
  // Blocks of consecutive comment-only lines that mention jobs (before the
  // serving domain's own name is taken out; see report_builder.cc).
  std::vector<std::string> job_comment_blocks;
};

inline constexpr std::size_t kMaxSitemapHashes = 1000;

struct AnalysisSettings {
  robots::Compat compat = robots::Compat::kRfc9309;
  bool all_readings = false;
  std::vector<std::string> crawlers;
  std::string generic_agent;
  // The registry's product tokens (part 4's registry matrix), and each
  // lower-case token's index there.
  std::vector<std::string> registry_tokens;
  std::vector<std::string> registry_names;  // For CPython's reading.
  std::vector<AgentPurpose> registry_purposes;
  std::unordered_map<std::string, std::size_t> registry_index;
};

BodyAnalysis AnalyzeBody(std::string_view body,
                         const AnalysisSettings& settings);

// A 64-bit hash of a Sitemap URL (part 8 compares sets of them).
std::uint64_t HashSitemapUrl(std::string_view url);

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_BODY_ANALYSIS_H_
