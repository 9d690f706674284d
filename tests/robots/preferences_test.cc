// Usage preferences: Content-Usage (draft-ietf-aipref-attach-05 with
// draft-ietf-aipref-vocab-08), Content-Signal (contentsignals.org) and
// License (RSL); see robotscan/robots/preferences.h.
#include "robotscan/robots/preferences.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "robotscan/robots/lint.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/tokenizer.h"
#include "usage_preferences.h"

namespace robotscan::robots {
namespace {

// "key=y|n@line" for each applied preference, sorted by key, for compact
// assertions (Content-Signal values printed as yes/no).
std::string Describe(const std::vector<AppliedPreference>& prefs,
                     bool signal = false) {
  std::string out;
  for (const AppliedPreference& p : prefs) {
    if (!out.empty()) out += ",";
    out += std::string(p.key) + "=" +
           (signal ? (p.allowed ? "yes" : "no") : (p.allowed ? "y" : "n")) +
           "@" + std::to_string(p.line);
  }
  return out;
}

std::set<std::pair<int, std::string>> Codes(std::string_view body) {
  std::set<std::pair<int, std::string>> out;
  for (const Diagnostic& d : LintRobotsTxt(body)) out.emplace(d.line, d.code);
  return out;
}

TEST(PreferencesTokenizer, RecognisesTheThreeKeysWithoutRenumbering) {
  bool typo = true;
  EXPECT_EQ(ClassifyKey("Content-Usage", &typo), Directive::kContentUsage);
  EXPECT_FALSE(typo);
  EXPECT_EQ(ClassifyKey("content-signal", &typo), Directive::kContentSignal);
  EXPECT_EQ(ClassifyKey("LICENSE", &typo), Directive::kLicense);
  // Whole keys only, like the other extensions.
  EXPECT_EQ(ClassifyKey("content-usages", &typo), Directive::kUnknown);
  EXPECT_EQ(DirectiveName(Directive::kContentUsage), "content-usage");
  EXPECT_EQ(DirectiveName(Directive::kContentSignal), "content-signal");
  EXPECT_EQ(DirectiveName(Directive::kLicense), "license");
  // The values before them keep their numbers.
  EXPECT_EQ(static_cast<int>(Directive::kNoarchive), 12);
  EXPECT_EQ(static_cast<int>(Directive::kUnknown), 13);
}

TEST(PreferencesVocabulary, NamesTheDraftsAndClassifiesLabels) {
  EXPECT_EQ(kAiprefVocabulary, "draft-ietf-aipref-vocab-08");
  EXPECT_EQ(kAiprefAttachDraft, "draft-ietf-aipref-attach-05");
  const std::map<std::string, LabelStatus> cases = {
      {"train-ai", LabelStatus::kCurrent},
      {"search", LabelStatus::kCurrent},
      {"tdm", LabelStatus::kObsolete},
      {"ai", LabelStatus::kObsolete},
      {"genai", LabelStatus::kObsolete},
      {"train-genai", LabelStatus::kObsolete},
      {"ai-use", LabelStatus::kObsolete},
      {"Train-AI", LabelStatus::kUnknown},  // Case-sensitive.
      {"example-ext", LabelStatus::kUnknown},
  };
  for (const auto& [label, status] : cases) {
    EXPECT_EQ(AiprefLabelStatus(label), status) << label;
  }
  EXPECT_EQ(ContentSignalKeyStatus("ai-input"), LabelStatus::kCurrent);
  EXPECT_EQ(ContentSignalKeyStatus("ai-train"), LabelStatus::kCurrent);
  EXPECT_EQ(ContentSignalKeyStatus("search"), LabelStatus::kCurrent);
  EXPECT_EQ(ContentSignalKeyStatus("train-ai"), LabelStatus::kUnknown);
}

// The statement of preference is an RFC 9651 Dictionary (vocab-08,
// "Processing Algorithm").
TEST(PreferencesStatement, ParsesAsAStructuredDictionary) {
  struct Case {
    const char* id;
    const char* value;
    bool is_dictionary;
    const char* path;
    std::vector<std::pair<std::string, bool>> preferences;
    std::vector<std::string> malformed;
  };
  const Case cases[] = {
      {"plain", "train-ai=n", true, "", {{"train-ai", false}}, {}},
      {"path", "/ai-ok/ train-ai=y", true, "/ai-ok/", {{"train-ai", true}}, {}},
      {"tab after path",
       "/x\ttrain-ai=y",
       true,
       "/x",
       {{"train-ai", true}},
       {}},
      {"two",
       "train-ai=n, search=y",
       true,
       "",
       {{"train-ai", false}, {"search", true}},
       {}},
      {"unknown key kept", "foo-bar=y", true, "", {{"foo-bar", true}}, {}},
      {"parameters ignored",
       "train-ai=n;src=\"x\";v=1",
       true,
       "",
       {{"train-ai", false}},
       {}},
      {"last value wins",
       "train-ai=y, search=y, train-ai=n",
       true,
       "",
       {{"train-ai", false}, {"search", true}},
       {}},
      {"yes is not y", "train-ai=no", true, "", {}, {"train-ai"}},
      {"boolean", "train-ai", true, "", {}, {"train-ai"}},
      {"string", "train-ai=\"n\"", true, "", {}, {"train-ai"}},
      {"inner list", "train-ai=(n y)", true, "", {}, {"train-ai"}},
      {"integer", "train-ai=0", true, "", {}, {"train-ai"}},
      {"upper-case key", "Train-AI=n", false, "", {}, {}},
      {"trailing comma", "train-ai=n,", false, "", {}, {}},
      {"no comma", "train-ai=n search=y", false, "", {}, {}},
      {"unterminated string", "train-ai=\"n", false, "", {}, {}},
      {"path not first", "train-ai=n /x", false, "", {}, {}},
      {"empty", "", true, "", {}, {}},
      {"path only", "/x", true, "/x", {}, {}},
  };
  for (const Case& c : cases) {
    const ContentUsage usage =
        internal::ParseContentUsage(c.value, 7, Compat::kRfc9309);
    EXPECT_EQ(usage.line, 7) << c.id;
    EXPECT_EQ(usage.is_dictionary, c.is_dictionary) << c.id;
    EXPECT_EQ(usage.path, c.path) << c.id;
    std::vector<std::pair<std::string, bool>> got;
    for (const UsagePreference& p : usage.preferences) {
      got.emplace_back(p.key, p.allowed);
    }
    EXPECT_EQ(got, c.preferences) << c.id;
    EXPECT_EQ(usage.malformed_keys, c.malformed) << c.id;
  }
}

TEST(PreferencesStatement, ContentSignalEntries) {
  const ContentSignal signal = internal::ParseContentSignal(
      "search=yes, ai-input=YES,ai-train=no, AI-Train=no, x, ai-foo=maybe", 3);
  std::vector<std::pair<std::string, bool>> got;
  for (const UsagePreference& p : signal.signals) {
    got.emplace_back(p.key, p.allowed);
  }
  const std::vector<std::pair<std::string, bool>> want = {
      {"search", true}, {"ai-input", true}, {"ai-train", false}};
  EXPECT_EQ(got, want);
  EXPECT_EQ(signal.malformed_entries,
            (std::vector<std::string>{"x", "ai-foo=maybe"}));
}

// draft-ietf-aipref-attach-05 §3.4, the example file and its table.
constexpr std::string_view kDraftExample =
    "User-Agent: *\n"                      // 1
    "Allow: /\n"                           // 2
    "Disallow: /never/\n"                  // 3
    "Content-Usage: train-ai=n\n"          // 4
    "Content-Usage: /ai-ok/ train-ai=y\n"  // 5
    "\n"                                   // 6
    "User-Agent: ExampleBot\n"             // 7
    "Allow: /\n"                           // 8
    "Content-Usage: train-ai=y\n";         // 9

TEST(PreferencesFor, TheDraftsExample) {
  const RobotsTxt robots = RobotsTxt::Parse(kDraftExample);
  struct Case {
    const char* agent;
    const char* url;
    bool crawl;
    const char* content_usage;
  };
  const Case cases[] = {
      {"OtherBot", "https://example.com/test", true, "train-ai=n@4"},
      {"OtherBot", "https://example.com/never/test", false, ""},
      {"OtherBot", "https://example.com/ai-ok/test", true, "train-ai=y@5"},
      {"ExampleBot", "https://example.com/test", true, "train-ai=y@9"},
      {"examplebot", "/never/test", true, "train-ai=y@9"},
  };
  for (const Case& c : cases) {
    const Preferences p = robots.PreferencesFor(c.agent, c.url);
    EXPECT_EQ(p.crawl.allowed, c.crawl) << c.agent << " " << c.url;
    EXPECT_EQ(Describe(p.content_usage), c.content_usage)
        << c.agent << " " << c.url;
  }
  EXPECT_EQ(Codes(kDraftExample), (std::set<std::pair<int, std::string>>{}));
}

TEST(PreferencesFor, DisallowedUrlHasNoPreferencesButSaysWhy) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: GPTBot\nDisallow: /private/\n"
      "Content-Usage: train-ai=n\nContent-Signal: ai-train=no\n");
  const Preferences p =
      robots.PreferencesFor("GPTBot", "https://example.com/private/a");
  EXPECT_FALSE(p.crawl.allowed);
  EXPECT_EQ(p.crawl.decision, Decision::kRuleMatched);
  EXPECT_EQ(p.crawl.line, 2);
  EXPECT_TRUE(p.content_usage.empty());
  EXPECT_TRUE(p.content_usage_lines.empty());
  EXPECT_TRUE(p.content_signal.empty());
  const Preferences open = robots.PreferencesFor("GPTBot", "/public");
  EXPECT_EQ(Describe(open.content_usage), "train-ai=n@3");
  EXPECT_EQ(Describe(open.content_signal, true), "ai-train=no@4");
}

