#include "body_analysis.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "robotscan/base/ascii.h"
#include "robotscan/base/utf8.h"
#include "robotscan/report/report.h"
#include "robotscan/robots/lint.h"
#include "robotscan/robots/tokenizer.h"
#include "robotscan/robots/url.h"

namespace robotscan::report {
namespace {

// Longest comment block kept; job adverts are a few lines, and a file of
// megabytes of comments must not become a megabyte finding.
constexpr std::size_t kMaxCommentBlockBytes = 2000;
// Longest name as written kept for a cut token, and half the longest
// Sitemap URL kept as an example.
constexpr std::size_t kMaxWrittenBytes = 100;
constexpr std::size_t kSitemapExamples = 3;

// Collects file facts and comment blocks from the tokenizer: the same
// parser the matcher and the linter listen to.
class FactsListener : public robots::LineListener {
 public:
  explicit FactsListener(BodyAnalysis* analysis) : analysis_(analysis) {}

  void OnLine(const robots::Line& line) override {
    if (line.has_comment) analysis_->has_comments = true;
    if (line.directive == robots::Directive::kCrawlDelay) {
      analysis_->crawl_delay_line = true;
    }
    if (line.is_comment) {
      if (!block_.empty()) block_ += '\n';
      if (block_.size() < kMaxCommentBlockBytes) {
        std::string_view text = line.comment;
        while (!text.empty() && (text.front() == '#' || text.front() == ' ' ||
                                 text.front() == '\t')) {
          text.remove_prefix(1);
        }
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
          text.remove_suffix(1);
        }
        block_.append(text.substr(
            0, std::min(text.size(), kMaxCommentBlockBytes - block_.size())));
      }
      return;
    }
    EndBlock();
  }

  void OnEnd(const robots::BodySummary& summary) override {
    EndBlock();
    analysis_->bom = summary.bom_bytes > 0;
    const int styles = (summary.lf_endings > 0 ? 1 : 0) +
                       (summary.crlf_endings > 0 ? 1 : 0) +
                       (summary.cr_endings > 0 ? 1 : 0);
    if (styles == 0) {
      analysis_->line_endings = LineEndings::kNone;
    } else if (styles > 1) {
      analysis_->line_endings = LineEndings::kMixed;
    } else if (summary.lf_endings > 0) {
      analysis_->line_endings = LineEndings::kLf;
    } else if (summary.crlf_endings > 0) {
      analysis_->line_endings = LineEndings::kCrlf;
    } else {
      analysis_->line_endings = LineEndings::kCr;
    }
  }

 private:
  void EndBlock() {
    if (!block_.empty() && MentionsJobs(block_)) {
      analysis_->job_comment_blocks.push_back(block_);
    }
    block_.clear();
  }

