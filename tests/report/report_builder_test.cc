// Every figure of the report on the hand-written StudyFixture, derived by
// hand from its rows (report_fixture.cc), plus the classification helpers.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "report_fixture.h"
#include "robotscan/report/report.h"
#include "robotscan/robots/lint.h"
#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::report {
namespace {

using testing::MakeFetch;
using testing::MakeTempDir;
using testing::StudyFixture;
using testing::WriteDatabase;

constexpr std::size_t kAll = kStratumCount - 1;

std::size_t O(Outcome outcome) { return static_cast<std::size_t>(outcome); }

// The outcome the report gives one row: the only column of part 1 that
// counts it.
Outcome OutcomeOf(const storage::LatestFetchRow& row) {
  ReportBuilder builder;
  builder.AddFetch(row);
  const Report report = builder.Finish({});
  Outcome found = Outcome::kNoResponse;
  int columns = 0;
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    if (report.outcomes.counts[kAll][o] == 0) continue;
    found = static_cast<Outcome>(o);
    columns += static_cast<int>(report.outcomes.counts[kAll][o]);
  }
  EXPECT_EQ(columns, 1);
  return found;
}
std::size_t E(NetworkError error) { return static_cast<std::size_t>(error); }

void ExpectShare(const Share& share, std::int64_t count,
                 std::int64_t denominator, const std::string& what) {
  EXPECT_EQ(share.count, count) << what;
  EXPECT_EQ(share.denominator, denominator) << what;
}

class StudyReportTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    path_ = MakeTempDir() + "/crawl.sqlite";
    WriteDatabase(path_, StudyFixture(), /*compress_bodies=*/GetParam());
    const storage::Status status =
        BuildReportFromDatabase(path_, ReportOptions{}, &report_);
    ASSERT_TRUE(status.ok()) << status.message();
  }
  std::string path_;
  Report report_;
};

TEST_P(StudyReportTest, OutcomesByStratum) {
  const OutcomeTable& t = report_.outcomes;
  EXPECT_EQ(report_.domains, 14);
  EXPECT_EQ(report_.first_fetched_at, "2026-11-30T11:00:00.000Z");  // d.com
  EXPECT_EQ(report_.last_fetched_at, "2026-11-30T12:30:00.000Z");   // n.com
  const std::array<std::int64_t, kStratumCount> domains = {4, 11, 12, 13, 14};
  EXPECT_EQ(t.domains, domains);
  // Top 1k: a, b (rules), c (404), d (DNS).
  EXPECT_EQ(t.counts[0][O(Outcome::kWithRules)], 2);
  EXPECT_EQ(t.counts[0][O(Outcome::kAllowAll)], 1);
  EXPECT_EQ(t.counts[0][O(Outcome::kNoResponse)], 1);
  EXPECT_EQ(t.no_response_by_error[0][E(NetworkError::kDns)], 1);
  // Top 10k adds e (403), h (no rules), j (redirects), k, jobs.ch, m, n.
  EXPECT_EQ(t.counts[1][O(Outcome::kHttpForbidden)], 1);
  EXPECT_EQ(t.counts[1][O(Outcome::kNoRules)], 1);
  EXPECT_EQ(t.counts[1][O(Outcome::kRedirectUnresolved)], 1);
  EXPECT_EQ(t.counts[1][O(Outcome::kWithRules)], 6);
  EXPECT_EQ(t.counts[2][O(Outcome::kHttpDefer)], 1);
  EXPECT_EQ(t.counts[3][O(Outcome::kNotRobotsTxt)], 1);
  EXPECT_EQ(t.counts[3][O(Outcome::kHttpDefer)], 1);
  // All adds the unranked i.com (timeout).
  const std::array<std::int64_t, kOutcomeCount> all = {
      /*no response*/ 2, /*redirect*/ 1,
      /*forbidden*/ 1,   /*defer*/ 1,
      /*allow all*/ 1,   /*other*/ 0,
      /*not robots*/ 1,  /*no rules*/ 1,
      /*rules*/ 6};
  EXPECT_EQ(t.counts[kAll], all);
  EXPECT_EQ(t.no_response_by_error[kAll][E(NetworkError::kDns)], 1);
  EXPECT_EQ(t.no_response_by_error[kAll][E(NetworkError::kTimeout)], 1);
  EXPECT_EQ(t.no_response_by_error[3][E(NetworkError::kTimeout)], 0);
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    std::int64_t sum = 0;
    for (std::int64_t n : t.counts[s]) sum += n;
    EXPECT_EQ(sum, t.domains[s]) << StratumName(s);
  }
}

