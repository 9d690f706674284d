// robotscan check: evaluate URLs against one robots.txt file.
//
//   robotscan check --robots-file FILE --user-agent TOKEN
//                   [--compat rfc|google|urllib]
//                   [--json] [--urls-file FILE|-] [--max-bytes N] [URL...]
//
// One line per URL on stdout:
//   allowed|disallowed <TAB> URL <TAB> LINE <TAB> RULE
// where LINE is the deciding line (0 if none) and RULE is "allow: PATTERN" /
// "disallow: PATTERN", or the reason when no rule decided (no-group,
// no-matching-rule, robots-txt-path). Exit: 0 all allowed, 1 any disallowed,
// 2 usage or input error (including any URL that cannot be checked; in
// urllib mode, one on which CPython's urlparse raises).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "choices.h"
#include "commands.h"
#include "input.h"
#include "robotscan/base/terminal_text.h"
#include "robotscan/robots/preferences.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/url.h"

namespace robotscan::cli {
namespace {

struct CheckOptions {
  std::string robots_file;
  std::string user_agent;
  std::string compat = "rfc";
  std::string urls_file;
  std::vector<std::string> urls;
  bool json = false;
  std::size_t max_bytes = robots::kMinParseLimitBytes;
  bool max_bytes_given = false;
};

std::string RuleText(const robots::MatchResult& result) {
  if (result.decision != robots::Decision::kRuleMatched) {
    return std::string(robots::DecisionName(result.decision));
  }
  return std::string(result.kind == robots::RuleKind::kAllow ? "allow: "
                                                             : "disallow: ") +
         std::string(result.pattern);
}

// Reads URLs one per line; blank lines are skipped, CR/LF stripped.
std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  return lines;
}

int RunCheck(const CheckOptions& options) {
  robots::ParseOptions parse;
  parse.max_body_bytes = ParseLimitFromFlag(options.max_bytes);
  if (!robots::ParseCompatName(options.compat, &parse.compat)) {
    std::fprintf(stderr,
                 "robotscan check: --compat must be 'rfc', 'google' or "
                 "'urllib'\n");
    return kExitUsage;
  }
  const bool urllib = parse.compat == robots::Compat::kUrllib;
  if (urllib && options.max_bytes != 0 && options.max_bytes_given) {
    std::fprintf(stderr,
                 "robotscan check: --max-bytes does not apply to --compat "
                 "urllib, which reads the whole file as CPython does\n");
    return kExitUsage;
  }
  // CPython takes any user agent and URL string: in urllib mode nothing is
  // refused up front, and what CPython raises on is reported per URL.
  if (!urllib && !robots::IsValidUserAgentToObey(options.user_agent)) {
    // Google's rule: a product token is [A-Za-z_-]+. Matching still works
    // (nothing can match such a token), so warn rather than refuse.
    std::fprintf(stderr,
                 "robotscan check: warning: user agent '%s' is not a valid "
                 "product token ([A-Za-z_-]+); no group can name it\n",
                 EscapeControlCharacters(options.user_agent).c_str());
  }
  if (options.robots_file == "-" && options.urls_file == "-") {
    std::fprintf(stderr,
                 "robotscan check: --robots-file and --urls-file cannot both "
                 "read standard input\n");
    return kExitUsage;
  }
  // Only what the parser can use is read: --compat urllib reads the whole
  // file, as CPython does.
  const std::size_t read_limit =
      urllib ? kReadWholeInput : ReadLimitFromFlag(options.max_bytes);
  const Result<InputHead> body = ReadInput(options.robots_file, read_limit);
  if (!body.ok()) {
    std::fprintf(stderr, "robotscan check: %s\n",
                 body.status().message().c_str());
    return ExitCodeFor(body.status());
  }
  const std::string robots_file = EscapeControlCharacters(options.robots_file);
  const robots::RobotsTxt robots = robots::RobotsTxt::Parse(body->bytes, parse);
  if (robots.urllib_error_line() > 0) {
    std::fprintf(stderr,
                 "robotscan check: warning: CPython's RobotFileParser.parse() "
                 "raises ValueError at line %d of '%s'; the answers are those "
                 "of the lines before it\n",
                 robots.urllib_error_line(), robots_file.c_str());
  }
  if (robots.ignored_bytes() > 0) {
    // The parser saw at most the limit and one byte: what it ignored of
    // the whole input follows from the input's size, when there is one.
    const std::size_t parsed = body->bytes.size() - robots.ignored_bytes();
    if (body->size) {
      std::fprintf(stderr,
                   "robotscan check: warning: %llu bytes past the parse limit "
                   "of '%s' were ignored\n",
                   static_cast<unsigned long long>(*body->size - parsed),
                   robots_file.c_str());
    } else {
      std::fprintf(stderr,
                   "robotscan check: warning: '%s' is longer than the parse "
                   "limit of %zu bytes: it was read no further, and only its "
                   "first %zu bytes (up to the last line end before the "
                   "limit) were parsed\n",
                   robots_file.c_str(), read_limit, parsed);
    }
  }

  std::vector<std::string> urls = options.urls;
  if (!options.urls_file.empty()) {
    const Result<InputHead> text =
        ReadInput(options.urls_file, kReadWholeInput);
    if (!text.ok()) {
      std::fprintf(stderr, "robotscan check: %s\n",
                   text.status().message().c_str());
      return ExitCodeFor(text.status());
    }
    for (std::string& url : SplitLines(text->bytes)) {
      urls.push_back(std::move(url));
    }
  }
  if (urls.empty()) {
    std::fprintf(stderr,
                 "robotscan check: no URL given (pass URLs or --urls-file)\n");
    return kExitUsage;
  }

  // One agent for every URL: its group is found (and for long URL lists
  // compiled) once.
  const robots::AgentMatcher matcher =
      robots.MatcherFor(options.user_agent, urls.size());
  bool any_disallowed = false;
  bool any_error = false;
  // What --json says of the file and the agent beside each verdict: the
  // agent's crawl-delay and the file's sitemaps (null when there are none).
  nlohmann::json crawl_delay = nullptr;
  nlohmann::json sitemaps = nullptr;
  if (options.json) {
    if (const std::optional<double> delay =
            robots.ExtensionsFor(options.user_agent).crawl_delay) {
      crawl_delay = *delay;
    }
    for (const robots::Sitemap& sitemap : robots.sitemaps()) {
      sitemaps.push_back(sitemap.url);
    }
  }
  for (const std::string& url : urls) {
    std::optional<std::string> problem;
    if (!urllib) problem = robots::UrlSyntaxError(url);
    robots::MatchResult result;
    if (!problem) {
      result = matcher.Check(url);
      if (result.decision == robots::Decision::kInvalidUrl) {
        problem = "CPython's urllib.parse.urlparse raises ValueError on it";
      }
    }
    if (problem) {
      any_error = true;
      std::fprintf(stderr, "robotscan check: cannot check URL '%s': %s\n",
                   robots::PrintableUrl(url).c_str(), problem->c_str());
      if (options.json) {
        std::printf("%s\n", nlohmann::json{{"url", url}, {"error", *problem}}
                                .dump(-1, ' ', false,
                                      nlohmann::json::error_handler_t::replace)
                                .c_str());
      }
      continue;
    }
    any_disallowed = any_disallowed || !result.allowed;
    if (options.json) {
      nlohmann::json out = {
          {"url", url},
          {"allowed", result.allowed},
          {"user_agent", options.user_agent},
          {"decision", std::string(robots::DecisionName(result.decision))},
          {"line", result.line},
          {"rule", nullptr}};
      if (result.decision == robots::Decision::kRuleMatched) {
        out["rule"] = {
            {"kind",
             result.kind == robots::RuleKind::kAllow ? "allow" : "disallow"},
            {"pattern", std::string(result.pattern)}};
      }
      // The preference lines for this URL and agent (robots/preferences.h):
      // none for a URL the agent may not crawl; null when nothing applies.
      const robots::Preferences preferences =
          robots.PreferencesFor(options.user_agent, url);
      out["content_usage"] = nullptr;
      for (const robots::AppliedPreference& usage : preferences.content_usage) {
        out["content_usage"][std::string(usage.key)] =
            usage.allowed ? "y" : "n";
      }
      out["content_signal"] = nullptr;
      for (const robots::AppliedPreference& signal :
           preferences.content_signal) {
        out["content_signal"][std::string(signal.key)] =
            signal.allowed ? "yes" : "no";
      }
      out["license"] = preferences.license.empty()
                           ? nlohmann::json(nullptr)
                           : nlohmann::json(std::string(preferences.license));
      out["crawl_delay"] = crawl_delay;
      out["sitemaps"] = sitemaps;
      std::printf("%s\n", out.dump(-1, ' ', false,
                                   nlohmann::json::error_handler_t::replace)
                              .c_str());
    } else {
      // The file's and the URL's bytes are printed for people: no control
      // character of theirs may reach the terminal (a TAB would also split
      // the columns). --json is exact.
      std::printf("%s\t%s\t%d\t%s\n", result.allowed ? "allowed" : "disallowed",
                  EscapeControlCharacters(url).c_str(), result.line,
                  EscapeControlCharacters(RuleText(result)).c_str());
    }
  }
  std::fflush(stdout);
  if (any_error) return kExitUsage;
  return any_disallowed ? kExitFindings : kExitOk;
}

}  // namespace

