// Move-only RAII owners of libcurl handles. Private to the crawler.
#ifndef ROBOTSCAN_CRAWLER_CURL_HANDLES_H_
#define ROBOTSCAN_CRAWLER_CURL_HANDLES_H_

#include <curl/curl.h>

#include <memory>
#include <string>
#include <utility>

namespace robotscan::crawler {

struct CleanupEasy {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
using CurlEasy = std::unique_ptr<CURL, CleanupEasy>;

struct CleanupMulti {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};
using CurlMulti = std::unique_ptr<CURLM, CleanupMulti>;

// A curl_slist built by appending strings; libcurl keeps a pointer to it
// for as long as an easy handle uses it, so it lives in the transfer.
class CurlStringList {
 public:
  CurlStringList() = default;
  CurlStringList(CurlStringList&& other) noexcept
      : list_(std::exchange(other.list_, nullptr)) {}
  CurlStringList& operator=(CurlStringList&& other) noexcept {
    if (this != &other) {
      curl_slist_free_all(list_);
      list_ = std::exchange(other.list_, nullptr);
    }
    return *this;
  }
  CurlStringList(const CurlStringList&) = delete;
  CurlStringList& operator=(const CurlStringList&) = delete;
  ~CurlStringList() { curl_slist_free_all(list_); }

  // Returns false if libcurl could not allocate.
  bool Append(const std::string& value) {
    curl_slist* grown = curl_slist_append(list_, value.c_str());
    if (grown == nullptr) return false;
    list_ = grown;
    return true;
  }
  void Clear() {
    curl_slist_free_all(list_);
    list_ = nullptr;
  }
  curl_slist* get() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

struct CleanupUrl {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
using CurlUrl = std::unique_ptr<CURLU, CleanupUrl>;

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CURL_HANDLES_H_
