#include "robotscan/robots/robots.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "reference_matcher.h"

namespace robotscan::robots {
namespace {

constexpr std::string_view kSample =
    "# example.com\n"
    "User-agent: *\n"           // 2
    "Disallow: /private\n"      // 3
    "Allow: /private/public\n"  // 4
    "Crawl-delay: 2.5\n"        // 5
    "\n"
    "User-agent: Googlebot\n"               // 7
    "User-agent: Bingbot/2.0\n"             // 8
    "Disallow: /nogoogle$\n"                // 9
    "Sitemap: https://example.com/a.xml\n"  // 10
    "Visit-time: 0600-0845\n"               // 11
    "Request-rate: 1/10m\n"                 // 12
    "Clean-param: ref&utm_source /shop/\n"  // 13
    "Host: www.example.com\n"               // 14
    "Unicorns: yes\n"                       // 15
    "\n"
    "User-agent: googlebot\n"                // 17
    "Disallow: /also\n"                      // 18
    "Sitemap: https://example.com/b.xml\n";  // 19

TEST(RobotsTxt, ReportsTheDecidingRule) {
  const RobotsTxt robots = RobotsTxt::Parse(kSample);
  MatchResult r = robots.Check("SomeBot", "https://example.com/private/x");
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.decision, Decision::kRuleMatched);
  EXPECT_EQ(r.line, 3);
  EXPECT_EQ(r.kind, RuleKind::kDisallow);
  EXPECT_EQ(r.pattern, "/private");
  EXPECT_TRUE(r.used_global_group);

  r = robots.Check("SomeBot", "/private/public/page");
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.line, 4);
  EXPECT_EQ(r.kind, RuleKind::kAllow);

  r = robots.Check("SomeBot", "/elsewhere");
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.decision, Decision::kNoMatchingRule);
  EXPECT_EQ(r.line, 0);
}

TEST(RobotsTxt, MergesGroupsForTheSameAgentAndIgnoresTheGlobalOne) {
  const RobotsTxt robots = RobotsTxt::Parse(kSample);
  EXPECT_TRUE(robots.HasGroupFor("GOOGLEBOT"));
  EXPECT_FALSE(robots.IsAllowedFor("Googlebot", "/nogoogle"));
  EXPECT_TRUE(robots.IsAllowedFor("Googlebot", "/nogoogle/x"));  // '$'
  EXPECT_FALSE(robots.IsAllowedFor("Googlebot", "/also/here"));  // 2nd group
  EXPECT_TRUE(robots.IsAllowedFor("Googlebot", "/private/x"));   // not '*'
  // "Bingbot/2.0" in the file is read as the token "Bingbot".
  EXPECT_FALSE(robots.IsAllowedFor("bingbot", "/nogoogle"));
  EXPECT_FALSE(robots.IsAllowedFor("bingbot", "/nogoogle"));
  // The caller's token is not cut: "Bingbot/2.0" names no group.
  EXPECT_FALSE(robots.HasGroupFor("Bingbot/2.0"));
}

TEST(RobotsTxt, ExposesExtensionsPerGroupAndPerAgent) {
  const RobotsTxt robots = RobotsTxt::Parse(kSample);
  ASSERT_EQ(robots.groups().size(), 3u);
  const Group& google = robots.groups()[1];
  EXPECT_EQ(google.agents,
            (std::vector<std::string>{"Googlebot", "Bingbot/2.0"}));
  EXPECT_EQ(google.tokens, (std::vector<std::string>{"googlebot", "bingbot"}));
  ASSERT_TRUE(google.visit_time.has_value());
  EXPECT_EQ(google.visit_time->start_minute, 6 * 60);
  EXPECT_EQ(google.visit_time->end_minute, 8 * 60 + 45);
  ASSERT_TRUE(google.request_rate.has_value());
  EXPECT_DOUBLE_EQ(google.request_rate->requests, 1);
  EXPECT_DOUBLE_EQ(google.request_rate->seconds, 600);
  ASSERT_EQ(google.clean_params.size(), 1u);
  EXPECT_EQ(google.clean_params[0].params,
            (std::vector<std::string>{"ref", "utm_source"}));
  EXPECT_EQ(google.clean_params[0].path_prefix, "/shop/");
  EXPECT_EQ(google.hosts, std::vector<std::string>{"www.example.com"});
  ASSERT_EQ(google.unknown.size(), 1u);
  EXPECT_EQ(google.unknown[0].key, "Unicorns");
  EXPECT_EQ(google.unknown[0].line, 15);

  EXPECT_EQ(robots.ExtensionsFor("Googlebot").crawl_delay, std::nullopt);
  EXPECT_EQ(robots.ExtensionsFor("OtherBot").crawl_delay, 2.5);
  EXPECT_TRUE(robots.ExtensionsFor("googlebot").visit_time.has_value());

  ASSERT_EQ(robots.sitemaps().size(), 2u);
  EXPECT_EQ(robots.sitemaps()[0].url, "https://example.com/a.xml");
  EXPECT_EQ(robots.sitemaps()[1].line, 19);
  EXPECT_EQ(robots.hosts(), std::vector<std::string>{"www.example.com"});
  EXPECT_EQ(robots.line_count(), 20);
}

