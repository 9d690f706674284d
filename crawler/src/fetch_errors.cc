#include "fetch_errors.h"

#include <algorithm>
#include <cerrno>

namespace robotscan::crawler {

ErrorClass ClassifyCurlError(CURL* easy, CURLcode code,
                             std::string_view detail) {
  switch (code) {
    case CURLE_COULDNT_CONNECT: {
      long os_errno = 0;
      curl_easy_getinfo(easy, CURLINFO_OS_ERRNO, &os_errno);
      return os_errno == ECONNREFUSED ? ErrorClass::kConnectRefused
                                      : ErrorClass::kConnectError;
    }
    case CURLE_OPERATION_TIMEDOUT: {
      curl_off_t connected = 0;
      curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connected);
      return connected == 0 ? ErrorClass::kConnectTimeout
                            : ErrorClass::kTimeout;
    }
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
      return ErrorClass::kTls;
    case CURLE_RECV_ERROR:
      // libcurl reports broken chunked framing and response headers over
      // its 300 KiB limit as receive errors too; their details say so, a
      // reset names the connection.
      if (detail.find("chunk") != std::string_view::npos ||
          detail.find("Too large response headers") != std::string_view::npos)
        return ErrorClass::kProtocol;
      return ErrorClass::kReset;
    case CURLE_OUT_OF_MEMORY:
      // libcurl 7.88's answer to a header line over its 100 KiB limit
      // (CURL_MAX_HTTP_HEADER): the response is broken, not the crawler.
      return ErrorClass::kProtocol;
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return ErrorClass::kReset;
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_PROXY:
      return ErrorClass::kProxy;
    case CURLE_COULDNT_RESOLVE_HOST:
      return ErrorClass::kDnsError;
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_WEIRD_SERVER_REPLY:
    case CURLE_BAD_CONTENT_ENCODING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_HTTP3:
    case CURLE_RANGE_ERROR:
    case CURLE_TOO_MANY_REDIRECTS:
      return ErrorClass::kProtocol;
    default:
      return ErrorClass::kOther;
  }
}

bool IsConnectionLevel(ErrorClass error) {
  switch (error) {
    case ErrorClass::kConnectRefused:
    case ErrorClass::kConnectError:
    case ErrorClass::kConnectTimeout:
    case ErrorClass::kTls:
    case ErrorClass::kReset:
      return true;
    default:
      return false;
  }
}

bool IsRetryableError(ErrorClass error, bool retry_timeouts) {
  switch (error) {
    case ErrorClass::kConnectTimeout:
    case ErrorClass::kReset:
    case ErrorClass::kConnectError:
    case ErrorClass::kDnsTimeout:
    case ErrorClass::kDnsServfail:
      return true;
    case ErrorClass::kTimeout:
      return retry_timeouts;
    default:
      return false;
  }
}

std::optional<std::chrono::milliseconds> ParseRetryAfter(
    const std::string& value, std::time_t now) {
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return c >= '0' && c <= '9'; })) {
    if (value.size() > 9) return std::chrono::hours(24 * 365);
    return std::chrono::seconds(std::stol(value));
  }
  const time_t when = curl_getdate(value.c_str(), nullptr);
  if (when < 0) return std::nullopt;
  return std::chrono::seconds(when > now ? when - now : 0);
}

}  // namespace robotscan::crawler
