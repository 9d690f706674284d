// Part 4b, the registry matrix: its figures against the named-crawler
// matrix (computed per crawler, without the registry's shortcut), against
// counts derived by hand, and in every output format.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hostile_fixture.h"
#include "report_fixture.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"
#include "robotscan/robots/url.h"

namespace robotscan::report {
namespace {

using testing::MakeFetch;

Report BuildFrom(const std::vector<storage::FetchRecord>& records,
                 ReportOptions options = {}) {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, records);
  return testing::BuildReport(path, options);
}

const RegistryAgentBlocking* RowOf(const Report& report,
                                   std::string_view token) {
  for (const RegistryAgentBlocking& row : report.registry_blocking.agents) {
    if (row.token == token) return &row;
  }
  return nullptr;
}

void ExpectSameShare(const Share& a, const Share& b, const std::string& what) {
  EXPECT_EQ(a.count, b.count) << what;
  EXPECT_EQ(a.denominator, b.denominator) << what;
}

// The registry's rows of the report's 17 crawlers equal the named-crawler
// matrix, which asks the matcher about each crawler directly: the shortcut
// (one answer for every agent a file does not name) changes nothing. In
// each reading, on the study fixture and on hostile files.
TEST(RegistryMatrixTest, AgreesWithTheNamedCrawlerMatrixInEveryReading) {
  std::vector<storage::FetchRecord> records = testing::StudyFixture();
  for (storage::FetchRecord& r : testing::HostileFixture()) {
    records.push_back(std::move(r));
  }
  for (robots::Compat compat :
       {robots::Compat::kRfc9309, robots::Compat::kGoogle,
        robots::Compat::kUrllib}) {
    ReportOptions options;
    options.compat = compat;
    options.compare_readings = false;
    const Report report = BuildFrom(records, options);
    ASSERT_EQ(report.blocking.crawlers.size(), 17u);
    ASSERT_EQ(report.registry_blocking.agents.size(),
              BuiltInAgentRegistry().agents.size());
    EXPECT_EQ(report.registry_blocking.files, report.blocking.files);
    for (const CrawlerBlocking& crawler : report.blocking.crawlers) {
      const std::string token(robots::ExtractProductToken(crawler.agent));
      const RegistryAgentBlocking* row = RowOf(report, token);
      ASSERT_NE(row, nullptr) << crawler.agent;
      const std::string what = crawler.agent + " in reading " +
                               std::to_string(static_cast<int>(compat));
      // CPython's reading asks by the registry's name, which for the 17
      // is the name the named matrix uses.
      ExpectSameShare(row->full, crawler.full, what + " full");
      ExpectSameShare(row->partial, crawler.partial, what + " partial");
      ExpectSameShare(row->singled_out, crawler.singled_out,
                      what + " singled out");
      ExpectSameShare(row->named, crawler.named, what + " named");
    }
  }
}

// Four files whose figures are plain to see. A registry of five agents,
// one per purpose class but two for training.
TEST(RegistryMatrixTest, PurposeFiguresCountedByHand) {
  Result<AgentRegistry> registry = ParseAgentRegistry(R"json({
    "format": "robotscan-agent-registry/1", "origin": "hand-made",
    "agents": [
      {"token": "GPTBot", "purpose": "training"},
      {"token": "CCBot", "purpose": "training"},
      {"token": "OAI-SearchBot", "purpose": "search"},
      {"name": "ChatGPT Agent", "token": "ChatGPT", "purpose": "agent"},
      {"token": "ChatGPT-User", "purpose": "user-triggered"}
    ]})json",
                                                      "test");
  ASSERT_TRUE(registry.ok()) << registry.status().ToString();
  ReportOptions options;
  options.registry = *registry;
  const Report report = BuildFrom(
      {
          // Fully blocks GPTBot only (a group of its own: singled out).
          MakeFetch("a.example", 1, 200, "User-agent: GPTBot\nDisallow: /\n"),
          // Everyone blocked through *: every class, every agent.
          MakeFetch("b.example", 2, 200, "User-agent: *\nDisallow: /\n"),
          // "ChatGPT Agent" in a file is a group for ChatGPT; a partial
          // block for it, everything allowed for the rest.
          MakeFetch("c.example", 3, 200,
                    "User-agent: ChatGPT Agent\nDisallow: /private\n"),
          // Nothing disallowed.
          MakeFetch("d.example", 4, 200, "User-agent: *\nAllow: /\n"),
          // No robots.txt: not in the denominator.
          MakeFetch("e.example", 5, 404),
      },
      options);
  const RegistryMatrix& matrix = report.registry_blocking;
  EXPECT_EQ(matrix.origin, "hand-made");
  EXPECT_EQ(matrix.files, 4);
  const RegistryAgentBlocking* gpt = RowOf(report, "GPTBot");
  ASSERT_NE(gpt, nullptr);
  EXPECT_EQ(gpt->full.count, 2);                     // a, b
  EXPECT_EQ(gpt->singled_out.count, 1);              // a
  EXPECT_EQ(gpt->named.count, 1);                    // a
  EXPECT_EQ(RowOf(report, "CCBot")->full.count, 1);  // b
  const RegistryAgentBlocking* agent = RowOf(report, "ChatGPT");
  EXPECT_EQ(agent->name, "ChatGPT Agent");
  EXPECT_EQ(agent->named.count, 1);    // c
  EXPECT_EQ(agent->partial.count, 1);  // c
  EXPECT_EQ(agent->full.count, 1);     // b
  // ChatGPT-User is its own token: c's group is not its group.
  EXPECT_EQ(RowOf(report, "ChatGPT-User")->named.count, 0);
  EXPECT_EQ(RowOf(report, "ChatGPT-User")->partial.count, 0);
  ASSERT_EQ(matrix.purposes.size(), 4u);  // "other" has no agent.
  const PurposeBlocking& training = matrix.purposes[0];
  EXPECT_EQ(training.purpose, AgentPurpose::kTraining);
  EXPECT_EQ(training.agents, 2);
  EXPECT_EQ(training.any_full.count, 2);   // a, b
  EXPECT_EQ(training.all_full.count, 1);   // b
  EXPECT_EQ(training.any_named.count, 1);  // a
  EXPECT_EQ(training.any_full.denominator, 4);
  for (const PurposeBlocking& p : matrix.purposes) {
    if (p.purpose == AgentPurpose::kTraining) continue;
    EXPECT_EQ(p.all_full.count, 1) << AgentPurposeName(p.purpose);  // b
    EXPECT_EQ(p.any_full.count, 1) << AgentPurposeName(p.purpose);
  }
  EXPECT_EQ(matrix.purposes[2].purpose, AgentPurpose::kUserTriggered);
  EXPECT_EQ(matrix.purposes[3].purpose, AgentPurpose::kAgent);
  EXPECT_EQ(matrix.purposes[3].any_named.count, 1);  // c
}

