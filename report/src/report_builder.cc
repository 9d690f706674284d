#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "body_analysis.h"
#include "comparison_tally.h"
#include "ranking.h"
#include "reading_tally.h"
#include "robotscan/base/ascii.h"
#include "robotscan/report/report.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/fetch_classes.h"

namespace robotscan::report {
namespace {

using internal::BestRanked;
using internal::BoundedCounter;
using internal::ComparisonTally;
using internal::RankKey;
using internal::ReadingTally;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

bool IsTwoXx(int status) { return status >= 200 && status <= 299; }

// A 304 to a conditional re-crawl keeps the earlier 2xx body: the site
// still serves that robots.txt.
bool HasRobotsBody(const storage::LatestFetchRow& row) {
  return IsTwoXx(row.http_status) ||
         (row.not_modified && !row.body_sha256.empty());
}

// The outcome when the status alone decides it; nullopt for a 2xx, whose
// category depends on the body.
std::optional<Outcome> OutcomeFromStatus(const storage::LatestFetchRow& row) {
  if (storage::IsRedirectError(row.error)) {
    return Outcome::kRedirectUnresolved;
  }
  if (HasRobotsBody(row)) return std::nullopt;
  const int status = row.http_status;
  if (status == 0) return Outcome::kNoResponse;
  if (status == 401 || status == 403) return Outcome::kHttpForbidden;
  if (status == 429 || (status >= 500 && status <= 599)) {
    return Outcome::kHttpDefer;
  }
  if (status >= 400 && status <= 499) return Outcome::kAllowAll;
  // A final 3xx is a redirect the crawler could not follow (no Location).
  if (status >= 300 && status <= 399) return Outcome::kRedirectUnresolved;
  return Outcome::kOtherStatus;
}

NetworkError ClassifyNetworkError(storage::ErrorClass error) {
  using storage::ErrorClass;
  if (storage::IsDnsError(error)) return NetworkError::kDns;
  if (storage::IsConnectError(error)) return NetworkError::kConnect;
  switch (error) {
    case ErrorClass::kTls:
      return NetworkError::kTls;
    case ErrorClass::kTimeout:
      return NetworkError::kTimeout;
    case ErrorClass::kReset:
      return NetworkError::kReset;
    case ErrorClass::kBlockedAddress:
      return NetworkError::kBlockedAddress;
    default:
      return NetworkError::kOther;
  }
}

// How a cut token was written ("MJ12bot" for "mj"): the few most seen
// spellings are counted, so the one shown does not depend on row order.
struct WrittenForms {
  static constexpr std::size_t kMaxForms = 4;
  std::vector<std::pair<std::string, std::int64_t>> forms;

  void Add(const std::string& written) {
    for (auto& [form, count] : forms) {
      if (form == written) {
        ++count;
        return;
      }
    }
    if (forms.size() < kMaxForms) forms.emplace_back(written, 1);
  }
  std::string MostCommon() const {
    const std::pair<std::string, std::int64_t>* best = nullptr;
    for (const auto& form : forms) {
      if (best == nullptr || form.second > best->second ||
          (form.second == best->second && form.first < best->first)) {
        best = &form;
      }
    }
    return best == nullptr ? std::string() : best->first;
  }
};

struct AgentCounts {
  std::int64_t full = 0;
  std::int64_t partial = 0;
  std::int64_t named = 0;
  WrittenForms written;
};

struct CrawlerCounts {
  std::int64_t full = 0;
  std::int64_t partial = 0;
  std::int64_t singled_out = 0;
  std::int64_t named = 0;
};

struct CommentEntry {
  std::string text;
  std::string domain;
  std::int64_t rank = 0;
  std::int64_t domains = 0;
};

// Removes every occurrence of `needle` (already lower-case) from `text`.
void Erase(std::string* text, std::string_view needle) {
  if (needle.empty()) return;
  std::size_t at = text->find(needle);
  while (at != std::string::npos) {
    text->erase(at, needle.size());
    at = text->find(needle, at);
  }
}

// The comment block with the serving domain's name taken out (the host,
// the host without "www.", its first label of 3+ letters), lower-case, so
// "jobs at a.com" and "jobs at b.com" are one finding and "jobs.ch" alone
// is none. Line breaks are kept (ReadsAsJobAdvert reads lines).
std::string StripDomain(std::string_view block, std::string_view domain) {
  std::string text = ToAsciiLower(block);
  const std::string host = ToAsciiLower(domain);
  Erase(&text, host);
  std::string_view name = host;
  if (StartsWith(name, "www.")) name.remove_prefix(4);
  Erase(&text, name);
  const std::size_t dot = name.find('.');
  if (dot != std::string_view::npos && dot >= 3) {
    Erase(&text, name.substr(0, dot));
  }
  return text;
}

// The block as compared across domains: whitespace runs collapsed.
std::string CollapseWhitespace(std::string_view text) {
  std::string collapsed;
  collapsed.reserve(text.size());
  for (char c : text) {
    const bool space = IsAsciiSpace(c);
    if (space) {
      if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
    } else {
      collapsed += c;
    }
  }
  while (!collapsed.empty() && collapsed.back() == ' ') collapsed.pop_back();
  return collapsed;
}

std::int64_t Percentile(const std::vector<std::uint32_t>& sorted, int p) {
  if (sorted.empty()) return 0;
  // Nearest rank: the smallest value with at least p% of values <= it.
  const auto n = static_cast<double>(sorted.size());
  auto index = static_cast<std::size_t>(std::ceil(p / 100.0 * n));
  if (index == 0) index = 1;
  return sorted[std::min(index, sorted.size()) - 1];
}

}  // namespace

std::vector<std::string> DefaultCrawlers() {
  return {"Googlebot",  "Bingbot",      "DuckDuckBot",     "Baiduspider",
          "YandexBot",  "GPTBot",       "ChatGPT-User",    "CCBot",
          "ClaudeBot",  "anthropic-ai", "Google-Extended", "PerplexityBot",
          "Bytespider", "AhrefsBot",    "SemrushBot",      "MJ12bot",
          "ia_archiver"};
}

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNoResponse:
      return "no-response";
    case Outcome::kRedirectUnresolved:
      return "redirect-unresolved";
    case Outcome::kHttpForbidden:
      return "http-forbidden";
    case Outcome::kHttpDefer:
      return "http-defer";
    case Outcome::kAllowAll:
      return "allow-all";
    case Outcome::kOtherStatus:
      return "other-status";
    case Outcome::kNotRobotsTxt:
      return "not-robots-txt";
    case Outcome::kNoRules:
      return "robots-txt-without-rules";
    case Outcome::kWithRules:
      return "robots-txt-with-rules";
  }
  return "unknown";
}