  BodyAnalysis* analysis_;
  std::string block_;
};

struct Restriction {
  bool full = false;
  bool partial = false;
};

// A full block: the matcher refuses "/" and no allow rule could open any
// other path. A partial one: some non-empty disallow governs the agent.
// The rules are those the reading consults for the agent (RulesFor); in
// the urllib reading the first matching rule decides, so rules after one
// that matches every path (CPython compares "/" and "" as prefixes) are
// never reached, and an empty Disallow allows everything.
Restriction RestrictionFor(const robots::RobotsTxt& robots,
                           std::string_view agent) {
  const bool first_match = robots.compat() == robots::Compat::kUrllib;
  bool any_allow = false;
  bool any_disallow = false;
  for (const robots::Rule* rule : robots.RulesFor(agent)) {
    const bool allow = rule->kind == robots::RuleKind::kAllow;
    if (rule->pattern.empty()) {
      // Matches nothing (RFC 9309 §2.2.2); in CPython, matches every path
      // and allows it.
      if (first_match) break;
      continue;
    }
    if (allow) any_allow = true;
    if (!allow) any_disallow = true;
    if (first_match &&
        (rule->match_pattern.empty() || rule->match_pattern == "/")) {
      break;
    }
  }
  Restriction restriction;
  const bool root_allowed = robots.IsAllowedFor(agent, "/");
  restriction.full = !root_allowed && !any_allow;
  restriction.partial = !restriction.full && any_disallow;
  return restriction;
}

std::uint8_t CrawlerFlagsFor(const robots::RobotsTxt& robots,
                             std::string_view agent, bool named,
                             bool googlebot_root_allowed) {
  std::uint8_t flags = 0;
  // Without a group of its own the agent is governed by `*`.
  const Restriction restriction = RestrictionFor(robots, agent);
  if (named) flags |= kCrawlerNamed;
  if (restriction.full) flags |= kCrawlerFull;
  if (restriction.partial) flags |= kCrawlerPartial;
  if (named && !robots.IsAllowedFor(agent, "/") && googlebot_root_allowed) {
    flags |= kCrawlerSingledOut;
  }
  return flags;
}

// The registry matrix's flags. A file names a handful of agents and the
// registry holds over a hundred, so every agent the file does not name
// shares one answer, the `*` group's (what the generic agent gets), and
// only the named ones are matched one by one. CPython's reading matches
// whole names its own way (substrings), so there each agent is asked by
// the name the registry gives it.
std::vector<std::uint8_t> RegistryFlagsOf(const robots::RobotsTxt& robots,
                                          const AnalysisSettings& settings,
                                          const ReadingVerdicts& verdicts) {
  const std::size_t n = settings.registry_tokens.size();
  std::vector<std::uint8_t> flags;
  if (robots.compat() == robots::Compat::kUrllib) {
    flags.reserve(n);
    for (const std::string& name : settings.registry_names) {
      flags.push_back(CrawlerFlagsFor(robots, name, robots.HasGroupFor(name),
                                      verdicts.googlebot_root_allowed));
    }
    return flags;
  }
  flags.assign(n, CrawlerFlagsFor(robots, settings.generic_agent, false,
                                  verdicts.googlebot_root_allowed));
  for (const TokenVerdict& verdict : verdicts.tokens) {
    auto it = settings.registry_index.find(verdict.token);
    if (it == settings.registry_index.end()) continue;
    flags[it->second] = CrawlerFlagsFor(robots, verdict.token, true,
                                        verdicts.googlebot_root_allowed);
  }
  return flags;
}

ReadingVerdicts VerdictsOf(const robots::RobotsTxt& robots,
                           const AnalysisSettings& settings) {
  const bool urllib = robots.compat() == robots::Compat::kUrllib;
  ReadingVerdicts verdicts;
  std::unordered_set<std::string> seen_tokens;
  for (const robots::Group& group : robots.groups()) {
    for (std::size_t i = 0; i < group.tokens.size(); ++i) {
      const std::string& token = group.tokens[i];
      if (token == "*" || token.empty()) continue;
      if (!seen_tokens.insert(token).second) continue;
      const Restriction restriction = RestrictionFor(robots, token);
      TokenVerdict verdict{token, "", restriction.full, restriction.partial};
      // RFC 9309 §2.2.1 product tokens: say what a cut token was written
      // as, so "mj" can be read as MJ12bot.
      if (!urllib && i < group.agents.size() &&
          !robots::EqualsIgnoreAsciiCase(group.agents[i], token)) {
        verdict.written_as = group.agents[i].substr(0, kMaxWrittenBytes);
      }
      verdicts.tokens.push_back(std::move(verdict));
    }
  }
  verdicts.googlebot_root_allowed = robots.IsAllowedFor("Googlebot", "/");
  verdicts.generic_root_allowed =
      robots.IsAllowedFor(settings.generic_agent, "/");
  verdicts.bingbot_root_allowed = robots.IsAllowedFor("Bingbot", "/");
  verdicts.duckduckbot_root_allowed = robots.IsAllowedFor("DuckDuckBot", "/");

  verdicts.crawler_flags.reserve(settings.crawlers.size());
  for (const std::string& crawler : settings.crawlers) {
    // Files name crawlers the way the matcher reads a user-agent line
    // (RFC 9309 §2.2.1: letters, '-', '_'), so "User-agent: MJ12bot" is a
    // group for "mj"; asking with the same cut finds that group. CPython
    // compares whole names (its own way), so it gets the name as is.
    std::string_view agent = crawler;
    if (!urllib && !robots::ExtractProductToken(crawler).empty()) {
      agent = robots::ExtractProductToken(crawler);
    }
    verdicts.crawler_flags.push_back(
        CrawlerFlagsFor(robots, agent, robots.HasGroupFor(agent),
                        verdicts.googlebot_root_allowed));
  }
  return verdicts;
}

// Cloudflare's managed robots.txt, by the comments it writes: the block
// markers, and the Content Signals Policy's opening sentence (which domains
// on the Free plan get without the signals line).
bool IsCloudflareManaged(std::string_view body) {
  static constexpr std::string_view kMarkers[] = {
      "BEGIN Cloudflare Managed content",
      "As a condition of accessing this website, you agree to abide by the",
  };
  for (std::string_view marker : kMarkers) {
    auto at = std::search(
        body.begin(), body.end(), marker.begin(), marker.end(),
        [](char a, char b) { return ToAsciiLower(a) == ToAsciiLower(b); });
    if (at != body.end()) return true;
  }
  return false;
}

bool SaysNo(const std::vector<robots::AppliedPreference>& preferences,
            std::string_view key) {
  for (const robots::AppliedPreference& p : preferences) {
    if (p.key == key && !p.allowed) return true;
  }
  return false;
}

// Whether `preferences` keep an agent of `purpose` out of its use.
bool KeepsOut(const robots::Preferences& preferences, AgentPurpose purpose) {
  switch (purpose) {
    case AgentPurpose::kTraining:
      return SaysNo(preferences.content_usage, "train-ai") ||
             SaysNo(preferences.content_signal, "ai-train");
    case AgentPurpose::kSearch:
      return SaysNo(preferences.content_usage, "search") ||
             SaysNo(preferences.content_signal, "search");
    case AgentPurpose::kUserTriggered:
    case AgentPurpose::kAgent:
      return SaysNo(preferences.content_signal, "ai-input");
    case AgentPurpose::kOther:
      break;
  }
  return false;
}

// Part 9's facts. As for the registry matrix, the agents a file does not
// name share the generic agent's answer; the named ones are asked.
AiFacts AiFactsOf(std::string_view body, const robots::RobotsTxt& robots,
                  const AnalysisSettings& settings) {
  AiFacts facts;
  auto signal = [&](AiSignal s) -> bool& {
    return facts.signals[static_cast<std::size_t>(s)];
  };
  signal(AiSignal::kCloudflareManaged) = IsCloudflareManaged(body);
  signal(AiSignal::kLicense) = !robots.licenses().empty();
  signal(AiSignal::kContentUsage) =
      !robots.content_usages_outside_groups().empty();
  signal(AiSignal::kContentSignal) =
      !robots.content_signals_outside_groups().empty();
  auto note_train_ai = [&](const std::vector<robots::ContentUsage>& lines) {
    for (const robots::ContentUsage& line : lines) {
      for (const robots::UsagePreference& p : line.preferences) {
        if (p.key == "train-ai" && p.allowed) facts.train_ai_yes = true;
      }
    }
  };
  note_train_ai(robots.content_usages_outside_groups());
  std::unordered_set<std::string> named;
  for (const robots::Group& group : robots.groups()) {
    if (!group.content_usages.empty()) signal(AiSignal::kContentUsage) = true;
    if (!group.content_signals.empty()) {
      signal(AiSignal::kContentSignal) = true;
    }
    note_train_ai(group.content_usages);
    for (const std::string& token : group.tokens) {
      if (token != "*" && !token.empty()) named.insert(token);
    }
  }
  facts.gptbot_blocked = !robots.IsAllowedFor("GPTBot", "/");
  if (!signal(AiSignal::kContentUsage) && !signal(AiSignal::kContentSignal)) {
    return facts;  // No preference can apply to anyone.
  }
  const robots::Preferences generic =
      robots.PreferencesFor(settings.generic_agent, "/");
  std::array<bool, kAgentPurposeNames.size()> unnamed_in_class{};
  for (std::size_t i = 0; i < settings.registry_tokens.size(); ++i) {
    const AgentPurpose purpose = settings.registry_purposes[i];
    const auto p = static_cast<std::size_t>(purpose);
    const std::string lower = ToAsciiLower(settings.registry_tokens[i]);
    if (named.count(lower) == 0) {
      unnamed_in_class[p] = true;
      continue;
    }
    const robots::Preferences own = robots.PreferencesFor(lower, "/");
    if (KeepsOut(own, purpose)) facts.out_by_preference[p] = true;
    if (purpose == AgentPurpose::kTraining &&
        SaysNo(own.content_signal, "ai-train")) {
      facts.ai_train_no = true;
    }
  }
  for (std::size_t p = 0; p < unnamed_in_class.size(); ++p) {
    if (!unnamed_in_class[p]) continue;
    const auto purpose = static_cast<AgentPurpose>(p);
    if (KeepsOut(generic, purpose)) facts.out_by_preference[p] = true;
    if (purpose == AgentPurpose::kTraining &&
        SaysNo(generic.content_signal, "ai-train")) {
      facts.ai_train_no = true;
    }
  }
  return facts;
}

bool HasRules(const robots::RobotsTxt& robots) {
  for (const robots::Group& group : robots.groups()) {
    if (!group.rules.empty()) return true;
  }
  return false;
}

}  // namespace