TEST_P(StudyReportTest, WalledGardens) {
  const WalledGardens& w = report_.walled_gardens;
  ExpectShare(w.sites, 1, 7, "walled gardens");
  ExpectShare(w.bingbot_allowed, 0, 1, "bingbot");
  ExpectShare(w.duckduckbot_allowed, 0, 1, "duckduckbot");
  ASSERT_EQ(w.best_ranked.size(), 1u);
  EXPECT_EQ(w.best_ranked[0].domain, "a.com");
  EXPECT_EQ(w.best_ranked[0].rank, 1);
  EXPECT_FALSE(w.best_ranked[0].bingbot_allowed);
}

TEST_P(StudyReportTest, BannedAgents) {
  const BannedAgents& b = report_.banned_agents;
  EXPECT_EQ(b.files, 7);
  EXPECT_EQ(b.distinct_tokens, 3);  // gptbot, ccbot, googlebot
  EXPECT_EQ(b.untracked_mentions, 0);
  ASSERT_EQ(b.most_banned.size(), 1u);
  EXPECT_EQ(b.most_banned[0].token, "gptbot");
  ExpectShare(b.most_banned[0].full_ban, 2, 7, "gptbot full");
  EXPECT_EQ(b.most_banned[0].named, 2);
  ASSERT_EQ(b.most_restricted.size(), 1u);
  EXPECT_EQ(b.most_restricted[0].token, "ccbot");
  ExpectShare(b.most_restricted[0].partial, 2, 7, "ccbot partial");
}

TEST_P(StudyReportTest, BlockingMatrix) {
  const BlockingMatrix& m = report_.blocking;
  EXPECT_EQ(m.files, 7);
  ASSERT_EQ(m.crawlers.size(), DefaultCrawlers().size());
  struct Expected {
    const char* agent;
    std::int64_t full, partial, singled_out, named;
  };
  // a.com's * bans everyone but Googlebot; jobs.ch, m.com and n.com's *
  // groups disallow a path; b.com and k.com ban GPTBot and restrict CCBot.
  const Expected expected[] = {
      {"Googlebot", 0, 3, 0, 1},  {"Bingbot", 1, 3, 0, 0},
      {"GPTBot", 3, 3, 2, 2},     {"CCBot", 1, 5, 0, 2},
      {"ClaudeBot", 1, 3, 0, 0},  {"MJ12bot", 1, 3, 0, 0},
      {"ia_archiver", 1, 3, 0, 0}};
  for (const Expected& e : expected) {
    const auto it = std::find_if(
        m.crawlers.begin(), m.crawlers.end(),
        [&](const CrawlerBlocking& c) { return c.agent == e.agent; });
    ASSERT_NE(it, m.crawlers.end()) << e.agent;
    ExpectShare(it->full, e.full, 7, std::string(e.agent) + " full");
    ExpectShare(it->partial, e.partial, 7, std::string(e.agent) + " partial");
    ExpectShare(it->singled_out, e.singled_out, 7,
                std::string(e.agent) + " singled out");
    ExpectShare(it->named, e.named, 7, std::string(e.agent) + " named");
  }
}

TEST_P(StudyReportTest, CommentFindings) {
  const CommentFindings& c = report_.comments;
  ExpectShare(c.files_with_comments, 6, 7, "files with comments");
  // b.com and k.com; "jobs.ch" only names itself.
  ExpectShare(c.files_with_findings, 2, 7, "files with findings");
  EXPECT_EQ(c.distinct_findings, 1);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].text, "We're hiring!\nVisit our careers page");
  EXPECT_EQ(c.findings[0].domain, "b.com");
  EXPECT_EQ(c.findings[0].rank, 2);
  EXPECT_EQ(c.findings[0].domains, 2);
}

