#include "robotscan/robots/lint.h"

#include <algorithm>
#include <string>

#include "extensions.h"
#include "robotscan/base/ascii.h"
#include "robotscan/base/terminal_text.h"
#include "robotscan/base/utf8.h"
#include "robotscan/robots/tokenizer.h"
#include "robotscan/robots/url.h"
#include "usage_preferences.h"

namespace robotscan::robots {
namespace {

bool LooksLikeHtml(std::string_view body) {
  std::size_t i = 0;
  // Skip a BOM and leading whitespace.
  if (body.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < body.size() && IsAsciiSpace(body[i])) ++i;
  const std::string_view start = body.substr(i, 64);
  for (std::string_view tag : {"<!doctype", "<html", "<head", "<body", "<?xml",
                               "<!--", "<meta", "<script", "<title"}) {
    if (StartsWithIgnoreAsciiCase(start, tag)) return true;
  }
  return false;
}

bool IsAbsoluteHttpUrl(std::string_view url) {
  for (std::string_view scheme : {"http://", "https://"}) {
    if (StartsWithIgnoreAsciiCase(url, scheme) && url.size() > scheme.size() &&
        url[scheme.size()] != '/') {
      return true;
    }
  }
  return false;
}

std::string Quote(std::string_view s) {
  constexpr std::size_t kMax = 60;
  // Messages end up on terminals: no control character of the file's may
  // reach one (terminal_text.h).
  std::string out =
      "'" + ReplaceControlCharacters(s.substr(0, kMax), [](std::string_view) {
        return std::string("?");
      });
  if (s.size() > kMax) out += "...";
  out += "'";
  return out;
}

class LineLinter : public LineListener {
 public:
  explicit LineLinter(std::vector<Diagnostic>* out) : out_(out) {}

  void OnLine(const Line& line) override {
    const int n = line.number;
    if (line.is_line_too_long) {
      Add(n, Severity::kError, "line-too-long",
          "line is longer than " + std::to_string(kMaxLineBytes) +
              " bytes; crawlers ignore the rest of it");
    }
    if (line.has_nul_byte) {
      Add(n, Severity::kWarning, "nul-byte",
          "line contains a NUL byte; the rest of the line is ignored");
    }
    if (!IsValidUtf8(line.text)) {
      Add(n, Severity::kWarning, "non-utf8",
          "line is not valid UTF-8 (RFC 9309 §2.3 requires UTF-8)");
    }
    if (line.ends_with_cr) saw_cr_only_ = true;

    if (!line.has_directive) {
      if (!line.is_empty && !line.is_comment) {
        Add(n, Severity::kWarning, "unparsable-line",
            "line is neither a 'key: value' directive nor a comment: " +
                Quote(StripAsciiWhitespace(line.text)));
      }
      return;
    }
    if (line.is_acceptable_typo) {
      Add(n, Severity::kWarning, "typo",
          "key " + Quote(line.key) + " is a misspelling of '" +
              std::string(DirectiveName(line.directive)) +
              "'; Google accepts it, other crawlers may not");
    }
    if (line.is_missing_colon_separator) {
      Add(n, Severity::kWarning, "missing-colon",
          "missing ':' after " + Quote(line.key) +
              "; Google accepts it, other crawlers may not");
    }
    switch (line.directive) {
      case Directive::kUserAgent:
        CheckUserAgent(line);
        break;
      case Directive::kAllow:
      case Directive::kDisallow:
        CheckRule(line);
        break;
      case Directive::kSitemap:
        if (!IsAbsoluteHttpUrl(line.value)) {
          Add(n, Severity::kError, "relative-sitemap",
              "sitemap " + Quote(line.value) +
                  " is not an absolute http(s) URL; crawlers ignore it");
        }
        break;
      case Directive::kCrawlDelay:
        if (!internal::ParseCrawlDelay(line.value)) {
          Add(n, Severity::kWarning, "invalid-crawl-delay",
              "crawl-delay " + Quote(line.value) +
                  " is not a non-negative number of seconds");
        } else if (!in_group_) {
          Add(n, Severity::kWarning, "crawl-delay-outside-group",
              "crawl-delay before any user-agent line; crawlers disagree on "
              "whether it applies to them");
        }
        break;
      case Directive::kRequestRate:
        if (!internal::ParseRequestRate(line.value, n)) {
          Add(n, Severity::kWarning, "invalid-request-rate",
              "request-rate " + Quote(line.value) +
                  " is not of the form N/T[s|m|h]");
        }
        break;
      case Directive::kVisitTime:
        if (!internal::ParseVisitTime(line.value, n)) {
          Add(n, Severity::kWarning, "invalid-visit-time",
              "visit-time " + Quote(line.value) +
                  " is not of the form HHMM-HHMM");
        }
        break;
      case Directive::kCleanParam:
        if (!internal::ParseCleanParam(line.value, n)) {
          Add(n, Severity::kWarning, "invalid-clean-param",
              "clean-param " + Quote(line.value) + " names no parameter");
        }
        break;
      case Directive::kHost:
        break;
      case Directive::kNoindex:
      case Directive::kNofollow:
      case Directive::kNoarchive:
        Add(n, Severity::kWarning, "unsupported-directive",
            Quote(line.key) +
                " is not a robots.txt directive (use a robots meta tag or "
                "X-Robots-Tag header); it is ignored");
        break;
      case Directive::kUnknown:
        Add(n, Severity::kWarning, "unknown-directive",
            "unknown directive " + Quote(line.key) + " is ignored");
        break;
      case Directive::kContentUsage:
        CheckContentUsage(line);
        break;
      case Directive::kContentSignal:
        CheckContentSignal(line);
        break;
      case Directive::kLicense:
        if (!IsAbsoluteHttpUrl(line.value)) {
          Add(n, Severity::kWarning, "relative-license",
              "license " + Quote(line.value) +
                  " is not an absolute http(s) URL (RSL names a license "
                  "document by its URL)");
        }
        break;
      case Directive::kNone:
        break;
    }
  }

