// C API over RobotsTxt. Exceptions (only std::bad_alloc is possible) never
// cross into C: allocation failure returns NULL.
#include "robotscan/robots/robots_c.h"

#include <algorithm>
#include <cstddef>
#include <new>
#include <string_view>
#include <vector>

#include "robotscan/base/version.h"
#include "robotscan/robots/access_policy.h"
#include "robotscan/robots/robots.h"

struct robots_txt {
  robotscan::robots::RobotsTxt robots;
};

struct robots_matcher {
  robotscan::robots::AgentMatcher matcher;
};

struct robots_preferences {
  robotscan::robots::RobotsTxt robots;  // Owns what the keys point into.
  robotscan::robots::Preferences preferences;
};

namespace {

using robotscan::robots::Compat;

Compat ToCompat(robots_compat compat) {
  switch (compat) {
    case ROBOTS_COMPAT_GOOGLE:
      return Compat::kGoogle;
    case ROBOTS_COMPAT_URLLIB:
      return Compat::kUrllib;
    case ROBOTS_COMPAT_RFC9309:
      break;
  }
  return Compat::kRfc9309;
}

// The i-th of `list` for the C accessors; NULL past its end.
const char* AppliedAt(
    const std::vector<robotscan::robots::AppliedPreference>& list, size_t i,
    size_t* len, int* allowed, int* line) {
  if (i >= list.size()) return nullptr;
  if (len != nullptr) *len = list[i].key.size();
  if (allowed != nullptr) *allowed = list[i].allowed ? 1 : 0;
  if (line != nullptr) *line = list[i].line;
  return list[i].key.data();
}

std::string_view View(const char* data, size_t len) {
  return data == nullptr ? std::string_view() : std::string_view(data, len);
}

// Fills `out` (when not null) from `result`; returns robots_check's value.
int ReportMatch(const robotscan::robots::MatchResult& result,
                robots_match* out) {
  if (out != nullptr) {
    out->allowed = result.allowed ? 1 : 0;
    out->decision = static_cast<robots_decision>(result.decision);
    out->line = result.line;
    out->rule_is_allow =
        result.kind == robotscan::robots::RuleKind::kAllow ? 1 : 0;
    const bool has_rule =
        result.decision == robotscan::robots::Decision::kRuleMatched;
    out->pattern = has_rule ? result.pattern.data() : nullptr;
    out->pattern_len = has_rule ? result.pattern.size() : 0;
  }
  return result.allowed ? 1 : 0;
}

}  // namespace

