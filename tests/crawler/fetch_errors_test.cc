#include "fetch_errors.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

namespace robotscan::crawler {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

// 2015-10-21T07:28:00Z, the date in RFC 9110's examples.
constexpr std::time_t kNow = 1445412480;

// Tests name classes as the database does.
ErrorClass Class(const char* name) { return *storage::ParseErrorClass(name); }

TEST(ParseRetryAfterTest, DeltaSeconds) {
  EXPECT_EQ(ParseRetryAfter("120", kNow), milliseconds(seconds(120)));
  EXPECT_EQ(ParseRetryAfter("0", kNow), milliseconds(0));
  // Too many digits for any sensible wait: a year, for the caller to cap.
  EXPECT_EQ(ParseRetryAfter("99999999999999999999", kNow),
            milliseconds(std::chrono::hours(24 * 365)));
}

TEST(ParseRetryAfterTest, HttpDateIsAWaitFromNow) {
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", kNow),
            milliseconds(seconds(30)));
  EXPECT_EQ(ParseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", kNow),
            milliseconds(0));
  // A date in the past means "now", not a negative wait.
  EXPECT_EQ(ParseRetryAfter("Tue, 20 Oct 2015 07:28:00 GMT", kNow),
            milliseconds(0));
}

TEST(ParseRetryAfterTest, AnythingElseIsIgnored) {
  EXPECT_EQ(ParseRetryAfter("", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("soon", kNow), std::nullopt);
  EXPECT_EQ(ParseRetryAfter("-5", kNow), std::nullopt);
}

TEST(FetchErrorClassesTest, WhatIsRetried) {
  for (const char* retried : {"connect_timeout", "reset", "connect_error",
                              "dns_timeout", "dns_servfail"}) {
    EXPECT_TRUE(IsRetryableError(Class(retried), false)) << retried;
  }
  for (const char* final_class :
       {"connect_refused", "tls", "protocol", "dns_nxdomain", "dns_error",
        "blocked_address", "too_many_redirects", "other"}) {
    EXPECT_FALSE(IsRetryableError(Class(final_class), true)) << final_class;
  }
  EXPECT_FALSE(IsRetryableError(Class("timeout"), false));
  EXPECT_TRUE(IsRetryableError(Class("timeout"), true)) << "--retry-timeouts";
}

TEST(FetchErrorClassesTest, ConnectionLevelAndDnsClasses) {
  for (const char* c : {"connect_refused", "connect_error", "connect_timeout",
                        "tls", "reset"}) {
    EXPECT_TRUE(IsConnectionLevel(Class(c))) << c;
  }
  EXPECT_FALSE(IsConnectionLevel(Class("timeout"))) << "the server was reached";
  EXPECT_FALSE(IsConnectionLevel(Class("protocol")));
  EXPECT_TRUE(IsDnsError(Class("dns_nxdomain")));
  EXPECT_TRUE(IsDnsError(Class("dns_timeout")));
  EXPECT_FALSE(IsDnsError(Class("connect_error")));
}

}  // namespace
}  // namespace robotscan::crawler
