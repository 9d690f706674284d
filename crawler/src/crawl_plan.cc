// ValidateCrawlOptions: a crawl's options checked, and parsed once into
// the CrawlPlan that RunCrawl's event loops and a worker run by; the
// crawler's name table of schemes and its list selection.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "endpoint_rules.h"
#include "robotscan/base/version.h"
#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

std::string_view SchemeName(Scheme scheme) {
  return kSchemeNames[static_cast<std::size_t>(scheme)];
}

std::optional<Scheme> ParseSchemeName(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kSchemeNames); ++i) {
    if (kSchemeNames[i] == name) return static_cast<Scheme>(i);
  }
  return std::nullopt;
}

std::int64_t ListSelection::CountOf(std::int64_t entries) const {
  const std::int64_t after_skip = std::max<std::int64_t>(0, entries - skip);
  return top > 0 ? std::min(after_skip, top) : after_skip;
}

std::string DefaultUserAgent() {
  return "robotscan/" ROBOTSCAN_VERSION_STRING
         " (robots.txt research crawler; "
         "+https://github.com/robotscan/robotscan)";
}

Status CheckHeaderValue(std::string_view flag, std::string_view value) {
  for (const char c : value) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\t') || byte == 0x7f) {
      const char* name = c == '\r'   ? "a carriage return (CR)"
                         : c == '\n' ? "a line feed (LF)"
                         : c == '\0' ? "a NUL byte"
                                     : "a control character";
      return Status(StatusCode::kInvalidArgument,
                    std::string(flag) + " must not contain " + name +
                        ": it is sent in an HTTP header line");
    }
  }
  return Status::Ok();
}

Result<CrawlPlan> ValidateCrawlOptions(const CrawlOptions& options) {
  const auto invalid = [](std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  };
  CrawlPlan plan;
  if (options.list_path.empty()) return invalid("no list given");
  if (options.db_path.empty()) return invalid("no database given");
  if (std::error_code ignored;
      std::filesystem::is_directory(options.db_path, ignored)) {
    return invalid("--db " + options.db_path +
                   " is a directory, not a database file");
  }
  if (options.schemes.empty()) return invalid("no scheme to try");
  for (const std::string& name : options.schemes) {
    const std::optional<Scheme> scheme = ParseSchemeName(name);
    if (!scheme) return invalid("scheme '" + name + "' is not http or https");
    plan.schemes.push_back(*scheme);
  }
  if (options.concurrency < 1) return invalid("concurrency must be >= 1");
  // Numbers a flag can get wrong: each names its flag. A NaN or infinite
  // rate would also be written into crawl_run.options as invalid JSON.
  if (!std::isfinite(options.rate_limit) || options.rate_limit < 0) {
    return invalid("--rate must be a number >= 0 (0: no limit)");
  }
  if (options.per_ip_limit < 0) {
    return invalid("--per-ip-limit must be >= 0 (0: no limit)");
  }
  if (options.retries < 0) return invalid("--retries must be >= 0");
  if (options.max_redirects < 0) {
    return invalid("--max-redirects must be >= 0 (at least 5 are followed)");
  }
  if (options.loops < 0) return invalid("--loops must be >= 0");
  if (options.dns_tries < 1) return invalid("--dns-tries must be >= 1");
  if (options.low_speed_limit < 0) {
    return invalid("--low-speed-limit must be >= 0 (0: no check)");
  }
  if (options.low_speed_time.count() < 0) {
    return invalid("--low-speed-time must not be negative");
  }
  // libcurl reads a timeout of 0 as "none": a zero timeout is refused, not
  // turned into an endless wait.
  const struct {
    const char* flag;
    std::chrono::milliseconds value;
    bool zero_allowed;
  } durations[] = {{"--connect-timeout", options.connect_timeout, false},
                   {"--timeout", options.total_timeout, false},
                   {"--dns-timeout", options.dns_timeout, false},
                   {"--retry-delay", options.retry_delay, true},
                   {"--max-retry-after", options.max_retry_after, true}};
  for (const auto& d : durations) {
    if (d.value.count() < 0 || (!d.zero_allowed && d.value.count() == 0)) {
      return invalid(std::string(d.flag) + " must be " +
                     (d.zero_allowed ? "at least 0" : "longer than 0"));
    }
  }
  if (Status agent = CheckHeaderValue("--user-agent", options.user_agent);
      !agent.ok()) {
    return agent;
  }
  if (options.top < 0 || options.skip < 0) {
    return invalid("--top and --skip must not be negative");
  }
  std::string error;
  for (const std::string& text : options.connect_to) {
    ConnectToRule rule;
    if (!ParseConnectToRule(text, &rule, &error)) return invalid(error);
    plan.connect_to.push_back(std::move(rule));
  }
  for (const std::string& text : options.resolve) {
    ResolveRule rule;
    if (!ParseResolveRule(text, &rule, &error)) return invalid(error);
    plan.resolve.push_back(std::move(rule));
  }
  for (const std::string& server : options.dns_servers) {
    if (server.empty() || server.find(',') != std::string::npos) {
      return invalid("invalid --dns-server '" + server + "'");
    }
  }
  plan.user_agent =
      options.user_agent.empty() ? DefaultUserAgent() : options.user_agent;
  plan.max_body_bytes = std::max(options.max_body_bytes, kMinBodyLimitBytes);
  plan.selection = ListSelection{.skip = options.skip, .top = options.top};
  plan.options = options;
  return plan;
}

}  // namespace robotscan::crawler
