// Where a request really connects: curl-style --connect-to and --resolve
// rules, and the address policy that keeps a crawl off private networks.
// Private to the crawler; pure functions, thread-safe.
#ifndef ROBOTSCAN_CRAWLER_ENDPOINT_RULES_H_
#define ROBOTSCAN_CRAWLER_ENDPOINT_RULES_H_

#include <string>
#include <string_view>
#include <vector>

#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

// ConnectToRule and ResolveRule are crawler.h's (a CrawlPlan holds them).
bool ParseConnectToRule(std::string_view text, ConnectToRule* rule,
                        std::string* error);
bool ParseResolveRule(std::string_view text, ResolveRule* rule,
                      std::string* error);

// Applies the first matching rule; returns false when none matches.
bool ApplyConnectTo(const std::vector<ConnectToRule>& rules, std::string* host,
                    int* port);
const ResolveRule* FindResolveRule(const std::vector<ResolveRule>& rules,
                                   std::string_view host, int port);

bool IsIpLiteral(std::string_view host);

// False for addresses a public web site should never resolve to: loopback,
// RFC 1918 and RFC 6598 private ranges, link-local, unspecified, multicast,
// broadcast, documentation/benchmark ranges, IPv6 ULA, IPv4-mapped private.
// Unparseable text is not public.
bool IsPublicAddress(std::string_view address);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_ENDPOINT_RULES_H_
