#include <algorithm>
#include <array>
#include <cstdlib>
#include <deque>
#include <map>
#include <span>
#include <utility>

#include "extensions.h"
#include "normalize.h"
#include "pattern.h"
#include "robotscan/base/ascii.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/tokenizer.h"
#include "robotscan/robots/url.h"
#include "urllib/reading.h"
#include "usage_preferences.h"

namespace robotscan::robots {

using internal::IndexedRule;
using internal::RuleIndex;

namespace {

enum class Policy : std::uint8_t { kParsed, kAllowAll, kDisallowAll };

// Google reads `*` as the global agent when it is alone or followed by
// whitespace ("* # all"); anything else is cut to its product token.
std::string AgentTokenOf(std::string_view value) {
  if (!value.empty() && value[0] == '*' &&
      (value.size() == 1 || IsAsciiSpace(value[1]))) {
    return "*";
  }
  std::string token(ExtractProductToken(value));
  for (char& c : token) c = ToAsciiLower(c);
  return token;
}

// Cuts the body at the parse limit, moved back to the last line end so that
// no rule is half-read.
std::string_view LimitBody(std::string_view body, std::size_t limit) {
  limit = std::max(limit, kMinParseLimitBytes);
  if (body.size() <= limit) return body;
  const std::size_t last_eol = body.substr(0, limit).find_last_of("\r\n");
  return body.substr(0, last_eol == std::string_view::npos ? 0 : last_eol + 1);
}

}  // namespace

namespace internal {

// What the group builder fills in from the tokenizer's events.
struct ParsedFile {
  Compat compat = Compat::kRfc9309;
  std::vector<Group> groups;
  std::vector<Sitemap> sitemaps;
  std::vector<std::string> hosts;
  std::vector<UnknownDirective> unknown;
  std::vector<Rule> orphan_rules;
  std::vector<LicenseLine> licenses;
  std::vector<ContentUsage> orphan_content_usages;
  std::vector<ContentSignal> orphan_content_signals;
  std::optional<double> file_crawl_delay;  // Crawl-delay before any group.
  int line_count = 0;
};

}  // namespace internal

struct RobotsTxt::Impl : internal::ParsedFile {
  Policy policy = Policy::kParsed;
  std::size_t body_bytes = 0;
  std::size_t ignored_bytes = 0;

  // Matching state, built once after parsing.
  struct AgentEntry {
    std::string token;  // Lower-case product token.
    std::uint32_t index = 0;
    std::vector<std::uint32_t> group_ids;  // Groups naming the token.
  };
  std::vector<AgentEntry> agents;  // Sorted by token.
  bool has_global = false;
  std::uint32_t global_index = 0;
  std::vector<std::uint32_t> global_group_ids;
  std::vector<RuleIndex> indexes;
  std::vector<const Rule*> rules_by_id;
  std::deque<std::string> derived_patterns;  // Stable storage.

  // Compat::kUrllib: CPython's reading, used instead of all of the above.
  urllib::File urllib;

  void BuildMatchers();
  // Groups whose rules apply to a token named by groups `own`: those, plus
  // the groups that Google reads as the same group (separated only by
  // extension lines).
  std::vector<std::uint32_t> RuleGroupsOf(
      const std::vector<std::uint32_t>& own) const;
  // The entry for `agent` (case-insensitive), or nullptr.
  const AgentEntry* FindAgent(std::string_view agent) const;
  const RuleIndex* IndexFor(std::string_view agent, bool* used_global) const;
  const std::vector<std::uint32_t>* GroupIdsFor(std::string_view agent) const;
  MatchResult Match(std::string_view agent, std::string_view path) const;