std::string_view OutcomeTitle(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNoResponse:
      return "No response";
    case Outcome::kRedirectUnresolved:
      return "Redirect not resolved";
    case Outcome::kHttpForbidden:
      return "HTTP forbidden (401/403)";
    case Outcome::kHttpDefer:
      return "HTTP defer (5xx, 429)";
    case Outcome::kAllowAll:
      return "Allow all (404, other 4xx)";
    case Outcome::kOtherStatus:
      return "Other status (1xx, >= 600)";
    case Outcome::kNotRobotsTxt:
      return "Not a robots.txt (HTML, non-text)";
    case Outcome::kNoRules:
      return "robots.txt without rules";
    case Outcome::kWithRules:
      return "robots.txt with rules";
  }
  return "Unknown";
}

std::string_view NetworkErrorName(NetworkError error) {
  switch (error) {
    case NetworkError::kDns:
      return "dns";
    case NetworkError::kConnect:
      return "connect";
    case NetworkError::kTls:
      return "tls";
    case NetworkError::kTimeout:
      return "timeout";
    case NetworkError::kReset:
      return "reset";
    case NetworkError::kBlockedAddress:
      return "blocked-address";
    case NetworkError::kOther:
      return "other";
  }
  return "other";
}

std::string_view StratumName(std::size_t stratum) {
  static constexpr std::string_view kNames[kStratumCount] = {
      "top 1k", "top 10k", "top 100k", "top 1M", "all"};
  return stratum < kStratumCount ? kNames[stratum] : "all";
}

bool LooksLikeNotRobotsTxt(std::string_view content_type,
                           std::string_view body) {
  // The MIME type: "text/plain; charset=utf-8" -> "text/plain".
  std::string mime =
      ToAsciiLower(content_type.substr(0, content_type.find(';')));
  while (!mime.empty() && IsAsciiSpace(mime.back())) mime.pop_back();
  while (!mime.empty() && IsAsciiSpace(mime.front())) {
    mime.erase(0, 1);
  }
  if (!mime.empty() && (!StartsWith(mime, "text/") || mime == "text/html")) {
    return true;
  }
  // Sniff: servers answer unknown paths with their home page as text/plain
  // too. Only the first KiB is looked at, after a BOM and whitespace.
  std::string head = ToAsciiLower(body.substr(0, 1024));
  std::size_t start = StartsWith(head, "\xef\xbb\xbf") ? 3 : 0;
  while (start < head.size() && IsAsciiSpace(head[start])) {
    ++start;
  }
  const std::string_view rest = std::string_view(head).substr(start);
  return StartsWith(rest, "<!doctype html") || StartsWith(rest, "<html") ||
         StartsWith(rest, "<head") || StartsWith(rest, "<body") ||
         (StartsWith(rest, "<") && head.find("<html") != std::string::npos);
}

std::size_t ReadingIndex(robots::Compat compat) {
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    if (kReadings[r] == compat) return r;
  }
  return 0;
}

namespace {

// Ranks up to this are tracked for the "missing ranks" of part 1.
constexpr std::int64_t kMaxTrackedRank = kStratumLimits.back();

// X-Robots-Tag directives are comma-separated, each optionally for one
// crawler ("googlebot: noindex"); "noai" anywhere is the site's no.
bool SaysNoai(std::string_view header) {
  while (!header.empty()) {
    const std::size_t end = header.find_first_of(",;");
    std::string_view item = header.substr(0, end);
    const std::size_t colon = item.rfind(':');
    if (colon != std::string_view::npos) item.remove_prefix(colon + 1);
    if (AsciiEqualsIgnoreCase(StripAsciiWhitespace(item), "noai")) return true;
    if (end == std::string_view::npos) break;
    header.remove_prefix(end + 1);
  }
  return false;
}

// Whether a valid TDMRep file reserves TDM rights for any location.
bool TdmRepReserves(std::string_view body) {
  const nlohmann::json json = nlohmann::json::parse(
      body.begin(), body.end(), nullptr, /*allow_exceptions=*/false);
  if (!json.is_array()) return false;
  for (const nlohmann::json& entry : json) {
    if (!entry.is_object()) continue;
    const auto reservation = entry.find("tdm-reservation");
    if (reservation != entry.end() && reservation->is_number_integer() &&
        reservation->get<long long>() == 1) {
      return true;
    }
  }
  return false;
}

// Strata are cumulative; unranked domains (rank 0) are only in "all".
bool InStratum(std::int64_t rank, std::size_t stratum) {
  return stratum == kStratumCount - 1 ||
         (rank > 0 && rank <= kStratumLimits[stratum]);
}
constexpr std::size_t kMissingRankExamples = 10;

// A row's outcome and, for a robots.txt file, its analysis (kept alive
// while the row is added).
struct Side {
  Outcome outcome = Outcome::kNoResponse;
  std::shared_ptr<const BodyAnalysis> analysis;  // robots.txt files only.
  const storage::LatestFetchRow* row = nullptr;