TEST_P(StudyReportTest, FileFacts) {
  const FileFacts& f = report_.facts;
  EXPECT_EQ(f.files, 7);
  std::vector<std::int64_t> sizes;
  std::map<std::string, std::int64_t> codes;
  for (const storage::FetchRecord& r : StudyFixture()) {
    if (r.http_status != 200 || r.domain == "g.com") continue;
    sizes.push_back(static_cast<std::int64_t>(r.body.size()));
    std::set<std::string> distinct;
    for (const auto& d : robots::LintRobotsTxt(r.body)) distinct.insert(d.code);
    for (const auto& code : distinct) ++codes[code];
  }
  ASSERT_EQ(sizes.size(), 7u);
  std::sort(sizes.begin(), sizes.end());
  EXPECT_EQ(f.size_p50, sizes[3]);  // Nearest rank: ceil(0.5 * 7) = 4th.
  EXPECT_EQ(f.size_p90, sizes[6]);
  EXPECT_EQ(f.size_p99, sizes[6]);
  EXPECT_EQ(f.size_max, 512000);
  ASSERT_EQ(f.size_buckets.size(), 7u);
  EXPECT_EQ(f.size_buckets[0].share.count, 0);
  // a (57 B), h (45 B), jobs.ch (80 B), m (82 B) are at most 100 bytes;
  // b and k (the 136-byte shared body) are in 101 B-1 KiB.
  EXPECT_EQ(f.size_buckets[1].share.count, 4);
  EXPECT_EQ(f.size_buckets[2].share.count, 2);
  EXPECT_EQ(f.size_buckets[6].share.count, 1);  // n.com
  ExpectShare(f.truncated, 1, 7, "truncated");
  ExpectShare(f.lf, 5, 7, "lf");
  ExpectShare(f.crlf, 1, 7, "crlf");
  ExpectShare(f.cr, 1, 7, "cr");
  ExpectShare(f.mixed_endings, 0, 7, "mixed");
  ExpectShare(f.no_line_end, 0, 7, "none");
  ExpectShare(f.bom, 1, 7, "bom");
  ExpectShare(f.not_utf8, 1, 7, "not utf-8");
  ExpectShare(f.crawl_delay, 1, 7, "crawl-delay");
  ExpectShare(f.crawl_delay_values[3].share, 1, 1, "delay 5-10 s");
  EXPECT_EQ(f.crawl_delay_values[3].label, "5-10 s");
  ExpectShare(f.sitemap, 1, 7, "sitemap");
  EXPECT_EQ(f.sitemap_lines, 1);
  ExpectShare(f.sitemaps_per_file[0].share, 6, 7, "0 sitemaps");
  ExpectShare(f.sitemaps_per_file[1].share, 1, 7, "1 sitemap");
  ExpectShare(f.host, 1, 7, "host");
  ExpectShare(f.clean_param, 1, 7, "clean-param");
  ExpectShare(f.unknown_directive, 1, 7, "unknown directive");
  ASSERT_EQ(f.unknown_keys.size(), 1u);
  EXPECT_EQ(f.unknown_keys[0].key, "foo");
  EXPECT_EQ(f.unknown_keys[0].count, 1);
  ASSERT_FALSE(codes.empty());
  ASSERT_EQ(f.lint_codes.size(), codes.size());
  for (const KeyCount& code : f.lint_codes) {
    EXPECT_EQ(code.count, codes[code.key]) << code.key;
  }
  const std::vector<std::pair<std::string, std::int64_t>> tokens = {
      {"ccbot", 2}, {"gptbot", 2}, {"googlebot", 1}};
  ASSERT_EQ(f.agent_tokens.size(), tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    EXPECT_EQ(f.agent_tokens[i].key, tokens[i].first);
    EXPECT_EQ(f.agent_tokens[i].count, tokens[i].second);
  }
  // 2xx bodies: a, b, g (HTML), h, k, jobs.ch, m, n.
  EXPECT_EQ(f.two_xx_bodies, 8);
  ASSERT_EQ(f.shared_files.size(), 1u);
  ExpectShare(f.shared_files[0].domains, 2, 8, "template");
  EXPECT_EQ(f.shared_files[0].example_domain, "b.com");
  EXPECT_EQ(f.shared_files[0].example_rank, 2);
  EXPECT_EQ(f.shared_files[0].sha256.size(), 64u);
  EXPECT_EQ(f.shared_files[0].excerpt.substr(0, 18), "User-agent: GPTBot");
}

