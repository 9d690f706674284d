// The classes a fetch outcome falls into, as enums with the one table of
// their names: the names are the crawl database's values (fetch.access,
// fetch.error_class, latest_fetch.access/error; docs/crawler.md), so the
// crawler decides with enums, storage writes and checks names from this
// table, and analyses (robotscan report) get them back as enums from the
// readers (latest_fetch_reader.h) and group them with the predicates
// below. Nothing outside storage compares the names.
//
// The access classes are robots::AccessClass (RFC 9309 §2.3.1), whose
// names come from robots::AccessClassName; ParseAccessClass is their
// inverse.
//
// Thread-safety: pure functions over constant tables.
#ifndef ROBOTSCAN_STORAGE_FETCH_CLASSES_H_
#define ROBOTSCAN_STORAGE_FETCH_CLASSES_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "robotscan/robots/access_policy.h"

namespace robotscan::storage {

// Why no normal response was received (or why the redirect chain was not
// followed to the end). kNone: a response was received normally.
enum class ErrorClass : std::uint8_t {
  kNone,
  kDnsNxdomain,
  kDnsNodata,
  kDnsServfail,
  kDnsRefused,
  kDnsTimeout,
  kDnsError,
  kBlockedAddress,
  kConnectRefused,
  kConnectError,
  kConnectTimeout,
  kTls,
  kTimeout,
  kReset,
  kProtocol,
  kProxy,
  kTooManyRedirects,
  kRedirectLoop,
  kRedirectScheme,
  kOther,
};

// "dns_nxdomain", "blocked_address", ...; "" for kNone.
std::string_view ErrorClassName(ErrorClass error);
// The inverse; nullopt for a name not in the table ("" is kNone).
std::optional<ErrorClass> ParseErrorClass(std::string_view name);

// Where a fetch came from (fetch.source, crawl_run.source): robotscan's
// own crawl, or a capture imported from an archive (docs/history.md).
enum class FetchSource : std::uint8_t {
  kCrawl,        // "crawl": fetched by robotscan crawl.
  kCommonCrawl,  // "commoncrawl": a Common Crawl robots.txt WARC record.
  kWayback,      // "wayback": a Wayback Machine snapshot.
};

// "crawl", "commoncrawl", "wayback".
std::string_view FetchSourceName(FetchSource source);
// The inverse; nullopt for a name not in the table.
std::optional<FetchSource> ParseFetchSource(std::string_view name);

// The inverse of robots::AccessClassName.
std::optional<robots::AccessClass> ParseAccessClass(std::string_view name);

// Kinds of error classes, for analyses that group them ("dns_*",
// "connect_*", the redirect chains not followed to the end).
inline bool IsDnsError(ErrorClass e) {
  return e >= ErrorClass::kDnsNxdomain && e <= ErrorClass::kDnsError;
}
inline bool IsConnectError(ErrorClass e) {
  return e >= ErrorClass::kConnectRefused && e <= ErrorClass::kConnectTimeout;
}
inline bool IsRedirectError(ErrorClass e) {
  return e >= ErrorClass::kTooManyRedirects && e <= ErrorClass::kRedirectScheme;
}

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_FETCH_CLASSES_H_