  // The agent's part of Match, found once (AgentMatcher keeps one).
  struct AgentRules {
    const RuleIndex* index = nullptr;  // Null: no group applies.
    bool used_global = false;
    bool by_automaton = false;  // index->PrepareAutomaton() succeeded.
  };
  AgentRules RulesOfAgent(std::string_view agent) const;
  MatchResult MatchRules(const AgentRules& rules, std::string_view path) const;
  // The result once the deciding rule (or none) is known.
  MatchResult ResultOf(const AgentRules& rules,
                       const internal::IndexedRule* best) const;
  // CheckPath and Check, for rfc and google modes.
  MatchResult CheckPathWith(const AgentRules& rules,
                            std::string_view path) const;
  MatchResult CheckUrlWith(const AgentRules& rules, std::string_view url) const;
  // AgentMatcher::AreAllowed for rfc and google modes.
  // allowed[i] for each URL; with kRefuseMalformed, only up to the first
  // URL UrlSyntaxError refuses, whose index is returned (else the count).
  template <bool kRefuseMalformed>
  std::size_t AllowedMany(const AgentRules& rules,
                          std::span<const std::string_view> urls,
                          std::span<bool> allowed) const;
};

struct AgentMatcher::Impl {
  RobotsTxt robots;   // Keeps the parsed state alive.
  std::string agent;  // For kUrllib, which matches the agent per check.
  RobotsTxt::Impl::AgentRules rules;
};

namespace {

constexpr std::string_view kRobotsTxtPath = "/robots.txt";

// True if `path` is "/robots.txt", with or without a query, as given.
bool IsRobotsTxtPath(std::string_view path) {
  // The second byte first: a test of the length first would be a branch
  // mispredicted on paths of about eleven bytes (which many are).
  return path.size() >= 2 && path[1] == 'r' &&
         path.starts_with(kRobotsTxtPath) &&
         (path.size() == kRobotsTxtPath.size() ||
          path[kRobotsTxtPath.size()] == '?');
}

// Builds the group structure from the tokenizer's events.
class GroupBuilder : public LineListener {
 public:
  explicit GroupBuilder(internal::ParsedFile* impl) : impl_(impl) {}

  void OnLine(const Line& line) override {
    switch (line.directive) {
      case Directive::kUserAgent:
        // A user-agent line after a rule starts a new group; consecutive
        // user-agent lines (even with other lines between) share one.
        if (current_ == kNoGroup || current_has_rules_ ||
            current_has_extensions_) {
          if (current_ != kNoGroup && !current_has_rules_) {
            group().shares_rules_with_next = true;
          }
          current_ = impl_->groups.size();
          impl_->groups.emplace_back();
          impl_->groups.back().first_line = line.number;
          current_has_rules_ = false;
          current_has_extensions_ = false;
        }
        group().agents.emplace_back(line.value);
        group().tokens.push_back(AgentTokenOf(line.value));
        break;
      case Directive::kAllow:
      case Directive::kDisallow: {
        Rule rule;
        rule.kind = line.directive == Directive::kAllow ? RuleKind::kAllow
                                                        : RuleKind::kDisallow;
        rule.line = line.number;
        rule.pattern = std::string(line.value);
        rule.match_pattern =
            impl_->compat == Compat::kGoogle
                ? EscapePatternGoogle(line.value)
                : NormalizedForMatching(line.value, PathRole::kRulePattern);
        if (current_ == kNoGroup) {
          impl_->orphan_rules.push_back(std::move(rule));
        } else {
          group().rules.push_back(std::move(rule));
          current_has_rules_ = true;
        }
        break;
      }
      case Directive::kSitemap:
        impl_->sitemaps.push_back(
            Sitemap{std::string(line.value), line.number});
        break;
      case Directive::kHost:
        impl_->hosts.emplace_back(line.value);
        if (in_group()) group().hosts.emplace_back(line.value);
        break;
      case Directive::kCrawlDelay:
        current_has_extensions_ = in_group();
        if (auto delay = internal::ParseCrawlDelay(line.value)) {
          if (!in_group()) {
            // Before any user-agent line: many sites mean "everyone".
            if (!impl_->file_crawl_delay) impl_->file_crawl_delay = delay;
          } else if (!group().crawl_delay) {
            group().crawl_delay = delay;
            group().crawl_delay_line = line.number;
          }
        }
        break;
      case Directive::kRequestRate:
        current_has_extensions_ = in_group();
        if (in_group() && !group().request_rate) {
          group().request_rate =
              internal::ParseRequestRate(line.value, line.number);
        }
        break;
      case Directive::kVisitTime:
        current_has_extensions_ = in_group();
        if (in_group() && !group().visit_time) {
          group().visit_time =
              internal::ParseVisitTime(line.value, line.number);
        }
        break;
      case Directive::kCleanParam:
        current_has_extensions_ = in_group();
        if (in_group()) {
          if (auto param = internal::ParseCleanParam(line.value, line.number)) {
            group().clean_params.push_back(std::move(*param));
          }
        }
        break;
      case Directive::kNoindex:
      case Directive::kNofollow:
      case Directive::kNoarchive:
      case Directive::kUnknown:
        AddUnknown(line);
        break;
      // Usage preferences (preferences.h): also kept as unknown directives,
      // as before the library read them. Content-Usage and Content-Signal
      // stay with the group they are written in, as extension lines do,
      // without changing which rules apply to whom.
      case Directive::kContentUsage:
        AddUnknown(line);
        current_has_extensions_ = in_group();
        (in_group() ? group().content_usages : impl_->orphan_content_usages)
            .push_back(internal::ParseContentUsage(line.value, line.number,
                                                   impl_->compat));
        break;
      case Directive::kContentSignal:
        AddUnknown(line);
        current_has_extensions_ = in_group();
        (in_group() ? group().content_signals : impl_->orphan_content_signals)
            .push_back(internal::ParseContentSignal(line.value, line.number));
        break;
      case Directive::kLicense:
        AddUnknown(line);
        impl_->licenses.push_back(
            LicenseLine{std::string(line.value), line.number});
        break;
      case Directive::kNone:
        break;
    }
  }