TEST(RobotsTxt, RulesBeforeTheFirstUserAgentAreKeptButIgnored) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "Disallow: /\nCrawl-delay: 9\nUser-agent: a\nAllow: /x\n");
  ASSERT_EQ(robots.rules_outside_groups().size(), 1u);
  EXPECT_EQ(robots.rules_outside_groups()[0].line, 1);
  EXPECT_TRUE(robots.IsAllowedFor("b", "/anything"));
  EXPECT_EQ(robots.Check("b", "/").decision, Decision::kNoGroupForAgent);
  // A crawl-delay before any group applies when no group sets one.
  EXPECT_EQ(robots.ExtensionsFor("a").crawl_delay, 9.0);
}

TEST(RobotsTxt, RobotsTxtItselfIsAlwaysAllowedInRfcMode) {
  const std::string body = "User-agent: *\nDisallow: /\n";
  const RobotsTxt rfc = RobotsTxt::Parse(body);
  EXPECT_EQ(rfc.Check("x", "https://e.com/robots.txt").decision,
            Decision::kRobotsTxtPath);
  EXPECT_TRUE(rfc.IsAllowedFor("x", "/robots.txt?v=1"));
  EXPECT_FALSE(rfc.IsAllowedFor("x", "/robots.txt.bak"));
  ParseOptions google;
  google.compat = Compat::kGoogle;
  EXPECT_FALSE(RobotsTxt::Parse(body, google).IsAllowedFor("x", "/robots.txt"));
}

// The automaton reads paths unnormalised and may be decided after one byte
// ("Disallow: /r"); a spelling of /robots.txt that only normalising reveals
// must still be allowed through it, and a path that is not /robots.txt must
// not be.
TEST(RobotsTxt, EncodedRobotsTxtPathIsAllowedThroughTheAutomaton) {
  const RobotsTxt robots = RobotsTxt::Parse("User-agent: *\nDisallow: /r\n");
  const AgentMatcher matcher =
      robots.MatcherFor("bot", RobotsTxt::kChecksWorthAnAutomaton);
  for (const char* path : {"/robots%2Etxt", "/%72obots.txt", "/robots.tx%74",
                           "/robots%2etxt?q=1", "/robots.txt"}) {
    EXPECT_EQ(matcher.CheckPath(path).decision, Decision::kRobotsTxtPath)
        << path;
    EXPECT_EQ(matcher.Check(std::string("https://e.com") + path).decision,
              Decision::kRobotsTxtPath)
        << path;
  }
  for (const char* path : {"/robots%2Etxt2", "/robots.txtx", "/r%41", "/ra"}) {
    EXPECT_FALSE(matcher.CheckPath(path).allowed) << path;
    EXPECT_EQ(matcher.CheckPath(path).line, 2) << path;
  }
  // In a batch, the walk of an encoded /robots.txt is decided after "/r"
  // and may stop there (when the path beside it ends): the bytes up to
  // "/robots.txt?" long are still checked, whichever lane it is in.
  for (const char* other : {"/", "/x", "/abc", "/r"}) {
    const std::vector<std::string> urls = {
        "/robots%2Etxt", other, "/%72obots.txt", other, "/robots.tx%74", other};
    const std::vector<std::string_view> views(urls.begin(), urls.end());
    bool allowed[6] = {};
    matcher.AreAllowed(views.data(), views.size(), allowed);
    for (std::size_t i = 0; i < views.size(); ++i) {
      EXPECT_EQ(allowed[i], matcher.IsAllowed(views[i]))
          << views[i] << " beside " << other;
    }
    EXPECT_TRUE(allowed[0] && allowed[2] && allowed[4]) << other;
  }
}

