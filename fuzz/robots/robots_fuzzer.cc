// libFuzzer target for the robots library: parser, matcher, linter, the
// urllib (CPython) reading, and the differential check against the simple
// streaming reference matcher.
//
// Input layout: the first line is "AGENT\tURL", the rest is the robots.txt
// body. Every input must parse, answer, lint, and (in google mode) agree
// with the reference; any disagreement aborts so libFuzzer records it.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "reference_matcher.h"
#include "robotscan/robots/lint.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/url.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using robotscan::robots::Compat;
  using robotscan::robots::ParseOptions;
  using robotscan::robots::RobotsTxt;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t eol = input.find('\n');
  const std::string_view header = input.substr(0, eol);
  const std::string_view body = eol == std::string_view::npos
                                    ? std::string_view()
                                    : input.substr(eol + 1);
  const std::size_t tab = header.find('\t');
  const std::string_view agent = header.substr(0, tab);
  const std::string_view url = tab == std::string_view::npos
                                   ? std::string_view("/")
                                   : header.substr(tab + 1);

  ParseOptions google;
  google.compat = Compat::kGoogle;
  const RobotsTxt robots = RobotsTxt::Parse(body, google);
  const bool allowed = robots.IsAllowedFor(agent, url);
  // The reference re-parses the whole body per query, as Google's library
  // does, so it must see exactly what the parser saw (the parse limit cuts
  // at a line end; fuzz inputs stay below it).
  if (body.size() <= robotscan::robots::kMinParseLimitBytes &&
      allowed != robotscan::robots::testing::ReferenceAllowedGoogle(body, agent,
                                                                    url)) {
    std::fprintf(stderr, "fast matcher and reference disagree\n");
    std::abort();
  }
  // The agent's automaton (built when the budget allows) answers exactly
  // like the trie, in both modes. Small bodies only: building it per input
  // would otherwise cut the fuzzer's speed by four under ASan.
  const bool try_automaton = body.size() <= 1024;
  const std::size_t many =
      try_automaton ? RobotsTxt::kChecksWorthAnAutomaton : 0;
  if (robots.MatcherFor(agent, many).Check(url).line !=
      robots.Check(agent, url).line) {
    std::fprintf(stderr, "automaton and trie disagree (google)\n");
    std::abort();
  }
  const RobotsTxt rfc = RobotsTxt::Parse(body);
  const robotscan::robots::MatchResult by_trie = rfc.Check(agent, url);
  const robotscan::robots::MatchResult by_automaton =
      rfc.MatcherFor(agent, many).Check(url);
  if (by_trie.allowed != by_automaton.allowed ||
      by_trie.line != by_automaton.line ||
      by_trie.decision != by_automaton.decision) {
    std::fprintf(stderr, "automaton and trie disagree (rfc)\n");
    std::abort();
  }
  // A batch answers as its URLs one by one (the URL, its path alone, a
  // fixed one, and the URL cut short with a path added and then whole
  // again, after it: the batch's extractor skips the scheme and host a
  // URL shares with the one before).
  if (try_automaton) {
    for (const RobotsTxt* parsed : {&robots, &rfc}) {
      const robotscan::robots::AgentMatcher matcher =
          parsed->MatcherFor(agent, many);
      const std::string path = robotscan::robots::GetPathParamsQuery(url);
      const std::string cut =
          std::string(url.substr(0, url.size() * 2 / 3)) + "/a?b#c";
      constexpr std::size_t kBatch = 6;
      const std::string_view batch[kBatch] = {url, path, "/", url, cut, url};
      bool allowed_each[kBatch] = {};
      matcher.AreAllowed(batch, kBatch, allowed_each);
      for (std::size_t i = 0; i < kBatch; ++i) {
        if (allowed_each[i] != matcher.IsAllowed(batch[i])) {
          std::fprintf(stderr, "batch and single check disagree\n");
          std::abort();
        }
      }
      // The checked batch stops at the first URL with a control byte or
      // space, and answers those before it the same.
      bool allowed_checked[kBatch] = {};
      const std::size_t answered =
          matcher.AreAllowedUntilMalformed(batch, kBatch, allowed_checked);
      std::size_t first_malformed = 0;
      while (first_malformed < kBatch &&
             !robotscan::robots::UrlSyntaxError(batch[first_malformed])) {
        ++first_malformed;
      }
      if (answered != first_malformed) {
        std::fprintf(stderr, "checked batch stops at the wrong URL\n");
        std::abort();
      }
      for (std::size_t i = 0; i < answered; ++i) {
        if (allowed_checked[i] != allowed_each[i]) {
          std::fprintf(stderr, "checked batch and batch disagree\n");
          std::abort();
        }
      }
    }
  }
  (void)rfc.ExtensionsFor(agent);
  (void)robotscan::robots::LintRobotsTxt(body);
  // Preference lines (Content-Usage, Content-Signal, License): the crawl
  // verdict is Check's, and a URL that may not be crawled has none.
  for (const RobotsTxt* parsed : {&robots, &rfc}) {
    const robotscan::robots::Preferences preferences =
        parsed->PreferencesFor(agent, url);
    const robotscan::robots::MatchResult checked = parsed->Check(agent, url);
    if (preferences.crawl.allowed != checked.allowed ||
        preferences.crawl.line != checked.line) {
      std::fprintf(stderr, "PreferencesFor and Check disagree\n");
      std::abort();
    }
    if (!checked.allowed && (!preferences.content_usage.empty() ||
                             !preferences.content_signal.empty())) {
      std::fprintf(stderr, "preferences for a disallowed URL\n");
      std::abort();
    }
  }
  // The urllib reading (CPython's): its own line splitter, decoder and URL
  // parser, on the body and on the URL.
  ParseOptions urllib;
  urllib.compat = Compat::kUrllib;
  const RobotsTxt cpython = RobotsTxt::Parse(body, urllib);
  (void)cpython.Check(agent, url);
  (void)cpython.ExtensionsFor(agent);
  (void)cpython.RulesFor(agent);
  return 0;
}
