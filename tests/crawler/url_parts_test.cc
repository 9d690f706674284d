#include "url_parts.h"

#include <gtest/gtest.h>

#include <string>

namespace robotscan::crawler {
namespace {

TEST(SplitUrlTest, DefaultPortsAndLowerCaseHosts) {
  UrlParts parts;
  ASSERT_TRUE(SplitUrl("https://Example.COM/robots.txt", &parts));
  EXPECT_EQ(parts.scheme, "https");
  EXPECT_EQ(parts.host, "example.com");
  EXPECT_EQ(parts.port, 443);
  ASSERT_TRUE(SplitUrl("http://example.com/robots.txt", &parts));
  EXPECT_EQ(parts.port, 80);
  ASSERT_TRUE(SplitUrl("http://example.com:8080/x", &parts));
  EXPECT_EQ(parts.port, 8080);
}

TEST(SplitUrlTest, Ipv6HostsLoseTheirBrackets) {
  UrlParts parts;
  ASSERT_TRUE(SplitUrl("http://[::1]:8080/robots.txt", &parts));
  EXPECT_EQ(parts.host, "::1");
  EXPECT_EQ(parts.port, 8080);
  EXPECT_EQ(BracketIfIpv6(parts.host), "[::1]");
  EXPECT_EQ(BracketIfIpv6("example.com"), "example.com");
  EXPECT_EQ(BracketIfIpv6("192.0.2.1"), "192.0.2.1");
}

TEST(SplitUrlTest, InternationalNamesComeBackAsPunycode) {
  UrlParts parts;
  std::string ascii_url;
  ASSERT_TRUE(SplitUrl("http://bücher.example/a?b#c", &parts, &ascii_url));
  EXPECT_EQ(parts.host, "xn--bcher-kva.example");
  EXPECT_EQ(ascii_url, "http://xn--bcher-kva.example/a?b#c");
  ASSERT_TRUE(SplitUrl("http://example.com/x", &parts, &ascii_url));
  EXPECT_EQ(ascii_url, "http://example.com/x") << "ASCII URLs are unchanged";
  EXPECT_FALSE(SplitUrl("http://a\xFF\xFE.example/", &parts, &ascii_url))
      << "not UTF-8, not a name";
}

TEST(SplitUrlTest, RefusesWhatIsNotAnAbsoluteUrl) {
  UrlParts parts;
  EXPECT_FALSE(SplitUrl("", &parts));
  EXPECT_FALSE(SplitUrl("/robots.txt", &parts));
  EXPECT_FALSE(SplitUrl("http://exa mple.com/", &parts));
}

}  // namespace
}  // namespace robotscan::crawler
