// StagedList on its own: what is staged, what is not, and the byte cap.
// (End to end with real processes: crawl_bad_input_test.cc.)
#include "list_staging.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "crawl_test_util.h"

namespace robotscan::crawler {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

TEST(StagedListTest, RegularFileIsUsedWhereItIs) {
  TempDir dir;
  WriteFile(dir.File("list.csv"), "1,a.test\n");
  Result<StagedList> list = StagedList::Stage(dir.File("list.csv"), nullptr);
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_FALSE(list->staged());
  EXPECT_EQ(list->path(), dir.File("list.csv"));
}

TEST(StagedListTest, FifoIsCopiedAndTheCopyRemoved) {
  TempDir dir;
  const std::string fifo = dir.File("list.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string text = "1,a.test\n2,b.test\n";
  std::thread writer([&] { WriteFile(fifo, text); });
  std::string copy;
  {
    Result<StagedList> list = StagedList::Stage(fifo, nullptr);
    writer.join();
    ASSERT_TRUE(list.ok()) << list.status().message();
    EXPECT_TRUE(list->staged());
    copy = list->path();
    EXPECT_EQ(ReadFile(copy), text);
  }
  EXPECT_NE(::access(copy.c_str(), F_OK), 0) << "the copy outlived its list";
}

TEST(StagedListTest, MoreThanTheCapIsRefusedAndNothingIsLeft) {
  TempDir dir;
  const std::string fifo = dir.File("long.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { WriteFile(fifo, std::string(100000, 'x')); });
  Result<StagedList> list = StagedList::Stage(fifo, nullptr, 65536);
  writer.join();
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), StatusCode::kInvalidInput);
  EXPECT_NE(list.status().message().find("longer than 65536"),
            std::string::npos)
      << list.status().message();
}

TEST(StagedListTest, CancelledWhileWaitingForAWriter) {
  TempDir dir;
  const std::string fifo = dir.File("silent.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  int asked = 0;
  Result<StagedList> list =
      StagedList::Stage(fifo, [&asked] { return ++asked > 3; });
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), StatusCode::kCancelled);
  EXPECT_EQ(asked, 4);
}

TEST(StagedListTest, DirectoryAndMissingFile) {
  TempDir dir;
  Result<StagedList> directory = StagedList::Stage(dir.path(), nullptr);
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), StatusCode::kInvalidArgument);
  Result<StagedList> missing = StagedList::Stage(dir.File("none"), nullptr);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kIoError);
}

}  // namespace
}  // namespace robotscan::crawler