  internal::FetchSide View() const { return {outcome, analysis.get(), row}; }
};

}  // namespace

struct ReportBuilder::State {
  explicit State(ReportOptions report_options)
      : options(std::move(report_options)),
        primary(ReadingIndex(options.compat)),
        walled_best(options.top),
        readings(options, primary),
        compared(options, primary),
        unknown_keys(options.max_distinct_keys),
        lint_codes(options.max_distinct_keys) {
    AnalysisSettings& settings = current.settings;
    settings.compat = options.compat;
    settings.all_readings = options.compare_readings;
    settings.crawlers = options.crawlers;
    settings.generic_agent = options.generic_agent;
    for (const RegisteredAgent& agent : options.registry.agents) {
      settings.registry_index.emplace(ToAsciiLower(agent.token),
                                      settings.registry_tokens.size());
      settings.registry_tokens.push_back(agent.token);
      settings.registry_names.push_back(agent.name);
      settings.registry_purposes.push_back(agent.purpose);
      ++registry_agents_per_purpose[static_cast<std::size_t>(agent.purpose)];
    }
    older.settings = settings;
    older.settings.all_readings = false;
    // Part 8 compares the named crawlers only.
    older.settings.registry_tokens.clear();
    older.settings.registry_names.clear();
    older.settings.registry_purposes.clear();
    older.settings.registry_index.clear();
    crawlers.resize(options.crawlers.size());
    registry.resize(options.registry.agents.size());
    contradictions.assign(kAiContradictionNames.size(),
                          ContradictionCounts(options.contradiction_domains));
  }

  // Bodies analysed for this crawl, and for the older side of part 8, which
  // needs only the report's own reading (part 7 is about this crawl).
  struct Cache {
    AnalysisSettings settings;
    std::unordered_map<std::string, std::shared_ptr<const BodyAnalysis>> bodies;
  };

  std::shared_ptr<const BodyAnalysis> Analyse(
      const storage::LatestFetchRow& row, Cache* cache) {
    if (row.body_sha256.empty()) {
      return std::make_shared<BodyAnalysis>(
          AnalyzeBody(row.body, cache->settings));
    }
    auto it = cache->bodies.find(row.body_sha256);
    if (it != cache->bodies.end()) return it->second;
    // Emptying the whole cache keeps memory bounded with no bookkeeping;
    // shared templates are re-analysed once and stay hot again.
    if (cache->bodies.size() >= options.max_cached_bodies) {
      cache->bodies.clear();
    }
    auto analysis = std::make_shared<const BodyAnalysis>(
        AnalyzeBody(row.body, cache->settings));
    cache->bodies.emplace(row.body_sha256, analysis);
    return analysis;
  }

  // The outcome of a row and, for a robots.txt file, its analysis.
  Side Classify(const storage::LatestFetchRow& row, Cache* cache) {
    Side side;
    side.row = &row;
    if (const auto by_status = OutcomeFromStatus(row)) {
      side.outcome = *by_status;
    } else if (LooksLikeNotRobotsTxt(row.content_type, row.body)) {
      side.outcome = Outcome::kNotRobotsTxt;
    } else {
      side.analysis = Analyse(row, cache);
      if (side.analysis->html_body) {
        side.outcome = Outcome::kNotRobotsTxt;
        side.analysis = nullptr;
      } else {
        side.outcome =
            side.analysis->has_rules ? Outcome::kWithRules : Outcome::kNoRules;
      }
    }
    return side;
  }

  void AddRank(std::int64_t rank) {
    if (rank <= 0 || rank > kMaxTrackedRank) return;
    if (ranks_seen.empty()) ranks_seen.resize(kMaxTrackedRank + 1);
    highest_rank = std::max(highest_rank, rank);
    if (!ranks_seen[static_cast<std::size_t>(rank)]) {
      ranks_seen[static_cast<std::size_t>(rank)] = true;
    }
  }

  void AddWalledGarden(const storage::LatestFetchRow& row,
                       const ReadingVerdicts& verdicts) {
    ++walled_gardens;
    if (verdicts.bingbot_root_allowed) ++walled_bingbot;
    if (verdicts.duckduckbot_root_allowed) ++walled_duckduckbot;
    walled_best.Add(
        row.rank, row.domain,
        WalledGarden{row.domain, row.rank, verdicts.bingbot_root_allowed,
                     verdicts.duckduckbot_root_allowed});
  }

  void AddComments(const storage::LatestFetchRow& row,
                   const BodyAnalysis& analysis) {
    bool any = false;
    for (const std::string& block : analysis.job_comment_blocks) {
      const std::string stripped = StripDomain(block, row.domain);
      if (!ReadsAsJobAdvert(stripped)) continue;
      any = true;
      // Keyed by a 64-bit hash of the whole normalised block: blocks are up
      // to 2,000 bytes, and cutting keys would merge distinct adverts.
      const std::uint64_t hash =
          std::hash<std::string>{}(CollapseWhitespace(stripped));
      auto it = comments.find(hash);
      if (it == comments.end()) {
        if (comments.size() >= options.max_comment_findings) {
          ++untracked_comments;
          continue;
        }
        it = comments.emplace(hash, CommentEntry{}).first;
      }
      CommentEntry* entry = &it->second;
      if (entry->domains == 0 || RankKey(row.rank) < RankKey(entry->rank) ||
          (RankKey(row.rank) == RankKey(entry->rank) &&
           row.domain < entry->domain)) {
        entry->text = block;
        entry->domain = row.domain;
        entry->rank = row.rank;
      }
      ++entry->domains;
    }
    if (any) ++files_with_findings;
  }

