// A tiny loopback DNS server (UDP) for the crawler's resolver tests. Answers
// by the queried name's first label:
//   nx.*        NXDOMAIN          servfail.*  SERVFAIL
//   timeout.*   never answers      v6only.*    AAAA ::1 only, no A
//   anything else: A 127.0.0.1 (AAAA queries get an empty NOERROR answer).
// Thread-safety: construct and destroy on one thread; queries() is atomic.
#ifndef ROBOTSCAN_TESTS_CRAWLER_TEST_DNS_SERVER_H_
#define ROBOTSCAN_TESTS_CRAWLER_TEST_DNS_SERVER_H_

#include <atomic>
#include <memory>
#include <thread>

namespace robotscan::testing {

class TestDnsServer {
 public:
  TestDnsServer();
  ~TestDnsServer();
  TestDnsServer(const TestDnsServer&) = delete;
  TestDnsServer& operator=(const TestDnsServer&) = delete;

  int port() const { return port_; }
  int queries() const { return queries_.load(); }

 private:
  void Loop();

  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
  std::atomic<int> queries_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace robotscan::testing

#endif  // ROBOTSCAN_TESTS_CRAWLER_TEST_DNS_SERVER_H_