bool MentionsJobs(std::string_view comment) {
  // Short words must stand alone ("job", not "jobber" or "snobjob"); long
  // stems may go on ("careers", "recruiting", "vacancies").
  struct Word {
    std::string_view text;
    bool whole_word;
  };
  static constexpr Word kWords[] = {
      {"job", true},
      {"jobs", true},
      {"hiring", true},
      {"career", false},
      {"recruit", false},
      {"vacanc", false},
      {"join our team", false},
      {"join the team", false},
      {"work with us", false},
      {"work for us", false},
      {"we're hiring", false},
  };
  const std::string lower = ToAsciiLower(comment);
  auto is_word_char = [](char c) { return IsAsciiAlnum(c); };
  for (const Word& word : kWords) {
    std::size_t at = lower.find(word.text);
    while (at != std::string::npos) {
      const bool left = at == 0 || !is_word_char(lower[at - 1]);
      const std::size_t end = at + word.text.size();
      const bool right =
          !word.whole_word || end == lower.size() || !is_word_char(lower[end]);
      if (left && right) return true;
      at = lower.find(word.text, at + 1);
    }
  }
  return false;
}

std::uint64_t HashSitemapUrl(std::string_view url) {
  return std::hash<std::string_view>{}(url);
}

namespace {

bool IsWordChar(char c) { return IsAsciiAlnum(c); }

// Whether `word` occurs in `text` (lower-case) at a word start; with
// `whole`, also ending at a word end.
bool HasWord(std::string_view text, std::string_view word, bool whole) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    const std::size_t end = at + word.size();
    if ((at == 0 || !IsWordChar(text[at - 1])) &&
        (!whole || end == text.size() || !IsWordChar(text[end]))) {
      return true;
    }
  }
  return false;
}