  void OnEnd(const BodySummary& summary) override {
    impl_->line_count = summary.line_count;
  }

 private:
  static constexpr std::size_t kNoGroup = static_cast<std::size_t>(-1);
  bool in_group() const { return current_ != kNoGroup; }
  void AddUnknown(const Line& line) {
    UnknownDirective unknown{std::string(line.key), std::string(line.value),
                             line.number};
    if (in_group()) group().unknown.push_back(unknown);
    impl_->unknown.push_back(std::move(unknown));
  }
  Group& group() { return impl_->groups[current_]; }

  internal::ParsedFile* impl_;
  std::size_t current_ = kNoGroup;  // Index of the group being read.
  bool current_has_rules_ = false;
  bool current_has_extensions_ = false;
};

}  // namespace

std::vector<std::uint32_t> RobotsTxt::Impl::RuleGroupsOf(
    const std::vector<std::uint32_t>& own) const {
  std::vector<std::uint32_t> ids;
  for (std::uint32_t g : own) {
    ids.push_back(g);
    for (std::uint32_t next = g; groups[next].shares_rules_with_next;) {
      ids.push_back(++next);
    }
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

void RobotsTxt::Impl::BuildMatchers() {
  // Every rule gets an id; the index reports ids back.
  std::vector<std::vector<std::uint32_t>> rule_ids(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const Rule& rule : groups[g].rules) {
      rule_ids[g].push_back(static_cast<std::uint32_t>(rules_by_id.size()));
      rules_by_id.push_back(&rule);
    }
  }

  // Which groups name each agent token (and `*`), in file order.
  std::map<std::string, std::vector<std::uint32_t>> by_token;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const std::string& token : groups[g].tokens) {
      std::vector<std::uint32_t>& ids = by_token[token];
      if (ids.empty() || ids.back() != g) {
        ids.push_back(static_cast<std::uint32_t>(g));
      }
    }
  }

  // Agents with the same set of groups share one index (a file often lists
  // dozens of user-agent lines above one set of rules).
  std::map<std::vector<std::uint32_t>, std::uint32_t> index_of_groups;
  auto index_for = [&](const std::vector<std::uint32_t>& ids) {
    auto [it, inserted] = index_of_groups.try_emplace(
        ids, static_cast<std::uint32_t>(indexes.size()));
    if (!inserted) return it->second;
    std::vector<IndexedRule> rules;
    for (std::uint32_t g : ids) {
      for (std::size_t r = 0; r < groups[g].rules.size(); ++r) {
        const Rule& rule = groups[g].rules[r];
        IndexedRule indexed;
        indexed.pattern = internal::CompilePattern(rule.match_pattern);
        indexed.priority =
            static_cast<std::uint32_t>(rule.match_pattern.size());
        indexed.rule_id = rule_ids[g][r];
        indexed.allow = rule.kind == RuleKind::kAllow;
        rules.push_back(indexed);
        // Google: "allow: /dir/index.html" also allows "/dir/" exactly.
        if (indexed.allow) {
          const std::size_t slash = rule.match_pattern.find_last_of('/');
          if (slash != std::string::npos &&
              std::string_view(rule.match_pattern)
                      .substr(slash)
                      .rfind("/index.htm", 0) == 0) {
            derived_patterns.push_back(rule.match_pattern.substr(0, slash + 1) +
                                       "$");
            IndexedRule derived = indexed;
            derived.pattern = internal::CompilePattern(derived_patterns.back());
            derived.priority =
                static_cast<std::uint32_t>(derived_patterns.back().size());
            rules.push_back(derived);
          }
        }
      }
    }
    indexes.emplace_back(std::move(rules));
    return it->second;
  };

  for (auto& [token, ids] : by_token) {
    const std::uint32_t index = index_for(RuleGroupsOf(ids));
    if (token == "*") {
      has_global = true;
      global_index = index;
      global_group_ids = ids;
    } else {
      agents.push_back(AgentEntry{token, index, ids});
    }
  }
  // std::map iterates in byte order, which equals case-insensitive order for
  // lower-case tokens; the binary search below relies on it.
}