// A shortened copy of Cloudflare's managed robots.txt (2025-2026): the
// Content Signals Policy comment block, `*` with Content-Signal, then the
// AI crawlers it blocks.
constexpr std::string_view kCloudflareManaged =
    "# As a condition of accessing this website, you agree to abide by the\n"
    "# following content signals:\n"
    "# (a)  If a content-signal = yes, you may collect content for the\n"
    "# corresponding use.\n"
    "# (b)  If a content-signal = no, you may not collect content for the\n"
    "# corresponding use.\n"
    "# The content signals and their meanings are:\n"
    "# search: building a search index and providing search results.\n"
    "# ai-input: inputting content into one or more AI models.\n"
    "# ai-train: training or fine-tuning AI models.\n"
    "\n"                                           // 11
    "User-agent: *\n"                              // 12
    "Content-signal: search=yes,ai-train=no\n"     // 13
    "Allow: /\n"                                   // 14
    "\n"                                           // 15
    "User-agent: Amazonbot\n"                      // 16
    "Disallow: /\n"                                // 17
    "\n"                                           // 18
    "User-agent: CCBot\n"                          // 19
    "Disallow: /\n"                                // 20
    "\n"                                           // 21
    "User-agent: GPTBot\n"                         // 22
    "Disallow: /\n"                                // 23
    "\n"                                           // 24
    "Sitemap: https://example.com/sitemap.xml\n";  // 25

