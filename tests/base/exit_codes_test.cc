#include "robotscan/base/exit_codes.h"

#include <gtest/gtest.h>

#include <map>

namespace robotscan {
namespace {

// The table as docs/cli.md documents it; a change here is a change of a
// documented contract and must be made there too.
TEST(ExitCodesTest, TheDocumentedTable) {
  const std::map<StatusCode, int> documented = {
      {StatusCode::kOk, 0},        {StatusCode::kInvalidArgument, 2},
      {StatusCode::kNotFound, 2},  {StatusCode::kUnsupported, 2},
      {StatusCode::kLocked, 2},    {StatusCode::kInvalidInput, 3},
      {StatusCode::kIoError, 3},   {StatusCode::kBudgetExceeded, 3},
      {StatusCode::kCancelled, 3}, {StatusCode::kInternal, 3},
      {StatusCode::kDiskFull, 4},  {StatusCode::kBusy, 5},
      {StatusCode::kCorrupt, 6},   {StatusCode::kSchemaTooNew, 6},
      {StatusCode::kNetwork, 7},
  };
  ASSERT_EQ(documented.size(),
            static_cast<std::size_t>(StatusCode::kInternal) + 1);
  for (const auto& [code, exit_code] : documented) {
    EXPECT_EQ(ExitCodeFor(code), exit_code) << StatusCodeName(code);
    EXPECT_EQ(ExitCodeFor(Status(code, "x")), exit_code);
  }
  EXPECT_EQ(ExitCodeFor(Status::Ok()), kExitOk);
}

// The statuses no StatusCode maps to, documented in the same table.
TEST(ExitCodesTest, TheStatusesOutsideTheStatusCodes) {
  EXPECT_EQ(kExitNotInstalled, 127);
  EXPECT_EQ(kExitSignalBase, 128);
  for (int code = 0; code <= static_cast<int>(StatusCode::kInternal); ++code) {
    const int exit_code = ExitCodeFor(static_cast<StatusCode>(code));
    EXPECT_NE(exit_code, kExitNotInstalled);
    EXPECT_LT(exit_code, kExitSignalBase);
  }
}

TEST(ExitCodesTest, StorageFailuresAreToldApart) {
  EXPECT_NE(ExitCodeFor(StatusCode::kDiskFull), ExitCodeFor(StatusCode::kBusy));
  EXPECT_NE(ExitCodeFor(StatusCode::kBusy), ExitCodeFor(StatusCode::kCorrupt));
  EXPECT_NE(ExitCodeFor(StatusCode::kCorrupt),
            ExitCodeFor(StatusCode::kNetwork));
  EXPECT_NE(ExitCodeFor(StatusCode::kInvalidArgument),
            ExitCodeFor(StatusCode::kInvalidInput));
}

}  // namespace
}  // namespace robotscan