// A comment line that is a directive put out of use ("# Disallow: /jobs/",
// "#Allow job-search.xml"): a key the tokenizer knows, then a colon or, as
// the tokenizer accepts, exactly one more word.
bool IsCommentedOutDirective(std::string_view line) {
  const std::size_t end = line.find_first_of(": \t");
  if (end == 0 || end == std::string_view::npos) return false;
  bool typo = false;
  const robots::Directive directive =
      robots::ClassifyKey(line.substr(0, end), &typo);
  if (directive == robots::Directive::kUnknown ||
      directive == robots::Directive::kNone) {
    return false;
  }
  std::string_view rest = line.substr(end);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) {
    rest.remove_prefix(1);
  }
  if (!rest.empty() && rest.front() == ':') return true;
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) {
    rest.remove_suffix(1);
  }
  return !rest.empty() && rest.find_first_of(" \t") == std::string_view::npos;
}

// "cron job", "print jobs": jobs that are not work for people.
void RemoveMachineJobs(std::string* text) {
  static constexpr std::string_view kMachines[] = {
      "cron",  "cronjob", "batch",  "scheduled", "background", "build",
      "print", "nightly", "daily",  "hourly",    "import",     "export",
      "sync",  "worker",  "queued", "render",    "backup",     "ci"};
  for (std::string_view machine : kMachines) {
    for (std::string_view job :
         {" job", " jobs", "-job", "-jobs", "job", "jobs"}) {
      const std::string phrase = std::string(machine) + std::string(job);
      for (std::size_t at = text->find(phrase); at != std::string::npos;
           at = text->find(phrase, at + 1)) {
        const std::size_t end = at + phrase.size();
        if ((at == 0 || !IsWordChar((*text)[at - 1])) &&
            (end == text->size() || !IsWordChar((*text)[end]))) {
          text->replace(at, phrase.size(), phrase.size(), ' ');
        }
      }
    }
  }
}

}  // namespace

