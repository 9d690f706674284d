// Renderers: every format carries the figures and their denominators, JSON
// holds every number, and crawled content cannot escape its context.
#include "robotscan/report/render.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "hostile_fixture.h"
#include "report_fixture.h"
#include "robotscan/report/report.h"

namespace robotscan::report {
namespace {

Report BuildFrom(const std::vector<storage::FetchRecord>& records) {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, records);
  Report report;
  const storage::Status status =
      BuildReportFromDatabase(path, ReportOptions{}, &report);
  EXPECT_TRUE(status.ok()) << status.message();
  return report;
}

TEST(RenderJsonTest, HoldsEveryNumberWithItsDenominator) {
  const Report report = BuildFrom(testing::StudyFixture());
  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  EXPECT_EQ(json["domains"], 14);
  EXPECT_EQ(json["compat"], "rfc");
  EXPECT_EQ(json["last_fetched_at"], "2026-11-30T12:30:00.000Z");
  const auto& all = json["outcomes"][kStratumCount - 1];
  EXPECT_EQ(all["stratum"], "all");
  EXPECT_EQ(all["domains"], 14);
  EXPECT_EQ(all["categories"]["robots-txt-with-rules"]["count"], 6);
  EXPECT_EQ(all["categories"]["robots-txt-with-rules"]["denominator"], 14);
  EXPECT_EQ(all["no_response_by_error"]["dns"]["denominator"], 2);
  EXPECT_EQ(json["outcomes"][0]["domains"], 4);
  EXPECT_EQ(json["walled_gardens"]["sites"]["count"], 1);
  EXPECT_EQ(json["walled_gardens"]["sites"]["denominator"], 7);
  EXPECT_EQ(json["walled_gardens"]["best_ranked"][0]["domain"], "a.com");
  EXPECT_EQ(json["banned_agents"]["most_banned"][0]["token"], "gptbot");
  EXPECT_EQ(json["banned_agents"]["most_banned"][0]["full_ban"]["count"], 2);
  const auto& crawlers = json["blocking_matrix"]["crawlers"];
  ASSERT_EQ(crawlers.size(), report.blocking.crawlers.size());
  for (std::size_t i = 0; i < crawlers.size(); ++i) {
    const CrawlerBlocking& c = report.blocking.crawlers[i];
    EXPECT_EQ(crawlers[i]["agent"], c.agent);
    EXPECT_EQ(crawlers[i]["full"]["count"], c.full.count) << c.agent;
    EXPECT_EQ(crawlers[i]["partial"]["count"], c.partial.count) << c.agent;
    EXPECT_EQ(crawlers[i]["singled_out"]["count"], c.singled_out.count);
    EXPECT_EQ(crawlers[i]["named"]["count"], c.named.count);
    EXPECT_EQ(crawlers[i]["full"]["denominator"], 7);
  }
  EXPECT_EQ(json["comment_findings"]["findings"][0]["domains"], 2);
  const auto& facts = json["file_facts"];
  EXPECT_EQ(facts["files"], 7);
  EXPECT_EQ(facts["size_bytes"]["max"], 512000);
  EXPECT_EQ(facts["truncated"]["count"], 1);
  EXPECT_EQ(facts["line_endings"]["crlf"]["count"], 1);
  EXPECT_EQ(facts["bom"]["count"], 1);
  EXPECT_EQ(facts["not_utf8"]["count"], 1);
  EXPECT_EQ(facts["crawl_delay"]["count"], 1);
  EXPECT_EQ(facts["sitemap_lines"], 1);
  EXPECT_EQ(facts["shared_files"][0]["domains"]["count"], 2);
  EXPECT_EQ(facts["shared_files"][0]["domains"]["denominator"], 8);
  EXPECT_EQ(facts["unknown_keys"][0]["key"], "foo");
}

TEST(RenderTextTest, NamesDenominatorsAndFigures) {
  const Report report = BuildFrom(testing::StudyFixture());
  for (const Format format : {Format::kText, Format::kMarkdown}) {
    const std::string text = RenderReport(report, format);
    EXPECT_NE(text.find("14 domains in the crawl database"), std::string::npos);
    EXPECT_NE(text.find("Fetched between 2026-11-30T11:00:00.000Z and "
                        "2026-11-30T12:30:00.000Z"),
              std::string::npos);
    EXPECT_NE(text.find("1 of 7 robots.txt files (14.3%)"), std::string::npos);
    EXPECT_NE(text.find("gptbot"), std::string::npos);
    EXPECT_NE(text.find("GPTBot"), std::string::npos);
    EXPECT_NE(text.find("3 (42.9%)"), std::string::npos);  // GPTBot full.
    EXPECT_NE(text.find("robots.txt files"), std::string::npos);
    EXPECT_NE(text.find("5-10 s"), std::string::npos);
    EXPECT_NE(text.find("Visit our careers page"), std::string::npos);
    // Every table states its denominator.
    std::size_t denominators = 0;
    const std::string table_mark =
        format == Format::kText ? "[denominator: " : "(denominator: ";
    for (std::size_t at = text.find(table_mark); at != std::string::npos;
         at = text.find(table_mark, at + 1)) {
      ++denominators;
    }
    // 15 tables of parts 1-6, the two of part 4b (the registry), the
    // skipped-ranks table (the fixture's ranks have gaps), the five of
    // part 7 and the four of part 9.
    EXPECT_EQ(denominators, 27u) << static_cast<int>(format);
  }
}

// The report names the top list each crawl read (crawl_run.list_*), in
// every text format; runs recorded without provenance add nothing.
TEST(RenderTextTest, PrintsTheTopListsProvenance) {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, testing::StudyFixture());
  {
    auto store = storage::CrawlStore::Open(path, {});
    ASSERT_TRUE(store.ok());
    storage::RunInfo info;
    info.started_at = "2026-12-01T00:00:00Z";
    info.input = "tranco-K7QJW.csv";
    info.list.source = "tranco";
    info.list.list_id = "K7QJW";
    info.list.date = "2026-12-01";
    info.list.url = "https://tranco-list.eu/top-1m.csv.zip";
    info.list.sha256 = std::string(64, 'c');
    info.list.entries = 10000;
    ASSERT_TRUE(store.value()->BeginRun(info).ok());
    info.input = "mine.csv";
    info.list = storage::ListProvenance();
    info.list.source = "file";
    info.list.sha256 = std::string(64, 'd');
    info.list.entries = 14;
    ASSERT_TRUE(store.value()->BeginRun(info).ok());
  }
  Report report;
  ASSERT_TRUE(BuildReportFromDatabase(path, ReportOptions{}, &report).ok());
  ASSERT_EQ(report.runs.size(), 3u);
  const std::string tranco =
      "Top list of crawl_run 2: tranco list K7QJW of 2026-12-01, 10,000 "
      "entries used, sha256 " +
      std::string(64, 'c') + ", from https://tranco-list.eu/top-1m.csv.zip.";
  const std::string file =
      "Top list of crawl_run 3: file mine.csv, 14 "
      "entries used, sha256 " +
      std::string(64, 'd') + ".";
  for (Format format : {Format::kText, Format::kHtml}) {
    const std::string out = RenderReport(report, format);
    EXPECT_NE(out.find(tranco), std::string::npos) << static_cast<int>(format);
    EXPECT_NE(out.find(file), std::string::npos) << static_cast<int>(format);
    EXPECT_EQ(out.find("crawl_run 1:"), std::string::npos)
        << "the fixture's run has no provenance";
  }
  // Markdown escapes the underscore of crawl_run.
  const std::string markdown = RenderReport(report, Format::kMarkdown);
  EXPECT_NE(markdown.find("Top list of crawl\\_run 2: tranco list K7QJW of "
                          "2026-12-01, 10,000 entries used"),
            std::string::npos);
}

