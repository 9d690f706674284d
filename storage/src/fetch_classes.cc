#include "robotscan/storage/fetch_classes.h"

#include <array>
#include <utility>

namespace robotscan::storage {
namespace {

// Indexed by ErrorClass; the order is the enum's (checked below).
constexpr std::array<std::pair<ErrorClass, std::string_view>, 20> kErrorNames =
    {{
        {ErrorClass::kNone, ""},
        {ErrorClass::kDnsNxdomain, "dns_nxdomain"},
        {ErrorClass::kDnsNodata, "dns_nodata"},
        {ErrorClass::kDnsServfail, "dns_servfail"},
        {ErrorClass::kDnsRefused, "dns_refused"},
        {ErrorClass::kDnsTimeout, "dns_timeout"},
        {ErrorClass::kDnsError, "dns_error"},
        {ErrorClass::kBlockedAddress, "blocked_address"},
        {ErrorClass::kConnectRefused, "connect_refused"},
        {ErrorClass::kConnectError, "connect_error"},
        {ErrorClass::kConnectTimeout, "connect_timeout"},
        {ErrorClass::kTls, "tls"},
        {ErrorClass::kTimeout, "timeout"},
        {ErrorClass::kReset, "reset"},
        {ErrorClass::kProtocol, "protocol"},
        {ErrorClass::kProxy, "proxy"},
        {ErrorClass::kTooManyRedirects, "too_many_redirects"},
        {ErrorClass::kRedirectLoop, "redirect_loop"},
        {ErrorClass::kRedirectScheme, "redirect_scheme"},
        {ErrorClass::kOther, "other"},
    }};

constexpr bool TableFollowsEnum() {
  for (std::size_t i = 0; i < kErrorNames.size(); ++i) {
    if (static_cast<std::size_t>(kErrorNames[i].first) != i) return false;
  }
  return true;
}
static_assert(TableFollowsEnum(), "kErrorNames must follow ErrorClass");
static_assert(kErrorNames.back().first == ErrorClass::kOther,
              "every ErrorClass has a name");

constexpr std::array<robots::AccessClass, 3> kAccessClasses = {
    robots::AccessClass::kSuccess, robots::AccessClass::kUnavailable,
    robots::AccessClass::kUnreachable};

constexpr std::array<std::pair<FetchSource, std::string_view>, 3> kSourceNames =
    {{{FetchSource::kCrawl, "crawl"},
      {FetchSource::kCommonCrawl, "commoncrawl"},
      {FetchSource::kWayback, "wayback"}}};

}  // namespace

std::string_view FetchSourceName(FetchSource source) {
  for (const auto& [value, name] : kSourceNames) {
    if (value == source) return name;
  }
  return "";
}

std::optional<FetchSource> ParseFetchSource(std::string_view name) {
  for (const auto& [value, text] : kSourceNames) {
    if (text == name) return value;
  }
  return std::nullopt;
}

std::string_view ErrorClassName(ErrorClass error) {
  const auto i = static_cast<std::size_t>(error);
  return i < kErrorNames.size() ? kErrorNames[i].second : "other";
}

std::optional<ErrorClass> ParseErrorClass(std::string_view name) {
  for (const auto& [error, text] : kErrorNames) {
    if (text == name) return error;
  }
  return std::nullopt;
}

std::optional<robots::AccessClass> ParseAccessClass(std::string_view name) {
  for (robots::AccessClass access : kAccessClasses) {
    if (robots::AccessClassName(access) == name) return access;
  }
  return std::nullopt;
}

}  // namespace robotscan::storage
