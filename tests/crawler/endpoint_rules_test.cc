#include "endpoint_rules.h"

#include <gtest/gtest.h>

namespace robotscan::crawler {
namespace {

TEST(EndpointRulesTest, ConnectToWildcardsAndMapping) {
  std::vector<ConnectToRule> rules(2);
  std::string error;
  ASSERT_TRUE(ParseConnectToRule("a.test:443:b.test:8443", &rules[0], &error));
  ASSERT_TRUE(ParseConnectToRule("::127.0.0.1:8080", &rules[1], &error));
  std::string host = "a.test";
  int port = 443;
  EXPECT_TRUE(ApplyConnectTo(rules, &host, &port));
  EXPECT_EQ(host, "b.test");
  EXPECT_EQ(port, 8443);
  host = "other.test";
  port = 80;
  EXPECT_TRUE(ApplyConnectTo(rules, &host, &port));
  EXPECT_EQ(host, "127.0.0.1");
  EXPECT_EQ(port, 8080);
}

TEST(EndpointRulesTest, ConnectToKeepsHostOrPortWhenEmpty) {
  std::vector<ConnectToRule> rules(1);
  std::string error;
  ASSERT_TRUE(ParseConnectToRule(":443::9443", &rules[0], &error));
  std::string host = "x.test";
  int port = 443;
  EXPECT_TRUE(ApplyConnectTo(rules, &host, &port));
  EXPECT_EQ(host, "x.test");
  EXPECT_EQ(port, 9443);
  port = 80;
  EXPECT_FALSE(ApplyConnectTo(rules, &host, &port));
}

TEST(EndpointRulesTest, ConnectToIpv6Target) {
  ConnectToRule rule;
  std::string error;
  ASSERT_TRUE(ParseConnectToRule("a.test:80:[::1]:8080", &rule, &error));
  EXPECT_EQ(rule.to_host, "::1");
  EXPECT_EQ(rule.to_port, 8080);
}

// List entries and redirect targets are punycode by the time rules are
// matched; rules written with UTF-8 names must match them.
TEST(EndpointRulesTest, InternationalizedRuleHostsMatchTheirPunycode) {
  std::vector<ConnectToRule> connect(1);
  std::vector<ResolveRule> resolve(1);
  std::string error;
  ASSERT_TRUE(
      ParseConnectToRule("B\xC3\xBC"
                         "cher.test:80:m\xC3\xBC"
                         "nchen.test:8080",
                         &connect[0], &error))
      << error;
  EXPECT_EQ(connect[0].host, "xn--bcher-kva.test");
  EXPECT_EQ(connect[0].to_host, "xn--mnchen-3ya.test");
  std::string host = "xn--bcher-kva.test";
  int port = 80;
  EXPECT_TRUE(ApplyConnectTo(connect, &host, &port));
  EXPECT_EQ(host, "xn--mnchen-3ya.test");
  EXPECT_EQ(port, 8080);
  ASSERT_TRUE(
      ParseResolveRule("b\xC3\xBC"
                       "cher.test:443:127.0.0.5",
                       &resolve[0], &error))
      << error;
  EXPECT_NE(FindResolveRule(resolve, "xn--bcher-kva.test", 443), nullptr);
  // Not a valid name: a clear error, not a rule that never matches.
  ConnectToRule invalid;
  EXPECT_FALSE(
      ParseConnectToRule("\xFF\xFE.test:80:a.test:81", &invalid, &error));
  EXPECT_NE(error.find("--connect-to host"), std::string::npos) << error;
  ResolveRule invalid_resolve;
  EXPECT_FALSE(
      ParseResolveRule("\xFF.test:80:127.0.0.1", &invalid_resolve, &error));
  EXPECT_NE(error.find("--resolve host"), std::string::npos) << error;
}

TEST(EndpointRulesTest, RejectsMalformedRules) {
  ConnectToRule c;
  ResolveRule r;
  std::string error;
  EXPECT_FALSE(ParseConnectToRule("a.test:80", &c, &error));
  EXPECT_FALSE(ParseConnectToRule("a:99999:b:1", &c, &error));
  EXPECT_FALSE(ParseResolveRule("a.test:80", &r, &error));
  EXPECT_FALSE(ParseResolveRule("a.test:80:not-an-ip", &r, &error));
  EXPECT_FALSE(ParseResolveRule("a.test:x:127.0.0.1", &r, &error));
}

TEST(EndpointRulesTest, ResolveRules) {
  std::vector<ResolveRule> rules(1);
  std::string error;
  ASSERT_TRUE(ParseResolveRule("A.test:443:127.0.0.2,[::1]", &rules[0], &error))
      << error;
  EXPECT_EQ(rules[0].addresses, (std::vector<std::string>{"127.0.0.2", "::1"}));
  EXPECT_NE(FindResolveRule(rules, "a.test", 443), nullptr);
  EXPECT_EQ(FindResolveRule(rules, "a.test", 80), nullptr);
}

TEST(EndpointRulesTest, PublicAddressPolicy) {
  struct Case {
    const char* address;
    bool is_public;
  };
  const Case cases[] = {
      {"8.8.8.8", true},
      {"93.184.216.34", true},
      {"127.0.0.1", false},
      {"10.1.2.3", false},
      {"172.16.0.1", false},
      {"172.32.0.1", true},
      {"192.168.1.1", false},
      {"169.254.169.254", false},
      {"100.64.0.1", false},
      {"0.0.0.0", false},
      {"224.0.0.1", false},
      {"255.255.255.255", false},
      {"198.18.0.1", false},
      {"::1", false},
      {"::", false},
      {"fe80::1", false},
      {"fd00::1", false},
      {"ff02::1", false},
      {"::ffff:127.0.0.1", false},
      {"::ffff:8.8.8.8", true},
      {"2001:db8::1", false},
      {"2606:4700::1111", true},
      // 6to4 and Teredo carry an IPv4 address a relay delivers to.
      {"2002:a00:1::1", false},              // 10.0.0.1
      {"2002:7f00:1::", false},              // 127.0.0.1
      {"2002:c0a8:101::1", false},           // 192.168.1.1
      {"2002:808:808::1", true},             // 8.8.8.8
      {"2001:0:a00:1::f5ff:fffe", false},    // server 10.0.0.1
      {"2001:0:808:808::80ff:fffe", false},  // client ~ = 127.0.0.1
      {"2001:0:808:808::f7f7:f7f7", true},   // client 8.8.8.8
      {"not an ip", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IsPublicAddress(c.address), c.is_public) << c.address;
  }
}

}  // namespace
}  // namespace robotscan::crawler
