#include "dns_resolver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <algorithm>
#include <cstring>
#include <utility>

namespace robotscan::crawler {
namespace {

ErrorClass ClassifyAresStatus(int status) {
  switch (status) {
    case ARES_ENOTFOUND:
      return ErrorClass::kDnsNxdomain;
    case ARES_ENODATA:
      return ErrorClass::kDnsNodata;
    case ARES_ESERVFAIL:
      return ErrorClass::kDnsServfail;
    case ARES_EREFUSED:
      return ErrorClass::kDnsRefused;
    case ARES_ETIMEOUT:
      return ErrorClass::kDnsTimeout;
    default:
      return ErrorClass::kDnsError;
  }
}

std::string JoinServers(const std::vector<std::string>& servers) {
  std::string csv;
  for (const std::string& server : servers) {
    if (!csv.empty()) csv += ',';
    csv += server;
  }
  return csv;
}

}  // namespace

DnsResolver::DnsResolver(boost::asio::io_context& io, const DnsOptions& options)
    : io_(io), options_(options), timer_(io) {
  ares_options opts{};
  int mask = ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES |
             ARES_OPT_FLAGS;
  // List entries are fully qualified: never append resolv.conf's search
  // domains (that would turn one NXDOMAIN into several queries and report
  // the last suffix's answer).
  // NOCHECKRESP: hand SERVFAIL/REFUSED answers back as such; otherwise
  // c-ares 1.18 marks the server failed and reports "could not contact DNS
  // servers", losing the classification (the crawl retries instead).
  opts.flags = ARES_FLAG_NOSEARCH | ARES_FLAG_NOCHECKRESP;
  opts.sock_state_cb = &OnSocketState;
  opts.sock_state_cb_data = this;
  opts.timeout = static_cast<int>(options_.timeout.count());
  opts.tries = std::max(1, options_.tries);
  const int rc = ares_init_options(&channel_, &opts, mask);
  if (rc != ARES_SUCCESS) {
    init_error_ = std::string("c-ares init: ") + ares_strerror(rc);
    channel_ = nullptr;
    return;
  }
  if (!options_.servers.empty()) {
    const std::string csv = JoinServers(options_.servers);
    const int set = ares_set_servers_ports_csv(channel_, csv.c_str());
    if (set != ARES_SUCCESS) {
      init_error_ =
          "invalid --dns-server list '" + csv + "': " + ares_strerror(set);
    }
  }
}

DnsResolver::~DnsResolver() {
  destroying_ = true;
  timer_.cancel();
  if (channel_ != nullptr) {
    // Fails pending queries with ARES_EDESTRUCTION; OnAddrInfo ignores them.
    ares_destroy(channel_);
  }
  for (auto& [fd, watch] : sockets_) watch->closed = true;
  sockets_.clear();
}

void DnsResolver::Resolve(const std::string& name, Callback done) {
  const auto now = std::chrono::steady_clock::now();
  if (auto hit = cache_.find(name); hit != cache_.end()) {
    if (hit->second.expires > now) {
      done(hit->second.answer);
      return;
    }
    cache_.erase(hit);
  }
  if (channel_ == nullptr) {
    DnsAnswer failed;
    failed.error_class = ErrorClass::kDnsError;
    failed.error_message = init_error_;
    done(failed);
    return;
  }
  auto& callbacks = waiting_[name];
  callbacks.push_back(std::move(done));
  if (callbacks.size() > 1) return;  // A query for this name is running.

  ares_addrinfo_hints hints{};
  hints.ai_family = options_.ipv4_only ? AF_INET : AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  ares_getaddrinfo(channel_, name.c_str(), nullptr, &hints, &OnAddrInfo,
                   new Query{this, name});
  RearmTimer();
}

void DnsResolver::OnAddrInfo(void* arg, int status, int /*timeouts*/,
                             ares_addrinfo* result) {
  std::unique_ptr<Query> query(static_cast<Query*>(arg));
  DnsResolver* self = query->resolver;
  DnsAnswer answer;
  if (status == ARES_SUCCESS && result != nullptr) {
    std::vector<std::string> v4, v6;
    for (ares_addrinfo_node* node = result->nodes; node != nullptr;
         node = node->ai_next) {
      char text[INET6_ADDRSTRLEN] = {};
      if (node->ai_family == AF_INET) {
        const auto* sin = reinterpret_cast<const sockaddr_in*>(node->ai_addr);
        inet_ntop(AF_INET, &sin->sin_addr, text, sizeof(text));
        v4.emplace_back(text);
      } else if (node->ai_family == AF_INET6) {
        const auto* sin6 = reinterpret_cast<const sockaddr_in6*>(node->ai_addr);
        inet_ntop(AF_INET6, &sin6->sin6_addr, text, sizeof(text));
        v6.emplace_back(text);
      }
    }
    answer.addresses = std::move(v4);
    answer.addresses.insert(answer.addresses.end(), v6.begin(), v6.end());
    if (answer.addresses.empty()) {
      answer.error_class = ErrorClass::kDnsNodata;
      answer.error_message = "no address records";
    }
  } else {
    answer.error_class = ClassifyAresStatus(status);
    answer.error_message = ares_strerror(status);
  }
  if (result != nullptr) ares_freeaddrinfo(result);
  if (status == ARES_EDESTRUCTION || status == ARES_ECANCELLED ||
      self->destroying_) {
    return;
  }
  self->Complete(query->name, std::move(answer));
}

void DnsResolver::Complete(const std::string& name, DnsAnswer answer) {
  // Timeouts say nothing about the name; do not cache them.
  if (answer.error_class != ErrorClass::kDnsTimeout &&
      options_.cache_entries > 0) {
    const auto ttl = answer.error_class == ErrorClass::kNone
                         ? options_.positive_ttl
                         : options_.negative_ttl;
    if (cache_.size() >= options_.cache_entries) {
      while (!cache_order_.empty() && cache_.size() >= options_.cache_entries) {
        cache_.erase(cache_order_.front());
        cache_order_.pop_front();
      }
    }
    auto [it, inserted] = cache_.insert_or_assign(
        name, CacheEntry{answer, std::chrono::steady_clock::now() + ttl});
    if (inserted) cache_order_.push_back(name);
  }
  auto node = waiting_.extract(name);
  if (node.empty()) return;
  for (Callback& callback : node.mapped()) callback(answer);
}

void DnsResolver::OnSocketState(void* self_ptr, ares_socket_t socket,
                                int readable, int writable) {
  auto* self = static_cast<DnsResolver*>(self_ptr);
  if (self->destroying_) return;
  if (!readable && !writable) {
    auto it = self->sockets_.find(socket);
    if (it != self->sockets_.end()) {
      it->second->closed = true;
      it->second->descriptor.release();
      self->sockets_.erase(it);
    }
    return;
  }
  auto& watch = self->sockets_[socket];
  if (!watch) watch = std::make_shared<SocketWatch>(self->io_, socket);
  watch->want_read = readable != 0;
  watch->want_write = writable != 0;
  self->Arm(watch);
}

void DnsResolver::Arm(const std::shared_ptr<SocketWatch>& watch) {
  using Descriptor = boost::asio::posix::stream_descriptor;
  if (watch->want_read && !watch->read_pending && !watch->closed) {
    watch->read_pending = true;
    watch->descriptor.async_wait(
        Descriptor::wait_read,
        [this, watch](const boost::system::error_code& ec) {
          watch->read_pending = false;
          if (watch->closed || ec == boost::asio::error::operation_aborted ||
              !watch->want_read) {
            return;
          }
          Process(watch->socket, ARES_SOCKET_BAD);
          if (!watch->closed) Arm(watch);
        });
  }
  if (watch->want_write && !watch->write_pending && !watch->closed) {
    watch->write_pending = true;
    watch->descriptor.async_wait(
        Descriptor::wait_write,
        [this, watch](const boost::system::error_code& ec) {
          watch->write_pending = false;
          if (watch->closed || ec == boost::asio::error::operation_aborted ||
              !watch->want_write) {
            return;
          }
          Process(ARES_SOCKET_BAD, watch->socket);
          if (!watch->closed) Arm(watch);
        });
  }
}

void DnsResolver::Process(ares_socket_t read_fd, ares_socket_t write_fd) {
  ares_process_fd(channel_, read_fd, write_fd);
  RearmTimer();
}

void DnsResolver::RearmTimer() {
  if (waiting_.empty()) {
    timer_.cancel();
    return;
  }
  timeval max_wait{1, 0};
  timeval next{};
  const timeval* wait = ares_timeout(channel_, &max_wait, &next);
  const auto delay = std::chrono::seconds(wait->tv_sec) +
                     std::chrono::microseconds(wait->tv_usec);
  timer_.expires_after(delay);
  timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    // No socket is ready: let c-ares time out and retransmit queries.
    Process(ARES_SOCKET_BAD, ARES_SOCKET_BAD);
  });
}

}  // namespace robotscan::crawler
