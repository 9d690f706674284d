// robotscan::robots — parse a robots.txt once, then answer "may agent A fetch
// URL U?" many times, and say which line decided it.
//
// Semantics: RFC 9309 (https://www.rfc-editor.org/rfc/rfc9309), with Google's
// open-source parser (github.com/google/robotstxt) as the reference for every
// corner case the RFC leaves open:
//   * Groups (§2.1): one or more user-agent lines, then rules. All groups that
//     name the same product token are merged; `*` applies only when no group
//     names the agent. Agent names compare case-insensitively; a user-agent
//     value is read up to its first character outside [A-Za-z_-], the
//     caller's token is not cut.
//   * Rules (§2.2.2): the longest matching pattern wins, `allow` wins ties,
//     `*` matches any run of characters, a final `$` anchors the end. An
//     empty `disallow:` matches nothing. Rules before the first user-agent
//     line are ignored; sitemap and unknown lines do not end a group.
//   * Google's leniency (missing colons, key typos, `/index.html` rules also
//     allowing the directory, 16,663-byte lines) is accepted in both modes.
//
// Three compatibility modes (ParseOptions::compat). The first two differ
// only where RFC 9309 and Google's library disagree; README.md ("RFC 9309 vs
// Google") lists each difference and the test that pins it:
//   * kRfc9309 (default): URL path and rules are percent-normalised the same
//     way before comparison (url.h, NormalizeForMatching), and `/robots.txt`
//     is always allowed (§2.2.2).
//   * kGoogle: byte-for-byte Google — only the rule is escaped (non-ASCII to
//     %XX, upper-case hex), the URL is used as given, `/robots.txt` is
//     matched like any path.
//   * kUrllib: exactly what CPython 3.11's urllib.robotparser answers, the
//     parser of many published studies, so they can be re-run: first match
//     instead of longest, agents matched by substring, a group ended by an
//     empty line, only the first `*` group, no wildcards, a byte order mark
//     not removed, CPython's percent-decoding and quoting of paths. groups(),
//     sitemaps() and ExtensionsFor() then describe CPython's reading (see
//     README.md, "urllib compat mode"; hosts() and unknown_directives() are
//     empty, as CPython reads neither). It is a reading for comparison,
//     not a fast path: Check allocates and scans the groups and rules in
//     order, as CPython does.
//
// Usage:
//
//   using robotscan::robots::RobotsTxt;
//   RobotsTxt robots = RobotsTxt::Parse(body);        // once per site
//   robotscan::robots::MatchResult r =
//       robots.Check("Googlebot", "https://example.com/private/x");
//   if (!r.allowed) {
//     std::printf("blocked by line %d: %.*s\n", r.line,
//                 static_cast<int>(r.pattern.size()), r.pattern.data());
//   }
//
// Thread-safety: a RobotsTxt is immutable after construction; all const
// methods may be called concurrently from any number of threads. Copies are
// cheap (they share the parsed state).
//
// Cost: Parse is linear in the body size. In the rfc and google modes,
// Check does no heap allocation
// unless, in RFC mode, a path longer than kInlineUrlBytes / 3 bytes needs
// percent-normalisation (then it allocates once),
// walks a prefix trie of the rules (linear in the path length) and verifies
// each candidate rule in O(path length + rule length) — never the
// O(path × rule) of a position-set matcher, never exponential.
#ifndef ROBOTSCAN_ROBOTS_ROBOTS_H_
#define ROBOTSCAN_ROBOTS_ROBOTS_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/preferences.h"
#include "robotscan/robots/tokenizer.h"