TEST(RobotsTxt, PercentEncodingIsNormalisedOnBothSidesInRfcMode) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\nDisallow: /%7Euser\nDisallow: /a%2Ab\nDisallow: "
      "/caf\xC3\xA9\n");
  EXPECT_FALSE(robots.IsAllowedFor("x", "/~user/page"));
  EXPECT_FALSE(robots.IsAllowedFor("x", "/%7euser/page"));
  EXPECT_FALSE(robots.IsAllowedFor("x", "/a*b"));  // literal '*'
  EXPECT_FALSE(robots.IsAllowedFor("x", "/a%2ab"));
  EXPECT_TRUE(robots.IsAllowedFor("x", "/aXb"));  // %2A is no wildcard
  EXPECT_FALSE(robots.IsAllowedFor("x", "/caf%C3%A9"));
  EXPECT_FALSE(robots.IsAllowedFor("x", "/caf\xC3\xA9"));
}

TEST(RobotsTxt, ParseLimitIgnoresTheTailAtALineBoundary) {
  std::string body = "User-agent: *\n";
  while (body.size() < kMinParseLimitBytes - 10) body += "Allow: /keep\n";
  body += "Disallow: /private-but-past-the-limit\n";
  const RobotsTxt robots = RobotsTxt::Parse(body);
  EXPECT_GT(robots.ignored_bytes(), 0u);
  EXPECT_EQ(robots.body_bytes(), body.size());
  // The half-read rule would be "Disallow: /pr" and block "/pr"; the whole
  // line is dropped instead.
  EXPECT_TRUE(robots.IsAllowedFor("x", "/pr"));
  EXPECT_TRUE(robots.IsAllowedFor("x", "/private-but-past-the-limit"));
  // A larger limit reads it.
  ParseOptions options;
  options.max_body_bytes = 2 * kMinParseLimitBytes;
  EXPECT_FALSE(RobotsTxt::Parse(body, options)
                   .IsAllowedFor("x", "/private-but-past-the-limit"));
}

// A body whose deciding rule lies past the first 500 KiB.
std::string BodyWithARulePastTheLimit() {
  std::string body = "User-agent: *\n";
  while (body.size() < kMinParseLimitBytes + 1000) body += "Allow: /keep\n";
  body += "Disallow: /late\n";
  return body;
}

// The decided default (robots.h, ParseOptions::max_body_bytes): google mode
// cuts at 500 KiB like Google's crawler, where Google's open-source parser
// (the streaming reference) reads on; kNoParseLimit gives its answers.
TEST(RobotsTxt, GoogleModeCutsAt500KiBLikeGooglesCrawlerUnlessToldNot) {
  const std::string body = BodyWithARulePastTheLimit();
  ParseOptions google;
  google.compat = Compat::kGoogle;
  const RobotsTxt cut = RobotsTxt::Parse(body, google);
  EXPECT_GT(cut.ignored_bytes(), 1000u);
  EXPECT_TRUE(cut.IsAllowedFor("x", "/late"));
  EXPECT_FALSE(testing::ReferenceAllowedGoogle(body, "x", "/late"));

  google.max_body_bytes = kNoParseLimit;
  const RobotsTxt whole = RobotsTxt::Parse(body, google);
  EXPECT_EQ(whole.ignored_bytes(), 0u);
  EXPECT_EQ(whole.body_bytes(), body.size());
  for (const char* url : {"/late", "/later", "/keep", "/x", "/robots.txt"}) {
    EXPECT_EQ(whole.IsAllowedFor("x", url),
              testing::ReferenceAllowedGoogle(body, "x", url))
        << url;
  }
  EXPECT_EQ(whole.Check("x", "/late").line,
            std::count(body.begin(), body.end(), '\n'));
}

