#include "robotscan/robots/access_policy.h"

#include <gtest/gtest.h>

namespace robotscan::robots {
namespace {

TEST(ClassifyHttpOutcome, FollowsRfc9309Section231) {
  struct Case {
    int status;
    bool network_error;
    bool redirects_unresolved;
    AccessClass rfc;
    AccessClass google;
  } cases[] = {
      {200, false, false, AccessClass::kSuccess, AccessClass::kSuccess},
      {206, false, false, AccessClass::kSuccess, AccessClass::kSuccess},
      {301, false, true, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {304, false, false, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {401, false, false, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {403, false, false, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {404, false, false, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {410, false, false, AccessClass::kUnavailable, AccessClass::kUnavailable},
      {429, false, false, AccessClass::kUnavailable, AccessClass::kUnreachable},
      {500, false, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
      {503, false, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
      {0, true, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
      {200, true, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
      {100, false, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
      {999, false, false, AccessClass::kUnreachable, AccessClass::kUnreachable},
  };
  for (const Case& c : cases) {
    HttpOutcome outcome;
    outcome.status = c.status;
    outcome.network_error = c.network_error;
    outcome.redirects_unresolved = c.redirects_unresolved;
    EXPECT_EQ(ClassifyHttpOutcome(outcome), c.rfc) << c.status;
    EXPECT_EQ(ClassifyHttpOutcome(outcome, TooManyRequests::kAsUnreachable),
              c.google)
        << c.status;
  }
}

TEST(RobotsTxtForHttpOutcome, MapsClassesToPolicies) {
  HttpOutcome outcome;
  outcome.status = 200;
  outcome.body = "User-agent: *\nDisallow: /x\n";
  RobotsTxt robots = RobotsTxtForHttpOutcome(outcome);
  EXPECT_FALSE(robots.IsAllowedFor("bot", "/x"));
  EXPECT_TRUE(robots.IsAllowedFor("bot", "/y"));

  outcome.status = 404;  // The body (an error page) is not parsed.
  robots = RobotsTxtForHttpOutcome(outcome);
  EXPECT_TRUE(robots.IsAllowedFor("bot", "/x"));
  EXPECT_EQ(robots.Check("bot", "/x").decision, Decision::kAllowAllPolicy);

  outcome.status = 503;
  robots = RobotsTxtForHttpOutcome(outcome);
  EXPECT_FALSE(robots.IsAllowedFor("bot", "/y"));

  outcome.status = 429;
  EXPECT_TRUE(RobotsTxtForHttpOutcome(outcome).IsAllowedFor("bot", "/y"));
  AccessPolicyOptions google;
  google.too_many_requests = TooManyRequests::kAsUnreachable;
  EXPECT_FALSE(
      RobotsTxtForHttpOutcome(outcome, google).IsAllowedFor("bot", "/y"));
}

TEST(AccessClassName, MatchesTheCrawlDatabaseValues) {
  EXPECT_EQ(AccessClassName(AccessClass::kSuccess), "success");
  EXPECT_EQ(AccessClassName(AccessClass::kUnavailable), "unavailable");
  EXPECT_EQ(AccessClassName(AccessClass::kUnreachable), "unreachable");
}

}  // namespace
}  // namespace robotscan::robots