void AddCheckCommand(CLI::App& app, int* exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Check URLs against a robots.txt file. Prints 'allowed' or "
      "'disallowed', TAB, the URL, TAB, the deciding line, TAB, the rule. "
      "Exit 0: all allowed; 1: some disallowed; 2: usage or input error.");
  cmd->add_option("--robots-file", options->robots_file,
                  "robots.txt file to evaluate ('-' for standard input)")
      ->required();
  cmd->add_option("--user-agent", options->user_agent,
                  "crawler product token, e.g. Googlebot")
      ->required();
  cmd->add_option("--compat", options->compat,
                  "matching rules: 'rfc' (RFC 9309, default), 'google' "
                  "(exactly Google's open-source parser) or 'urllib' "
                  "(exactly CPython 3.11's urllib.robotparser)")
      ->check(CLI::IsMember(CompatChoices()));
  cmd->add_option("--urls-file", options->urls_file,
                  "file with one URL per line ('-' for standard input)");
  cmd->add_flag("--json", options->json,
                "print one JSON object per URL instead of TAB-separated text");
  CLI::Option* max_bytes =
      cmd->add_option("--max-bytes", options->max_bytes, kMaxBytesHelp)
          ->check(MaxBytesValidator());
  cmd->add_option("urls", options->urls, "URLs (absolute or paths) to check");
  cmd->callback([options, exit_code, max_bytes] {
    options->max_bytes_given = max_bytes->count() > 0;
    *exit_code = RunCheck(*options);
  });
}

}  // namespace robotscan::cli
