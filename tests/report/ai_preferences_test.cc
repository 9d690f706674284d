// Part 9, AI preferences: figures counted by hand from a small crawl whose
// files use the drafts' and Cloudflare's own forms, and in every format.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report_fixture.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"

namespace robotscan::report {
namespace {

using testing::MakeFetch;

// Cloudflare's managed robots.txt: the policy's comment block, the signals
// line under `User-agent: *`, and its AI-crawler blocks.
constexpr char kCloudflareManaged[] =
    "# As a condition of accessing this website, you agree to abide by the\n"
    "# following content signals:\n"
    "# (a) If a content-signal = yes, you may collect content for the\n"
    "# corresponding use.\n"
    "# BEGIN Cloudflare Managed content\n"
    "User-agent: *\n"
    "Content-Signal: search=yes,ai-train=no\n"
    "Allow: /\n"
    "\n"
    "User-agent: GPTBot\n"
    "Disallow: /\n"
    "# END Cloudflare Managed Content\n";

std::vector<storage::FetchRecord> Crawl() {
  return {
      // 1. Managed: ai-train=no, GPTBot blocked by rules (so training is
      //    kept out both ways: GPTBot by rules, the others by preference).
      MakeFetch("managed.example", 5, 200, kCloudflareManaged),
      // 2. The contradiction of ai-train=no: every training crawler may
      //    fetch everything.
      MakeFetch("says-no.example", 50, 200,
                "User-agent: *\nContent-Signal: ai-train=no, search=yes\n"
                "Allow: /\n"),
      // 3. attach-05's example form: train-ai=n for all, search allowed;
      //    a License line.
      MakeFetch("usage.example", 500, 200,
                "User-agent: *\nContent-Usage: train-ai=n, search=y\n"
                "Allow: /\nLicense: https://usage.example/license.xml\n"),
      // 4. train-ai=y, while GPTBot is disallowed: contradiction 2.
      MakeFetch("yes-but.example", 5000, 200,
                "User-agent: *\nContent-Usage: train-ai=y\nAllow: /\n\n"
                "User-agent: GPTBot\nDisallow: /\n"),
      // 5. search=n only for a path: nothing applies at /.
      MakeFetch("path.example", 50000, 200,
                "User-agent: *\nContent-Usage: /private/ search=n\n"
                "Disallow: /tmp/\n"),
      // 6. ai-input=no: user-triggered and agent kept out by preference.
      MakeFetch("input.example", 500000, 200,
                "User-agent: *\nContent-Signal: ai-input=no\n"),
      // 7. No preference lines, everyone blocked by rules.
      MakeFetch("closed.example", 0, 200, "User-agent: *\nDisallow: /\n"),
      // 8. Not a robots.txt file: outside every denominator.
      MakeFetch("missing.example", 7, 404),
  };
}

const AiPreferences::PurposeOut& Out(const Report& report,
                                     AgentPurpose purpose) {
  for (const AiPreferences::PurposeOut& p : report.ai_preferences.purposes) {
    if (p.purpose == purpose) return p;
  }
  ADD_FAILURE() << "no row for " << AgentPurposeName(purpose);
  static const AiPreferences::PurposeOut kNone;
  return kNone;
}

Report BuildCrawl() {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, Crawl());
  return testing::BuildReport(path);
}

TEST(AiPreferencesTest, FiguresCountedByHand) {
  const Report report = BuildCrawl();
  const AiPreferences& ai = report.ai_preferences;
  EXPECT_EQ(ai.files, 7);
  // Strata: top 1k = ranks 5, 50, 500 (and 7, without a file); top 10k adds
  // 5000; top 100k adds 50000; top 1M adds 500000; all adds the unranked.
  const std::size_t all = kStratumCount - 1;
  const auto signal = [](AiSignal s) { return static_cast<std::size_t>(s); };
  EXPECT_EQ(ai.presence[0][signal(AiSignal::kContentUsage)].denominator, 3);
  EXPECT_EQ(ai.presence[0][signal(AiSignal::kContentUsage)].count, 1);  // 3
  EXPECT_EQ(ai.presence[0][signal(AiSignal::kContentSignal)].count, 2);
  EXPECT_EQ(ai.presence[0][signal(AiSignal::kLicense)].count, 1);
  EXPECT_EQ(ai.presence[0][signal(AiSignal::kCloudflareManaged)].count, 1);
  EXPECT_EQ(ai.presence[1][signal(AiSignal::kContentUsage)].denominator, 4);
  EXPECT_EQ(ai.presence[1][signal(AiSignal::kContentUsage)].count, 2);
  EXPECT_EQ(ai.presence[all][signal(AiSignal::kContentUsage)].denominator, 7);
  EXPECT_EQ(ai.presence[all][signal(AiSignal::kContentUsage)].count, 3);
  EXPECT_EQ(ai.presence[all][signal(AiSignal::kContentSignal)].count, 3);
  EXPECT_EQ(ai.presence[all][signal(AiSignal::kCloudflareManaged)].count, 1);

  // Training: by rules in 1 (GPTBot), 4 (GPTBot), 7 (all); by preference
  // in 1 (ai-train=no for the unnamed), 2, 3 (train-ai=n).
  const auto& training = Out(report, AgentPurpose::kTraining);
  EXPECT_EQ(training.by_rules.count, 3);
  EXPECT_EQ(training.by_preference.count, 3);
  EXPECT_EQ(training.by_either.count, 5);
  EXPECT_EQ(training.by_both.count, 1);
  // Search: by rules only in 7; search=n applies at / nowhere (file 5's
  // is for /private/).
  const auto& search = Out(report, AgentPurpose::kSearch);
  EXPECT_EQ(search.by_rules.count, 1);
  EXPECT_EQ(search.by_preference.count, 0);
  // ai-input=no (file 6) keeps user-triggered and agent classes out.
  EXPECT_EQ(Out(report, AgentPurpose::kUserTriggered).by_preference.count, 1);
  EXPECT_EQ(Out(report, AgentPurpose::kAgent).by_preference.count, 1);
  EXPECT_EQ(Out(report, AgentPurpose::kAgent).by_rules.count, 1);  // 7

  ASSERT_EQ(ai.contradictions.size(), 3u);
  // No crawl with --signals: no domain has signals, none is counted.
  EXPECT_EQ(ai.contradictions[2].kind,
            AiContradiction::kTdmReservationButAiCrawlersAllowed);
  EXPECT_EQ(ai.contradictions[2].files.count, 0);
  EXPECT_EQ(ai.contradictions[2].files.denominator, 0);
  EXPECT_EQ(ai.signal_domains[kStratumCount - 1], 0);
  const auto& train_no = ai.contradictions[0];
  EXPECT_EQ(train_no.kind, AiContradiction::kAiTrainNoButTrainingAllowed);
  EXPECT_EQ(train_no.files.count, 1);
  ASSERT_EQ(train_no.domains.size(), 1u);
  EXPECT_EQ(train_no.domains[0].domain, "says-no.example");
  const auto& yes_but = ai.contradictions[1];
  EXPECT_EQ(yes_but.kind, AiContradiction::kTrainAiYesButGptBotBlocked);
  EXPECT_EQ(yes_but.files.count, 1);
  ASSERT_EQ(yes_but.domains.size(), 1u);
  EXPECT_EQ(yes_but.domains[0].domain, "yes-but.example");
  EXPECT_EQ(yes_but.domains[0].rank, 5000);
}

TEST(AiPreferencesTest, ContradictionDomainsAreCappedButAllCounted) {
  std::vector<storage::FetchRecord> records;
  for (int i = 1; i <= 30; ++i) {
    records.push_back(
        MakeFetch("d" + std::to_string(i) + ".example", i, 200,
                  "User-agent: *\nContent-Signal: ai-train=no\n"));
  }
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, records);
  ReportOptions options;
  options.contradiction_domains = 10;
  const Report report = testing::BuildReport(path, options);
  const auto& c = report.ai_preferences.contradictions[0];
  EXPECT_EQ(c.files.count, 30);
  ASSERT_EQ(c.domains.size(), 10u);
  EXPECT_EQ(c.domains.front().rank, 1);  // Best-ranked first.
  EXPECT_EQ(c.domains.back().rank, 10);
}