  void AddFacts(const storage::LatestFetchRow& row,
                const BodyAnalysis& analysis) {
    sizes.push_back(static_cast<std::uint32_t>(
        std::min<std::int64_t>(row.bytes, UINT32_MAX)));
    if (row.truncated) ++truncated;
    switch (analysis.line_endings) {
      case LineEndings::kNone:
        ++no_line_end;
        break;
      case LineEndings::kLf:
        ++lf;
        break;
      case LineEndings::kCrlf:
        ++crlf;
        break;
      case LineEndings::kCr:
        ++cr;
        break;
      case LineEndings::kMixed:
        ++mixed;
        break;
    }
    if (analysis.bom) ++bom;
    if (analysis.not_utf8) ++not_utf8;
    if (analysis.crawl_delay_line) {
      ++crawl_delay_files;
      if (analysis.crawl_delay_outside_group) ++crawl_delay_outside;
      if (analysis.crawl_delay_not_a_number) ++crawl_delay_not_a_number;
      std::size_t bucket = 7;  // Not a number.
      if (analysis.crawl_delay) {
        const double d = *analysis.crawl_delay;
        bucket = d < 1     ? 0
                 : d == 1  ? 1
                 : d <= 5  ? 2
                 : d <= 10 ? 3
                 : d <= 30 ? 4
                 : d <= 60 ? 5
                           : 6;
      }
      ++crawl_delay_buckets[bucket];
    }
    if (analysis.sitemaps > 0) ++files_with_sitemap;
    sitemap_lines += analysis.sitemaps;
    const int s = analysis.sitemaps;
    ++sitemap_buckets[s == 0 ? 0 : s == 1 ? 1 : s <= 5 ? 2 : s <= 20 ? 3 : 4];
    if (analysis.host) ++host;
    if (analysis.clean_param) ++clean_param;
    if (!analysis.unknown_keys.empty()) ++unknown_directive;
    for (const std::string& key : analysis.unknown_keys) unknown_keys.Add(key);
    if (analysis.lint_error) ++lint_error;
    for (const std::string& code : analysis.lint_codes) lint_codes.Add(code);
    if (analysis.has_comments) ++files_with_comments;
  }

  void AddAgents(const ReadingVerdicts& verdicts) {
    for (const TokenVerdict& verdict : verdicts.tokens) {
      AgentCounts* counts = BoundedCounter::Find(
          &agents, verdict.token, options.max_distinct_keys, &untracked_agents);
      if (counts == nullptr) continue;
      ++counts->named;
      if (verdict.full_ban) ++counts->full;
      if (verdict.partial) ++counts->partial;
      if (!verdict.written_as.empty()) counts->written.Add(verdict.written_as);
    }
    for (std::size_t i = 0; i < crawlers.size(); ++i) {
      Count(verdicts.crawler_flags[i], &crawlers[i]);
    }
    file_any_full = {};
    file_training_restricted = false;
    if (verdicts.registry_flags.size() != registry.size()) return;
    std::array<bool, kPurposes> any_full{}, any_named{}, all_full;
    all_full.fill(true);
    bool training_restricted = false;
    for (std::size_t i = 0; i < registry.size(); ++i) {
      const std::uint8_t flags = verdicts.registry_flags[i];
      Count(flags, &registry[i]);
      const auto p =
          static_cast<std::size_t>(options.registry.agents[i].purpose);
      if (flags & kCrawlerFull) {
        any_full[p] = true;
      } else {
        all_full[p] = false;
      }
      if (flags & kCrawlerNamed) any_named[p] = true;
      if (p == static_cast<std::size_t>(AgentPurpose::kTraining) &&
          (flags & (kCrawlerFull | kCrawlerPartial))) {
        training_restricted = true;
      }
    }
    for (std::size_t p = 0; p < kPurposes; ++p) {
      if (registry_agents_per_purpose[p] == 0) continue;
      if (any_full[p]) ++purposes[p].any_full;
      if (all_full[p]) ++purposes[p].all_full;
      if (any_named[p]) ++purposes[p].any_named;
    }
    file_any_full = any_full;
    file_training_restricted = training_restricted;
  }