namespace robotscan::robots {

// RFC 9309 §2.5: crawlers MUST parse at least the first 500 KiB.
inline constexpr std::size_t kMinParseLimitBytes = 500 * 1024;

// A parse limit that reads the whole body, as Google's open-source parser
// does (`robotscan check --max-bytes 0`). Parsing stays linear in the body.
inline constexpr std::size_t kNoParseLimit =
    std::numeric_limits<std::size_t>::max();

// Stack buffer for normalising a URL path in RFC mode (a byte can become
// three: %XX), so paths up to a third of it never touch the heap.
inline constexpr std::size_t kInlineUrlBytes = 2048;

enum class Compat : std::uint8_t {
  kRfc9309,  // RFC 9309 percent-encoding and the implicit /robots.txt allow.
  kGoogle,   // Exactly what Google's open-source parser answers.
  kUrllib,   // Exactly what CPython 3.11's urllib.robotparser answers.
};

// Every name a compat mode is given on a command line, a Python call or a
// configuration: the one table that ParseCompatName reads and that callers
// offer as choices ("rfc9309" is another name of kRfc9309).
struct CompatNameEntry {
  std::string_view name;
  Compat compat;
};
inline constexpr CompatNameEntry kCompatNames[] = {
    {"rfc", Compat::kRfc9309},
    {"rfc9309", Compat::kRfc9309},
    {"google", Compat::kGoogle},
    {"urllib", Compat::kUrllib},
};

// "rfc" / "google" / "urllib".
std::string_view CompatName(Compat compat);
// The mode named `name` in kCompatNames; false on anything else.
bool ParseCompatName(std::string_view name, Compat* compat);

struct ParseOptions {
  Compat compat = Compat::kRfc9309;
  // Bytes of the body that are parsed; the rest is ignored and reported by
  // RobotsTxt::ignored_bytes(). Values below kMinParseLimitBytes are raised
  // to it. (kUrllib reads the whole body, as CPython does, and ignores this.)
  // The cut is moved back to the last line end before the limit so that a
  // rule is never half-read (a half-read "Disallow: /private" would become
  // "Disallow: /p").
  //
  // The default is 500 KiB in kRfc9309 and kGoogle alike. kGoogle reproduces
  // the answers of Google's open-source parser, which reads everything, but
  // Google's crawler ignores what follows the first 500 KiB (its robots.txt
  // documentation), and a check is asked what a crawler will do;
  // kNoParseLimit gives the open-source parser's reading of longer files.
  std::size_t max_body_bytes = kMinParseLimitBytes;
};

enum class RuleKind : std::uint8_t { kAllow, kDisallow };

// One allow/disallow line of a group.
struct Rule {
  RuleKind kind = RuleKind::kDisallow;
  int line = 0;               // 1-based line number in the body.
  std::string pattern;        // Value as written (stripped, comment removed).
  std::string match_pattern;  // What is matched: escaped/normalised per mode.
};

// Non-standard "Request-rate: N/T[s|m|h]" (N requests per T seconds).
struct RequestRate {
  double requests = 0;
  double seconds = 0;
  int line = 0;
};

// Non-standard "Visit-time: HHMM-HHMM" (UTC), as minutes since midnight.
struct VisitTime {
  int start_minute = 0;
  int end_minute = 0;
  int line = 0;
};

// Non-standard (Yandex) "Clean-param: p1&p2 [/path-prefix]".
struct CleanParam {
  std::vector<std::string> params;
  std::string path_prefix;  // Empty means every path.
  int line = 0;
};

// A directive the library does not interpret (kept for reports and linting).
// Content-Usage, Content-Signal and License lines, which it reads
// (preferences.h), are kept here too, as they were before it read them, so
// that counts of unknown keys stay comparable across versions.
struct UnknownDirective {
  std::string key;
  std::string value;
  int line = 0;
};

// A group of consecutive user-agent lines and the lines that follow them, as
// written in the file (before merging).
struct Group {
  std::vector<std::string> agents;  // Values as written ("*", "Googlebot/2.1").
  std::vector<std::string> tokens;  // Product tokens as matched ("*",
                                    // "Googlebot"); lower-case.
  int first_line = 0;
  std::vector<Rule> rules;            // In file order.
  std::optional<double> crawl_delay;  // Seconds; first valid value.
  int crawl_delay_line = 0;
  std::optional<RequestRate> request_rate;
  std::optional<VisitTime> visit_time;
  std::vector<CleanParam> clean_params;
  std::vector<std::string> hosts;
  std::vector<UnknownDirective> unknown;
  // Usage preferences (preferences.h), in file order.
  std::vector<ContentUsage> content_usages;
  std::vector<ContentSignal> content_signals;
  // True when only extension lines (crawl-delay, request-rate, visit-time,
  // clean-param, content-usage, content-signal) separate this group from the
  // next. Extensions are then attributed per group, as their authors mean
  // ("User-agent: a / Crawl-delay: 1 / User-agent: b / Crawl-delay: 2"), while
  // for matching the next group's rules also apply to this group's agents, as
  // in Google's parser, where only allow/disallow lines end a group.
  bool shares_rules_with_next = false;
};

struct Sitemap {
  std::string url;
  int line = 0;
};

// Why a verdict was reached.
enum class Decision : std::uint8_t {
  kRuleMatched,        // `line`/`kind`/`pattern` name the deciding rule.
  kNoMatchingRule,     // A group applies but no rule matched: allowed.
  kNoGroupForAgent,    // No group names the agent and there is no `*`.
  kRobotsTxtPath,      // /robots.txt is always allowed (RFC 9309 §2.2.2).
  kAllowAllPolicy,     // The file was unavailable (HTTP 4xx): allow all.
  kDisallowAllPolicy,  // The file was unreachable (5xx, network): disallow.
  kInvalidUrl,         // kUrllib: CPython's urlparse raises ValueError on
                       // the URL (e.g. "//[x/"); allowed is false.
};

std::string_view DecisionName(Decision decision);

struct MatchResult {
  bool allowed = true;
  Decision decision = Decision::kNoGroupForAgent;
  // Set when decision == kRuleMatched; `pattern` stays valid while any copy
  // of the RobotsTxt that produced it is alive.
  int line = 0;
  RuleKind kind = RuleKind::kAllow;
  std::string_view pattern;
  // True when the `*` group applied (no group names the agent).
  bool used_global_group = false;
};

// Effective extension values for one agent (its merged groups, or `*`).
struct AgentExtensions {
  std::optional<double> crawl_delay;
  std::optional<RequestRate> request_rate;
  std::optional<VisitTime> visit_time;
  std::vector<CleanParam> clean_params;
};

// The usage preferences in effect for one agent and URL
// (RobotsTxt::PreferencesFor; the rules are in preferences.h).
struct Preferences {
  // May the agent crawl the URL? Preferences apply only when it may
  // (draft-ietf-aipref-attach-05 §3.1): for a disallowed URL,
  // content_usage and content_signal are empty.
  MatchResult crawl;
  // Content-Usage: each label with a `y` or `n`, sorted by label, unknown
  // labels included.
  std::vector<AppliedPreference> content_usage;
  // The Content-Usage lines that applied (the longest matching path; more
  // than one when paths of the same length tie), in file order.
  std::vector<int> content_usage_lines;
  // Content-Signal: each key with `yes` (allowed) or `no`, sorted by key.
  std::vector<AppliedPreference> content_signal;
  // The file's first License line (RSL), whatever the URL: empty url and
  // line 0 when there is none. Stays valid as AppliedPreference::key does.
  std::string_view license;
  int license_line = 0;
};

class RobotsTxt;

// The rules of one RobotsTxt for one user agent, looked up once: for
// checking many URLs for the same agent (a crawler's frontier for one site,
// a study's URL list). Same answers as RobotsTxt::Check(agent, url), without
// finding the agent's group again for each URL. Cheap to copy; keeps the
// parsed state alive; immutable, so usable from any number of threads.
//
//   const AgentMatcher googlebot = robots.MatcherFor("Googlebot", urls.size());
//   for (std::string_view url : urls)
//   allowed.push_back(googlebot.IsAllowed(url));
class AgentMatcher {
 public:
  [[nodiscard]] MatchResult Check(std::string_view url) const;
  [[nodiscard]] bool IsAllowed(std::string_view url) const;
  // allowed[i] = IsAllowed(urls[i]) for i < count: the same answers,
  // faster for a batch (a group compiled into an automaton walks two URLs
  // at a time).
  void AreAllowed(const std::string_view* urls, std::size_t count,
                  bool* allowed) const;
  // AreAllowed for URLs that must be well formed: stops at the first one
  // UrlSyntaxError (url.h) refuses (a control byte, space or DEL) and
  // returns its index, or `count` when there is none; allowed[i] is set
  // for the URLs before it. Both tests read a URL's bytes once.
  [[nodiscard]] std::size_t AreAllowedUntilMalformed(
      const std::string_view* urls, std::size_t count, bool* allowed) const;
  // Check() when the caller already has the path (see RobotsTxt::CheckPath).
  [[nodiscard]] MatchResult CheckPath(std::string_view path) const;

