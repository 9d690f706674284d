// Asynchronous DNS with c-ares, driven by the same Boost.Asio io_context as
// the transfers: no thread per lookup. c-ares reports which sockets it wants
// watched (ARES_OPT_SOCK_STATE_CB); we wait on them with Asio and hand
// readiness back with ares_process_fd, and one steady_timer serves
// ares_timeout. Results are cached (bounded), including failures, and
// concurrent lookups of one name share a query.
//
// Thread-safety: everything runs on the io_context's (single) thread.
#ifndef ROBOTSCAN_CRAWLER_DNS_RESOLVER_H_
#define ROBOTSCAN_CRAWLER_DNS_RESOLVER_H_

#include <ares.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "robotscan/storage/fetch_classes.h"

namespace robotscan::crawler {

using storage::ErrorClass;

struct DnsAnswer {
  // kNone on success; else one of the kDns* classes.
  ErrorClass error_class = ErrorClass::kNone;
  std::string error_message;
  std::vector<std::string> addresses;  // IPv4 first, then IPv6, as text.
};

struct DnsOptions {
  std::vector<std::string> servers;  // "host:port" or "[v6]:port"; empty:
                                     // the system's resolv.conf.
  std::chrono::milliseconds timeout{3000};  // Per try.
  int tries = 2;
  bool ipv4_only = false;
  std::size_t cache_entries = 20000;
  std::chrono::seconds positive_ttl{300};
  std::chrono::seconds negative_ttl{60};
};

class DnsResolver {
 public:
  using Callback = std::function<void(const DnsAnswer&)>;

  DnsResolver(boost::asio::io_context& io, const DnsOptions& options);
  ~DnsResolver();
  DnsResolver(const DnsResolver&) = delete;
  DnsResolver& operator=(const DnsResolver&) = delete;

  // Empty when the channel was set up; otherwise why not.
  const std::string& init_error() const { return init_error_; }

  // Calls `done` exactly once, possibly before Resolve returns (cache hit),
  // unless the resolver is destroyed first (then never).
  void Resolve(const std::string& name, Callback done);

 private:
  struct SocketWatch {
    SocketWatch(boost::asio::io_context& io, ares_socket_t fd)
        : descriptor(io, fd), socket(fd) {}
    ~SocketWatch() { descriptor.release(); }  // c-ares owns the socket.
    boost::asio::posix::stream_descriptor descriptor;
    ares_socket_t socket;
    bool want_read = false;
    bool want_write = false;
    bool read_pending = false;
    bool write_pending = false;
    bool closed = false;
  };
  struct CacheEntry {
    DnsAnswer answer;
    std::chrono::steady_clock::time_point expires;
  };
  struct Query {
    DnsResolver* resolver;
    std::string name;
  };

  static void OnSocketState(void* self, ares_socket_t socket, int readable,
                            int writable);
  static void OnAddrInfo(void* arg, int status, int timeouts,
                         ares_addrinfo* result);
  void Arm(const std::shared_ptr<SocketWatch>& watch);
  void Process(ares_socket_t read_fd, ares_socket_t write_fd);
  void RearmTimer();
  void Complete(const std::string& name, DnsAnswer answer);

  boost::asio::io_context& io_;
  DnsOptions options_;
  ares_channel channel_ = nullptr;
  std::string init_error_;
  boost::asio::steady_timer timer_;
  std::unordered_map<ares_socket_t, std::shared_ptr<SocketWatch>> sockets_;
  std::unordered_map<std::string, std::vector<Callback>> waiting_;
  std::unordered_map<std::string, CacheEntry> cache_;
  std::deque<std::string> cache_order_;  // FIFO eviction.
  bool destroying_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_DNS_RESOLVER_H_