  // Part 9, after AddAgents has seen the same file's registry flags.
  void AddAiPreferences(const storage::LatestFetchRow& row,
                        const AiFacts& facts) {
    for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
      if (!InStratum(row.rank, stratum)) continue;
      ++ai_files_by_stratum[stratum];
      for (std::size_t k = 0; k < kAiSignalNames.size(); ++k) {
        if (facts.signals[k]) ++ai_presence[stratum][k];
      }
    }
    for (std::size_t p = 0; p < kPurposes; ++p) {
      const bool rules = file_any_full[p];
      const bool preference = facts.out_by_preference[p];
      if (rules) ++ai_out[p].rules;
      if (preference) ++ai_out[p].preference;
      if (rules || preference) ++ai_out[p].either;
      if (rules && preference) ++ai_out[p].both;
    }
    if (facts.ai_train_no && !file_training_restricted) {
      AddContradiction(AiContradiction::kAiTrainNoButTrainingAllowed, row);
    }
    if (facts.train_ai_yes && facts.gptbot_blocked) {
      AddContradiction(AiContradiction::kTrainAiYesButGptBotBlocked, row);
    }
  }

  // Part 9's signals outside robots.txt. `ai_allowed`: no training agent
  // is kept out of anything (no robots.txt, a 4xx, or a file that restricts
  // none of them).
  void AddOutsideSignals(const storage::LatestFetchRow& row, bool ai_allowed) {
    const storage::SignalSummary& signals = row.signals;
    if (!signals.fetched) return;
    std::array<bool, kOutsideSignalNames.size()> has{};
    has[static_cast<std::size_t>(OutsideSignal::kLlmsTxt)] = signals.llms_txt;
    const bool tdmrep = signals.tdmrep && signals.tdmrep_valid == 1;
    has[static_cast<std::size_t>(OutsideSignal::kTdmRepJson)] = tdmrep;
    has[static_cast<std::size_t>(OutsideSignal::kXRobotsTagNoai)] =
        SaysNoai(signals.x_robots_tag);
    has[static_cast<std::size_t>(OutsideSignal::kContentUsageHeader)] =
        !signals.content_usage.empty();
    const bool reserved =
        StripAsciiWhitespace(signals.tdm_reservation) == "1" ||
        (tdmrep && TdmRepReserves(signals.tdmrep_body));
    has[static_cast<std::size_t>(OutsideSignal::kTdmReservation)] = reserved;
    for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
      if (!InStratum(row.rank, stratum)) continue;
      ++signal_domains[stratum];
      for (std::size_t k = 0; k < has.size(); ++k) {
        if (has[k]) ++outside[stratum][k];
      }
    }
    if (reserved && ai_allowed) {
      AddContradiction(AiContradiction::kTdmReservationButAiCrawlersAllowed,
                       row);
    }
  }

  void AddContradiction(AiContradiction kind,
                        const storage::LatestFetchRow& row) {
    ContradictionCounts& c = contradictions[static_cast<std::size_t>(kind)];
    ++c.files;
    c.best.Add(row.rank, row.domain, RankedDomain{row.domain, row.rank});
  }

  static void Count(std::uint8_t flags, CrawlerCounts* counts) {
    if (flags & kCrawlerNamed) ++counts->named;
    if (flags & kCrawlerFull) ++counts->full;
    if (flags & kCrawlerPartial) ++counts->partial;
    if (flags & kCrawlerSingledOut) ++counts->singled_out;
  }

  ReportOptions options;
  std::size_t primary = 0;
  Cache current, older;

  std::int64_t domains = 0;
  std::string first_fetched_at, last_fetched_at;
  OutcomeTable outcomes;
  std::vector<bool> ranks_seen;
  std::int64_t highest_rank = 0;
  std::int64_t robots_files = 0;
  std::int64_t two_xx_bodies = 0;

  std::int64_t walled_gardens = 0, walled_bingbot = 0, walled_duckduckbot = 0;
  BestRanked<WalledGarden> walled_best;

  std::unordered_map<std::string, AgentCounts> agents;
  std::int64_t untracked_agents = 0;
  std::vector<CrawlerCounts> crawlers;
  // Per rank stratum: robots.txt files, walled gardens, and per crawler of
  // the matrix its full blocks (the figures `report --series` follows).
  std::array<std::int64_t, kStratumCount> robots_files_by_stratum{};
  std::array<std::int64_t, kStratumCount> walled_by_stratum{};
  std::vector<std::array<std::int64_t, kStratumCount>> full_by_stratum;
  // Part 4's registry matrix, parallel to options.registry.agents.
  static constexpr std::size_t kPurposes = kAgentPurposeNames.size();
  std::vector<CrawlerCounts> registry;
  std::array<std::int64_t, kPurposes> registry_agents_per_purpose{};
  struct PurposeCounts {
    std::int64_t any_full = 0, all_full = 0, any_named = 0;
  };
  std::array<PurposeCounts, kPurposes> purposes{};
  // The current file's registry figures, for part 9.
  std::array<bool, kPurposes> file_any_full{};
  bool file_training_restricted = false;

  // Part 9.
  std::array<std::int64_t, kStratumCount> ai_files_by_stratum{};
  std::array<std::array<std::int64_t, kAiSignalNames.size()>, kStratumCount>
      ai_presence{};
  struct OutCounts {
    std::int64_t rules = 0, preference = 0, either = 0, both = 0;
  };
  std::array<OutCounts, kPurposes> ai_out{};
  struct ContradictionCounts {
    explicit ContradictionCounts(std::size_t cap) : best(cap) {}
    std::int64_t files = 0;
    BestRanked<RankedDomain> best;
  };
  std::vector<ContradictionCounts> contradictions;
  std::array<std::int64_t, kStratumCount> signal_domains{};
  std::array<std::array<std::int64_t, kOutsideSignalNames.size()>,
             kStratumCount>
      outside{};

  ReadingTally readings;     // Part 7.
  ComparisonTally compared;  // Part 8.
  std::string older_label;

  std::unordered_map<std::uint64_t, CommentEntry> comments;
  std::int64_t untracked_comments = 0;
  std::int64_t files_with_comments = 0, files_with_findings = 0;

  std::vector<std::uint32_t> sizes;
  std::int64_t truncated = 0, lf = 0, crlf = 0, cr = 0, mixed = 0,
               no_line_end = 0, bom = 0, not_utf8 = 0;
  std::int64_t crawl_delay_files = 0, crawl_delay_outside = 0,
               crawl_delay_not_a_number = 0;
  std::array<std::int64_t, 8> crawl_delay_buckets{};
  std::int64_t files_with_sitemap = 0, sitemap_lines = 0;
  std::array<std::int64_t, 5> sitemap_buckets{};
  std::int64_t host = 0, clean_param = 0, unknown_directive = 0, lint_error = 0;
  BoundedCounter unknown_keys, lint_codes;
};

ReportBuilder::ReportBuilder(ReportOptions options)
    : state_(std::make_unique<State>(std::move(options))) {}

ReportBuilder::~ReportBuilder() = default;

void ReportBuilder::AddFetch(const storage::LatestFetchRow& row) {
  AddFetchPair(nullptr, &row);
}

void ReportBuilder::DescribeOlder(std::string label) {
  state_->older_label = std::move(label);
}