  // True once a Content-Usage line was seen inside a group: only then is
  // the file parsed again to find preferences on disallowed paths.
  bool saw_grouped_content_usage() const { return saw_grouped_content_usage_; }

  void OnEnd(const BodySummary& summary) override {
    if (summary.bom_bytes == 3) {
      Add(0, Severity::kInfo, "bom",
          "file starts with a UTF-8 byte order mark (skipped)");
    } else if (summary.bom_bytes > 0) {
      Add(0, Severity::kWarning, "partial-bom",
          "file starts with part of a UTF-8 byte order mark");
    }
    if (saw_cr_only_) {
      Add(0, Severity::kInfo, "cr-line-endings",
          "some lines end with a lone CR (old Mac style); parsers that only "
          "split on LF read them as one line");
    }
  }

 private:
  void Add(int line, Severity severity, std::string code, std::string message) {
    out_->push_back(
        Diagnostic{line, severity, std::move(code), std::move(message)});
  }

  void CheckUserAgent(const Line& line) {
    if (group_has_rules_ || !in_group_) {
      in_group_ = true;
      group_has_rules_ = false;
    }
    const std::string_view value = line.value;
    if (value.empty()) {
      Add(line.number, Severity::kError, "empty-user-agent",
          "user-agent line without a value matches no crawler");
      return;
    }
    if (value[0] == '*' && (value.size() == 1 || IsAsciiSpace(value[1]))) {
      return;
    }
    const std::string_view token = ExtractProductToken(value);
    if (token.empty()) {
      Add(line.number, Severity::kWarning, "invalid-agent-token",
          "user-agent " + Quote(value) +
              " has no product token ([A-Za-z_-]+); it matches no crawler");
    } else if (token.size() != value.size()) {
      Add(line.number, Severity::kWarning, "invalid-agent-token",
          "user-agent " + Quote(value) + " is read as " + Quote(token) +
              " (product tokens are [A-Za-z_-]+)");
    }
  }