TEST(RenderTextTest, TerminalEscapesAreNeutralised) {
  std::vector<storage::FetchRecord> rows = {testing::MakeFetch(
      "esc.example", 1, 200,
      "# jobs \x1b]0;owned\x07\x1b[2J here\nUser-agent: *\nDisallow: /\n")};
  const Report report = BuildFrom(rows);
  const std::string text = RenderReport(report, Format::kText);
  EXPECT_NE(text.find("jobs"), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\x07'), std::string::npos);
}

// C1 controls too (issue 30): CSI as UTF-8 U+009B and as a raw 0x9B byte
// reach no terminal through the text or Markdown report; HTML and CSV
// replace them with U+FFFD. Non-ASCII text stays.
TEST(RenderTextTest, C1ControlsAreNeutralisedInEveryTextFormat) {
  const Report report = BuildFrom(testing::TerminalControlFixture());
  ASSERT_FALSE(report.comments.findings.empty());
  // The comment is in the report, its controls as '?' (Markdown escapes
  // the brackets).
  const struct {
    Format format;
    const char* comment;
  } kTextFormats[] = {
      {Format::kText,
       "?]0;owned??[2J csi?2J raw?2J del? caf\xc3\xa9 \xe2\x82\xac"},
      {Format::kMarkdown,
       "?\\]0;owned??\\[2J csi?2J raw?2J del? caf\xc3\xa9 \xe2\x82\xac"},
  };
  for (const auto& c : kTextFormats) {
    const std::string text = RenderReport(report, c.format);
    EXPECT_FALSE(testing::HasControlCharacter(text))
        << static_cast<int>(c.format) << "\n"
        << text;
    EXPECT_NE(text.find(c.comment), std::string::npos)
        << static_cast<int>(c.format) << "\n"
        << text;
  }
  const std::string html = RenderReport(report, Format::kHtml);
  EXPECT_FALSE(testing::HasControlCharacter(html));
  EXPECT_NE(html.find("csi\xEF\xBF\xBD"
                      "2J"),
            std::string::npos);
  std::string csv;
  ASSERT_TRUE(RenderCsvTable(report, "job-adverts", &csv));
  std::erase(csv, '\r');  // CSV's own line ends.
  EXPECT_FALSE(testing::HasControlCharacter(csv)) << csv;
  EXPECT_NE(csv.find("csi\xEF\xBF\xBD"
                     "2J"),
            std::string::npos)
      << csv;
  // JSON is exact: the JSON library escapes C0 and keeps U+009B as the
  // character it is (valid JSON); the raw byte, not UTF-8, is replaced.
  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  const std::string comment =
      json["comment_findings"]["findings"][0]["text"].get<std::string>();
  EXPECT_NE(comment.find("\x1b]0;owned\x07\x1b[2J csi\xc2\x9b"
                         "2J raw\xEF\xBF\xBD"
                         "2J"),
            std::string::npos)
      << comment;
}

TEST(RenderHtmlTest, EscapesEveryPieceOfCrawledContent) {
  const Report report = BuildFrom(testing::HostileFixture());
  const std::string html = RenderReport(report, Format::kHtml);
  // The payloads were really in the report's figures...
  ASSERT_FALSE(report.comments.findings.empty());
  ASSERT_FALSE(report.banned_agents.most_banned.empty());
  EXPECT_NE(html.find("&lt;script&gt;document.title=&#39;PWNED&#39;"),
            std::string::npos);
  EXPECT_NE(html.find("&quot;&gt;&lt;img src=x onerror="), std::string::npos);
  // ...and appear nowhere as markup.
  EXPECT_EQ(html.find("<script>document"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("onerror=\"document"), std::string::npos);
  // Exactly one script element: the page's own, with its nonce.
  std::size_t scripts = 0;
  for (std::size_t at = html.find("<script"); at != std::string::npos;
       at = html.find("<script", at + 1)) {
    ++scripts;
  }
  EXPECT_EQ(scripts, 1u);
  EXPECT_NE(html.find("<script nonce=\""), std::string::npos);
  // Self-contained: no URL the browser would fetch.
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("href=\"http"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_NE(html.find("default-src 'none'"), std::string::npos);
}

TEST(RenderHtmlTest, HasChartsAndSortableTables) {
  const std::string html =
      RenderReport(BuildFrom(testing::StudyFixture()), Format::kHtml);
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg class=\"chart\"");
       at != std::string::npos;
       at = html.find("<svg class=\"chart\"", at + 1)) {
    ++charts;
  }
  // Outcomes, agents, matrix, the registry's matrix, sizes, crawl-delay,
  // part 7's readings and part 9's purposes.
  EXPECT_EQ(charts, 8u);
  EXPECT_NE(html.find("<table class=\"sortable\">"), std::string::npos);
  EXPECT_NE(html.find("<rect class=\"bar\""), std::string::npos);
}

// Second edition, fix 1: the blocking chart shows who singles a crawler
// out, not the "partial block" that every file with a * Disallow has.
TEST(SecondEditionRender, BlockingChartShowsSingledOutNotPartial) {
  const std::string rules = "User-agent: *\nDisallow: /wp-admin/\n\n";
  const Report report = BuildFrom(
      {testing::MakeFetch("a.com", 1, 200,
                          rules + "User-agent: GPTBot\nDisallow: /\n"),
       testing::MakeFetch("b.com", 2, 200, rules),
       testing::MakeFetch("c.com", 3, 200, rules),
       testing::MakeFetch("d.com", 4, 200, rules)});
  const std::string html = RenderReport(report, Format::kHtml);
  const std::size_t chart =
      html.find("fully block or single out each crawler</title>");
  ASSERT_NE(chart, std::string::npos);
  const std::string svg =
      html.substr(chart, html.find("</svg>", chart) - chart);
  EXPECT_NE(svg.find("<title>GPTBot: Singled out (own group refuses /, "
                     "Googlebot allowed) 25.0%</title>"),
            std::string::npos);
  EXPECT_NE(svg.find("<title>GPTBot: Full block 25.0%</title>"),
            std::string::npos);
  EXPECT_EQ(svg.find("Partial"), std::string::npos);
  // The table keeps the partial figure, named for what it counts.
  EXPECT_NE(html.find("Some paths disallowed (partial)"), std::string::npos);
}

TEST(SecondEditionRender, CutTokensAndSkippedRanksAreExplained) {
  const Report report =
      BuildFrom({testing::MakeFetch("a.com", 1, 200,
                                    "User-agent: MJ12bot\nDisallow: /\n"),
                 testing::MakeFetch("c.com", 3, 404)});
  for (const Format format : {Format::kText, Format::kHtml}) {
    const std::string text = RenderReport(report, format);
    EXPECT_NE(text.find("mj (from MJ12bot)"), std::string::npos);
    EXPECT_NE(text.find("1 rank of the list has no domain in the database "
                        "(first: 2)"),
              std::string::npos);
  }
  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  EXPECT_EQ(json["banned_agents"]["most_banned"][0]["written_as"], "MJ12bot");
  EXPECT_EQ(json["outcomes"][0]["missing_ranks"], 1);
}

TEST(RenderMarkdownTest, EscapesTableSyntaxAndMarkup) {
  const Report report = BuildFrom(testing::HostileFixture());
  const std::string md = RenderReport(report, Format::kMarkdown);
  EXPECT_EQ(md.find("<script>"), std::string::npos);
  EXPECT_EQ(md.find("<img"), std::string::npos);
  EXPECT_NE(md.find("&lt;script&gt;"), std::string::npos);
}

TEST(EscapeHtmlTest, EscapesTheFiveCharactersAndControls) {
  EXPECT_EQ(EscapeHtml("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(EscapeHtml(std::string("a\0b", 3)),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(EscapeHtml("line\nnext\ttab"), "line\nnext\ttab");
}

TEST(FormatNameTest, ParsesTheFourFormats) {
  Format format;
  EXPECT_TRUE(ParseFormatName("text", &format));
  EXPECT_EQ(format, Format::kText);
  EXPECT_TRUE(ParseFormatName("markdown", &format));
  EXPECT_EQ(format, Format::kMarkdown);
  EXPECT_TRUE(ParseFormatName("json", &format));
  EXPECT_EQ(format, Format::kJson);
  EXPECT_TRUE(ParseFormatName("html", &format));
  EXPECT_EQ(format, Format::kHtml);
  EXPECT_FALSE(ParseFormatName("pdf", &format));
}

}  // namespace
}  // namespace robotscan::report