void ReportBuilder::AddFetchPair(const storage::LatestFetchRow* older,
                                 const storage::LatestFetchRow* current) {
  State& s = *state_;
  Side before;
  if (older != nullptr) {
    s.compared.AddOlderRow(*older);
    before = s.Classify(*older, &s.older);
    if (current == nullptr) s.compared.AddGoneDomain();
  }
  if (current == nullptr) return;
  const storage::LatestFetchRow& row = *current;
  ++s.domains;
  // ISO 8601 UTC timestamps order as strings.
  if (!row.fetched_at.empty()) {
    if (s.first_fetched_at.empty() || row.fetched_at < s.first_fetched_at) {
      s.first_fetched_at = row.fetched_at;
    }
    if (row.fetched_at > s.last_fetched_at) s.last_fetched_at = row.fetched_at;
  }
  if (HasRobotsBody(row) && !row.body_sha256.empty()) {
    ++s.two_xx_bodies;
  }
  s.AddRank(row.rank);
  const Side after = s.Classify(row, &s.current);
  if (older != nullptr) {
    s.compared.AddDomainInBoth(before.View(), after.View());
  } else if (s.options.compare) {
    s.compared.AddNewDomain();
  }

  const auto column = static_cast<std::size_t>(after.outcome);
  const bool no_response = after.outcome == Outcome::kNoResponse;
  const auto error = static_cast<std::size_t>(ClassifyNetworkError(row.error));
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    if (!InStratum(row.rank, stratum)) continue;
    ++s.outcomes.domains[stratum];
    ++s.outcomes.counts[stratum][column];
    if (no_response) ++s.outcomes.no_response_by_error[stratum][error];
  }
  if (after.analysis == nullptr) {
    // No robots.txt file to keep anyone out, unless the server could not
    // be reached (RFC 9309 §2.3.1.4: then nothing may be crawled).
    s.AddOutsideSignals(row, row.access != robots::AccessClass::kUnreachable);
    return;
  }
  const BodyAnalysis& analysis = *after.analysis;

  ++s.robots_files;
  const ReadingVerdicts& verdicts = analysis.readings[s.primary];
  s.full_by_stratum.resize(s.crawlers.size());
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    if (!InStratum(row.rank, stratum)) continue;
    ++s.robots_files_by_stratum[stratum];
    if (verdicts.walled_garden()) ++s.walled_by_stratum[stratum];
    for (std::size_t i = 0; i < s.crawlers.size(); ++i) {
      if (verdicts.crawler_flags[i] & kCrawlerFull) {
        ++s.full_by_stratum[i][stratum];
      }
    }
  }
  if (verdicts.walled_garden()) s.AddWalledGarden(row, verdicts);
  s.AddAgents(verdicts);
  s.AddAiPreferences(row, analysis.ai);
  s.AddOutsideSignals(row, !s.file_training_restricted);
  if (s.options.compare_readings) s.readings.Add(row, analysis);
  s.AddComments(row, analysis);
  s.AddFacts(row, analysis);
}

