// The SQLite backend's one-live-crawl hold (crawl_lock.h), in one process:
// flock(2) locks belong to an open file description, so two acquisitions
// here conflict exactly as two processes do. The real-process cases (a
// second `robotscan crawl`, a SIGKILLed holder) are in
// tests/crawler/crawl_e2e_test.cc.
#include "robotscan/storage/crawl_lock.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "result_into.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::storage {
namespace {

namespace fs = std::filesystem;

class CrawlLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("crawl_lock_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "crawl.sqlite").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string LockFileText() const {
    std::ifstream in(db_ + "-lock");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  static CrawlHolder Holder(std::int64_t pid, std::string host) {
    CrawlHolder h;
    h.pid = pid;
    h.host = std::move(host);
    h.started_at = "2026-12-02T10:00:00.000Z";
    return h;
  }

  fs::path dir_;
  std::string db_;
};

TEST_F(CrawlLockTest, SecondAttemptIsRefusedAndNamesTheHolder) {
  LockAttempt first;
  ASSERT_TRUE(
      Into(AcquireSqliteCrawlLock(db_, Holder(4242, "alpha")), &first).ok());
  ASSERT_NE(first.lock, nullptr);
  EXPECT_FALSE(first.stale.has_value());
  ASSERT_TRUE(first.lock->SetRunId(17).ok());

  LockAttempt second;
  ASSERT_TRUE(
      Into(AcquireSqliteCrawlLock(db_, Holder(99, "beta")), &second).ok());
  EXPECT_EQ(second.lock, nullptr);
  ASSERT_TRUE(second.held_by.has_value());
  EXPECT_EQ(second.held_by->pid, 4242);
  EXPECT_EQ(second.held_by->host, "alpha");
  EXPECT_EQ(second.held_by->started_at, "2026-12-02T10:00:00.000Z");
  EXPECT_EQ(second.held_by->run_id, 17);
}

TEST_F(CrawlLockTest, CleanReleaseLeavesNoStaleHold) {
  {
    LockAttempt first;
    ASSERT_TRUE(Into(AcquireSqliteCrawlLock(db_, Holder(1, "a")), &first).ok());
    ASSERT_NE(first.lock, nullptr);
    EXPECT_NE(LockFileText().find("pid=1\n"), std::string::npos);
  }
  EXPECT_EQ(LockFileText(), "") << "released: emptied, not deleted";
  EXPECT_TRUE(fs::exists(db_ + "-lock"));
  LockAttempt next;
  ASSERT_TRUE(Into(AcquireSqliteCrawlLock(db_, Holder(2, "b")), &next).ok());
  ASSERT_NE(next.lock, nullptr);
  EXPECT_FALSE(next.stale.has_value());
}

// A holder that died keeps its description in the file but not the flock
// (the kernel drops it): the next crawl takes over and says whose it was.
TEST_F(CrawlLockTest, DeadHoldersDescriptionIsReportedAsStale) {
  {
    std::ofstream out(db_ + "-lock");
    out << FormatCrawlHolder(Holder(31337, "gone"));
  }
  LockAttempt attempt;
  ASSERT_TRUE(
      Into(AcquireSqliteCrawlLock(db_, Holder(7, "here")), &attempt).ok());
  ASSERT_NE(attempt.lock, nullptr);
  ASSERT_TRUE(attempt.stale.has_value());
  EXPECT_EQ(attempt.stale->pid, 31337);
  EXPECT_EQ(attempt.stale->host, "gone");
  EXPECT_NE(LockFileText().find("pid=7\nhost=here\n"), std::string::npos);
}

TEST_F(CrawlLockTest, HolderTextRoundTripsAndJunkIsNoHolder) {
  CrawlHolder h = Holder(12, "h.example");
  h.run_id = 3;
  const auto parsed = ParseCrawlHolder(FormatCrawlHolder(h));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->pid, 12);
  EXPECT_EQ(parsed->host, "h.example");
  EXPECT_EQ(parsed->started_at, h.started_at);
  EXPECT_EQ(parsed->run_id, 3);
  for (const char* junk : {"", "\n\n", "pid=\n", "pid=-4\n", "pid=12x\n",
                           "host=a\nrun_id=4\n", "\x01\x02garbage"}) {
    EXPECT_FALSE(ParseCrawlHolder(junk).has_value()) << junk;
  }
}

TEST_F(CrawlLockTest, StoreHoldsThroughLockForCrawlAndReadOnlyCannot) {
  auto store = CrawlStore::Open(db_, {});
  ASSERT_TRUE(store.ok()) << store.status().message();
  LockAttempt attempt;
  ASSERT_TRUE(Into(store.value()->LockForCrawl(Holder(5, "s")), &attempt).ok());
  ASSERT_NE(attempt.lock, nullptr);
  LockAttempt again;
  ASSERT_TRUE(Into(store.value()->LockForCrawl(Holder(6, "t")), &again).ok());
  EXPECT_EQ(again.lock, nullptr);

  StoreOptions read_only;
  read_only.read_only = true;
  auto reader = CrawlStore::Open(db_, read_only);
  ASSERT_TRUE(reader.ok());
  LockAttempt refused;
  EXPECT_FALSE(
      Into(reader.value()->LockForCrawl(Holder(8, "u")), &refused).ok());
}

TEST_F(CrawlLockTest, UnwritableDirectoryIsAnIoError) {
  LockAttempt attempt;
  const Status s =
      Into(AcquireSqliteCrawlLock(
               (dir_ / "no" / "such" / "dir" / "crawl.sqlite").string(),
               Holder(1, "a")),
           &attempt);
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_NE(s.message().find("crawl.sqlite-lock"), std::string::npos)
      << s.message();
}

}  // namespace
}  // namespace robotscan::storage