TEST_P(StudyReportTest, SkippedRanksAndCrawlDelayLines) {
  // Ranks present: 1, 2, 50, 500 | 1500, 2000, 3000, 4000, 6000, 7000, 8000
  // | 20000 | 200000 (the highest).
  const std::array<std::int64_t, kStratumCount> missing = {
      1000 - 4, 10000 - 11, 100000 - 12, 200000 - 13, 200000 - 13};
  EXPECT_EQ(report_.outcomes.missing_ranks, missing);
  EXPECT_EQ(report_.outcomes.missing_rank_examples,
            (std::vector<std::int64_t>{3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  // jobs.ch's one Crawl-delay is numeric and in a group.
  ExpectShare(report_.facts.crawl_delay_outside_group, 0, 7, "outside");
  ExpectShare(report_.facts.crawl_delay_not_a_number, 0, 7, "not a number");
  ExpectShare(report_.facts.crawl_delay_values[7].share, 0, 1, "bucket");
}

TEST_P(StudyReportTest, EveryReadingAgreesOnTheseFiles) {
  // No file of the fixture uses what CPython reads differently (jobs.ch's
  // BOM is before a comment line), so the three readings agree.
  const ParserSensitivity& s = report_.sensitivity;
  ASSERT_TRUE(s.computed);
  EXPECT_EQ(s.files, 7);
  EXPECT_EQ(s.files_differ, 0);
  EXPECT_TRUE(s.changes.empty());
  for (const Share& share : s.walled_gardens) {
    ExpectShare(share, 1, 7, "walled gardens");
  }
  for (std::size_t i = 0; i < s.crawlers.size(); ++i) {
    for (std::size_t r = 0; r < kReadingCount; ++r) {
      EXPECT_EQ(s.crawlers[i].full[r].count,
                report_.blocking.crawlers[i].full.count)
          << s.crawlers[i].agent;
      EXPECT_EQ(s.crawlers[i].singled_out[r].count,
                report_.blocking.crawlers[i].singled_out.count)
          << s.crawlers[i].agent;
    }
  }
  ASSERT_EQ(s.most_banned[2].size(), 1u);
  EXPECT_EQ(s.most_banned[2][0].token, "gptbot");
  EXPECT_EQ(s.most_banned[2][0].full_ban.count, 2);
}

INSTANTIATE_TEST_SUITE_P(PlainAndCompressedBodies, StudyReportTest,
                         ::testing::Bool());

TEST(OutcomeTest, CategoriesFromStatusErrorAndBody) {
  struct Case {
    const char* id;
    storage::FetchRecord record;
    Outcome expected;
  };
  const Case cases[] = {
      {"401", MakeFetch("x", 1, 401), Outcome::kHttpForbidden},
      {"429", MakeFetch("x", 1, 429), Outcome::kHttpDefer},
      {"500", MakeFetch("x", 1, 500), Outcome::kHttpDefer},
      {"410", MakeFetch("x", 1, 410), Outcome::kAllowAll},
      {"loop",
       MakeFetch("x", 1, 302, "", "", storage::ErrorClass::kRedirectLoop),
       Outcome::kRedirectUnresolved},
      {"reset", MakeFetch("x", 1, 0, "", "", storage::ErrorClass::kReset),
       Outcome::kNoResponse},
      {"100", MakeFetch("x", 1, 100), Outcome::kOtherStatus},
      {"301 without location", MakeFetch("x", 1, 301),
       Outcome::kRedirectUnresolved},
      {"json", MakeFetch("x", 1, 200, "{}", "application/json"),
       Outcome::kNotRobotsTxt},
      {"html sniffed", MakeFetch("x", 1, 200, "\n <html><p>x", "text/plain"),
       Outcome::kNotRobotsTxt},
      {"empty", MakeFetch("x", 1, 200, ""), Outcome::kNoRules},
      {"sitemap only", MakeFetch("x", 1, 200, "Sitemap: /s.xml"),
       Outcome::kNoRules},
      {"rules", MakeFetch("x", 1, 200, "User-agent: *\nDisallow: /x"),
       Outcome::kWithRules},
      {"no content type", MakeFetch("x", 1, 200, "User-agent: *\nAllow: /", ""),
       Outcome::kWithRules},
  };
  for (const Case& c : cases) {
    storage::LatestFetchRow row;
    row.http_status = c.record.http_status;
    row.error = c.record.error_class;
    row.body = c.record.body;
    row.content_type = c.record.content_type;
    EXPECT_EQ(OutcomeOf(row), c.expected) << c.id;
  }
}

TEST(MentionsJobsTest, WordsAndStems) {
  EXPECT_TRUE(MentionsJobs("We are HIRING engineers"));
  EXPECT_TRUE(MentionsJobs("see /careers"));
  EXPECT_TRUE(MentionsJobs("Jobs: https://x/jobs"));
  EXPECT_TRUE(MentionsJobs("recruiting SEO people"));
  EXPECT_FALSE(MentionsJobs("snobjob and jobber"));
  EXPECT_FALSE(MentionsJobs("robots file for example.com"));
  EXPECT_FALSE(MentionsJobs(""));
}

TEST(ReportBuilderTest, BoundedKeyMapsCountWhatTheyCannotTrack) {
  ReportOptions options;
  options.max_distinct_keys = 2;
  options.crawlers = {"Googlebot"};
  ReportBuilder builder(options);
  storage::LatestFetchRow row;
  row.http_status = 200;
  for (int i = 0; i < 4; ++i) {
    row.domain = "d" + std::to_string(i) + ".com";
    row.rank = i + 1;
    row.body = "User-agent: agent" +
               std::string(1, static_cast<char>('a' + i)) + "\nDisallow: /\n";
    row.body_sha256 = "sha" + std::to_string(i);
    builder.AddFetch(row);
  }
  const Report report = builder.Finish({});
  EXPECT_EQ(report.banned_agents.distinct_tokens, 2);
  EXPECT_EQ(report.banned_agents.untracked_mentions, 2);
  EXPECT_EQ(report.blocking.files, 4);
  EXPECT_EQ(report.blocking.crawlers[0].full.count, 0);  // No * group.
}

TEST(ReportBuilderTest, CommentFindingsStopAtTheirBudget) {
  ReportOptions options;
  options.max_comment_findings = 2;
  ReportBuilder builder(options);
  storage::LatestFetchRow row;
  row.http_status = 200;
  for (int i = 0; i < 5; ++i) {
    row.domain = "d" + std::to_string(i) + ".com";
    row.rank = i + 1;
    // Distinct adverts that share a long prefix must stay distinct.
    row.body = "# " + std::string(150, 'x') + " we're hiring: team " +
               std::to_string(i % 3) + "\nUser-agent: *\nDisallow: /x\n";
    row.body_sha256 = "sha" + std::to_string(i);
    builder.AddFetch(row);
  }
  const Report report = builder.Finish({});
  EXPECT_EQ(report.comments.files_with_findings.count, 5);
  EXPECT_EQ(report.comments.distinct_findings, 2);   // Teams 0 and 1.
  EXPECT_EQ(report.comments.untracked_findings, 1);  // Team 2 (d2.com).
  ASSERT_EQ(report.comments.findings.size(), 2u);
  EXPECT_EQ(report.comments.findings[0].domain, "d0.com");
  EXPECT_EQ(report.comments.findings[0].domains, 2);  // d0, d3.
  EXPECT_EQ(report.comments.findings[1].domain, "d1.com");
  EXPECT_EQ(report.comments.findings[1].domains, 2);  // d1, d4.
}

TEST(ReportBuilderTest, CacheEvictionGivesTheSameFigures) {
  std::vector<storage::LatestFetchRow> rows;
  for (int i = 0; i < 30; ++i) {
    storage::LatestFetchRow row;
    row.domain = "d" + std::to_string(i) + ".com";
    row.rank = i + 1;
    row.http_status = 200;
    row.body = i % 3 == 0
                   ? "User-agent: *\nDisallow: /\n\n"
                     "User-agent: Googlebot\nAllow: /\n"
                   : "User-agent: GPTBot\nDisallow: /\n# jobs: apply here\n";
    row.body_sha256 = i % 3 == 0 ? "one" : "two";
    rows.push_back(row);
  }
  ReportOptions small;
  small.max_cached_bodies = 1;
  ReportBuilder evicting(small);
  ReportBuilder caching{ReportOptions{}};
  for (const auto& row : rows) {
    evicting.AddFetch(row);
    caching.AddFetch(row);
  }
  const Report a = evicting.Finish({});
  const Report b = caching.Finish({});
  EXPECT_EQ(a.banned_agents.most_banned[0].full_ban.count, 20);
  EXPECT_EQ(b.banned_agents.most_banned[0].full_ban.count, 20);
  EXPECT_EQ(a.comments.files_with_findings.count, 20);
  EXPECT_EQ(b.comments.findings[0].domains, 20);
  EXPECT_EQ(a.walled_gardens.sites.count, b.walled_gardens.sites.count);
  EXPECT_EQ(a.walled_gardens.sites.count, 10);
}

// Second edition, fix 2: a body the linter calls html-body is not a
// robots.txt, whatever its Content-Type, so it is in no denominator of
// parts 2-6 and its tags are no "unknown directives".
TEST(SecondEditionFixes, PagesTheLinterCallsHtmlAreNotRobotsTxt) {
  const std::string block_page =
      "<meta name=\"viewport\" content=\"width=device-width\">"
      "<iframe src=\"https://parked.example/?q=robots\" width=\"100%\">"
      "</iframe>";
  const std::string path = MakeTempDir() + "/crawl.sqlite";
  WriteDatabase(path,
                {MakeFetch("a.com", 1, 200, block_page),
                 MakeFetch("b.com", 2, 200, block_page),
                 MakeFetch("c.com", 3, 200, "<!-- --><script>x()</script>"),
                 MakeFetch("d.com", 4, 200, "User-agent: *\nDisallow: /x\n")});
  const Report report = testing::BuildReport(path);
  const auto& all = report.outcomes.counts[kAll];
  EXPECT_EQ(all[O(Outcome::kNotRobotsTxt)], 3);
  EXPECT_EQ(all[O(Outcome::kNoRules)], 0);
  EXPECT_EQ(report.facts.files, 1);
  EXPECT_TRUE(report.facts.unknown_keys.empty());
  for (const KeyCount& code : report.facts.lint_codes) {
    EXPECT_NE(code.key, "html-body");
  }
  storage::LatestFetchRow row;
  row.http_status = 200;
  row.content_type = "text/plain";
  row.body = block_page;
  EXPECT_EQ(OutcomeOf(row), Outcome::kNotRobotsTxt);
}

// Fix 3: only blocks that read as adverts count, and each is listed.
TEST(SecondEditionFixes, OnlyCommentsThatReadAsAdvertsCount) {
  const std::string rules = "User-agent: *\nDisallow: /x\n";
  const std::string path = MakeTempDir() + "/crawl.sqlite";
  WriteDatabase(
      path,
      {MakeFetch("a.com", 1, 200, "# Disallow: /Jobs/\n" + rules),
       MakeFetch("b.com", 2, 200, "# Jobs specific rules\n" + rules),
       MakeFetch("c.com", 3, 200, "# generated by cron job\n" + rules),
       MakeFetch("d.com", 4, 200, "# Allow job-search-sitemap.xml\n" + rules),
       MakeFetch("e.com", 5, 200, "# Jobs sitemap: see /jobs.xml\n" + rules),
       MakeFetch("f.com", 6, 200,
                 "# We're hiring SEO people! https://f.com/careers\n" + rules),
       MakeFetch("g.com", 7, 200,
                 "# Looking for a job? Mail jobs@g.com\n" + rules),
       MakeFetch("h.com", 8, 200,
                 "# Careers: https://h.com/careers\n" + rules)});
  ReportOptions options;
  options.top = 1;  // Every advert is listed even so.
  const Report report = testing::BuildReport(path, options);
  EXPECT_EQ(report.comments.files_with_findings.count, 3);
  ASSERT_EQ(report.comments.findings.size(), 3u);
  EXPECT_EQ(report.comments.findings[0].domain, "f.com");
  EXPECT_EQ(report.comments.findings[1].domain, "g.com");
  EXPECT_EQ(report.comments.findings[2].domain, "h.com");
  EXPECT_EQ(report.comments.findings[2].text, "Careers: https://h.com/careers");
}

TEST(ReadsAsJobAdvertTest, AdvertsAndLookAlikes) {
  struct Case {
    const char* text;
    bool advert;
  };
  const Case cases[] = {
      {"we're hiring!\nvisit our careers page", true},
      {"jobs: https://x/jobs", true},
      {"see /careers", true},
      {"recruiting seo people", true},
      {"join our team", true},
      {"looking for a job in seo? mail jobs@", true},
      {"disallow: /jobs/", false},
      {"jobs specific rules", false},
      {"generated by cron job", false},
      {"nightly batch jobs run at 3am", false},
      {"allow job-search-sitemap.xml", false},
      {"jobs sitemap: https://x/jobs.xml", false},
      {"user-agent: jobbot\ndisallow: /", false},
      {"careers section", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ReadsAsJobAdvert(c.text), c.advert) << c.text;
  }
}

// Fix 4: a cut token says what it was written as.
TEST(SecondEditionFixes, CutTokensSayHowTheyWereWritten) {
  const std::string path = MakeTempDir() + "/crawl.sqlite";
  WriteDatabase(
      path, {MakeFetch("a.com", 1, 200, "User-agent: MJ12bot\nDisallow: /\n"),
             MakeFetch("b.com", 2, 200, "User-agent: MJ12bot\nDisallow: /\n"),
             MakeFetch("c.com", 3, 200, "User-agent: mj\nDisallow: /\n"),
             MakeFetch("d.com", 4, 200, "User-agent: GPTBot\nDisallow: /\n")});
  const Report report = testing::BuildReport(path);
  ASSERT_FALSE(report.banned_agents.most_banned.empty());
  const AgentRestriction& mj = report.banned_agents.most_banned[0];
  EXPECT_EQ(mj.token, "mj");
  EXPECT_EQ(mj.full_ban.count, 3);
  EXPECT_EQ(mj.written_as, "MJ12bot");
  EXPECT_EQ(report.banned_agents.most_banned[1].written_as, "");  // gptbot
  EXPECT_EQ(report.facts.agent_tokens[0].written_as, "MJ12bot");
}

// Fix 5: ranks the crawl skipped, and Crawl-delay lines wherever they are.
TEST(SecondEditionFixes, RanksWithoutADomainAreCounted) {
  const std::string path = MakeTempDir() + "/crawl.sqlite";
  WriteDatabase(path,
                {MakeFetch("a.com", 1, 404), MakeFetch("b.com", 2, 404),
                 MakeFetch("c.com", 3, 404), MakeFetch("e.com", 5, 404),
                 MakeFetch("g.com", 1200, 404), MakeFetch("u.com", 0, 404)});
  const Report report = testing::BuildReport(path);
  EXPECT_EQ(report.outcomes.domains[0], 4);           // Top 1k: ranks 1-5.
  EXPECT_EQ(report.outcomes.missing_ranks[0], 996);   // 4 and 6-1,000.
  EXPECT_EQ(report.outcomes.missing_ranks[1], 1195);  // 1..1200, 5 present.
  EXPECT_EQ(report.outcomes.missing_ranks[kAll], 1195);
  ASSERT_FALSE(report.outcomes.missing_rank_examples.empty());
  EXPECT_EQ(report.outcomes.missing_rank_examples[0], 4);
  EXPECT_EQ(report.outcomes.missing_rank_examples[1], 6);
}

TEST(SecondEditionFixes, CrawlDelayCountsEveryLine) {
  const std::string path = MakeTempDir() + "/crawl.sqlite";
  WriteDatabase(path,
                {MakeFetch("a.com", 1, 200,
                           "Crawl-delay: 5\nUser-agent: *\nDisallow: /x\n"),
                 MakeFetch("b.com", 2, 200,
                           "User-agent: *\nCrawl-delay: fast\nDisallow: /y\n"),
                 MakeFetch("c.com", 3, 200,
                           "User-agent: *\nCrawl-delay: 20\nDisallow: /z\n"),
                 MakeFetch("d.com", 4, 200, "User-agent: *\nDisallow: /w\n")});
  const Report report = testing::BuildReport(path);
  const FileFacts& f = report.facts;
  ExpectShare(f.crawl_delay, 3, 4, "files with a Crawl-delay line");
  ExpectShare(f.crawl_delay_outside_group, 1, 4, "before any group");
  ExpectShare(f.crawl_delay_not_a_number, 1, 4, "not a number");
  ASSERT_EQ(f.crawl_delay_values.size(), 8u);
  ExpectShare(f.crawl_delay_values[2].share, 1, 3, "1-5 s (a.com)");
  ExpectShare(f.crawl_delay_values[4].share, 1, 3, "10-30 s (c.com)");
  EXPECT_EQ(f.crawl_delay_values[7].label, "not a number");
  ExpectShare(f.crawl_delay_values[7].share, 1, 3, "b.com");
}

TEST(LatestFetchReaderTest, RejectsAFileWithoutTheView) {
  const std::string dir = MakeTempDir();
  auto reader = storage::LatestFetchReader::Open(dir + "/missing.sqlite");
  EXPECT_FALSE(reader.ok());
}

}  // namespace
}  // namespace robotscan::report
