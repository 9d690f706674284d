// The analysis cache (analysis_cache.h): stable key hashes, round trips,
// corrupt and budget-dependent entries.
#include "scan/analysis_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "scan_parts_fixture.h"

namespace robotscan::regexguard::internal {
namespace {

TEST(StableHashTest, IsFnv1a64) {
  EXPECT_EQ(StableHash(""), "cbf29ce484222325");
  EXPECT_EQ(StableHash("a"), "af63dc4c8601ec8c");
}
TEST_F(ScanPartsTest, CacheRoundTripsAndSkipsBrokenOrBudgetEntries) {
  const AnalysisCache cache(root_ / "cache");
  PatternVerdict verdict;
  verdict.verdict = Verdict::kExponential;
  verdict.cause = Cause::kBacktracking;
  verdict.attack = Attack{"", "a", "b"};
  verdict.versions =
      "exponential on Ruby < 3.2; linear on Ruby >= 3.2 (memoization)";
  EXPECT_FALSE(cache.Lookup("key 1"));
  cache.Store("key 1", verdict);
  const std::optional<PatternVerdict> back = cache.Lookup("key 1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->verdict, Verdict::kExponential);
  EXPECT_EQ(back->cause, Cause::kBacktracking);
  ASSERT_TRUE(back->attack);
  EXPECT_EQ(back->attack->pump, "a");
  EXPECT_EQ(back->versions, verdict.versions);
  EXPECT_FALSE(cache.Lookup("key 2"));

  // A corrupt entry is a miss; storing again repairs it.
  const fs::path entry =
      root_ / "cache" / "v1" / (StableHash("key 1") + ".json");
  ASSERT_TRUE(fs::exists(entry));
  std::ofstream(entry, std::ios::trunc)
      << "{\"key\": \"key 1\", \"verdict\": 7}";
  EXPECT_FALSE(cache.Lookup("key 1"));
  cache.Store("key 1", verdict);
  EXPECT_TRUE(cache.Lookup("key 1"));

  // Running out of time depends on the machine: never stored.
  PatternVerdict ran_out;
  ran_out.reason = "budget exceeded: time ran out";
  ran_out.reason_code = StatusCode::kBudgetExceeded;
  ASSERT_TRUE(ran_out.BudgetExceeded());
  cache.Store("key 3", ran_out);
  EXPECT_FALSE(cache.Lookup("key 3"));

  // No folder: a disabled cache.
  const AnalysisCache disabled{fs::path()};
  disabled.Store("key 1", verdict);
  EXPECT_FALSE(disabled.Lookup("key 1"));
}
}  // namespace
}  // namespace robotscan::regexguard::internal