  // draft-ietf-aipref-attach-05 §3 and draft-ietf-aipref-vocab-08
  // (preferences.h).
  void CheckContentUsage(const Line& line) {
    const int n = line.number;
    if (!in_group_) {
      Add(n, Severity::kWarning, "content-usage-outside-group",
          "content-usage before any user-agent line applies to no crawler "
          "(it is a rule of a group, " +
              std::string(kAiprefAttachDraft) + ")");
    } else {
      saw_grouped_content_usage_ = true;
    }
    const ContentUsage usage =
        internal::ParseContentUsage(line.value, n, Compat::kRfc9309);
    if (!usage.is_dictionary) {
      Add(n, Severity::kWarning, "invalid-content-usage",
          "statement " + Quote(usage.statement) +
              " is not an RFC 9651 dictionary (lower-case keys, entries "
              "separated by commas); it expresses no preference");
      return;
    }
    if (usage.preferences.empty() && usage.malformed_keys.empty()) {
      Add(n, Severity::kWarning, "invalid-content-usage",
          "content-usage without a statement of preference");
    }
    for (const std::string& key : usage.malformed_keys) {
      Add(n, Severity::kWarning, "invalid-preference-value",
          "the value of " + Quote(key) +
              " is not the token y or n; it expresses no preference for it");
    }
    auto check_label = [&](const std::string& key) {
      if (AiprefLabelStatus(key) == LabelStatus::kObsolete) {
        Add(n, Severity::kWarning, "obsolete-aipref-vocabulary",
            "label " + Quote(key) +
                " is from an earlier draft of the aipref vocabulary; " +
                std::string(kAiprefVocabulary) +
                " defines 'train-ai' and 'search'");
      }
    };
    for (const UsagePreference& pref : usage.preferences) check_label(pref.key);
    for (const std::string& key : usage.malformed_keys) check_label(key);
  }

  // contentsignals.org; read as a line of a group (preferences.h).
  void CheckContentSignal(const Line& line) {
    const int n = line.number;
    if (!in_group_) {
      Add(n, Severity::kWarning, "content-signal-outside-group",
          "content-signal before any user-agent line applies to no crawler "
          "here: it is read as a line of a group, as contentsignals.org "
          "writes it under 'User-Agent: *'");
    }
    const ContentSignal signal = internal::ParseContentSignal(line.value, n);
    for (const std::string& entry : signal.malformed_entries) {
      Add(n, Severity::kWarning, "invalid-content-signal",
          "content-signal entry " + Quote(entry) +
              " is not key=yes or key=no; it is ignored");
    }
    if (signal.signals.empty() && signal.malformed_entries.empty()) {
      Add(n, Severity::kWarning, "invalid-content-signal",
          "content-signal without a value");
    }
  }

  void CheckRule(const Line& line) {
    if (!in_group_) {
      Add(line.number, Severity::kError, "rule-outside-group",
          std::string(DirectiveName(line.directive)) +
              " before any user-agent line is ignored");
      return;
    }
    group_has_rules_ = true;
    const std::string_view value = line.value;
    if (value.empty()) {
      if (line.directive == Directive::kAllow) {
        Add(line.number, Severity::kInfo, "empty-allow",
            "empty allow has no effect");
      }
      return;
    }
    if (value[0] != '/' && value[0] != '*') {
      Add(line.number, Severity::kWarning, "pattern-not-absolute",
          "pattern " + Quote(value) +
              " does not start with '/' or '*' and can never match a path");
    }
  }

  std::vector<Diagnostic>* out_;
  bool in_group_ = false;
  bool group_has_rules_ = false;
  bool saw_cr_only_ = false;
  bool saw_grouped_content_usage_ = false;
};

// May `token` crawl some URL whose path starts with `path`? True when
// `path` itself is allowed, or an allow rule might open something under
// it (a longer literal, or any wildcard: not worked out, so assumed).
bool MayCrawlUnder(const RobotsTxt& robots, std::string_view token,
                   std::string_view path) {
  if (robots.CheckPath(token, path).allowed) return true;
  const std::string prefix =
      NormalizedForMatching(path, PathRole::kRulePattern);
  for (const Rule* rule : robots.RulesFor(token)) {
    if (rule->kind != RuleKind::kAllow || rule->match_pattern.empty()) continue;
    if (rule->match_pattern.find('*') != std::string::npos) return true;
    if (std::string_view(rule->match_pattern).substr(0, prefix.size()) ==
        prefix) {
      return true;
    }
  }
  return false;
}

// Content-Usage lines no crawler of their group may use: every path they
// cover is disallowed for every agent the group names, so by
// draft-ietf-aipref-attach-05 §3.1 they never apply. A path with `*` or
// `$` is not checked.
void LintPreferencesOnDisallowedPaths(std::string_view body,
                                      std::vector<Diagnostic>* out) {
  ParseOptions options;
  options.max_body_bytes = kNoParseLimit;  // `body` is already cut.
  const RobotsTxt robots = RobotsTxt::Parse(body, options);
  for (const Group& group : robots.groups()) {
    for (const ContentUsage& usage : group.content_usages) {
      const std::string_view path =
          usage.path.empty() ? std::string_view("/") : usage.path;
      if (path.find_first_of("*$") != std::string_view::npos) continue;
      bool names_an_agent = false;
      bool may_crawl = false;
      for (const std::string& token : group.tokens) {
        if (token.empty()) continue;
        names_an_agent = true;
        if (MayCrawlUnder(robots, token, path)) {
          may_crawl = true;
          break;
        }
      }
      if (names_an_agent && !may_crawl) {
        out->push_back(Diagnostic{
            usage.line, Severity::kInfo, "preference-on-disallowed-path",
            "content-usage for " +
                (usage.path.empty() ? std::string("every path")
                                    : "path " + Quote(usage.path)) +
                " never applies: its group's crawlers may not crawl there, "
                "and preferences apply only to paths that may be crawled"});
      }
    }
  }
}

}  // namespace

std::string_view SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "error";
}