TEST(PreferencesFor, CloudflareManagedRobotsTxt) {
  const RobotsTxt robots = RobotsTxt::Parse(kCloudflareManaged);
  const Preferences googlebot =
      robots.PreferencesFor("Googlebot", "https://example.com/news/1");
  EXPECT_TRUE(googlebot.crawl.allowed);
  EXPECT_TRUE(googlebot.crawl.used_global_group);
  EXPECT_EQ(Describe(googlebot.content_signal, true),
            "ai-train=no@13,search=yes@13");
  EXPECT_TRUE(googlebot.content_usage.empty());
  const Preferences gptbot =
      robots.PreferencesFor("GPTBot", "https://example.com/news/1");
  EXPECT_FALSE(gptbot.crawl.allowed);
  EXPECT_EQ(gptbot.crawl.line, 23);
  EXPECT_TRUE(gptbot.content_signal.empty());
  EXPECT_TRUE(robots.content_signals_outside_groups().empty());
  EXPECT_EQ(Codes(kCloudflareManaged),
            (std::set<std::pair<int, std::string>>{}));
}

TEST(PreferencesFor, ContentSignalOnTopOfTheFileAppliesToNoAgent) {
  const std::string body =
      "Content-Signal: search=yes, ai-input=yes, ai-train=no\n"
      "User-agent: *\nAllow: /\n";
  const RobotsTxt robots = RobotsTxt::Parse(body);
  ASSERT_EQ(robots.content_signals_outside_groups().size(), 1u);
  EXPECT_EQ(robots.content_signals_outside_groups()[0].line, 1);
  EXPECT_TRUE(robots.PreferencesFor("Bot", "/").content_signal.empty());
  EXPECT_EQ(Codes(body), (std::set<std::pair<int, std::string>>{
                             {1, "content-signal-outside-group"}}));
}

