#include "robotscan/crawler/download.h"

#include <curl/curl.h>

#include <string_view>
#include <utility>

#include "curl_handles.h"
#include "robotscan/base/ascii.h"
#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {
namespace {

// The transfer's state as libcurl's callbacks see it.
struct Transfer {
  Downloaded answer;
  std::size_t max_bytes = 0;
  bool too_big = false;
};

std::size_t OnBody(char* data, std::size_t size, std::size_t count,
                   void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  if (transfer->answer.body.size() + length > transfer->max_bytes) {
    transfer->too_big = true;
    return 0;  // Aborts the transfer.
  }
  transfer->answer.body.append(data, length);
  return length;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count,
                     void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const std::size_t length = size * count;
  const std::string_view line(data, length);
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  const std::string name = ToAsciiLower(line.substr(0, colon));
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
    value.remove_prefix(1);
  }
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' ||
                            value.back() == ' ')) {
    value.remove_suffix(1);
  }
  // A redirect's headers come first; the final response's replace them.
  if (name == "content-type")
    transfer->answer.content_type = std::string(value);
  if (name == "last-modified") {
    transfer->answer.last_modified = std::string(value);
  }
  return length;
}

}  // namespace

Result<Downloaded> Download(const DownloadRequest& request) {
  CurlEasy easy(curl_easy_init());
  if (!easy) return Status(StatusCode::kNetwork, "curl_easy_init failed");
  char error[CURL_ERROR_SIZE] = {};
  const std::string agent =
      request.user_agent.empty() ? DefaultUserAgent() : request.user_agent;
  Transfer transfer;
  transfer.max_bytes = request.max_bytes;
  CURL* e = easy.get();
  curl_easy_setopt(e, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_USERAGENT, agent.c_str());
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, 30L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT,
                   static_cast<long>(request.timeout.count()));
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &transfer);
  const CURLcode code = curl_easy_perform(e);
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &transfer.answer.http_status);
  if (transfer.too_big) {
    return Status(StatusCode::kInvalidInput,
                  request.url + ": larger than " +
                      std::to_string(request.max_bytes >> 20) + " MiB");
  }
  if (code != CURLE_OK) {
    return Status(
        StatusCode::kIoError,
        request.url + ": " +
            (error[0] != '\0' ? std::string(error) : curl_easy_strerror(code)));
  }
  return std::move(transfer.answer);
}

}  // namespace robotscan::crawler