TEST(RobotsTxt, NoParseLimitReadsEverythingInRfcModeToo) {
  const std::string body = BodyWithARulePastTheLimit();
  EXPECT_TRUE(RobotsTxt::Parse(body).IsAllowedFor("x", "/late"));
  ParseOptions options;
  options.max_body_bytes = kNoParseLimit;
  const RobotsTxt robots = RobotsTxt::Parse(body, options);
  EXPECT_EQ(robots.ignored_bytes(), 0u);
  EXPECT_FALSE(robots.IsAllowedFor("x", "/late"));
}

TEST(RobotsTxt, PoliciesAllowOrDisallowEverything) {
  EXPECT_EQ(RobotsTxt::AllowAll().Check("x", "/a").decision,
            Decision::kAllowAllPolicy);
  const MatchResult r = RobotsTxt::DisallowAll().Check("x", "/a");
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.decision, Decision::kDisallowAllPolicy);
  EXPECT_TRUE(RobotsTxt().IsAllowedFor("x", "/a"));
}

TEST(RobotsTxt, IndexHtmlAllowsTheDirectoryInBothModes) {
  const std::string body =
      "User-agent: *\nDisallow: /\nAllow: /dir/index.html\n";
  for (Compat compat : {Compat::kRfc9309, Compat::kGoogle}) {
    ParseOptions options;
    options.compat = compat;
    const RobotsTxt robots = RobotsTxt::Parse(body, options);
    const MatchResult r = robots.Check("x", "/dir/");
    EXPECT_TRUE(r.allowed);
    EXPECT_EQ(r.line, 3);
    EXPECT_EQ(r.pattern, "/dir/index.html");
    EXPECT_FALSE(robots.IsAllowedFor("x", "/dir/other"));
  }
}

