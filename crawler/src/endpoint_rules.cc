#include "endpoint_rules.h"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "idna.h"
#include "robotscan/base/ascii.h"

namespace robotscan::crawler {
namespace {

// Splits on ':' outside [brackets]; brackets are removed from the pieces.
std::vector<std::string> SplitHostFields(std::string_view text) {
  std::vector<std::string> fields(1);
  bool in_brackets = false;
  for (char c : text) {
    if (c == '[' && !in_brackets) {
      in_brackets = true;
    } else if (c == ']' && in_brackets) {
      in_brackets = false;
    } else if (c == ':' && !in_brackets) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

bool ParsePort(const std::string& text, bool allow_empty, int* port) {
  if (text.empty()) {
    *port = 0;
    return allow_empty;
  }
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *port);
  return ec == std::errc() && end == text.data() + text.size() && *port > 0 &&
         *port < 65536;
}

// A rule's host name as the crawler compares and connects: lower case, and
// an internationalized name in its punycode form, as list entries and
// redirect targets are (a rule for "bücher.test" must match the domain
// "xn--bcher-kva.test"). False, with a message, for an invalid IDN.
bool NormalizeRuleHost(std::string_view option, std::string host,
                       std::string* normalized, std::string* error) {
  const bool ascii = std::all_of(host.begin(), host.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x80;
  });
  if (ascii) {
    *normalized = ToAsciiLower(host);
    return true;
  }
  std::string why;
  if (!HostToAscii(host, normalized, &why)) {
    *error = std::string(option) + " host '" + host +
             "' is not a valid internationalized name: " + why;
    return false;
  }
  return true;
}

bool InRange4(std::uint32_t address, std::uint32_t network, int bits) {
  const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  return (address & mask) == (network & mask);
}

bool IsPublicIpv4(std::uint32_t a) {
  struct Range {
    std::uint32_t network;
    int bits;
  };
  static constexpr std::array<Range, 16> kNotPublic = {{
      {0x00000000, 8},   // 0.0.0.0/8 "this network"
      {0x0A000000, 8},   // 10/8
      {0x64400000, 10},  // 100.64/10 carrier-grade NAT
      {0x7F000000, 8},   // 127/8 loopback
      {0xA9FE0000, 16},  // 169.254/16 link-local
      {0xAC100000, 12},  // 172.16/12
      {0xC0000000, 24},  // 192.0.0/24 protocol assignments
      {0xC0000200, 24},  // 192.0.2/24 TEST-NET-1
      {0xC0A80000, 16},  // 192.168/16
      {0xC6120000, 15},  // 198.18/15 benchmarking
      {0xC6336400, 24},  // 198.51.100/24 TEST-NET-2
      {0xCB007100, 24},  // 203.0.113/24 TEST-NET-3
      {0xE0000000, 4},   // 224/4 multicast
      {0xF0000000, 4},   // 240/4 reserved, incl. broadcast
      {0xC0586300, 24},  // 192.88.99/24 6to4 relay (deprecated)
      {0x00000000, 32},
  }};
  for (const Range& range : kNotPublic) {
    if (InRange4(a, range.network, range.bits)) return false;
  }
  return true;
}

}  // namespace

bool ParseConnectToRule(std::string_view text, ConnectToRule* rule,
                        std::string* error) {
  const std::vector<std::string> f = SplitHostFields(text);
  if (f.size() != 4) {
    *error = "--connect-to wants HOST:PORT:HOST2:PORT2, got '" +
             std::string(text) + "'";
    return false;
  }
  if (!NormalizeRuleHost("--connect-to", f[0], &rule->host, error)) {
    return false;
  }
  rule->to_host = f[2];
  if (!IsIpLiteral(rule->to_host) &&
      !NormalizeRuleHost("--connect-to", f[2], &rule->to_host, error)) {
    return false;
  }
  if (!ParsePort(f[1], true, &rule->port) ||
      !ParsePort(f[3], true, &rule->to_port)) {
    *error = "--connect-to has an invalid port in '" + std::string(text) + "'";
    return false;
  }
  return true;
}

bool ParseResolveRule(std::string_view text, ResolveRule* rule,
                      std::string* error) {
  // HOST:PORT: then a comma list of addresses, which may be IPv6 (with or
  // without brackets), so split only the first two colons.
  const std::size_t first = text.find(':');
  const std::size_t second =
      first == std::string_view::npos ? first : text.find(':', first + 1);
  if (second == std::string_view::npos) {
    *error = "--resolve wants HOST:PORT:ADDR[,ADDR], got '" +
             std::string(text) + "'";
    return false;
  }
  if (!NormalizeRuleHost("--resolve", std::string(text.substr(0, first)),
                         &rule->host, error)) {
    return false;
  }
  if (!ParsePort(std::string(text.substr(first + 1, second - first - 1)), false,
                 &rule->port)) {
    *error = "--resolve has an invalid port in '" + std::string(text) + "'";
    return false;
  }
  std::string_view rest = text.substr(second + 1);
  rule->addresses.clear();
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    std::string address(rest.substr(0, comma));
    if (address.size() >= 2 && address.front() == '[' &&
        address.back() == ']') {
      address = address.substr(1, address.size() - 2);
    }
    if (!IsIpLiteral(address)) {
      *error = "--resolve address '" + address + "' is not an IP address";
      return false;
    }
    rule->addresses.push_back(address);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (rule->addresses.empty() || rule->host.empty()) {
    *error = "--resolve needs a host and at least one address";
    return false;
  }
  return true;
}

bool ApplyConnectTo(const std::vector<ConnectToRule>& rules, std::string* host,
                    int* port) {
  for (const ConnectToRule& rule : rules) {
    if (!rule.host.empty() && rule.host != *host) continue;
    if (rule.port != 0 && rule.port != *port) continue;
    if (!rule.to_host.empty()) *host = rule.to_host;
    if (rule.to_port != 0) *port = rule.to_port;
    return true;
  }
  return false;
}

const ResolveRule* FindResolveRule(const std::vector<ResolveRule>& rules,
                                   std::string_view host, int port) {
  for (const ResolveRule& rule : rules) {
    if ((rule.host == "*" || rule.host == host) && rule.port == port) {
      return &rule;
    }
  }
  return nullptr;
}

bool IsIpLiteral(std::string_view host) {
  const std::string text(host);
  unsigned char buffer[16];
  return inet_pton(AF_INET, text.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

bool IsPublicAddress(std::string_view address) {
  const std::string text(address);
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    return IsPublicIpv4(ntohl(v4.s_addr));
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, text.c_str(), &v6) != 1) return false;
  const unsigned char* b = v6.s6_addr;
  static constexpr unsigned char kZero[16] = {};
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible: judge the IPv4 part.
  static constexpr unsigned char kMapped[12] = {0, 0, 0, 0, 0,    0,
                                                0, 0, 0, 0, 0xff, 0xff};
  if (std::memcmp(b, kMapped, 12) == 0 || std::memcmp(b, kZero, 12) == 0) {
    const std::uint32_t a = (std::uint32_t{b[12]} << 24) |
                            (std::uint32_t{b[13]} << 16) |
                            (std::uint32_t{b[14]} << 8) | b[15];
    return std::memcmp(b, kZero, 12) != 0 && IsPublicIpv4(a);
  }
  if ((b[0] & 0xfe) == 0xfc) return false;                  // fc00::/7 ULA
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80) return false;  // fe80::/10
  if (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0) return false;  // fec0::/10
  if (b[0] == 0xff) return false;                           // multicast
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8) {
    return false;  // 2001:db8::/32 documentation
  }
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b) {
    return false;  // 64:ff9b::/96 NAT64: may point anywhere, incl. private
  }
  const auto ipv4_at = [b](int i) {
    return (std::uint32_t{b[i]} << 24) | (std::uint32_t{b[i + 1]} << 16) |
           (std::uint32_t{b[i + 2]} << 8) | b[i + 3];
  };
  if (b[0] == 0x20 && b[1] == 0x02) {
    // 2002::/16 6to4 (RFC 3056): a relay delivers to the IPv4 address in
    // bits 16-47, so 2002:0a00:0001:: reaches 10.0.0.1.
    return IsPublicIpv4(ipv4_at(2));
  }
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x00 && b[3] == 0x00) {
    // 2001::/32 Teredo (RFC 4380): the server's IPv4 address in bits
    // 32-63, the client's in the last 32, inverted.
    return IsPublicIpv4(ipv4_at(4)) && IsPublicIpv4(~ipv4_at(12));
  }
  return true;
}

}  // namespace robotscan::crawler
