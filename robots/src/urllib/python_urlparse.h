// The part of CPython 3.11's urllib.parse that urllib.robotparser uses:
// unquote, quote (safe="/"), urlparse and urlunparse, reproduced on
// "Python UTF-8" text (python_str.h). Private to the robots library.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_URLPARSE_H_
#define ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_URLPARSE_H_

#include <string>
#include <string_view>

namespace robotscan::robots::urllib::python {

// urllib.parse.unquote(text): each run of ASCII characters has its %XX
// escapes decoded to bytes, which are then decoded as UTF-8 with
// errors="replace"; non-ASCII characters are kept.
std::string Unquote(std::string_view text);

// urllib.parse.quote(text): the UTF-8 bytes, with every byte except
// A-Z a-z 0-9 _ . - ~ and / written as %XX (upper-case hex).
std::string Quote(std::string_view text);

// urllib.parse.urlparse's six parts.
struct ParsedUrl {
  std::string scheme, netloc, path, params, query, fragment;
};

// urllib.parse.urlparse(text). Returns false where CPython raises
// ValueError: a netloc with an unmatched bracket, a bracketed host that is
// neither an IPv6 address (ipaddress.IPv6Address) nor "v<hex>.<anything>",
// or a non-ASCII netloc that NFKC normalisation would give a '/', '?', '#',
// '@' or ':'.
[[nodiscard]] bool UrlParse(std::string_view text, ParsedUrl* url);

// urllib.parse.urlunparse(parts).
std::string UrlUnparse(const ParsedUrl& url);

// ipaddress.IPv6Address(text) succeeds (scope ids "%zone" included).
bool IsPythonIpv6Address(std::string_view text);

}  // namespace robotscan::robots::urllib::python

#endif  // ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_URLPARSE_H_