TEST(AiPreferencesTest, EveryFormatCarriesIt) {
  const Report report = BuildCrawl();
  const auto json = nlohmann::json::parse(RenderReport(report, Format::kJson));
  const auto& ai = json["ai_preferences"];
  EXPECT_EQ(ai["files"], 7);
  EXPECT_EQ(ai["presence"].size(), kStratumCount);
  EXPECT_EQ(ai["presence"][kStratumCount - 1]["content-signal"]["count"], 3);
  EXPECT_EQ(ai["contradictions"][1]["kind"],
            "train-ai-yes-but-gptbot-disallowed");
  EXPECT_EQ(ai["contradictions"][1]["domains"][0]["domain"], "yes-but.example");
  for (const char* table : {"ai-signals", "ai-purposes", "ai-contradictions",
                            "ai-contradiction-domains"}) {
    std::string csv;
    EXPECT_TRUE(RenderCsvTable(report, table, &csv)) << table;
  }
  std::string csv;
  ASSERT_TRUE(RenderCsvTable(report, "ai-contradiction-domains", &csv));
  EXPECT_NE(csv.find("ai-train-no-but-training-crawlers-allowed,"
                     "says-no.example,50"),
            std::string::npos)
      << csv;
  for (Format format : {Format::kText, Format::kMarkdown, Format::kHtml}) {
    const std::string text = RenderReport(report, format);
    EXPECT_NE(text.find("9. AI preferences"), std::string::npos);
    EXPECT_NE(text.find("yes-but.example"), std::string::npos);
  }
}

}  // namespace
}  // namespace robotscan::report
