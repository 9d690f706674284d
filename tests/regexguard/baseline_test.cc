// Baselines (baseline.h): keys without lines, occurrence counts, format.
#include "scan/baseline.h"

#include <gtest/gtest.h>

#include <string>

#include "scan_parts_fixture.h"

namespace robotscan::regexguard::internal {
namespace {

TEST_F(ScanPartsTest, BaselineCountsOccurrencesAndIgnoresLines) {
  const BaselineEntry known{"./src/a.py", "^(a+)+$", "", "python",
                            "regexguard/exponential"};
  const std::string file = (root_ / "baseline.json").string();
  ASSERT_TRUE(Baseline::Write(file, {known}).ok());
  Result<Baseline> read = Baseline::Read(file);
  ASSERT_TRUE(read);
  Baseline& baseline = *read;
  BaselineEntry same_elsewhere = known;
  same_elsewhere.path = "src/a.py";               // the same path, normalised
  same_elsewhere.rule = "regexguard/polynomial";  // the rule is not the key
  EXPECT_TRUE(baseline.Consume(same_elsewhere));
  EXPECT_FALSE(baseline.Consume(known));  // a second copy is new
  Result<Baseline> reread = Baseline::Read(file);
  ASSERT_TRUE(reread);
  Baseline& fresh = *reread;
  BaselineEntry other_flags = known;
  other_flags.flags = "i";
  EXPECT_FALSE(fresh.Consume(other_flags));
  BaselineEntry other_dialect = known;
  other_dialect.dialect = "javascript";
  EXPECT_FALSE(fresh.Consume(other_dialect));
  const Result<Baseline> bad =
      Baseline::Read(Write("bad.json", "{\"version\": 2}").string());
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.status().code(), StatusCode::kIoError);
}
}  // namespace
}  // namespace robotscan::regexguard::internal
