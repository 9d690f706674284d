#include "robotscan/base/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace robotscan {
namespace {

TEST(ParallelForTest, CallsEveryIndexExactlyOnce) {
  for (unsigned jobs : {0u, 1u, 3u, 64u}) {
    std::vector<std::atomic<int>> calls(1000);
    ParallelFor(calls.size(), jobs, [&](std::size_t i) { ++calls[i]; });
    for (std::size_t i = 0; i < calls.size(); ++i) {
      ASSERT_EQ(calls[i].load(), 1) << "jobs " << jobs << " index " << i;
    }
  }
}

TEST(ParallelForTest, NothingToDo) {
  int calls = 0;
  ParallelFor(0, 4, [&](std::size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(ParallelForTest, UsesNoMoreThreadsThanAskedOrItems) {
  std::mutex mutex;
  std::set<std::thread::id> seen;
  ParallelFor(2, 8, [&](std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  EXPECT_LE(seen.size(), 2u);
  seen.clear();
  ParallelFor(50, 1, [&](std::size_t) {
    std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(*seen.begin(), std::this_thread::get_id());
}

}  // namespace
}  // namespace robotscan