const RobotsTxt::Impl::AgentEntry* RobotsTxt::Impl::FindAgent(
    std::string_view agent) const {
  auto it = std::lower_bound(agents.begin(), agents.end(), agent,
                             [](const AgentEntry& e, std::string_view a) {
                               return CompareIgnoreAsciiCase(e.token, a) < 0;
                             });
  if (it == agents.end() || CompareIgnoreAsciiCase(it->token, agent) != 0) {
    return nullptr;
  }
  return &*it;
}

const std::vector<std::uint32_t>* RobotsTxt::Impl::GroupIdsFor(
    std::string_view agent) const {
  const AgentEntry* entry = FindAgent(agent);
  return entry == nullptr ? nullptr : &entry->group_ids;
}

const RuleIndex* RobotsTxt::Impl::IndexFor(std::string_view agent,
                                           bool* used_global) const {
  *used_global = false;
  if (const AgentEntry* entry = FindAgent(agent)) {
    return &indexes[entry->index];
  }
  if (!has_global) return nullptr;
  *used_global = true;
  return &indexes[global_index];
}

RobotsTxt::Impl::AgentRules RobotsTxt::Impl::RulesOfAgent(
    std::string_view agent) const {
  AgentRules rules;
  rules.index = IndexFor(agent, &rules.used_global);
  return rules;
}

MatchResult RobotsTxt::Impl::Match(std::string_view agent,
                                   std::string_view path) const {
  return MatchRules(RulesOfAgent(agent), path);
}

MatchResult RobotsTxt::Impl::MatchRules(const AgentRules& rules,
                                        std::string_view path) const {
  MatchResult result;
  if (policy == Policy::kAllowAll) {
    result.decision = Decision::kAllowAllPolicy;
    return result;
  }
  if (policy == Policy::kDisallowAll) {
    result.allowed = false;
    result.decision = Decision::kDisallowAllPolicy;
    return result;
  }
  const RuleIndex* index = rules.index;
  result.used_global_group = rules.used_global;
  if (index == nullptr) {
    result.decision = Decision::kNoGroupForAgent;
    return result;
  }
  return ResultOf(rules, rules.by_automaton ? index->BestMatchByAutomaton(path)
                                            : index->BestMatch(path));
}

MatchResult RobotsTxt::Impl::ResultOf(const AgentRules& rules,
                                      const IndexedRule* best) const {
  MatchResult result;
  result.used_global_group = rules.used_global;
  if (best == nullptr) {
    result.decision = Decision::kNoMatchingRule;
    return result;
  }
  const Rule& rule = *rules_by_id[best->rule_id];
  result.allowed = best->allow;
  result.decision = Decision::kRuleMatched;
  result.line = rule.line;
  result.kind = rule.kind;
  result.pattern = rule.pattern;
  return result;
}

RobotsTxt::RobotsTxt() : impl_(std::make_shared<const Impl>()) {}

