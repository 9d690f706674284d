// URL and rule-path helpers used by the matcher, exposed for callers that
// pre-process URLs and for tests.
//
// RFC 9309 §2.2.2 matches rules against the URL's path, parameters and query
// ("path" below); §2.2.3 and the table in §2.2.2 fix how percent-encoding is
// compared. Two normal forms exist:
//   * Google's (EscapePatternGoogle): non-ASCII bytes of a rule become %XX and
//     existing escapes get upper-case hex; the URL is used as given.
//   * RFC 9309's (NormalizeForMatching): applied to both URL path and rule.
//     %XX escapes of unreserved characters (A-Z a-z 0-9 - . _ ~) are decoded,
//     other escapes keep their encoding with upper-case hex, bytes outside
//     the URI character set (non-ASCII, controls, space, "<>\^`{|}) are
//     encoded, and a literal `*` or `$` in a URL is encoded as %2A / %24 so
//     that a rule's %2A / %24 matches it while a rule's bare `*` / `$` keep
//     their wildcard / end-anchor meaning.
//
// Thread-safety: all functions are pure.
#ifndef ROBOTSCAN_ROBOTS_URL_H_
#define ROBOTSCAN_ROBOTS_URL_H_

#include <optional>
#include <string>
#include <string_view>

namespace robotscan::robots {

// Returns the path, params and query of `url` (scheme, authority and fragment
// removed); always starts with '/'. Accepts absolute URLs, scheme-relative
// ("//host/p"), bare paths and host/path strings exactly as Google's
// GetPathParamsQuery does; returns "/" when there is no path.
std::string_view ExtractPathParamsQuery(std::string_view url,
                                        std::string& scratch);
std::string GetPathParamsQuery(std::string_view url);

// Google's MaybeEscapePattern: %-encodes bytes >= 0x80 and upper-cases the
// hex digits of existing %xx escapes. Nothing else changes.
std::string EscapePatternGoogle(std::string_view pattern);

// Which side of a comparison a string is on: rules keep `*` and `$` as
// wildcard/anchor; in a URL path they are literal characters.
enum class PathRole { kUrlPath, kRulePattern };

// RFC 9309 normal form (see the file comment). Returns true and fills *out
// when the input needed changes; returns false (leaving *out untouched) when
// `input` is already normal, so the common case allocates nothing.
bool NormalizeForMatching(std::string_view input, PathRole role,
                          std::string* out);

// Convenience: the normal form as a new string.
std::string NormalizedForMatching(std::string_view input, PathRole role);

// Google's IsValidUserAgentToObey: true only for a non-empty string made of
// [A-Za-z_-]. Crawlers should identify themselves with such a product token.
bool IsValidUserAgentToObey(std::string_view user_agent);

// The product token of a user-agent value as Google reads it: the leading run
// of [A-Za-z_-] ("Googlebot/2.1" -> "Googlebot", "AB42bot" -> "AB").
std::string_view ExtractProductToken(std::string_view user_agent);

// Why `url` cannot be checked, or nullopt when it can. Anything Google's
// path extraction accepts is accepted (bare paths, host/path, the empty
// string meaning "/"), except bytes that no URL may contain literally:
// ASCII controls, space and DEL (RFC 3986 §2; they would otherwise be
// silently encoded or, in Google mode, compared raw).
std::optional<std::string> UrlSyntaxError(std::string_view url);

// `url` with control characters (C0, DEL, C1) shown as \xHH, for messages
// printed on a terminal.
std::string PrintableUrl(std::string_view url);

// Case-insensitive ASCII comparison.
bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b);

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_URL_H_
