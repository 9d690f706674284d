// --format csv --table NAME: every table of the report as RFC 4180 CSV with
// plain numbers, and crawled text kept from acting as a formula.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "hostile_fixture.h"
#include "report_fixture.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"

namespace robotscan::report {
namespace {

// A minimal RFC 4180 reader: rows of fields.
std::vector<std::vector<std::string>> ParseCsv(const std::string& csv) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (std::size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(field);
      field.clear();
    } else if (c == '\r' && i + 1 < csv.size() && csv[i + 1] == '\n') {
      rows.back().push_back(field);
      field.clear();
      rows.emplace_back();
      ++i;
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

Report StudyReport() {
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, testing::StudyFixture());
  return testing::BuildReport(path);
}

TEST(RenderCsvTest, EveryTableHasAStableUniqueName) {
  const Report report = StudyReport();
  const std::vector<TableName> tables = ListTables(report);
  std::set<std::string> names;
  for (const TableName& table : tables) {
    EXPECT_FALSE(table.name.empty()) << table.caption;
    EXPECT_TRUE(names.insert(table.name).second) << table.name;
    std::string csv;
    ASSERT_TRUE(RenderCsvTable(report, table.name, &csv)) << table.name;
    const auto rows = ParseCsv(csv);
    ASSERT_FALSE(rows.empty()) << table.name;
    for (const auto& row : rows) {
      EXPECT_EQ(row.size(), rows[0].size()) << table.name;
    }
  }
  for (const char* name : {"outcomes", "blocking", "job-adverts", "templates",
                           "sensitivity-crawlers", "most-banned"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  std::string csv = "untouched";
  EXPECT_FALSE(RenderCsvTable(report, "no-such-table", &csv));
  EXPECT_EQ(csv, "untouched");
  EXPECT_EQ(ParseCsv(RenderReport(report, Format::kCsv)).size(),
            tables.size() + 1);
}

TEST(RenderCsvTest, SharesBecomeCountDenominatorAndPercent) {
  std::string csv;
  ASSERT_TRUE(RenderCsvTable(StudyReport(), "blocking", &csv));
  const auto rows = ParseCsv(csv);
  ASSERT_EQ(rows[0][0], "Crawler");
  ASSERT_EQ(rows[0][1], "Full block");
  ASSERT_EQ(rows[0][2], "Full block denominator");
  ASSERT_EQ(rows[0][3], "Full block percent");
  bool found = false;
  for (const auto& row : rows) {
    if (row[0] != "GPTBot") continue;
    found = true;
    EXPECT_EQ(row[1], "3");
    EXPECT_EQ(row[2], "7");
    EXPECT_EQ(row[3], "42.8571");
  }
  EXPECT_TRUE(found);
  ASSERT_TRUE(RenderCsvTable(StudyReport(), "job-adverts", &csv));
  const auto adverts = ParseCsv(csv);
  ASSERT_EQ(adverts.size(), 2u);
  EXPECT_EQ(adverts[1][0], "We're hiring!\nVisit our careers page");
  EXPECT_EQ(adverts[1][1], "2");  // Rank, a plain number.
}

TEST(RenderCsvTest, CrawledTextCannotBecomeAFormula) {
  auto rows = testing::HostileFixture();
  rows.push_back(
      testing::MakeFetch("formula.example", 9, 200,
                         "User-agent: =HYPERLINK(\"http://x\")\nDisallow: /\n"
                         "User-agent: -bot\nDisallow: /\n"));
  const std::string path = testing::MakeTempDir() + "/crawl.sqlite";
  testing::WriteDatabase(path, rows);
  const Report report = testing::BuildReport(path);
  std::string csv;
  ASSERT_TRUE(RenderCsvTable(report, "agent-tokens", &csv));
  EXPECT_EQ(csv.find(",=HYPERLINK"), std::string::npos);
  EXPECT_EQ(csv.find("\n-bot"), std::string::npos);
  bool dash = false;
  for (const auto& row : ParseCsv(csv)) dash = dash || row[0] == "'-bot";
  EXPECT_TRUE(dash) << csv;
}

}  // namespace
}  // namespace robotscan::report