TEST(PreferencesFor, GroupSelection) {
  const std::string body =
      "User-agent: *\n"                        // 1
      "Content-Usage: train-ai=n, search=y\n"  // 2
      "\n"                                     // 3
      "User-agent: Alpha\n"                    // 4
      "Content-Usage: train-ai=y\n"            // 5
      "User-agent: Beta\n"                     // 6
      "Content-Usage: search=n\n"              // 7
      "Disallow: /beta-only/\n"                // 8
      "\n"                                     // 9
      "User-agent: Gamma\n"                    // 10
      "Allow: /\n"                             // 11
      "\n"                                     // 12
      "User-agent: alpha\n"                    // 13
      "Content-Usage: /two/ search=n\n";       // 14
  const RobotsTxt robots = RobotsTxt::Parse(body);
  struct Case {
    const char* agent;
    const char* url;
    bool crawl;
    const char* content_usage;
  };
  const Case cases[] = {
      // No group names it: `*`.
      {"Other", "/x", true, "search=y@2,train-ai=n@2"},
      // Alpha's own lines (its two groups merged), not Beta's, nor `*`'s...
      {"Alpha", "/x", true, "train-ai=y@5"},
      {"Alpha", "/two/x", true, "search=n@14"},
      // ...while its crawling follows Google's grouping, which lets
      // Beta's rules apply to Alpha (only preference lines between them).
      {"Alpha", "/beta-only/x", false, ""},
      {"Beta", "/x", true, "search=n@7"},
      // A group without preference lines: none, not `*`'s.
      {"Gamma", "/x", true, ""},
  };
  for (const Case& c : cases) {
    const Preferences p = robots.PreferencesFor(c.agent, c.url);
    EXPECT_EQ(p.crawl.allowed, c.crawl) << c.agent << " " << c.url;
    EXPECT_EQ(Describe(p.content_usage), c.content_usage)
        << c.agent << " " << c.url;
  }
  // No group for the agent and no `*`: nothing applies.
  const RobotsTxt named_only =
      RobotsTxt::Parse("User-agent: A\nContent-Usage: train-ai=n\n");
  const Preferences none = named_only.PreferencesFor("B", "/x");
  EXPECT_EQ(none.crawl.decision, Decision::kNoGroupForAgent);
  EXPECT_TRUE(none.content_usage.empty());
}

