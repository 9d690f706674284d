#include "request_limits.h"

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <string>
#include <vector>

namespace robotscan::crawler {
namespace {

TEST(PerAddressLimiterTest, WaitersStartInOrderAsSlotsFree) {
  boost::asio::io_context io;
  PerAddressLimiter limiter(2);
  std::vector<int> started;
  for (int i = 0; i < 4; ++i) {
    limiter.Acquire("192.0.2.1", io, [&started, i] { started.push_back(i); });
  }
  EXPECT_EQ(started, (std::vector<int>{0, 1})) << "two slots, two at once";
  limiter.Release("192.0.2.1");
  EXPECT_EQ(started.size(), 2u) << "the next one is posted, not run inline";
  io.poll();
  EXPECT_EQ(started, (std::vector<int>{0, 1, 2}));
  limiter.Release("192.0.2.1");
  io.restart();
  io.poll();
  EXPECT_EQ(started, (std::vector<int>{0, 1, 2, 3}));
}

TEST(PerAddressLimiterTest, AddressesAreIndependentAndZeroMeansNoLimit) {
  boost::asio::io_context io;
  PerAddressLimiter limiter(1);
  int started = 0;
  limiter.Acquire("192.0.2.1", io, [&] { ++started; });
  limiter.Acquire("192.0.2.2", io, [&] { ++started; });
  limiter.Acquire("192.0.2.1", io, [&] { ++started; });
  EXPECT_EQ(started, 2);
  // Releasing every slot of an address forgets it; it starts afresh.
  limiter.Release("192.0.2.2");
  limiter.Acquire("192.0.2.2", io, [&] { ++started; });
  EXPECT_EQ(started, 3);

  PerAddressLimiter unlimited(0);
  int free_starts = 0;
  for (int i = 0; i < 100; ++i) {
    unlimited.Acquire("192.0.2.1", io, [&] { ++free_starts; });
  }
  EXPECT_EQ(free_starts, 100);
}

TEST(RateLimiterTest, SpacesOutStartsAtTheRate) {
  RateLimiter limiter(10);  // 10 per second, burst of 1.
  std::chrono::milliseconds wait{0};
  EXPECT_TRUE(limiter.Take(&wait));
  EXPECT_FALSE(limiter.Take(&wait));
  // A tenth of a second per start, less whatever passed between the calls
  // (a slow or sanitized build may take a while).
  EXPECT_GT(wait.count(), 0);
  EXPECT_LE(wait.count(), 100);

  RateLimiter unlimited(0);
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(unlimited.Take(&wait));
}

}  // namespace
}  // namespace robotscan::crawler