 private:
  friend class RobotsTxt;
  struct Impl;
  explicit AgentMatcher(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

class RobotsTxtBuilder;

class RobotsTxt {
 public:
  // An empty robots.txt: everything allowed.
  RobotsTxt();

  // Parses `body`. Never fails; see lint.h for what was wrong with it.
  static RobotsTxt Parse(std::string_view body,
                         const ParseOptions& options = {});

  // Policies for bodies that could not be fetched (see access_policy.h).
  static RobotsTxt AllowAll(Compat compat = Compat::kRfc9309);
  static RobotsTxt DisallowAll(Compat compat = Compat::kRfc9309);

  // May `user_agent` (a product token such as "Googlebot") fetch `url`?
  // `url` is absolute ("https://h/p?q") or a path ("/p?q"); only its path,
  // params and query are used.
  [[nodiscard]] MatchResult Check(std::string_view user_agent,
                                  std::string_view url) const;

  // Shorthand for Check(user_agent, url).allowed.
  [[nodiscard]] bool IsAllowedFor(std::string_view user_agent,
                                  std::string_view url) const;

  // The matcher of `user_agent`: Check(user_agent, url) for many URLs.
  // With `expected_checks` of kChecksWorthAnAutomaton or more (rfc and
  // google modes), the agent's rules are also compiled into an automaton
  // that reads a path in one table step per byte; compiling costs up to
  // about 30 ns per expected check, is done once per RobotsTxt and agent
  // group (later matchers share it), and is abandoned, keeping the prefix
  // trie, when rules multiply its states past that budget.
  [[nodiscard]] AgentMatcher MatcherFor(std::string_view user_agent,
                                        std::size_t expected_checks = 0) const;
  static constexpr std::size_t kChecksWorthAnAutomaton = 4096;

  // Check() when the caller already has the path (path + params + query,
  // starting with '/'), in the form its compat mode expects.
  [[nodiscard]] MatchResult CheckPath(std::string_view user_agent,
                                      std::string_view path) const;

  // True if some group names `user_agent` (so `*` does not apply to it).
  // kUrllib: some group other than the default applies to it (its name is a
  // substring of the agent's).
  [[nodiscard]] bool HasGroupFor(std::string_view user_agent) const;

  // The rules that decide for `user_agent`, in file order: those of the
  // groups naming it (merged, including a group reached through
  // extension-only lines, as the matcher reads them), or of `*` when none
  // does; kUrllib: those of the one group CPython consults (the first
  // that applies, or the default). Empty when no group applies. Allocates.
  [[nodiscard]] std::vector<const Rule*> RulesFor(
      std::string_view user_agent) const;

  // Extensions in effect for `user_agent`: those of the groups naming it,
  // or of the `*` groups when none does. kUrllib: CPython's crawl_delay()
  // and request_rate() (the last valid value of the group consulted).
  [[nodiscard]] AgentExtensions ExtensionsFor(
      std::string_view user_agent) const;

  // The usage preferences (preferences.h) that apply when `user_agent`
  // fetches `url`: the agent's groups are those Check uses for it (own
  // groups, or `*`), each Content-Usage line is chosen by the longest path
  // match, `n`/`no` wins over `y`/`yes`, and nothing applies to a URL the
  // agent may not crawl. kUrllib: CPython reads none of these lines, so
  // only `crawl` is set. Allocates; not for a hot path.
  [[nodiscard]] Preferences PreferencesFor(std::string_view user_agent,
                                           std::string_view url) const;

  Compat compat() const;
  const std::vector<Group>& groups() const;       // In file order.
  const std::vector<Sitemap>& sitemaps() const;   // File-wide, in order.
  const std::vector<std::string>& hosts() const;  // Host lines, file-wide.
  const std::vector<UnknownDirective>& unknown_directives() const;
  // Rules that appeared before any user-agent line (ignored for matching).
  const std::vector<Rule>& rules_outside_groups() const;
  // License lines (RSL), file-wide, in order. Empty in kUrllib.
  const std::vector<LicenseLine>& licenses() const;
  // Content-Usage and Content-Signal lines before any user-agent line: they
  // apply to no agent (see preferences.h). Empty in kUrllib.
  const std::vector<ContentUsage>& content_usages_outside_groups() const;
  const std::vector<ContentSignal>& content_signals_outside_groups() const;
  std::size_t body_bytes() const;     // Size of the body given to Parse.
  std::size_t ignored_bytes() const;  // Bytes past the parse limit.
  int line_count() const;
  // kUrllib: the line at which CPython's RobotFileParser.parse() raises
  // ValueError (the reading keeps what came before it); 0 otherwise.
  int urllib_error_line() const;

 private:
  friend class AgentMatcher;
  friend class RobotsTxtBuilder;
  struct Impl;
  explicit RobotsTxt(std::shared_ptr<const Impl> impl);
  std::shared_ptr<const Impl> impl_;
};

// RobotsTxt::Parse as a tokenizer listener, for a caller that feeds one
// tokenizer pass to several listeners (LineFanOut, tokenizer.h): tokenize
// exactly parsed_body() into it, then Finish(). The result equals
// Parse(body, options). Not for Compat::kUrllib, which splits lines as
// CPython does and has no tokenizer events (Parse only).
//
// Usage:
//   RobotsTxtBuilder rfc(body, {});
//   TokenizeRobotsTxt(rfc.parsed_body(), rfc);
//   RobotsTxt robots = std::move(rfc).Finish();
//
// Thread-safety: one thread at a time.
class RobotsTxtBuilder : public LineListener {
 public:
  RobotsTxtBuilder(std::string_view body, const ParseOptions& options);
  ~RobotsTxtBuilder() override;
  RobotsTxtBuilder(const RobotsTxtBuilder&) = delete;
  RobotsTxtBuilder& operator=(const RobotsTxtBuilder&) = delete;

  // The part of the body read: all of it, or up to the last line end before
  // options.max_body_bytes.
  std::string_view parsed_body() const { return parsed_; }

  void OnLine(const Line& line) override;
  void OnEnd(const BodySummary& summary) override;

  // The parsed file; the builder is spent.
  RobotsTxt Finish() &&;

 private:
  struct State;
  std::string_view parsed_;
  std::unique_ptr<State> state_;
};

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_ROBOTS_H_