TEST(PreferencesFor, LongestPathWinsAndSameLengthsCombine) {
  const std::string body =
      "User-agent: *\n"                                // 1
      "Content-Usage: train-ai=y, search=y\n"          // 2
      "Content-Usage: /docs/ train-ai=n\n"             // 3
      "Content-Usage: /docs/public/ train-ai=y\n"      // 4
      "Content-Usage: /shop/ train-ai=y, search=y\n"   // 5
      "Content-Usage: /shop/ train-ai=n\n"             // 6
      "Content-Usage: /*.pdf$ train-ai=n\n"            // 7
      "Content-Usage: /caf%c3%a9/ train-ai=n\n"        // 8
      "Content-Usage: /bad/ Train-AI=n\n"              // 9
      "Content-Usage: /cart/ train-ai=n\n"             // 10
      "Content-Usage: /cart/ train-ai=y, search=n\n";  // 11
  const RobotsTxt robots = RobotsTxt::Parse(body);
  struct Case {
    const char* url;
    const char* content_usage;
    std::vector<int> lines;
  };
  const Case cases[] = {
      {"/", "search=y@2,train-ai=y@2", {2}},
      // The longest match alone: line 2's search=y is not inherited.
      {"/docs/a", "train-ai=n@3", {3}},
      {"/docs/public/a", "train-ai=y@4", {4}},
      // Identical paths combine; n wins over y, whatever the order.
      {"/shop/a", "search=y@5,train-ai=n@6", {5, 6}},
      {"/cart/a", "search=n@11,train-ai=n@10", {10, 11}},
      // Wildcards and anchors as in rules: "/*.pdf$" is 7 bytes, longer
      // than "/shop/".
      {"/shop/x.pdf", "train-ai=n@7", {7}},
      {"/shop/x.pdf?download", "search=y@5,train-ai=n@6", {5, 6}},
      // Percent-normalised like rules (RFC mode).
      {"/caf\xc3\xa9/menu", "train-ai=n@8", {8}},
      // The longest match expresses nothing: nothing applies.
      {"/bad/x", "", {9}},
  };
  for (const Case& c : cases) {
    const Preferences p = robots.PreferencesFor("Bot", c.url);
    EXPECT_TRUE(p.crawl.allowed) << c.url;
    EXPECT_EQ(Describe(p.content_usage), c.content_usage) << c.url;
    EXPECT_EQ(p.content_usage_lines, c.lines) << c.url;
  }
}

TEST(PreferencesFor, ContentSignalConflictsResolveToNo) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "User-agent: *\nContent-Signal: ai-train=yes, search=no\n"
      "Content-Signal: ai-train=no, ai-input=yes, search=yes\n");
  EXPECT_EQ(Describe(robots.PreferencesFor("Bot", "/").content_signal, true),
            "ai-input=yes@3,ai-train=no@3,search=no@2");
}

TEST(PreferencesFor, LicenseIsFileWide) {
  const RobotsTxt robots = RobotsTxt::Parse(
      "License: https://example.com/license.xml\n"
      "User-agent: *\nDisallow: /x\n"
      "License: https://example.com/other.xml\n");
  ASSERT_EQ(robots.licenses().size(), 2u);
  EXPECT_EQ(robots.licenses()[1].url, "https://example.com/other.xml");
  EXPECT_EQ(robots.licenses()[1].line, 4);
  for (const char* url : {"/a", "/x"}) {
    const Preferences p = robots.PreferencesFor("Bot", url);
    EXPECT_EQ(p.license, "https://example.com/license.xml") << url;
    EXPECT_EQ(p.license_line, 1) << url;
  }
}

TEST(PreferencesFor, UrllibReadingHasNone) {
  ParseOptions options;
  options.compat = Compat::kUrllib;
  const RobotsTxt robots = RobotsTxt::Parse(
      "License: https://example.com/l.xml\nUser-agent: *\n"
      "Content-Usage: train-ai=n\nContent-Signal: ai-train=no\n",
      options);
  const Preferences p = robots.PreferencesFor("Bot", "/a");
  EXPECT_TRUE(p.crawl.allowed);
  EXPECT_TRUE(p.content_usage.empty());
  EXPECT_TRUE(p.content_signal.empty());
  EXPECT_TRUE(p.license.empty());
  EXPECT_TRUE(robots.licenses().empty());
}

TEST(PreferencesFor, PoliciesHaveNone) {
  EXPECT_FALSE(
      RobotsTxt::DisallowAll().PreferencesFor("Bot", "/").crawl.allowed);
  const Preferences p = RobotsTxt::AllowAll().PreferencesFor("Bot", "/");
  EXPECT_TRUE(p.crawl.allowed);
  EXPECT_TRUE(p.content_usage.empty());
}

