// A loopback HTTP and HTTPS server for the crawler's tests that answers for
// any Host and injects the fault named by the host's first label (see the
// table in test_http_server.cc). Blocking Boost.Asio sockets, one thread per
// connection: simple and exact, not fast (the benchmark uses nginx).
//
// Thread-safety: the public methods may be called from any thread.
#ifndef ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP_SERVER_H_
#define ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP_SERVER_H_

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace robotscan::testing {

class TestHttpServer {
 public:
  // Creates a self-signed certificate for *.test in `work_dir` (openssl
  // CLI) and listens on 127.0.0.1 (ephemeral ports) for HTTP and HTTPS.
  explicit TestHttpServer(const std::string& work_dir);
  ~TestHttpServer();
  TestHttpServer(const TestHttpServer&) = delete;
  TestHttpServer& operator=(const TestHttpServer&) = delete;

  int http_port() const { return http_port_; }
  int https_port() const { return https_port_; }
  const std::string& cert_file() const { return cert_file_; }

  // Requests seen per Host (without port), and the request headers of the
  // last one: for assertions on retries and conditional requests.
  int RequestsFor(const std::string& host) const;
  std::string LastRequestFor(const std::string& host) const;
  // Connections currently open (for the per-IP concurrency test) and the
  // most seen at once.
  int max_concurrent_connections() const { return max_open_.load(); }

  // Answers requests for `path` (any host) with this status and body,
  // before any fault by host name: downloads for `robotscan toplist`.
  void ServeFile(const std::string& path, int status,
                 const std::string& content_type, const std::string& body);

  // From now on, hosts whose first label is `label` answer `status` with
  // `body` (text/plain), ahead of the built-in answers: for tests that crawl
  // the same hosts twice and need the second crawl to see other files.
  void SetAnswer(const std::string& label, int status, std::string body);

  // The body served by ok.test and friends.
  static const char* kRobotsBody;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int http_port_ = 0;
  int https_port_ = 0;
  std::string cert_file_;
  std::atomic<int> max_open_{0};
};

}  // namespace robotscan::testing

#endif  // ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP_SERVER_H_