RobotsTxt::RobotsTxt(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

struct RobotsTxtBuilder::State {
  State(std::string_view whole_body, std::shared_ptr<RobotsTxt::Impl> parsed)
      : body(whole_body), impl(std::move(parsed)), builder(impl.get()) {}
  std::string_view body;  // For kUrllib, read in Finish.
  std::shared_ptr<RobotsTxt::Impl> impl;
  GroupBuilder builder;
};

RobotsTxtBuilder::RobotsTxtBuilder(std::string_view body,
                                   const ParseOptions& options)
    : parsed_(options.compat == Compat::kUrllib
                  ? body
                  : LimitBody(body, options.max_body_bytes)),
      state_(
          std::make_unique<State>(body, std::make_shared<RobotsTxt::Impl>())) {
  RobotsTxt::Impl& impl = *state_->impl;
  impl.compat = options.compat;
  impl.body_bytes = body.size();
  if (options.compat != Compat::kUrllib) {
    impl.ignored_bytes = body.size() - parsed_.size();
  }
}

RobotsTxtBuilder::~RobotsTxtBuilder() = default;

void RobotsTxtBuilder::OnLine(const Line& line) {
  state_->builder.OnLine(line);
}

void RobotsTxtBuilder::OnEnd(const BodySummary& summary) {
  state_->builder.OnEnd(summary);
}

RobotsTxt RobotsTxtBuilder::Finish() && {
  std::shared_ptr<RobotsTxt::Impl> impl = std::move(state_->impl);
  if (impl->compat == Compat::kUrllib) {
    // CPython splits lines its own way (str.splitlines): the tokenizer's
    // events are not its reading. What they built is dropped.
    static_cast<internal::ParsedFile&>(*impl) = internal::ParsedFile();
    impl->compat = Compat::kUrllib;
    impl->urllib = urllib::Read(state_->body);
    return RobotsTxt(std::move(impl));
  }
  impl->groups.shrink_to_fit();
  impl->BuildMatchers();
  return RobotsTxt(std::move(impl));
}

RobotsTxt RobotsTxt::Parse(std::string_view body, const ParseOptions& options) {
  RobotsTxtBuilder builder(body, options);
  if (options.compat == Compat::kUrllib) return std::move(builder).Finish();
  TokenizeRobotsTxt(builder.parsed_body(), builder);
  return std::move(builder).Finish();
}

RobotsTxt RobotsTxt::AllowAll(Compat compat) {
  auto impl = std::make_shared<Impl>();
  impl->compat = compat;
  impl->policy = Policy::kAllowAll;
  return RobotsTxt(std::move(impl));
}

RobotsTxt RobotsTxt::DisallowAll(Compat compat) {
  auto impl = std::make_shared<Impl>();
  impl->compat = compat;
  impl->policy = Policy::kDisallowAll;
  return RobotsTxt(std::move(impl));
}

MatchResult RobotsTxt::CheckPath(std::string_view user_agent,
                                 std::string_view path) const {
  // CPython reads a path as it reads a whole URL.
  if (impl_->compat == Compat::kUrllib) return Check(user_agent, path);
  return impl_->CheckPathWith(impl_->RulesOfAgent(user_agent), path);
}

MatchResult RobotsTxt::Impl::CheckPathWith(const AgentRules& rules,
                                           std::string_view path) const {
  if (compat == Compat::kGoogle) return MatchRules(rules, path);
  if (rules.by_automaton && !IsRobotsTxtPath(path)) {
    // The automaton reads the path as given until a byte normalisation may
    // change; most paths are decided before one, or have none. It also
    // reads as many bytes as "/robots.txt?" has: were one of them changed
    // by normalising, the path might be "/robots.txt" once normalised.
    const IndexedRule* best = nullptr;
    if (rules.index->BestMatchByAutomatonUnlessStopped(
            path, internal::UrlPathBytesNormalizationMayChange(), &best,
            kRobotsTxtPath.size() + 1)) {
      return ResultOf(rules, best);
    }
  }
  // RFC 9309: compare normalised forms; the URL side is normalised here,
  // without touching the heap for paths up to kInlineUrlBytes / 3.
  char inline_buffer[kInlineUrlBytes];
  std::string heap_buffer;
  if (internal::NeedsNormalization(path, PathRole::kUrlPath)) {
    char* out = inline_buffer;
    if (path.size() * 3 > sizeof(inline_buffer)) {
      heap_buffer.resize(path.size() * 3);
      out = heap_buffer.data();
    }
    path = std::string_view(
        out, internal::NormalizeInto(path, PathRole::kUrlPath, out));
  }
  // RFC 9309 §2.2.2: "/robots.txt" is implicitly allowed.
  if (path.substr(0, path.find('?')) == "/robots.txt") {
    MatchResult result;
    result.decision = Decision::kRobotsTxtPath;
    return result;
  }
  return MatchRules(rules, path);
}

MatchResult RobotsTxt::Impl::CheckUrlWith(const AgentRules& rules,
                                          std::string_view url) const {
  std::string scratch;  // Used only for "?query"-only URLs; no allocation
                        // for short ones thanks to SSO.
  return CheckPathWith(rules, ExtractPathParamsQuery(url, scratch));
}

template <bool kRefuseMalformed>
std::size_t RobotsTxt::Impl::AllowedMany(const AgentRules& rules,
                                         std::span<const std::string_view> urls,
                                         std::span<bool> allowed) const {
  const std::size_t count = std::min(urls.size(), allowed.size());
  if (!rules.by_automaton || rules.index == nullptr ||
      policy != Policy::kParsed) {
    for (std::size_t i = 0; i < count; ++i) {
      if (kRefuseMalformed && UrlSyntaxError(urls[i])) return i;
      allowed[i] = CheckUrlWith(rules, urls[i]).allowed;
    }
    return count;
  }
  // As CheckPathWith (rfc: the automaton reads the unnormalised path, with
  // stop bytes; google: the whole path), for a chunk of URLs at a time; a
  // URL the automaton cannot decide, or that needs a copy of its path,
  // goes through CheckUrlWith.
  const bool rfc = compat != Compat::kGoogle;
  const std::array<bool, 256>* stop =
      rfc ? &internal::UrlPathBytesNormalizationMayChange() : nullptr;
  const std::size_t must_read = rfc ? kRobotsTxtPath.size() + 1 : 0;
  constexpr std::size_t kChunk = 256;
  std::string_view paths[kChunk];
  std::size_t url_of_path[kChunk];
  bool verdicts[kChunk];
  bool decided[kChunk];
  std::string scratch;
  internal::RunPathExtractor<kRefuseMalformed> extractor;
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    std::size_t end = std::min(count, begin + kChunk);
    std::size_t malformed = count;
    std::size_t walks = 0;
    for (std::size_t i = begin; i < end; ++i) {
      bool well_formed = true;
      const std::string_view path =
          extractor.Extract(urls[i], scratch, &well_formed);
      if (!well_formed) {
        malformed = end = i;  // The ones before it are still answered.
        break;
      }
      if (path.data() == scratch.data() || (rfc && IsRobotsTxtPath(path))) {
        allowed[i] = CheckUrlWith(rules, urls[i]).allowed;
        continue;
      }
      paths[walks] = path;
      url_of_path[walks] = i;
      ++walks;
    }
    rules.index->VerdictsByAutomaton(std::span(paths, walks), stop, must_read,
                                     verdicts, decided);
    for (std::size_t k = 0; k < walks; ++k) {
      const std::size_t i = url_of_path[k];
      allowed[i] =
          decided[k] ? verdicts[k] : CheckUrlWith(rules, urls[i]).allowed;
    }
    if (malformed < count) return malformed;
  }
  return count;
}