class RobotsTxtLinter::Linter : public LineLinter {
 public:
  using LineLinter::LineLinter;
};

RobotsTxtLinter::RobotsTxtLinter(std::string_view body,
                                 const LintOptions& options) {
  std::vector<Diagnostic>& out = diagnostics_;
  const std::size_t limit =
      std::max(options.max_body_bytes, kMinParseLimitBytes);
  parsed_ = body;
  if (body.size() > limit) {
    const std::size_t last_eol = body.substr(0, limit).find_last_of("\r\n");
    parsed_ =
        body.substr(0, last_eol == std::string_view::npos ? 0 : last_eol + 1);
    const std::uint64_t input_bytes = std::max<std::uint64_t>(
        options.input_bytes.value_or(body.size()), body.size());
    out.push_back(Diagnostic{
        0, Severity::kError, "size-limit",
        input_bytes == kUnknownInputBytes
            ? "input is longer than the parse limit of " +
                  std::to_string(limit) +
                  " bytes: it was read no further, and only its first " +
                  std::to_string(parsed_.size()) +
                  " bytes (up to the last line end before the limit) are "
                  "parsed (RFC 9309 §2.5)"
            : "file is " + std::to_string(input_bytes) + " bytes; the " +
                  std::to_string(input_bytes - parsed_.size()) +
                  " bytes past the parse limit of " + std::to_string(limit) +
                  " bytes are ignored (RFC 9309 §2.5)"});
  }
  if (LooksLikeHtml(body)) {
    out.push_back(Diagnostic{0, Severity::kError, "html-body",
                             "body looks like an HTML page, not a robots.txt "
                             "(a soft 404?)"});
  }
  linter_ = std::make_unique<Linter>(&diagnostics_);
}

RobotsTxtLinter::~RobotsTxtLinter() = default;

void RobotsTxtLinter::OnLine(const Line& line) { linter_->OnLine(line); }

void RobotsTxtLinter::OnEnd(const BodySummary& summary) {
  linter_->OnEnd(summary);
}

std::vector<Diagnostic> RobotsTxtLinter::Finish() && {
  if (linter_->saw_grouped_content_usage()) {
    LintPreferencesOnDisallowedPaths(parsed_, &diagnostics_);
  }
  std::stable_sort(
      diagnostics_.begin(), diagnostics_.end(),
      [](const Diagnostic& a, const Diagnostic& b) { return a.line < b.line; });
  return std::move(diagnostics_);
}

std::vector<Diagnostic> LintRobotsTxt(std::string_view body,
                                      const LintOptions& options) {
  RobotsTxtLinter linter(body, options);
  TokenizeRobotsTxt(linter.parsed_body(), linter);
  return std::move(linter).Finish();
}

bool HasErrors(const std::vector<Diagnostic>& diagnostics) {
  return std::any_of(
      diagnostics.begin(), diagnostics.end(),
      [](const Diagnostic& d) { return d.severity == Severity::kError; });
}

}  // namespace robotscan::robots