// The lines stay where readers of unknown directives found them, and the
// allow/disallow answers are those of the file without them.
TEST(PreferencesParse, MatchingAndUnknownDirectivesUnchanged) {
  const std::string with =
      "License: https://example.com/l.xml\n"
      "User-agent: a\n"
      "Content-Usage: train-ai=n\n"
      "User-agent: b\n"
      "Content-Signal: ai-train=no\n"
      "Disallow: /x\n"
      "User-agent: *\n"
      "Content-Usage: /y train-ai=n\n"
      "Disallow: /z\n";
  const std::string without =
      "\nUser-agent: a\n\nUser-agent: b\n\nDisallow: /x\n"
      "User-agent: *\n\nDisallow: /z\n";
  const RobotsTxt a = RobotsTxt::Parse(with);
  const RobotsTxt b = RobotsTxt::Parse(without);
  for (const char* agent : {"a", "b", "c"}) {
    for (const char* url : {"/x", "/y", "/z", "/"}) {
      const MatchResult ra = a.Check(agent, url);
      const MatchResult rb = b.Check(agent, url);
      EXPECT_EQ(ra.allowed, rb.allowed) << agent << url;
      EXPECT_EQ(ra.line, rb.line) << agent << url;
      EXPECT_EQ(ra.decision, rb.decision) << agent << url;
    }
  }
  std::vector<std::string> keys;
  for (const UnknownDirective& u : a.unknown_directives()) {
    keys.push_back(u.key + "@" + std::to_string(u.line));
  }
  EXPECT_EQ(keys,
            (std::vector<std::string>{"License@1", "Content-Usage@3",
                                      "Content-Signal@5", "Content-Usage@8"}));
  ASSERT_EQ(a.groups().size(), 3u);
  EXPECT_TRUE(a.groups()[0].shares_rules_with_next);
  EXPECT_EQ(a.groups()[0].content_usages.size(), 1u);
  EXPECT_EQ(a.groups()[1].content_signals.size(), 1u);
  EXPECT_EQ(a.groups()[2].content_usages.at(0).path, "/y");
}

TEST(PreferencesLint, EachCodeOnItsLine) {
  const std::string body =
      "Content-Usage: train-ai=n\n"                 // 1 outside group
      "Content-Signal: ai-train=no\n"               // 2 outside group
      "License: /license.xml\n"                     // 3 relative
      "User-agent: *\n"                             // 4
      "Disallow: /private/\n"                       // 5
      "Content-Usage: ai=n, tdm=y\n"                // 6 obsolete x2
      "Content-Usage: train-ai=no\n"                // 7 value
      "Content-Usage: Train-AI=n\n"                 // 8 not a dictionary
      "Content-Usage: /private/ train-ai=n\n"       // 9 disallowed anyway
      "Content-Signal: ai-train=nope\n"             // 10 invalid signal
      "Content-Usage: /\n"                          // 11 no statement
      "Content-Usage: /private/x/ search=y\n"       // 12 disallowed anyway
      "Content-Usage: /open/ search=y\n"            // 13 fine
      "License: https://example.com/license.xml\n"  // 14 fine
      "\n"
      "User-agent: GPTBot\n"         // 16
      "Disallow: /\n"                // 17
      "Content-Usage: train-ai=n\n"  // 18 disallowed anyway
      "\n"
      "User-agent: OtherBot\n"        // 20
      "Disallow: /\n"                 // 21
      "Allow: /public/\n"             // 22
      "Content-Usage: train-ai=n\n";  // 23 fine: /public/
  const std::set<std::pair<int, std::string>> want = {
      {1, "content-usage-outside-group"},
      {2, "content-signal-outside-group"},
      {3, "relative-license"},
      {6, "obsolete-aipref-vocabulary"},
      {7, "invalid-preference-value"},
      {8, "invalid-content-usage"},
      {9, "preference-on-disallowed-path"},
      {10, "invalid-content-signal"},
      {11, "invalid-content-usage"},
      {12, "preference-on-disallowed-path"},
      {18, "preference-on-disallowed-path"},
  };
  EXPECT_EQ(Codes(body), want);
  int obsolete_on_6 = 0;
  for (const Diagnostic& d : LintRobotsTxt(body)) {
    if (d.line == 6) ++obsolete_on_6;
    if (d.code == "preference-on-disallowed-path") {
      EXPECT_EQ(d.severity, Severity::kInfo);
    }
    if (d.code.find("content") != std::string::npos ||
        d.code.find("preference") != std::string::npos ||
        d.code.find("license") != std::string::npos ||
        d.code.find("aipref") != std::string::npos) {
      EXPECT_FALSE(d.message.empty()) << d.code;
    }
  }
  EXPECT_EQ(obsolete_on_6, 2);  // ai and tdm.
}

}  // namespace
}  // namespace robotscan::robots
