// The admission stage (domain_admission.h) on a real list file and a real
// crawl database: --skip/--top count list positions, loops partition the
// list exactly, duplicates still uncommitted are dropped, domains the
// database has are skipped unless older than the recrawl cutoff, and a turn
// reads a bounded number of lines.
#include "domain_admission.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "crawl_test_util.h"

namespace robotscan::crawler {
namespace {

using testing::TempDir;
using testing::WriteFile;

class DomainAdmissionTest : public ::testing::Test {
 protected:
  std::unique_ptr<TopListReader> List(const std::string& text) {
    WriteFile(list_, text);
    auto reader = TopListReader::Open(list_);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    if (!reader.ok()) return nullptr;
    return std::move(reader).value();
  }
  std::unique_ptr<storage::CrawlStore> Store() {
    auto store = storage::CrawlStore::Open(db_, {});
    EXPECT_TRUE(store.ok()) << store.status().message();
    return std::move(store.value());
  }
  // Every domain admitted, until the end.
  static std::vector<std::string> Drain(DomainAdmission* admission) {
    std::vector<std::string> domains;
    for (;;) {
      int lines = 1000;
      AdmittedDomain next;
      const auto outcome = admission->Next(&lines, &next);
      if (outcome == DomainAdmission::Outcome::kDomain) {
        domains.push_back(next.entry.domain);
        continue;
      }
      if (outcome == DomainAdmission::Outcome::kYield) continue;
      EXPECT_EQ(outcome, DomainAdmission::Outcome::kEnd) << admission->error();
      return domains;
    }
  }

  TempDir dir_;
  std::string list_ = dir_.File("list.csv");
  std::string db_ = dir_.File("crawl.sqlite");
  CrawlPlan plan_;
};

TEST_F(DomainAdmissionTest, SkipTopDuplicatesAndMalformedLines) {
  auto store = Store();
  plan_.selection.skip = 1;
  plan_.selection.top = 4;
  std::vector<MalformedLine> bad;
  DomainAdmission admission(
      plan_, 0, 1,
      List("1,a.test\n2,b.test\nnot a line\n3,B.test.\n"
           "4,c.test\n5,d.test\n6,e.test\n"),
      store.get(), true, [&bad](const MalformedLine& m) { bad.push_back(m); });
  EXPECT_EQ(Drain(&admission),
            (std::vector<std::string>{"b.test", "c.test", "d.test"}));
  EXPECT_EQ(admission.duplicates(), 1) << "B.test. is b.test";
  EXPECT_EQ(admission.malformed_lines(), 1);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].line, 3);
}

TEST_F(DomainAdmissionTest, LoopsPartitionTheListExactly) {
  auto store = Store();
  std::string text;
  for (int i = 1; i <= 200; ++i) {
    text += std::to_string(i) + ",d" + std::to_string(i) + ".test\n";
  }
  std::multiset<std::string> all;
  for (std::size_t loop = 0; loop < 3; ++loop) {
    int malformed_reports = 0;
    DomainAdmission admission(
        plan_, loop, 3, List(text + "junk line\n"), store.get(), true,
        [&](const MalformedLine&) { ++malformed_reports; });
    for (const std::string& d : Drain(&admission)) {
      EXPECT_EQ(LoopOfDomain(d, 3), loop) << d;
      all.insert(d);
    }
    EXPECT_EQ(malformed_reports, loop == 0 ? 1 : 0) << "loop 0 reports";
  }
  EXPECT_EQ(all.size(), 200u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 200u);
}

TEST_F(DomainAdmissionTest, DatabaseHasItUnlessOlderThanTheCutoff) {
  auto store = Store();
  storage::RunInfo info;
  info.started_at = "2020-01-01T00:00:00.000Z";
  std::int64_t run = 0;
  {
    const auto begun = store->BeginRun(info);
    ASSERT_TRUE(begun.ok());
    run = *begun;
  }
  storage::FetchRecord old;
  old.domain = "old.test";
  old.url = "https://old.test/robots.txt";
  old.access = robots::AccessClass::kUnavailable;
  old.http_status = 404;
  old.fetched_at = "2020-01-01T00:00:00.000Z";
  ASSERT_TRUE(store->AppendFetches(run, std::vector{old}).ok());

  const std::string text = "1,old.test\n2,new.test\n";
  {
    DomainAdmission admission(plan_, 0, 1, List(text), store.get(),
                              /*database_was_empty=*/false, nullptr);
    EXPECT_EQ(Drain(&admission), std::vector<std::string>{"new.test"});
    EXPECT_EQ(admission.already_present(), 1);
  }
  plan_.options.recrawl_older_than = std::chrono::hours(24);
  DomainAdmission recrawl(plan_, 0, 1, List(text), store.get(), false, nullptr);
  int lines = 10;
  AdmittedDomain next;
  ASSERT_EQ(recrawl.Next(&lines, &next), DomainAdmission::Outcome::kDomain);
  EXPECT_EQ(next.entry.domain, "old.test");
  ASSERT_TRUE(next.previous.has_value()) << "for a conditional request";
  EXPECT_EQ(next.previous->http_status, 404);
}

// Uncommitted duplicates are dropped; once committed, a fresh crawl's
// filter sends the duplicate to the database, which has it.
TEST_F(DomainAdmissionTest, CommittedDomainsAreFoundAgain) {
  auto store = Store();
  DomainAdmission admission(plan_, 0, 1,
                            List("1,a.test\n2,a.test\n3,b.test\n4,a.test\n"),
                            store.get(), /*database_was_empty=*/true, nullptr);
  int lines = 100;
  AdmittedDomain next;
  ASSERT_EQ(admission.Next(&lines, &next), DomainAdmission::Outcome::kDomain);
  EXPECT_EQ(next.entry.domain, "a.test");
  ASSERT_EQ(admission.Next(&lines, &next), DomainAdmission::Outcome::kDomain);
  EXPECT_EQ(next.entry.domain, "b.test");
  EXPECT_EQ(admission.duplicates(), 1);

  storage::RunInfo info;
  info.started_at = "t";
  std::int64_t run = 0;
  {
    const auto begun = store->BeginRun(info);
    ASSERT_TRUE(begun.ok());
    run = *begun;
  }
  storage::FetchRecord a;
  a.domain = "a.test";
  a.url = "https://a.test/robots.txt";
  a.access = robots::AccessClass::kUnavailable;
  a.fetched_at = "2026-01-01T00:00:00.000Z";
  ASSERT_TRUE(store->AppendFetches(run, std::vector{a}).ok());
  admission.Committed({"a.test"});
  EXPECT_EQ(admission.Next(&lines, &next), DomainAdmission::Outcome::kEnd);
  EXPECT_EQ(admission.already_present(), 1);
}

TEST_F(DomainAdmissionTest, ATurnReadsBoundedLines) {
  auto store = Store();
  std::string text;
  for (int i = 1; i <= 50; ++i) text += std::to_string(i) + ",same.test\n";
  DomainAdmission admission(plan_, 0, 1, List(text), store.get(), true,
                            nullptr);
  int lines = 100;
  AdmittedDomain next;
  ASSERT_EQ(admission.Next(&lines, &next), DomainAdmission::Outcome::kDomain);
  lines = 10;
  EXPECT_EQ(admission.Next(&lines, &next), DomainAdmission::Outcome::kYield);
  EXPECT_EQ(lines, 0);
  EXPECT_EQ(admission.duplicates(), 10);
}

}  // namespace
}  // namespace robotscan::crawler
