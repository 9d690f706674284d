#include "history/archive_client.h"

#include <curl/curl.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "curl_handles.h"
#include "fetch_errors.h"
#include "robotscan/base/ascii.h"

namespace robotscan::crawler::history {
namespace {

using Clock = std::chrono::steady_clock;

// What libcurl's callbacks fill in.
struct TransferState {
  ArchiveResponse response;
  std::size_t body_cap = 0;
  bool cut_long_bodies = false;
  bool too_long = false;
  const std::function<bool()>* cancelled = nullptr;
};

std::size_t OnBody(char* data, std::size_t size, std::size_t count,
                   void* user) {
  auto* state = static_cast<TransferState*>(user);
  const std::size_t length = size * count;
  std::string& body = state->response.body;
  if (body.size() + length > state->body_cap) {
    body.append(data, state->body_cap - body.size());
    state->too_long = true;
    return 0;  // Ends the transfer: the rest is not kept anyway.
  }
  body.append(data, length);
  return length;
}

std::size_t OnHeader(char* data, std::size_t size, std::size_t count,
                     void* user) {
  auto* state = static_cast<TransferState*>(user);
  const std::size_t length = size * count;
  const std::string_view line(data, length);
  if (line.rfind("HTTP/", 0) == 0) {
    state->response.headers.clear();  // A 100 Continue's come first.
    return length;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  std::string_view value = line.substr(colon + 1);
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) {
    value.remove_prefix(1);
  }
  while (!value.empty() && (value.back() == '\r' || value.back() == '\n' ||
                            value.back() == ' ' || value.back() == '\t')) {
    value.remove_suffix(1);
  }
  state->response.headers.emplace_back(ToAsciiLower(line.substr(0, colon)),
                                       std::string(value));
  return length;
}

int OnProgress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  auto* state = static_cast<TransferState*>(user);
  return *state->cancelled && (*state->cancelled)() ? 1 : 0;
}

bool IsWorthRetrying(long status) {
  return status == 429 || (status >= 500 && status <= 599);
}

}  // namespace

std::string ArchiveResponse::Header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return "";
}

void ArchiveClient::PauseFor(Clock::duration wait) {
  std::lock_guard lock(mutex_);
  paused_until_ = std::max(paused_until_, Clock::now() + wait);
}

bool ArchiveClient::WaitForTurn(RequestPace* pace) {
  for (;;) {
    Clock::time_point start;
    {
      std::lock_guard lock(mutex_);
      const Clock::time_point now = Clock::now();
      start = std::max({now, paused_until_, pace->next});
      if (start == now) {
        pace->next = now + pace->gap;
        return true;
      }
    }
    if (cancelled()) return false;
    // Short sleeps: a Ctrl-C is answered within 100 ms, and a pause that
    // another worker extends meanwhile is seen.
    std::this_thread::sleep_for(std::min<Clock::duration>(
        start - Clock::now(), std::chrono::milliseconds(100)));
  }
}

Result<ArchiveResponse> ArchiveClient::Transfer(const std::string& url,
                                                std::size_t body_cap,
                                                bool cut_long_bodies) {
  CurlEasy easy(curl_easy_init());
  if (!easy) return Status(StatusCode::kNetwork, "curl_easy_init failed");
  char error[CURL_ERROR_SIZE] = {};
  TransferState state;
  state.body_cap = body_cap;
  state.cut_long_bodies = cut_long_bodies;
  state.cancelled = &options_.cancelled;
  CURL* e = easy.get();
  curl_easy_setopt(e, CURLOPT_URL, url.c_str());
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  // A snapshot's 3xx is the capture of a redirect: recorded, not followed.
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(e, CURLOPT_USERAGENT, options_.user_agent.c_str());
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT, 30L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT,
                   static_cast<long>(options_.timeout.count()));
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, &OnBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &state);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, &OnHeader);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &state);
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, &OnProgress);
  curl_easy_setopt(e, CURLOPT_XFERINFODATA, &state);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  const CURLcode code = curl_easy_perform(e);
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &state.response.status);
  if (state.too_long) {
    if (!cut_long_bodies) {
      return Status(StatusCode::kInvalidInput,
                    url + ": an answer longer than " +
                        std::to_string(body_cap >> 20) + " MiB");
    }
    state.response.truncated = true;
    return std::move(state.response);
  }
  if (code != CURLE_OK) {
    return Status(
        StatusCode::kIoError,
        url + ": " +
            (error[0] != '\0' ? std::string(error) : curl_easy_strerror(code)));
  }
  return std::move(state.response);
}

Result<ArchiveResponse> ArchiveClient::Get(const std::string& url,
                                           RequestPace* pace,
                                           std::size_t body_cap,
                                           bool cut_long_bodies,
                                           std::int64_t* retries) {
  const int tries = std::max(1, options_.max_tries);
  for (int attempt = 1;; ++attempt) {
    if (!WaitForTurn(pace)) return Status(StatusCode::kIoError, "cancelled");
    Result<ArchiveResponse> answer = Transfer(url, body_cap, cut_long_bodies);
    if (cancelled()) return Status(StatusCode::kIoError, "cancelled");
    const bool retry =
        attempt < tries &&
        (answer.ok() ? IsWorthRetrying(answer->status)
                     : answer.status().code() == StatusCode::kIoError);
    if (!retry) {
      if (answer.ok()) answer->tries = attempt;
      return answer;
    }
    ++*retries;
    // The crawler's reading of Retry-After: never earlier than asked.
    std::optional<std::chrono::milliseconds> asked;
    if (answer.ok()) asked = ParseRetryAfter(answer->Header("retry-after"));
    Clock::duration wait = asked.value_or(std::chrono::milliseconds(0));
    if (!asked) {
      // 2, 4, 8... s: the archive said nothing, so give it time anyway.
      wait = std::min<Clock::duration>(
          options_.max_backoff,
          std::chrono::seconds(std::int64_t{1} << std::min(attempt, 20)));
    }
    // The whole host is asked to wait, so every worker does.
    PauseFor(wait);
  }
}

}  // namespace robotscan::crawler::history