extern "C" {

robots_txt* robots_parse(const char* body, size_t body_len,
                         robots_compat compat) {
  try {
    robotscan::robots::ParseOptions options;
    options.compat = ToCompat(compat);
    return new robots_txt{
        robotscan::robots::RobotsTxt::Parse(View(body, body_len), options)};
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

robots_txt* robots_from_http(int status, int network_error, const char* body,
                             size_t body_len, robots_compat compat,
                             int too_many_requests_unreachable) {
  try {
    robotscan::robots::HttpOutcome outcome;
    outcome.status = status;
    outcome.network_error = network_error != 0;
    outcome.body = View(body, body_len);
    robotscan::robots::AccessPolicyOptions options;
    options.parse.compat = ToCompat(compat);
    options.too_many_requests =
        too_many_requests_unreachable != 0
            ? robotscan::robots::TooManyRequests::kAsUnreachable
            : robotscan::robots::TooManyRequests::kAsUnavailable;
    return new robots_txt{
        robotscan::robots::RobotsTxtForHttpOutcome(outcome, options)};
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

void robots_free(robots_txt* robots) { delete robots; }

int robots_check(const robots_txt* robots, const char* agent, size_t agent_len,
                 const char* url, size_t url_len, robots_match* out) {
  return ReportMatch(
      robots->robots.Check(View(agent, agent_len), View(url, url_len)), out);
}

robots_matcher* robots_matcher_new(const robots_txt* robots, const char* agent,
                                   size_t agent_len, size_t expected_checks) {
  try {
    return new robots_matcher{
        robots->robots.MatcherFor(View(agent, agent_len), expected_checks)};
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

int robots_matcher_check(const robots_matcher* matcher, const char* url,
                         size_t url_len, robots_match* out) {
  return ReportMatch(matcher->matcher.Check(View(url, url_len)), out);
}

void robots_matcher_check_many(const robots_matcher* matcher,
                               const char* const* urls, const size_t* url_lens,
                               size_t count, unsigned char* allowed) {
  // A chunk at a time, on the stack: no allocation, so nothing to fail.
  constexpr std::size_t kChunk = 256;
  std::string_view views[kChunk];
  bool verdicts[kChunk];
  for (std::size_t begin = 0; begin < count; begin += kChunk) {
    const std::size_t n = std::min(kChunk, count - begin);
    for (std::size_t i = 0; i < n; ++i) {
      views[i] = View(urls[begin + i], url_lens[begin + i]);
    }
    matcher->matcher.AreAllowed(views, n, verdicts);
    for (std::size_t i = 0; i < n; ++i) allowed[begin + i] = verdicts[i];
  }
}

void robots_matcher_free(robots_matcher* matcher) { delete matcher; }

double robots_crawl_delay(const robots_txt* robots, const char* agent,
                          size_t agent_len) {
  try {
    const auto ext = robots->robots.ExtensionsFor(View(agent, agent_len));
    return ext.crawl_delay ? *ext.crawl_delay : -1.0;
  } catch (const std::bad_alloc&) {
    return -1.0;
  }
}

size_t robots_sitemap_count(const robots_txt* robots) {
  return robots->robots.sitemaps().size();
}

const char* robots_sitemap(const robots_txt* robots, size_t i, size_t* len) {
  const auto& sitemaps = robots->robots.sitemaps();
  if (i >= sitemaps.size()) return nullptr;
  if (len != nullptr) *len = sitemaps[i].url.size();
  return sitemaps[i].url.c_str();
}

robots_preferences* robots_preferences_for(const robots_txt* robots,
                                           const char* agent, size_t agent_len,
                                           const char* url, size_t url_len) {
  try {
    // The keys are views into the RobotsTxt; the copy keeps them alive.
    auto* preferences = new robots_preferences{robots->robots, {}};
    preferences->preferences = preferences->robots.PreferencesFor(
        View(agent, agent_len), View(url, url_len));
    return preferences;
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}

int robots_preferences_crawl_allowed(const robots_preferences* preferences) {
  return preferences->preferences.crawl.allowed ? 1 : 0;
}

size_t robots_preferences_usage_count(const robots_preferences* preferences) {
  return preferences->preferences.content_usage.size();
}

const char* robots_preferences_usage(const robots_preferences* preferences,
                                     size_t i, size_t* len, int* allowed,
                                     int* line) {
  return AppliedAt(preferences->preferences.content_usage, i, len, allowed,
                   line);
}

size_t robots_preferences_signal_count(const robots_preferences* preferences) {
  return preferences->preferences.content_signal.size();
}

const char* robots_preferences_signal(const robots_preferences* preferences,
                                      size_t i, size_t* len, int* allowed,
                                      int* line) {
  return AppliedAt(preferences->preferences.content_signal, i, len, allowed,
                   line);
}

const char* robots_preferences_license(const robots_preferences* preferences,
                                       size_t* len, int* line) {
  const robotscan::robots::Preferences& p = preferences->preferences;
  if (p.license_line == 0) return nullptr;
  if (len != nullptr) *len = p.license.size();
  if (line != nullptr) *line = p.license_line;
  return p.license.data();
}

void robots_preferences_free(robots_preferences* preferences) {
  delete preferences;
}

const char* robots_version(void) { return ROBOTSCAN_VERSION_STRING; }

}  // extern "C"
