#include "url_parts.h"

#include <curl/curl.h>

#include <cstdlib>

#include "curl_handles.h"
#include "idna.h"
#include "robotscan/base/ascii.h"

namespace robotscan::crawler {

bool SplitUrl(const std::string& url, UrlParts* parts, std::string* ascii_url) {
  CurlUrl handle(curl_url());
  if (!handle ||
      curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) {
    return false;
  }
  char* scheme = nullptr;
  char* host = nullptr;
  char* port = nullptr;
  bool ok =
      curl_url_get(handle.get(), CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
      // Not CURLU_PUNYCODE: libcurl 7.88 fails it for UTF-8 hosts (a
      // Location header may carry one); libidn2 converts below.
      curl_url_get(handle.get(), CURLUPART_HOST, &host, 0) == CURLUE_OK &&
      curl_url_get(handle.get(), CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) ==
          CURLUE_OK;
  if (ok) {
    parts->scheme = scheme;
    std::string error;
    ok = HostToAscii(host, &parts->host, &error);
    if (ok && ascii_url != nullptr) {
      *ascii_url = url;
      if (parts->host != host) {
        char* rewritten = nullptr;
        ok = curl_url_set(handle.get(), CURLUPART_HOST, parts->host.c_str(),
                          0) == CURLUE_OK &&
             curl_url_get(handle.get(), CURLUPART_URL, &rewritten, 0) ==
                 CURLUE_OK;
        if (ok) *ascii_url = rewritten;
        curl_free(rewritten);
      }
    }
    if (parts->host.size() > 2 && parts->host.front() == '[') {
      parts->host = parts->host.substr(1, parts->host.size() - 2);
    }
    parts->host = ToAsciiLower(parts->host);
    parts->port = std::atoi(port);
  }
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  return ok;
}

std::string BracketIfIpv6(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

}  // namespace robotscan::crawler