Report ReportBuilder::Finish(std::vector<storage::SharedBody> shared_bodies) {
  State& s = *state_;
  Report report;
  const std::int64_t files = s.robots_files;
  const std::size_t top = s.options.top;
  report.domains = s.domains;
  if (s.options.period) report.period = s.options.period->label;
  report.generic_agent = s.options.generic_agent;
  report.compat = s.options.compat;
  report.first_fetched_at = s.first_fetched_at;
  report.last_fetched_at = s.last_fetched_at;
  report.outcomes = s.outcomes;
  if (!s.ranks_seen.empty()) {
    // Ranks 1..min(limit, highest rank) without a domain, per stratum.
    OutcomeTable& table = report.outcomes;
    std::int64_t seen = 0;
    for (std::int64_t rank = 1; rank <= s.highest_rank; ++rank) {
      if (s.ranks_seen[static_cast<std::size_t>(rank)]) {
        ++seen;
      } else if (table.missing_rank_examples.size() < kMissingRankExamples) {
        table.missing_rank_examples.push_back(rank);
      }
      for (std::size_t stratum = 0; stratum < kStratumLimits.size();
           ++stratum) {
        if (kStratumLimits[stratum] == rank) {
          table.missing_ranks[stratum] = rank - seen;
        }
      }
    }
    for (std::size_t stratum = 0; stratum < kStratumLimits.size(); ++stratum) {
      if (kStratumLimits[stratum] > s.highest_rank) {
        table.missing_ranks[stratum] = s.highest_rank - seen;
      }
    }
    table.missing_ranks[kStratumCount - 1] =
        table.missing_ranks[kStratumCount - 2];
    std::vector<bool>().swap(s.ranks_seen);
  }

  WalledGardens& walled = report.walled_gardens;
  walled.sites = {s.walled_gardens, files};
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    walled.sites_by_stratum[stratum] = {s.walled_by_stratum[stratum],
                                        s.robots_files_by_stratum[stratum]};
  }
  walled.bingbot_allowed = {s.walled_bingbot, s.walled_gardens};
  walled.duckduckbot_allowed = {s.walled_duckduckbot, s.walled_gardens};
  walled.best_ranked = s.walled_best.Take();

  BannedAgents& banned = report.banned_agents;
  banned.files = files;
  banned.distinct_tokens = static_cast<std::int64_t>(s.agents.size());
  banned.untracked_mentions = s.untracked_agents;
  std::vector<AgentRestriction> agents;
  agents.reserve(s.agents.size());
  for (const auto& [token, counts] : s.agents) {
    agents.push_back({token,
                      counts.written.MostCommon(),
                      {counts.full, files},
                      {counts.partial, files},
                      counts.named});
  }
  auto top_of = [top](std::vector<AgentRestriction> ranked, auto count_of) {
    return internal::TopAgents(std::move(ranked), top, count_of);
  };
  auto by_full = [](const AgentRestriction& a) { return a.full_ban.count; };
  banned.most_banned = top_of(agents, by_full);
  banned.most_restricted =
      top_of(agents, [](const AgentRestriction& a) { return a.partial.count; });

  report.blocking.files = files;
  for (std::size_t i = 0; i < s.crawlers.size(); ++i) {
    const CrawlerCounts& c = s.crawlers[i];
    CrawlerBlocking& blocking = report.blocking.crawlers.emplace_back();
    blocking.agent = s.options.crawlers[i];
    blocking.full = {c.full, files};
    for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
      blocking.full_by_stratum[stratum] = {
          i < s.full_by_stratum.size() ? s.full_by_stratum[i][stratum] : 0,
          s.robots_files_by_stratum[stratum]};
    }
    blocking.partial = {c.partial, files};
    blocking.singled_out = {c.singled_out, files};
    blocking.named = {c.named, files};
  }

  RegistryMatrix& matrix = report.registry_blocking;
  matrix.origin = s.options.registry.origin;
  matrix.files = files;
  matrix.top = s.options.top;
  for (std::size_t i = 0; i < s.registry.size(); ++i) {
    const RegisteredAgent& agent = s.options.registry.agents[i];
    const CrawlerCounts& c = s.registry[i];
    matrix.agents.push_back({agent.token,
                             agent.name,
                             agent.operator_name,
                             agent.purpose,
                             {c.full, files},
                             {c.partial, files},
                             {c.singled_out, files},
                             {c.named, files}});
  }
  for (std::size_t p = 0; p < ReportBuilder::State::kPurposes; ++p) {
    if (s.registry_agents_per_purpose[p] == 0) continue;
    const auto& counts = s.purposes[p];
    matrix.purposes.push_back({static_cast<AgentPurpose>(p),
                               s.registry_agents_per_purpose[p],
                               {counts.any_full, files},
                               {counts.all_full, files},
                               {counts.any_named, files}});
  }

  AiPreferences& ai = report.ai_preferences;
  ai.files = files;
  ai.domains_listed_cap = s.options.contradiction_domains;
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    for (std::size_t k = 0; k < kAiSignalNames.size(); ++k) {
      ai.presence[stratum][k] = {s.ai_presence[stratum][k],
                                 s.ai_files_by_stratum[stratum]};
    }
  }
  for (std::size_t p = 0; p < ReportBuilder::State::kPurposes; ++p) {
    const auto purpose = static_cast<AgentPurpose>(p);
    if (s.registry_agents_per_purpose[p] == 0 ||
        purpose == AgentPurpose::kOther) {
      continue;
    }
    const auto& out = s.ai_out[p];
    ai.purposes.push_back({purpose,
                           {out.rules, files},
                           {out.preference, files},
                           {out.either, files},
                           {out.both, files}});
  }
  for (std::size_t k = 0; k < s.contradictions.size(); ++k) {
    auto& c = s.contradictions[k];
    const auto kind = static_cast<AiContradiction>(k);
    // The signals' contradiction is of domains with signals, not of files.
    const std::int64_t of =
        kind == AiContradiction::kTdmReservationButAiCrawlersAllowed
            ? s.signal_domains[kStratumCount - 1]
            : files;
    ai.contradictions.push_back({kind, {c.files, of}, c.best.Take()});
  }
  ai.signal_domains = s.signal_domains;
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    for (std::size_t k = 0; k < kOutsideSignalNames.size(); ++k) {
      ai.outside[stratum][k] = {s.outside[stratum][k],
                                s.signal_domains[stratum]};
    }
  }

  if (s.options.compare_readings) {
    report.sensitivity = s.readings.Finish(files, banned.most_banned);
  }
  if (s.options.compare) {
    report.comparison = s.compared.Finish(s.older_label);
  }

  CommentFindings& comments = report.comments;
  comments.files_with_comments = {s.files_with_comments, files};
  comments.files_with_findings = {s.files_with_findings, files};
  comments.distinct_findings = static_cast<std::int64_t>(s.comments.size());
  comments.untracked_findings = s.untracked_comments;
  for (auto& [key, entry] : s.comments) {
    comments.findings.push_back({std::move(entry.text), std::move(entry.domain),
                                 entry.rank, entry.domains});
  }
  std::sort(comments.findings.begin(), comments.findings.end(),
            [](const CommentFinding& a, const CommentFinding& b) {
              return RankKey(a.rank) != RankKey(b.rank)
                         ? RankKey(a.rank) < RankKey(b.rank)
                         : a.text < b.text;
            });

  FileFacts& facts = report.facts;
  facts.files = files;
  std::sort(s.sizes.begin(), s.sizes.end());
  facts.size_p50 = Percentile(s.sizes, 50);
  facts.size_p90 = Percentile(s.sizes, 90);
  facts.size_p99 = Percentile(s.sizes, 99);
  facts.size_max = s.sizes.empty() ? 0 : s.sizes.back();
  static constexpr std::pair<std::uint32_t, std::string_view> kSizeBuckets[] = {
      {0, "0 B"},
      {100, "1-100 B"},
      {1024, "101 B-1 KiB"},
      {10 * 1024, "1-10 KiB"},
      {100 * 1024, "10-100 KiB"},
      {512000 - 1, "100-500 KiB"},
      {UINT32_MAX, ">= 500 KiB"}};
  std::size_t from = 0;
  for (const auto& [limit, label] : kSizeBuckets) {
    const auto end = std::upper_bound(s.sizes.begin() + static_cast<long>(from),
                                      s.sizes.end(), limit) -
                     s.sizes.begin();
    facts.size_buckets.push_back(
        {std::string(label),
         {static_cast<std::int64_t>(static_cast<std::size_t>(end) - from),
          files}});
    from = static_cast<std::size_t>(end);
  }
  std::vector<std::uint32_t>().swap(s.sizes);
  facts.truncated = {s.truncated, files};
  facts.lf = {s.lf, files};
  facts.crlf = {s.crlf, files};
  facts.cr = {s.cr, files};
  facts.mixed_endings = {s.mixed, files};
  facts.no_line_end = {s.no_line_end, files};
  facts.bom = {s.bom, files};
  facts.not_utf8 = {s.not_utf8, files};
  const std::int64_t delays = s.crawl_delay_files;
  facts.crawl_delay = {delays, files};
  facts.crawl_delay_outside_group = {s.crawl_delay_outside, files};
  facts.crawl_delay_not_a_number = {s.crawl_delay_not_a_number, files};
  static constexpr std::string_view kDelayLabels[] = {
      "< 1 s",   "1 s",     "1-5 s",  "5-10 s",
      "10-30 s", "30-60 s", "> 60 s", "not a number"};
  for (std::size_t i = 0; i < s.crawl_delay_buckets.size(); ++i) {
    facts.crawl_delay_values.push_back(
        {std::string(kDelayLabels[i]), {s.crawl_delay_buckets[i], delays}});
  }
  facts.sitemap = {s.files_with_sitemap, files};
  facts.sitemap_lines = s.sitemap_lines;
  static constexpr std::string_view kSitemapLabels[] = {"0", "1", "2-5", "6-20",
                                                        "> 20"};
  for (std::size_t i = 0; i < s.sitemap_buckets.size(); ++i) {
    facts.sitemaps_per_file.push_back(
        {std::string(kSitemapLabels[i]), {s.sitemap_buckets[i], files}});
  }
  facts.host = {s.host, files};
  facts.clean_param = {s.clean_param, files};
  facts.unknown_directive = {s.unknown_directive, files};
  facts.unknown_keys = s.unknown_keys.Top(top);
  facts.untracked_unknown_keys = s.unknown_keys.untracked();
  facts.lint_error = {s.lint_error, files};
  facts.lint_codes = s.lint_codes.Top(top);
  for (const AgentRestriction& agent :
       top_of(agents, [](const AgentRestriction& a) { return a.named; })) {
    facts.agent_tokens.push_back({agent.token, agent.named, agent.written_as});
  }
  facts.two_xx_bodies = s.two_xx_bodies;
  for (storage::SharedBody& body : shared_bodies) {
    facts.shared_files.push_back({std::move(body.sha256),
                                  {body.domains, s.two_xx_bodies},
                                  body.bytes,
                                  std::move(body.example_domain),
                                  body.example_rank,
                                  std::move(body.excerpt)});
  }
  return report;
}

