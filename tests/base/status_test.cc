#include "robotscan/base/status.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "robotscan/base/version.h"

namespace robotscan {
namespace {

TEST(StatusTest, DefaultIsOkAndCarriesNothing) {
  const Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOk);
  EXPECT_EQ(status.message(), "");
  EXPECT_FALSE(status.span().has_value());
  EXPECT_EQ(status.ToString(), "ok");
}

TEST(StatusTest, KeepsCodeMessageAndSpan) {
  const Status status(Status::Code::kInvalidInput, "unmatched (",
                      SourceSpan{3, 4});
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidInput);
  EXPECT_EQ(status.message(), "unmatched (");
  ASSERT_TRUE(status.span().has_value());
  EXPECT_EQ(*status.span(), (SourceSpan{3, 4}));
  EXPECT_EQ(status.ToString(), "invalid input: unmatched (");
}

TEST(StatusTest, WithContextPrefixesTheMessageOnly) {
  const Status status = Status(StatusCode::kDiskFull,
                               "database or disk is full", SourceSpan{1, 2})
                            .WithContext("crawl.sqlite");
  EXPECT_EQ(status.code(), StatusCode::kDiskFull);
  EXPECT_EQ(status.message(), "crawl.sqlite: database or disk is full");
  EXPECT_EQ(status.span(), (SourceSpan{1, 2}));
  EXPECT_TRUE(Status::Ok().WithContext("x").ok());
  EXPECT_EQ(Status::Ok().WithContext("x").message(), "");
}

TEST(StatusTest, EveryCodeHasItsOwnName) {
  std::set<std::string_view> names;
  for (int c = 0; c <= static_cast<int>(StatusCode::kInternal); ++c) {
    const std::string_view name = StatusCodeName(static_cast<StatusCode>(c));
    EXPECT_NE(name, "unknown") << c;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
}

TEST(ResultTest, HoldsAValue) {
  Result<std::string> result(std::string("value"));
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(static_cast<bool>(result));
  EXPECT_TRUE(result.status().ok());
  EXPECT_EQ(*result, "value");
  EXPECT_EQ(result->size(), 5u);
  result.value() += "!";
  EXPECT_EQ(result.value(), "value!");
}

TEST(ResultTest, HoldsAStatus) {
  const Result<int> result(Status(StatusCode::kBusy, "locked"));
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(static_cast<bool>(result));
  EXPECT_EQ(result.status().code(), StatusCode::kBusy);
  EXPECT_EQ(result.status().message(), "locked");
}

// An ok Status is no reason for a missing value: debug builds stop, release
// builds hold kInternal, so that ok() and status().ok() never disagree.
TEST(ResultTest, RefusesAnOkStatus) {
#ifdef NDEBUG
  const Result<int> result(Status::Ok());
  EXPECT_FALSE(result.ok());
  EXPECT_FALSE(result.status().ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInternal);
  EXPECT_EQ(result.status().message(), "Result<T> built from an ok Status");
#else
  EXPECT_DEATH(
      {
        const Result<int> result(Status::Ok());
        (void)result;
      },
      "built from an ok Status");
#endif
}

TEST(ResultTest, MovesMoveOnlyValuesOut) {
  Result<std::unique_ptr<int>> result(std::make_unique<int>(7));
  ASSERT_TRUE(result.ok());
  std::unique_ptr<int> taken = std::move(result).value();
  ASSERT_NE(taken, nullptr);
  EXPECT_EQ(*taken, 7);
}

TEST(VersionTest, IsTheProjectVersion) {
  EXPECT_STREQ(kVersion, ROBOTSCAN_EXPECTED_VERSION);
  EXPECT_EQ(std::to_string(kVersionMajor) + "." +
                std::to_string(kVersionMinor) + "." +
                std::to_string(kVersionPatch),
            ROBOTSCAN_EXPECTED_VERSION);
}

}  // namespace
}  // namespace robotscan
