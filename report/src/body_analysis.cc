#include "body_analysis.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <unordered_set>

#include "robotscan/report/report.h"
#include "robotscan/robots/lint.h"
#include "robotscan/robots/tokenizer.h"
#include "robotscan/robots/url.h"

namespace robotscan::report {
namespace {

// Longest comment block kept; job adverts are a few lines, and a file of
// megabytes of comments must not become a megabyte finding.
constexpr std::size_t kMaxCommentBlockBytes = 2000;

std::string ToLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return lower;
}

// Collects file facts and comment blocks from the tokenizer: the same
// parser the matcher and the linter listen to.
class FactsListener : public robots::LineListener {
 public:
  explicit FactsListener(BodyAnalysis* analysis) : analysis_(analysis) {}

  void OnLine(const robots::Line& line) override {
    if (line.has_comment) analysis_->has_comments = true;
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

// The rules that govern `token` (lower-case): those of every group naming
// it, plus, as in the matcher, those of a following group reached through
// extension-only separators (Group::shares_rules_with_next).
std::vector<const robots::Rule*> RulesFor(const robots::RobotsTxt& robots,
                                          std::string_view token) {
  std::vector<const robots::Rule*> rules;
  const auto& groups = robots.groups();
  bool carried = false;
  for (const robots::Group& group : groups) {
    const bool names = std::find(group.tokens.begin(), group.tokens.end(),
                                 token) != group.tokens.end();
    if (names || carried) {
      for (const robots::Rule& rule : group.rules) rules.push_back(&rule);
    }
    carried = (names || carried) && group.shares_rules_with_next;
  }
  return rules;
}

struct Restriction {
  bool full = false;
  bool partial = false;
};

// A full block: the matcher refuses "/" and no allow rule could open any
// other path. A partial one: some non-empty disallow governs the agent.
Restriction RestrictionFor(const robots::RobotsTxt& robots,
                           std::string_view agent, std::string_view token) {
  Restriction restriction;
  const std::vector<const robots::Rule*> rules = RulesFor(robots, token);
  bool any_allow = false;
  bool any_disallow = false;
  for (const robots::Rule* rule : rules) {
    if (rule->pattern.empty()) continue;  // Matches nothing (§2.2.2).
    if (rule->kind == robots::RuleKind::kAllow) any_allow = true;
    if (rule->kind == robots::RuleKind::kDisallow) any_disallow = true;
  }
  const bool root_allowed = robots.IsAllowedFor(agent, "/");
  restriction.full = !root_allowed && !any_allow;
  restriction.partial = !restriction.full && any_disallow;
  return restriction;
}

}  // namespace

bool IsValidUtf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    std::uint32_t code = 0;
    if ((c & 0xE0) == 0xC0) {
      length = 2;
      code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      length = 3;
      code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      length = 4;
      code = c & 0x07;
    } else {
      return false;
    }
    if (i + length > n) return false;
    for (std::size_t k = 1; k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      if ((next & 0xC0) != 0x80) return false;
      code = (code << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    if ((length == 2 && code < 0x80) || (length == 3 && code < 0x800) ||
        (length == 4 && code < 0x10000) || code > 0x10FFFF ||
        (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += length;
  }
  return true;
}

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
  const std::string lower = ToLower(comment);
  auto is_word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
  };
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

BodyAnalysis AnalyzeBody(std::string_view body,
                         const AnalysisSettings& settings) {
  BodyAnalysis analysis;
  FactsListener facts(&analysis);
  robots::TokenizeRobotsTxt(body, facts);
  analysis.not_utf8 = !IsValidUtf8(body);

  robots::ParseOptions parse;
  parse.compat = settings.compat;
  const robots::RobotsTxt robots = robots::RobotsTxt::Parse(body, parse);

  std::unordered_set<std::string> seen_tokens;
  std::unordered_set<std::string> unknown_keys;
  for (const robots::Group& group : robots.groups()) {
    if (!group.rules.empty()) analysis.has_rules = true;
    if (!analysis.crawl_delay && group.crawl_delay) {
      analysis.crawl_delay = group.crawl_delay;
    }
    if (!group.clean_params.empty()) analysis.clean_param = true;
    if (!group.hosts.empty()) analysis.host = true;
    for (const robots::UnknownDirective& unknown : group.unknown) {
      unknown_keys.insert(ToLower(unknown.key));
    }
    for (const std::string& token : group.tokens) {
      if (token == "*" || token.empty()) continue;
      if (!seen_tokens.insert(token).second) continue;
      const Restriction restriction = RestrictionFor(robots, token, token);
      analysis.tokens.push_back({token, restriction.full, restriction.partial});
    }
  }
  for (const robots::UnknownDirective& unknown : robots.unknown_directives()) {
    unknown_keys.insert(ToLower(unknown.key));
  }
  analysis.unknown_keys.assign(unknown_keys.begin(), unknown_keys.end());
  std::sort(analysis.unknown_keys.begin(), analysis.unknown_keys.end());
  if (!robots.hosts().empty()) analysis.host = true;
  analysis.sitemaps = static_cast<int>(robots.sitemaps().size());

  analysis.googlebot_root_allowed = robots.IsAllowedFor("Googlebot", "/");
  analysis.generic_root_allowed =
      robots.IsAllowedFor(settings.generic_agent, "/");
  analysis.bingbot_root_allowed = robots.IsAllowedFor("Bingbot", "/");
  analysis.duckduckbot_root_allowed = robots.IsAllowedFor("DuckDuckBot", "/");

  analysis.crawler_flags.reserve(settings.crawlers.size());
  for (const std::string& crawler : settings.crawlers) {
    std::uint8_t flags = 0;
    // Files name crawlers the way the matcher reads a user-agent line
    // (RFC 9309 §2.2.1: letters, '-', '_'), so "User-agent: MJ12bot" is a
    // group for "mj"; asking with the same cut finds that group.
    std::string_view agent = robots::ExtractProductToken(crawler);
    if (agent.empty()) agent = crawler;
    const bool named = robots.HasGroupFor(agent);
    // Without a group of its own the agent is governed by `*`.
    const Restriction restriction =
        RestrictionFor(robots, agent, named ? ToLower(agent) : "*");
    if (named) flags |= kCrawlerNamed;
    if (restriction.full) flags |= kCrawlerFull;
    if (restriction.partial) flags |= kCrawlerPartial;
    if (named && !robots.IsAllowedFor(agent, "/") &&
        analysis.googlebot_root_allowed) {
      flags |= kCrawlerSingledOut;
    }
    analysis.crawler_flags.push_back(flags);
  }

  std::unordered_set<std::string> codes;
  for (const robots::Diagnostic& diagnostic : robots::LintRobotsTxt(body)) {
    codes.insert(diagnostic.code);
    if (diagnostic.severity == robots::Severity::kError) {
      analysis.lint_error = true;
    }
  }
  analysis.lint_codes.assign(codes.begin(), codes.end());
  std::sort(analysis.lint_codes.begin(), analysis.lint_codes.end());
  return analysis;
}

}  // namespace robotscan::report
