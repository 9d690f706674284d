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

// Grant mode (a worker of a scaled-out crawl): nothing starts without a
// slot from the crawl's quota; Demand asks for what runs and waits (at
// most the cap, or a fair share while others wait) and gives up at once
// what is neither used nor wanted.
TEST(PerAddressLimiterTest, GrantModeStartsOnlyWithinGrantedSlots) {
  boost::asio::io_context io;
  PerAddressLimiter limiter(4, /*needs_grants=*/true);
  int started = 0;
  for (int i = 0; i < 6; ++i) {
    limiter.Acquire("192.0.2.1", io, [&started] { ++started; });
  }
  EXPECT_EQ(started, 0) << "no grant yet";
  auto demand = limiter.Demand();
  ASSERT_EQ(demand.size(), 1u);
  EXPECT_EQ(demand[0].ip, "192.0.2.1");
  EXPECT_EQ(demand[0].held, 0);
  EXPECT_EQ(demand[0].desired, 4) << "six waiting, capped at 4";
  limiter.Grant({{"192.0.2.1", 3, 0}});
  io.poll();
  EXPECT_EQ(started, 3);
  // Another worker waits for this IP: the fair share is 4 / 2 = 2, so a
  // finished request is not replaced until only two run.
  limiter.Grant({{"192.0.2.1", 3, 1}});
  limiter.Release("192.0.2.1");
  io.restart();
  io.poll();
  EXPECT_EQ(started, 3) << "3 running > fair share 2: not handed over";
  demand = limiter.Demand();
  ASSERT_EQ(demand.size(), 1u);
  EXPECT_EQ(demand[0].held, 2) << "gives the third slot back at once";
  EXPECT_EQ(demand[0].desired, 2);
  limiter.Release("192.0.2.1");
  io.restart();
  io.poll();
  EXPECT_EQ(started, 4) << "2 running = share: the freed slot goes on";
  // Everything done and nothing waiting: all slots go back, once.
  limiter.Grant({{"192.0.2.1", 2, 0}});
  io.restart();
  io.poll();
  // Two released above; the other four (two of them handed the slots of
  // the first two).
  for (int i = 0; i < 4; ++i) limiter.Release("192.0.2.1");
  io.restart();
  io.poll();
  EXPECT_EQ(started, 6);
  demand = limiter.Demand();
  ASSERT_EQ(demand.size(), 1u);
  EXPECT_EQ(demand[0].held, 0);
  EXPECT_EQ(demand[0].desired, 0);
  EXPECT_TRUE(limiter.Demand().empty());
}

TEST(RateLimiterTest, FedModeSpendsOnlyTokensItWasGiven) {
  RateLimiter limiter(100, /*fed=*/true);
  std::chrono::milliseconds wait{0};
  EXPECT_FALSE(limiter.Take(&wait)) << "starts empty";
  EXPECT_GT(wait.count(), 0);
  limiter.AddTokens(2);
  EXPECT_TRUE(limiter.Take(&wait));
  EXPECT_TRUE(limiter.Take(&wait));
  EXPECT_FALSE(limiter.Take(&wait)) << "never refills by itself";
  EXPECT_EQ(limiter.tokens(), 0);
}

}  // namespace
}  // namespace robotscan::crawler