bool ReadsAsJobAdvert(std::string_view block) {
  // The lines that can advertise: not directives put out of use, not
  // about sitemaps.
  std::string text;
  for (std::size_t start = 0; start <= block.size();) {
    std::size_t end = block.find('\n', start);
    if (end == std::string_view::npos) end = block.size();
    std::string line = ToAsciiLower(block.substr(start, end - start));
    start = end + 1;
    std::size_t first = line.find_first_not_of("# \t");
    if (first == std::string::npos) continue;
    line.erase(0, first);
    if (IsCommentedOutDirective(line) ||
        line.find("sitemap") != std::string::npos) {
      continue;
    }
    text += line;
    text += '\n';
  }
  RemoveMachineJobs(&text);
  // Phrases that advertise on their own.
  static constexpr std::string_view kAdverts[] = {"hiring",
                                                  "recruit",
                                                  "vacanc",
                                                  "join our team",
                                                  "join the team",
                                                  "join us",
                                                  "work with us",
                                                  "work for us",
                                                  "job opening",
                                                  "job offer",
                                                  "open position",
                                                  "jobs at",
                                                  "career opportunit",
                                                  "we're looking for",
                                                  "we are looking for"};
  for (std::string_view advert : kAdverts) {
    if (HasWord(text, advert, false)) return true;
  }
  // "job(s)" or "career(s)" advertise with an invitation to act.
  if (!HasWord(text, "job", true) && !HasWord(text, "jobs", true) &&
      !HasWord(text, "career", false)) {
    return false;
  }
  static constexpr std::string_view kInvitations[] = {
      "http://", "https://", "www.",        "@",          "apply", "visit",
      "see",     "check",    "looking for", "interested", "send",  "contact",
      "mail",    "cv",       "resume",      "talent"};
  for (std::string_view invitation : kInvitations) {
    const bool punctuation =
        invitation.find_first_of(":/.@") != std::string_view::npos;
    if (punctuation ? text.find(invitation) != std::string::npos
                    : HasWord(text, invitation, false)) {
      return true;
    }
  }
  return false;
}