MatchResult RobotsTxt::Check(std::string_view user_agent,
                             std::string_view url) const {
  if (impl_->compat == Compat::kUrllib) {
    return impl_->policy == Policy::kParsed
               ? urllib::Match(impl_->urllib, user_agent, url)
               : impl_->Match(user_agent, url);
  }
  return impl_->CheckUrlWith(impl_->RulesOfAgent(user_agent), url);
}

AgentMatcher RobotsTxt::MatcherFor(std::string_view user_agent,
                                   std::size_t expected_checks) const {
  auto matcher = std::make_shared<AgentMatcher::Impl>();
  matcher->robots = *this;
  if (impl_->compat == Compat::kUrllib) {
    matcher->agent = std::string(user_agent);
  } else {
    matcher->rules = impl_->RulesOfAgent(user_agent);
    // Compiling pays for itself over many lookups only; its budget is
    // about 30 ns of work per lookup expected (bench/RESULTS.md).
    constexpr std::size_t kWorkPerExpectedCheck = 16;  // ~2 ns per unit.
    constexpr std::size_t kMaxWork = std::size_t{1} << 24;
    if (matcher->rules.index != nullptr &&
        expected_checks >= kChecksWorthAnAutomaton) {
      matcher->rules.by_automaton = matcher->rules.index->PrepareAutomaton(
          std::min(kMaxWork, expected_checks * kWorkPerExpectedCheck));
    }
  }
  return AgentMatcher(std::move(matcher));
}