TEST(RegistryMatrixTest, EveryFormatCarriesIt) {
  ReportOptions options;
  options.top = 5;
  const Report report = BuildFrom(testing::StudyFixture(), options);
  const std::size_t agents = BuiltInAgentRegistry().agents.size();

  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  ASSERT_TRUE(json.contains("registry_matrix"));
  EXPECT_EQ(json["registry_matrix"]["agents"].size(), agents);
  EXPECT_EQ(json["registry_matrix"]["files"], report.blocking.files);
  EXPECT_EQ(json["registry_matrix"]["purposes"][0]["purpose"], "training");

  std::string csv;
  ASSERT_TRUE(RenderCsvTable(report, "blocking-registry", &csv));
  // A header line and one line per agent.
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')),
            agents + 1);
  ASSERT_TRUE(RenderCsvTable(report, "blocking-registry-purposes", &csv));

  // Text and Markdown show the top 5 rows and say where the rest is.
  const std::string more = "... and " + std::to_string(agents - 5) +
                           " more rows: all " + std::to_string(agents) +
                           " are in --format csv --table blocking-registry";
  for (Format format : {Format::kText, Format::kMarkdown}) {
    const std::string text = RenderReport(report, format);
    EXPECT_NE(text.find("4b. The agent registry by purpose"),
              std::string::npos);
    EXPECT_NE(text.find(more), std::string::npos) << static_cast<int>(format);
  }
  // HTML has every row (sortable) and a chart of the top 5.
  const std::string html = RenderReport(report, Format::kHtml);
  EXPECT_NE(html.find("The 5 registry agents most often fully blocked"),
            std::string::npos);
  EXPECT_NE(html.find("ia_archiver"), std::string::npos);
  EXPECT_NE(html.find("ZanistaBot"), std::string::npos);
}

}  // namespace
}  // namespace robotscan::report
