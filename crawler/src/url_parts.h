// The parts of a URL the crawler routes by. Private to the crawler.
#ifndef ROBOTSCAN_CRAWLER_URL_PARTS_H_
#define ROBOTSCAN_CRAWLER_URL_PARTS_H_

#include <string>

namespace robotscan::crawler {

struct UrlParts {
  std::string scheme;  // Lower case.
  std::string host;    // Lower case, punycode, IPv6 without brackets.
  int port = 0;        // The scheme's default when the URL names none.
};

// Splits an absolute URL with libcurl's parser; false if it cannot. With
// `ascii_url`, also the URL to hand to libcurl: `url` with an
// internationalized host written as punycode (libcurl 7.88 converts hosts
// with the locale's charset, so a UTF-8 host fails under LANG=C).
bool SplitUrl(const std::string& url, UrlParts* parts,
              std::string* ascii_url = nullptr);

// `host` as it is written in a URL or curl's --connect-to: IPv6 in [].
std::string BracketIfIpv6(const std::string& host);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_URL_PARTS_H_