AgentMatcher::AgentMatcher(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

MatchResult AgentMatcher::Check(std::string_view url) const {
  const RobotsTxt::Impl& robots = *impl_->robots.impl_;
  if (robots.compat == Compat::kUrllib) {
    return impl_->robots.Check(impl_->agent, url);
  }
  return robots.CheckUrlWith(impl_->rules, url);
}

bool AgentMatcher::IsAllowed(std::string_view url) const {
  return Check(url).allowed;
}

void AgentMatcher::AreAllowed(const std::string_view* urls, std::size_t count,
                              bool* allowed) const {
  const RobotsTxt::Impl& robots = *impl_->robots.impl_;
  if (robots.compat == Compat::kUrllib) {
    for (std::size_t i = 0; i < count; ++i) allowed[i] = IsAllowed(urls[i]);
    return;
  }
  // (robots.h keeps to C++17 for its users; spans inside.)
  robots.AllowedMany<false>(impl_->rules, std::span(urls, count),
                            std::span(allowed, count));
}

std::size_t AgentMatcher::AreAllowedUntilMalformed(const std::string_view* urls,
                                                   std::size_t count,
                                                   bool* allowed) const {
  const RobotsTxt::Impl& robots = *impl_->robots.impl_;
  if (robots.compat == Compat::kUrllib) {
    for (std::size_t i = 0; i < count; ++i) {
      if (UrlSyntaxError(urls[i])) return i;
      allowed[i] = IsAllowed(urls[i]);
    }
    return count;
  }
  return robots.AllowedMany<true>(impl_->rules, std::span(urls, count),
                                  std::span(allowed, count));
}

MatchResult AgentMatcher::CheckPath(std::string_view path) const {
  const RobotsTxt::Impl& robots = *impl_->robots.impl_;
  if (robots.compat == Compat::kUrllib) {
    return impl_->robots.CheckPath(impl_->agent, path);
  }
  return robots.CheckPathWith(impl_->rules, path);
}

bool RobotsTxt::IsAllowedFor(std::string_view user_agent,
                             std::string_view url) const {
  return Check(user_agent, url).allowed;
}

bool RobotsTxt::HasGroupFor(std::string_view user_agent) const {
  if (impl_->compat == Compat::kUrllib) {
    return urllib::EntryFor(impl_->urllib, user_agent) != nullptr;
  }
  return impl_->GroupIdsFor(user_agent) != nullptr;
}

std::vector<const Rule*> RobotsTxt::RulesFor(
    std::string_view user_agent) const {
  std::vector<const Rule*> rules;
  if (impl_->compat == Compat::kUrllib) {
    bool used_default = false;
    if (const Group* group =
            urllib::GroupFor(impl_->urllib, user_agent, &used_default)) {
      for (const Rule& rule : group->rules) rules.push_back(&rule);
    }
    return rules;
  }
  const std::vector<std::uint32_t>* ids = impl_->GroupIdsFor(user_agent);
  if (ids == nullptr) ids = &impl_->global_group_ids;
  for (std::uint32_t g : impl_->RuleGroupsOf(*ids)) {
    for (const Rule& rule : impl_->groups[g].rules) rules.push_back(&rule);
  }
  return rules;
}

AgentExtensions RobotsTxt::ExtensionsFor(std::string_view user_agent) const {
  AgentExtensions ext;
  if (impl_->compat == Compat::kUrllib) {
    bool used_default = false;
    if (const Group* group =
            urllib::GroupFor(impl_->urllib, user_agent, &used_default)) {
      ext.crawl_delay = group->crawl_delay;
      ext.request_rate = group->request_rate;
    }
    return ext;
  }
  const std::vector<std::uint32_t>* ids = impl_->GroupIdsFor(user_agent);
  if (ids == nullptr) ids = &impl_->global_group_ids;
  for (std::uint32_t g : *ids) {
    const Group& group = impl_->groups[g];
    if (!ext.crawl_delay && group.crawl_delay) {
      ext.crawl_delay = group.crawl_delay;
    }
    if (!ext.request_rate && group.request_rate) {
      ext.request_rate = group.request_rate;
    }
    if (!ext.visit_time && group.visit_time) ext.visit_time = group.visit_time;
    ext.clean_params.insert(ext.clean_params.end(), group.clean_params.begin(),
                            group.clean_params.end());
  }
  if (!ext.crawl_delay) ext.crawl_delay = impl_->file_crawl_delay;
  return ext;
}

Preferences RobotsTxt::PreferencesFor(std::string_view user_agent,
                                      std::string_view url) const {
  Preferences result;
  result.crawl = Check(user_agent, url);
  const Impl& impl = *impl_;
  if (!impl.licenses.empty()) {
    result.license = impl.licenses.front().url;
    result.license_line = impl.licenses.front().line;
  }
  // attach-05 §3.1: "no preferences are implied for resources that are
  // disallowed". The policies (4xx, 5xx) have no groups, kUrllib no lines.
  if (!result.crawl.allowed || impl.compat == Compat::kUrllib ||
      impl.policy != Policy::kParsed) {
    return result;
  }
  // The groups Check used: those naming the agent, or `*`.
  const std::vector<std::uint32_t>* ids = impl.GroupIdsFor(user_agent);
  if (ids == nullptr) ids = &impl.global_group_ids;

  // The URL's path in the form rules are matched against.
  std::string scratch;
  std::string_view path = ExtractPathParamsQuery(url, scratch);
  std::string normalized;
  if (impl.compat != Compat::kGoogle) {
    normalized = NormalizedForMatching(path, PathRole::kUrlPath);
    path = normalized;
  }

  // Each label: its value and deciding line; `n` wins, then the first line.
  auto combine = [](std::vector<AppliedPreference>& into, std::string_view key,
                    bool allowed, int line) {
    for (AppliedPreference& existing : into) {
      if (existing.key != key) continue;
      if (existing.allowed && !allowed) {
        existing.allowed = false;
        existing.line = line;
      }
      return;
    }
    into.push_back(AppliedPreference{key, allowed, line});
  };
  auto by_key = [](const AppliedPreference& a, const AppliedPreference& b) {
    return a.key < b.key;
  };

  // Content-Usage: the longest matching path; same-length matches combine.
  std::vector<const ContentUsage*> chosen;
  std::size_t best_length = 0;
  for (std::uint32_t g : *ids) {
    for (const ContentUsage& usage : impl.groups[g].content_usages) {
      if (!internal::PatternMatches(internal::CompilePattern(usage.match_path),
                                    path)) {
        continue;
      }
      const std::size_t length = usage.match_path.size();
      if (chosen.empty() || length > best_length) {
        chosen.assign(1, &usage);
        best_length = length;
      } else if (length == best_length) {
        chosen.push_back(&usage);
      }
    }
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const ContentUsage* a, const ContentUsage* b) {
              return a->line < b->line;
            });
  for (const ContentUsage* usage : chosen) {
    result.content_usage_lines.push_back(usage->line);
    for (const UsagePreference& pref : usage->preferences) {
      combine(result.content_usage, pref.key, pref.allowed, usage->line);
    }
  }
  std::sort(result.content_usage.begin(), result.content_usage.end(), by_key);

  // Content-Signal: every line of the groups (it has no path).
  std::vector<const ContentSignal*> signals;
  for (std::uint32_t g : *ids) {
    for (const ContentSignal& signal : impl.groups[g].content_signals) {
      signals.push_back(&signal);
    }
  }
  std::sort(signals.begin(), signals.end(),
            [](const ContentSignal* a, const ContentSignal* b) {
              return a->line < b->line;
            });
  for (const ContentSignal* signal : signals) {
    for (const UsagePreference& pref : signal->signals) {
      combine(result.content_signal, pref.key, pref.allowed, signal->line);
    }
  }
  std::sort(result.content_signal.begin(), result.content_signal.end(), by_key);
  return result;
}

