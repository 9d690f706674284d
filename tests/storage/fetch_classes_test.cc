// The one table of access and error class names (fetch_classes.h): every
// enum value has a distinct name that parses back to it, the names are the
// documented database values, and storage refuses names outside the table.
#include "robotscan/storage/fetch_classes.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace robotscan::storage {
namespace {

TEST(FetchClassesTest, EveryErrorClassRoundTripsThroughItsName) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(ErrorClass::kOther); ++i) {
    const auto error = static_cast<ErrorClass>(i);
    const std::string name(ErrorClassName(error));
    EXPECT_TRUE(names.insert(name).second) << "duplicate name " << name;
    ASSERT_TRUE(ParseErrorClass(name).has_value()) << name;
    EXPECT_EQ(*ParseErrorClass(name), error) << name;
  }
  EXPECT_EQ(ErrorClassName(ErrorClass::kNone), "");
  EXPECT_FALSE(ParseErrorClass("nxdomain").has_value());
  EXPECT_FALSE(ParseErrorClass("TIMEOUT").has_value());
}

// The names docs/crawler.md lists for latest_fetch.error, in its order.
TEST(FetchClassesTest, NamesAreTheDocumentedDatabaseValues) {
  const char* documented[] = {"dns_nxdomain",
                              "dns_nodata",
                              "dns_servfail",
                              "dns_refused",
                              "dns_timeout",
                              "dns_error",
                              "blocked_address",
                              "connect_refused",
                              "connect_error",
                              "connect_timeout",
                              "tls",
                              "timeout",
                              "reset",
                              "protocol",
                              "proxy",
                              "too_many_redirects",
                              "redirect_loop",
                              "redirect_scheme",
                              "other"};
  int i = 1;
  for (const char* name : documented) {
    EXPECT_EQ(ErrorClassName(static_cast<ErrorClass>(i++)), name);
  }
  EXPECT_TRUE(IsDnsError(ErrorClass::kDnsError));
  EXPECT_TRUE(IsDnsError(ErrorClass::kDnsNxdomain));
  EXPECT_FALSE(IsDnsError(ErrorClass::kBlockedAddress));
  EXPECT_FALSE(IsDnsError(ErrorClass::kNone));
}

TEST(FetchClassesTest, AccessNamesAreRobotsAccessClassNames) {
  for (robots::AccessClass access :
       {robots::AccessClass::kSuccess, robots::AccessClass::kUnavailable,
        robots::AccessClass::kUnreachable}) {
    const auto parsed = ParseAccessClass(robots::AccessClassName(access));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, access);
  }
  EXPECT_FALSE(ParseAccessClass("").has_value());
  EXPECT_FALSE(ParseAccessClass("allowed").has_value());
}

}  // namespace
}  // namespace robotscan::storage