BodyAnalysis AnalyzeBody(std::string_view body,
                         const AnalysisSettings& settings) {
  BodyAnalysis analysis;
  analysis.not_utf8 = !IsValidUtf8(body);

  // One tokenizer pass feeds the file facts, every reading asked for and the
  // lint (tokenizer.h's promise). File facts come from the tokenizer's
  // grouping (the rfc and google readings share it), also when the report
  // reads as CPython does; urllib's builder reads the body itself.
  const std::size_t primary = ReadingIndex(settings.compat);
  robots::ParseOptions parse;
  parse.compat = settings.compat == robots::Compat::kUrllib
                     ? robots::Compat::kRfc9309
                     : settings.compat;
  FactsListener facts(&analysis);
  robots::RobotsTxtBuilder main_reading(body, parse);
  std::array<std::optional<robots::RobotsTxtBuilder>, kReadingCount> others;
  robots::RobotsTxtLinter linter(body);
  robots::LineFanOut listeners({&facts, &main_reading, &linter});
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    if (r != primary && !settings.all_readings) continue;
    if (kReadings[r] == parse.compat) continue;
    robots::ParseOptions other;
    other.compat = kReadings[r];
    others[r].emplace(body, other);
    listeners.Add(&*others[r]);
  }
  if (main_reading.parsed_body().size() == body.size()) {
    robots::TokenizeRobotsTxt(body, listeners);
  } else {
    // Past the parse limit (rare: 500 KiB) the readings and the lint stop
    // at the limit's line end while the facts read on: separate passes.
    robots::TokenizeRobotsTxt(body, facts);
    robots::TokenizeRobotsTxt(main_reading.parsed_body(), main_reading);
    robots::TokenizeRobotsTxt(linter.parsed_body(), linter);
    for (auto& reading : others) {
      if (reading) robots::TokenizeRobotsTxt(reading->parsed_body(), *reading);
    }
  }
  const robots::RobotsTxt robots = std::move(main_reading).Finish();

  std::unordered_set<std::string> unknown_keys;
  for (const robots::Group& group : robots.groups()) {
    ++analysis.groups;
    analysis.rules += static_cast<int>(group.rules.size());
    if (!analysis.crawl_delay && group.crawl_delay) {
      analysis.crawl_delay = group.crawl_delay;
    }
    if (!group.clean_params.empty()) analysis.clean_param = true;
    if (!group.hosts.empty()) analysis.host = true;
    for (const robots::UnknownDirective& unknown : group.unknown) {
      unknown_keys.insert(ToAsciiLower(unknown.key));
    }
  }
  // A value before the first user-agent line, when no group has one.
  if (!analysis.crawl_delay) {
    analysis.crawl_delay =
        robots.ExtensionsFor(settings.generic_agent).crawl_delay;
  }
  for (const robots::UnknownDirective& unknown : robots.unknown_directives()) {
    unknown_keys.insert(ToAsciiLower(unknown.key));
  }
  analysis.unknown_keys.assign(unknown_keys.begin(), unknown_keys.end());
  std::sort(analysis.unknown_keys.begin(), analysis.unknown_keys.end());
  if (!robots.hosts().empty()) analysis.host = true;
  analysis.sitemaps = static_cast<int>(robots.sitemaps().size());
  for (const robots::Sitemap& sitemap : robots.sitemaps()) {
    if (analysis.sitemap_hashes.size() < kMaxSitemapHashes) {
      analysis.sitemap_hashes.push_back(HashSitemapUrl(sitemap.url));
    }
    if (analysis.sitemap_examples.size() < kSitemapExamples) {
      analysis.sitemap_examples.push_back(
          sitemap.url.substr(0, kMaxWrittenBytes * 2));
    }
  }
  std::sort(analysis.sitemap_hashes.begin(), analysis.sitemap_hashes.end());
  analysis.sitemap_hashes.erase(std::unique(analysis.sitemap_hashes.begin(),
                                            analysis.sitemap_hashes.end()),
                                analysis.sitemap_hashes.end());

  for (std::size_t r = 0; r < kReadingCount; ++r) {
    if (r != primary && !settings.all_readings) continue;
    if (kReadings[r] == parse.compat) {
      analysis.readings[r] = VerdictsOf(robots, settings);
      if (r == primary) {
        analysis.has_rules = HasRules(robots);
        analysis.readings[r].registry_flags =
            RegistryFlagsOf(robots, settings, analysis.readings[r]);
      }
      continue;
    }
    const robots::RobotsTxt reading = std::move(*others[r]).Finish();
    analysis.readings[r] = VerdictsOf(reading, settings);
    if (r == primary) {
      analysis.has_rules = HasRules(reading);
      analysis.readings[r].registry_flags =
          RegistryFlagsOf(reading, settings, analysis.readings[r]);
    }
  }

  analysis.ai = AiFactsOf(body, robots, settings);

  std::unordered_set<std::string> codes;
  for (const robots::Diagnostic& diagnostic : std::move(linter).Finish()) {
    codes.insert(diagnostic.code);
    if (diagnostic.severity == robots::Severity::kError) {
      analysis.lint_error = true;
    }
  }
  analysis.html_body = codes.count("html-body") > 0;
  analysis.crawl_delay_outside_group =
      codes.count("crawl-delay-outside-group") > 0;
  analysis.crawl_delay_not_a_number = codes.count("invalid-crawl-delay") > 0;
  analysis.lint_codes.assign(codes.begin(), codes.end());
  std::sort(analysis.lint_codes.begin(), analysis.lint_codes.end());
  return analysis;
}

}  // namespace robotscan::report