Compat RobotsTxt::compat() const { return impl_->compat; }
const std::vector<Group>& RobotsTxt::groups() const {
  return impl_->compat == Compat::kUrllib ? impl_->urllib.groups
                                          : impl_->groups;
}
const std::vector<Sitemap>& RobotsTxt::sitemaps() const {
  return impl_->compat == Compat::kUrllib ? impl_->urllib.sitemaps
                                          : impl_->sitemaps;
}
const std::vector<std::string>& RobotsTxt::hosts() const {
  return impl_->hosts;
}
const std::vector<UnknownDirective>& RobotsTxt::unknown_directives() const {
  return impl_->unknown;
}
const std::vector<Rule>& RobotsTxt::rules_outside_groups() const {
  return impl_->compat == Compat::kUrllib ? impl_->urllib.ignored_rules
                                          : impl_->orphan_rules;
}
const std::vector<LicenseLine>& RobotsTxt::licenses() const {
  return impl_->licenses;
}
const std::vector<ContentUsage>& RobotsTxt::content_usages_outside_groups()
    const {
  return impl_->orphan_content_usages;
}
const std::vector<ContentSignal>& RobotsTxt::content_signals_outside_groups()
    const {
  return impl_->orphan_content_signals;
}
std::size_t RobotsTxt::body_bytes() const { return impl_->body_bytes; }
std::size_t RobotsTxt::ignored_bytes() const { return impl_->ignored_bytes; }
int RobotsTxt::line_count() const {
  return impl_->compat == Compat::kUrllib ? impl_->urllib.line_count
                                          : impl_->line_count;
}
int RobotsTxt::urllib_error_line() const { return impl_->urllib.error_line; }

std::string_view CompatName(Compat compat) {
  switch (compat) {
    case Compat::kGoogle:
      return "google";
    case Compat::kUrllib:
      return "urllib";
    case Compat::kRfc9309:
      break;
  }
  return "rfc";
}

bool ParseCompatName(std::string_view name, Compat* compat) {
  for (const CompatNameEntry& entry : kCompatNames) {
    if (entry.name == name) {
      *compat = entry.compat;
      return true;
    }
  }
  return false;
}

std::string_view DecisionName(Decision decision) {
  switch (decision) {
    case Decision::kRuleMatched:
      return "rule";
    case Decision::kNoMatchingRule:
      return "no-matching-rule";
    case Decision::kNoGroupForAgent:
      return "no-group";
    case Decision::kRobotsTxtPath:
      return "robots-txt-path";
    case Decision::kAllowAllPolicy:
      return "allow-all";
    case Decision::kDisallowAllPolicy:
      return "disallow-all";
    case Decision::kInvalidUrl:
      return "invalid-url";
  }
  return "unknown";
}

}  // namespace robotscan::robots