namespace {

// Reads rows one at a time; `row` stays valid until the next Advance.
class RowStream {
 public:
  explicit RowStream(std::unique_ptr<storage::LatestFetchReader> reader)
      : reader_(std::move(reader)) {}
  storage::Status Advance() {
    storage::Result<bool> next = reader_->Next(&row_);
    has_row_ = next.ok() && *next;
    return next.status();
  }
  bool has_row() const { return has_row_; }
  const storage::LatestFetchRow& row() const { return row_; }
  storage::LatestFetchReader& reader() { return *reader_; }

 private:
  std::unique_ptr<storage::LatestFetchReader> reader_;
  storage::LatestFetchRow row_;
  bool has_row_ = false;
};

}  // namespace

storage::Status BuildReportFromDatabase(std::string_view path,
                                        const ReportOptions& options,
                                        Report* report) {
  storage::LatestFetchQuery query;
  query.by_domain = options.compare.has_value();
  if (options.period) {
    query.captured_from = options.period->from;
    query.captured_before = options.period->before;
  }
  auto reader = storage::LatestFetchReader::Open(path, query);
  if (!reader.ok()) return reader.status();
  RowStream current(std::move(reader.value()));
  ReportBuilder builder(options);
  storage::Status status = current.Advance();
  if (!status.ok()) return status;
  if (options.compare) {
    // Both sides in domain order, merged in one pass: memory stays that of
    // one row per side whatever the number of domains.
    const ComparisonSource& source = *options.compare;
    const std::string older_path =
        source.database.empty() ? std::string(path) : source.database;
    storage::LatestFetchQuery older_query;
    older_query.by_domain = true;
    older_query.as_of_run = source.run;
    if (source.period) {
      older_query.captured_from = source.period->from;
      older_query.captured_before = source.period->before;
    }
    auto older_reader =
        storage::LatestFetchReader::Open(older_path, older_query);
    if (!older_reader.ok()) return older_reader.status();
    RowStream older(std::move(older_reader.value()));
    // A PostgreSQL URI may carry a password: never in the report.
    const std::string shown = storage::RedactDatabaseUri(older_path);
    builder.DescribeOlder(
        source.period    ? source.period->label + " of " + shown
        : source.run > 0 ? "run " + std::to_string(source.run) + " of " + shown
                         : shown);
    status = older.Advance();
    if (!status.ok()) return status;
    while (current.has_row() || older.has_row()) {
      const int order = !older.has_row() ? -1
                        : !current.has_row()
                            ? 1
                            : current.row().domain.compare(older.row().domain);
      builder.AddFetchPair(order >= 0 ? &older.row() : nullptr,
                           order <= 0 ? &current.row() : nullptr);
      if (order <= 0) status = current.Advance();
      if (!status.ok()) return status;
      if (order >= 0) status = older.Advance();
      if (!status.ok()) return status;
    }
  } else {
    while (current.has_row()) {
      builder.AddFetch(current.row());
      status = current.Advance();
      if (!status.ok()) return status;
    }
  }
  // Shared bodies are grouped from latest_fetch by the database: not for
  // one period.
  std::vector<storage::SharedBody> shared;
  if (!options.period) {
    storage::Result<std::vector<storage::SharedBody>> found =
        current.reader().FindSharedBodies(
            options.template_min_domains,
            static_cast<std::int64_t>(options.top));
    if (!found.ok()) return found.status();
    shared = std::move(found).value();
  }
  storage::Result<std::vector<storage::RunRecord>> runs =
      current.reader().ReadRuns();
  if (!runs.ok()) return runs.status();
  *report = builder.Finish(std::move(shared));
  report->runs = std::move(runs).value();
  return storage::Status::Ok();
}

}  // namespace robotscan::report