TEST(RobotsTxt, CopiesShareStateAndQueriesAreThreadSafe) {
  std::string body = "User-agent: *\n";
  for (int i = 0; i < 500; ++i) {
    body += "Disallow: /d" + std::to_string(i) + "/*.php$\n";
    body += "Allow: /d" + std::to_string(i) + "/public\n";
  }
  const RobotsTxt robots = RobotsTxt::Parse(body);
  const RobotsTxt copy = robots;  // NOLINT: copy on purpose.
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        const int d = (i * 7 + t) % 500;
        const std::string base = "/d" + std::to_string(d);
        wrong[static_cast<std::size_t>(t)] +=
            copy.IsAllowedFor("bot", base + "/x.php") ||
            !copy.IsAllowedFor("bot", base + "/public/x.php") ||
            !robots.IsAllowedFor("bot", base + "/x.php?q");
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

// MatcherFor(agent).Check(url) is Check(agent, url), in every mode, for
// agents with their own group, agents that fall to `*`, and policies.
TEST(AgentMatcher, AnswersExactlyLikeCheck) {
  std::string body(kSample);
  body += "User-agent: wild\nDisallow: /*/x$\nAllow: /*.html\n";
  for (int i = 0; i < 40; ++i) {
    body += "Disallow: /*/w" + std::to_string(i) + "/\n";  // Blocks.
  }
  const std::vector<std::string> agents = {"Googlebot", "BINGBOT", "wild",
                                           "Nobody",    "*",       ""};
  const std::vector<std::string> urls = {"https://example.com/private",
                                         "/private/public/x",
                                         "/nogoogle",
                                         "/nogoogle?x",
                                         "http://h/also/",
                                         "/a/x",
                                         "/a/b/x",
                                         "/p.html",
                                         "/q/w7/",
                                         "/q/w39/z",
                                         "/robots.txt",
                                         "?only=query",
                                         "https://example.com",
                                         "/%7Eprivate",
                                         "/private%2Fx",
                                         "//host/private"};
  int disallowed = 0;
  for (Compat compat : {Compat::kRfc9309, Compat::kGoogle, Compat::kUrllib}) {
    ParseOptions options;
    options.compat = compat;
    for (const RobotsTxt& robots :
         {RobotsTxt::Parse(body, options), RobotsTxt::AllowAll(compat),
          RobotsTxt::DisallowAll(compat)}) {
      for (const std::string& agent : agents) {
        for (std::size_t expected_checks :
             {std::size_t{0}, RobotsTxt::kChecksWorthAnAutomaton * 100}) {
          // 0: the trie; many: the automaton where the budget allows.
          const AgentMatcher matcher =
              robots.MatcherFor(agent, expected_checks);
          for (const std::string& url : urls) {
            const MatchResult expected = robots.Check(agent, url);
            const MatchResult actual = matcher.Check(url);
            const std::string where =
                std::string(CompatName(compat)) + " " + agent + " " + url;
            EXPECT_EQ(actual.allowed, expected.allowed) << where;
            EXPECT_EQ(actual.decision, expected.decision) << where;
            EXPECT_EQ(actual.line, expected.line) << where;
            EXPECT_EQ(actual.pattern, expected.pattern) << where;
            EXPECT_EQ(actual.used_global_group, expected.used_global_group)
                << where;
            EXPECT_EQ(matcher.IsAllowed(url), expected.allowed) << where;
            const MatchResult by_path = robots.CheckPath(agent, url);
            EXPECT_EQ(matcher.CheckPath(url).allowed, by_path.allowed) << where;
            EXPECT_EQ(matcher.CheckPath(url).line, by_path.line) << where;
            disallowed += !expected.allowed;
          }
          // The batch: every URL many times over, across chunk and lane
          // boundaries.
          std::vector<std::string_view> batch;
          for (int copy = 0; copy < 37; ++copy) {
            batch.insert(batch.end(), urls.begin(), urls.end());
          }
          std::unique_ptr<bool[]> allowed(new bool[batch.size()]);
          matcher.AreAllowed(batch.data(), batch.size(), allowed.get());
          for (std::size_t i = 0; i < batch.size(); ++i) {
            ASSERT_EQ(allowed[i], robots.IsAllowedFor(agent, batch[i]))
                << CompatName(compat) << " " << agent << " " << batch[i]
                << " at " << i;
          }
        }
      }
    }
  }
  EXPECT_GT(disallowed, 200);  // The cases reach both verdicts.
}

// AreAllowed against IsAllowed on random rule sets and URLs made of the
// bytes that matter: wildcards, anchors, escapes, stop bytes, separators
// and /robots.txt spellings, in both modes that compile an automaton.
TEST(AgentMatcher, BatchAnswersExactlyLikeSingleChecks) {
  std::mt19937 random(20261202);
  const std::vector<std::string> pieces = {
      "/",      "a",          "b",           "ab",       "*", "$", "%2F",
      "%41",    "%",          "?",           "=",        ";", "#", ".",
      "x.html", "robots.txt", "/robots.txt", "\xc3\xa9", " ", "~"};
  auto random_text = [&](int max_pieces) {
    std::string text;
    const int n = 1 + static_cast<int>(random() % max_pieces);
    for (int i = 0; i < n; ++i) text += pieces[random() % pieces.size()];
    return text;
  };
  int compared = 0, disallowed = 0;
  for (int round = 0; round < 60; ++round) {
    std::string body = "User-agent: bot\n";
    const int rules = 1 + static_cast<int>(random() % 30);
    for (int r = 0; r < rules; ++r) {
      body += (random() % 2 == 0 ? "Allow: /" : "Disallow: /") +
              random_text(4) + "\n";
    }
    std::vector<std::string> urls;
    for (int u = 0; u < 300; ++u) {
      std::string url = random() % 3 == 0 ? "https://e.com" : "";
      url += (random() % 8 == 0 ? "?" : "/") + random_text(6);
      urls.push_back(url);
    }
    const std::vector<std::string_view> views(urls.begin(), urls.end());
    std::unique_ptr<bool[]> allowed(new bool[views.size()]);
    for (Compat compat : {Compat::kRfc9309, Compat::kGoogle}) {
      ParseOptions options;
      options.compat = compat;
      const RobotsTxt robots = RobotsTxt::Parse(body, options);
      const AgentMatcher matcher =
          robots.MatcherFor("bot", RobotsTxt::kChecksWorthAnAutomaton);
      matcher.AreAllowed(views.data(), views.size(), allowed.get());
      for (std::size_t i = 0; i < views.size(); ++i) {
        ASSERT_EQ(allowed[i], matcher.IsAllowed(views[i]))
            << CompatName(compat) << " url " << views[i] << "\n"
            << body;
        ++compared;
        disallowed += allowed[i] ? 0 : 1;
      }
    }
  }
  EXPECT_EQ(compared, 60 * 300 * 2);
  EXPECT_GT(disallowed, compared / 10);  // Both verdicts are reached.
}

// An automaton too large for the batch walk's 16-bit table (1,713 states
// of 43 entries, over 65,535 entries): the batch walks the 32-bit one,
// with the same answers.
TEST(AgentMatcher, BatchAnswersLikeSingleChecksWithALargeAutomaton) {
  std::mt19937 random(7);
  const std::string letters = "abcdefghijklmnopqrstuvwxyz0123456789-_";
  auto word = [&](std::size_t size) {
    std::string text;
    for (std::size_t i = 0; i < size; ++i) {
      text += letters[random() % letters.size()];
    }
    return text;
  };
  std::string body = "User-agent: bot\n";
  std::vector<std::string> prefixes;
  for (int r = 0; r < 150; ++r) {
    prefixes.push_back("/" + word(12));
    body += (r % 3 == 0 ? "Allow: " : "Disallow: ") + prefixes.back() +
            (r % 5 == 0 ? "*x$" : "") + "\n";
  }
  const RobotsTxt robots = RobotsTxt::Parse(body);
  const AgentMatcher matcher = robots.MatcherFor("bot", std::size_t{1} << 22);
  std::vector<std::string> urls;
  for (int u = 0; u < 3000; ++u) {
    const std::string& prefix = prefixes[random() % prefixes.size()];
    // Half of them name a whole rule's prefix, half stop inside one.
    const std::size_t kept =
        random() % 2 == 0 ? prefix.size() : 1 + random() % prefix.size();
    urls.push_back("https://example.com" + prefix.substr(0, kept) +
                   (random() % 2 == 0 ? word(random() % 20) : "x"));
  }
  const std::vector<std::string_view> views(urls.begin(), urls.end());
  std::unique_ptr<bool[]> allowed(new bool[views.size()]);
  matcher.AreAllowed(views.data(), views.size(), allowed.get());
  int disallowed = 0;
  for (std::size_t i = 0; i < views.size(); ++i) {
    ASSERT_EQ(allowed[i], matcher.IsAllowed(views[i])) << views[i];
    disallowed += allowed[i] ? 0 : 1;
  }
  EXPECT_GT(disallowed, 300);
  EXPECT_GT(static_cast<int>(views.size()) - disallowed, 300);
}

// AreAllowedUntilMalformed stops at the first URL UrlSyntaxError refuses,
// whichever way the batch is answered (automaton, trie, urllib rules), and
// answers the ones before it as AreAllowed does.
TEST(AgentMatcher, BatchStopsAtTheFirstMalformedUrl) {
  const std::string body =
      "User-agent: bot\nDisallow: /a\nAllow: /a/ok\nDisallow: /*.pdf$\n";
  std::vector<std::string> urls;
  for (int i = 0; i < 700; ++i) {
    static const char* const kPaths[] = {"/a", "/a/ok", "/b.pdf", "/c", "/"};
    urls.push_back((i % 2 == 0 ? "https://example.com" : "") +
                   std::string(kPaths[i % 5]) + std::to_string(i % 7));
  }
  for (Compat compat : {Compat::kRfc9309, Compat::kGoogle, Compat::kUrllib}) {
    ParseOptions options;
    options.compat = compat;
    const RobotsTxt robots = RobotsTxt::Parse(body, options);
    for (std::size_t expected :
         {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{3},
          std::size_t{4}, std::size_t{255}, std::size_t{256}, std::size_t{597},
          std::size_t{598}, std::size_t{599}, std::size_t{600}, urls.size()}) {
      for (std::size_t checks : {std::size_t{0}, std::size_t{1} << 20}) {
        const AgentMatcher matcher = robots.MatcherFor("bot", checks);
        std::vector<std::string> batch = urls;
        if (expected < batch.size()) {
          // A space or a control byte, in URLs of every size the scans
          // treat apart (under 32, 32 to 64, over 64 bytes), at the start,
          // the middle or the end of the path.
          const std::size_t size = std::size_t{3} + expected % 5 * 13;
          std::string bad = "https://example.com/" + std::string(size, 'x');
          const std::size_t at = 20 + (expected * 7) % size;
          bad[at] =
              expected % 3 == 0 ? ' ' : (expected % 3 == 1 ? '\x01' : '\x7f');
          batch[expected] = bad;
          if (expected + 3 < batch.size()) batch[expected + 3] = "/\x7f";
        }
        const std::vector<std::string_view> views(batch.begin(), batch.end());
        std::unique_ptr<bool[]> allowed(new bool[views.size()]);
        ASSERT_EQ(matcher.AreAllowedUntilMalformed(views.data(), views.size(),
                                                   allowed.get()),
                  expected)
            << CompatName(compat) << " checks " << checks;
        for (std::size_t i = 0; i < expected; ++i) {
          ASSERT_EQ(allowed[i], matcher.IsAllowed(views[i]))
              << CompatName(compat) << " " << views[i];
        }
      }
    }
  }
}

TEST(AgentMatcher, OutlivesTheRobotsTxtItCameFrom) {
  std::optional<AgentMatcher> matcher;
  {
    const RobotsTxt robots = RobotsTxt::Parse(kSample);
    matcher = robots.MatcherFor("Googlebot");
  }
  EXPECT_FALSE(matcher->IsAllowed("/nogoogle"));
  EXPECT_EQ(matcher->Check("/nogoogle").line, 9);
  EXPECT_TRUE(matcher->IsAllowed("/private"));
}

TEST(RobotsTxt, HostileBodiesNeverBreakIt) {
  // Binary noise, huge lines, many groups, NULs: all parse; queries answer.
  std::string noise;
  for (int i = 0; i < 200000; ++i) noise += static_cast<char>((i * 131) % 256);
  const RobotsTxt robots = RobotsTxt::Parse(noise);
  (void)robots.IsAllowedFor("x", "/a");
  std::string many;
  for (int i = 0; i < 15000; ++i) many += "User-agent: a\nDisallow: /x\n";
  EXPECT_FALSE(RobotsTxt::Parse(many).IsAllowedFor("a", "/x"));
  EXPECT_EQ(RobotsTxt::Parse(many).groups().size(), 15000u);
}

// kCompatNames is the one table of the modes' names: each entry parses to
// its mode, each mode's canonical name is in it, and nothing else parses.
TEST(CompatNamesTest, TheTableIsWhatParseCompatNameReads) {
  std::set<Compat> named;
  for (const CompatNameEntry& entry : kCompatNames) {
    Compat compat = Compat::kGoogle;
    ASSERT_TRUE(ParseCompatName(entry.name, &compat)) << entry.name;
    EXPECT_EQ(compat, entry.compat) << entry.name;
    named.insert(entry.compat);
  }
  for (const Compat compat :
       {Compat::kRfc9309, Compat::kGoogle, Compat::kUrllib}) {
    EXPECT_TRUE(named.count(compat)) << CompatName(compat);
    Compat parsed = Compat::kGoogle;
    ASSERT_TRUE(ParseCompatName(CompatName(compat), &parsed));
    EXPECT_EQ(parsed, compat);
  }
  EXPECT_EQ(named.size(), 3u);
  Compat untouched = Compat::kUrllib;
  for (const char* name : {"", "RFC", "rfc ", "googlebot", "python"}) {
    EXPECT_FALSE(ParseCompatName(name, &untouched)) << name;
  }
  EXPECT_EQ(untouched, Compat::kUrllib);
}

}  // namespace
}  // namespace robotscan::robots
