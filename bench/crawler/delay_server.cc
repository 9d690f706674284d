// A loopback HTTP server for the crawler's latency benchmark
// (bench/crawler/latency_bench.sh): every request is answered a fixed delay
// after it arrived (1 s by default), as a far-away server would, so that a
// crawl's throughput is bounded by concurrency / delay (Little's law) and
// shows whether the crawler keeps its transfers in flight.
//
// One thread, level-triggered epoll, several SO_REUSEPORT listeners (each
// has its own accept queue, capped by net.core.somaxconn; one queue of 4096
// would drop SYNs when 20,000 connections open at once, and a dropped SYN
// costs the client a 1 s retransmission, which looks like latency). Since
// the delay is constant, due answers form a FIFO queue: no timer per
// connection. The server closes first (Connection: close), so TIME_WAIT
// stays on its side, as with real servers.
//
// Every --sample interval it appends "seconds open answered" to --log: the
// number of open connections is the crawler's in-flight count as the server
// sees it. Binds 127.0.0.1 only; exits after --lifetime seconds.
//
//   delay_server --port P [--delay-ms 1000] [--lifetime 600] [--log FILE]
//                [--sample-ms 500] [--listeners 8]
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

constexpr char kBody[] = "User-agent: *\nDisallow: /private\n";

struct Options {
  int port = 0;
  long delay_ms = 1000;
  long lifetime_s = 600;
  long sample_ms = 500;
  int listeners = 8;
  std::string log;
};

struct Connection {
  bool open = false;
  bool answered_queued = false;
  std::string request;  // Until the blank line.
};

struct Due {
  int fd;
  Clock::time_point at;
};

bool ParseOptions(int argc, char** argv, Options* o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--port") {
      o->port = std::atoi(value);
    } else if (flag == "--delay-ms") {
      o->delay_ms = std::atol(value);
    } else if (flag == "--lifetime") {
      o->lifetime_s = std::atol(value);
    } else if (flag == "--sample-ms") {
      o->sample_ms = std::atol(value);
    } else if (flag == "--listeners") {
      o->listeners = std::atoi(value);
    } else if (flag == "--log") {
      o->log = value;
    } else {
      return false;
    }
  }
  return o->port > 0 && o->delay_ms >= 0 && o->listeners > 0;
}

int Listen(int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  const int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0 ||
      listen(fd, 65535) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseOptions(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: delay_server --port P [--delay-ms MS] [--lifetime S] "
                 "[--log FILE] [--sample-ms MS] [--listeners N]\n");
    return 2;
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  std::FILE* log =
      options.log.empty() ? nullptr : std::fopen(options.log.c_str(), "w");

  const int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  std::vector<int> listeners;
  for (int i = 0; i < options.listeners; ++i) {
    const int fd = Listen(options.port);
    if (fd < 0) {
      std::fprintf(stderr, "delay_server: cannot listen on 127.0.0.1:%d: %s\n",
                   options.port, std::strerror(errno));
      return 1;
    }
    epoll_event event{};
    event.events = EPOLLIN;
    event.data.fd = fd;
    epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event);
    listeners.push_back(fd);
  }
  const auto is_listener = [&listeners](int fd) {
    for (int l : listeners) {
      if (l == fd) return true;
    }
    return false;
  };

  const std::string answer =
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " +
      std::to_string(sizeof(kBody) - 1) + "\r\nConnection: close\r\n\r\n" +
      kBody;
  const auto delay = std::chrono::milliseconds(options.delay_ms);
  const Clock::time_point start = Clock::now();
  const Clock::time_point end =
      start + std::chrono::seconds(options.lifetime_s);
  Clock::time_point next_sample = start;
  std::vector<Connection> connections;
  std::deque<Due> due;
  long open = 0, answered = 0;
  std::vector<epoll_event> events(1024);
  char buffer[4096];

  const auto close_connection = [&](int fd) {
    if (static_cast<std::size_t>(fd) < connections.size() &&
        connections[static_cast<std::size_t>(fd)].open) {
      connections[static_cast<std::size_t>(fd)] = Connection();
      --open;
    }
    close(fd);  // Also leaves the epoll set.
  };

  for (;;) {
    const Clock::time_point now = Clock::now();
    if (now >= end) break;
    if (log != nullptr && now >= next_sample) {
      std::fprintf(log, "%.2f %ld %ld\n",
                   std::chrono::duration<double>(now - start).count(), open,
                   answered);
      std::fflush(log);
      next_sample += std::chrono::milliseconds(options.sample_ms);
    }
    // Answer everything due.
    while (!due.empty() && due.front().at <= now) {
      const int fd = due.front().fd;
      due.pop_front();
      // One small write into an empty socket buffer: it fits.
      if (send(fd, answer.data(), answer.size(), MSG_NOSIGNAL) > 0) {
        ++answered;
      }
      close_connection(fd);
    }
    Clock::time_point wake = std::min(next_sample, end);
    if (!due.empty()) wake = std::min(wake, due.front().at);
    const auto wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             wake - Clock::now())
                             .count();
    const int n =
        epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()),
                   static_cast<int>(std::max<long>(0, wait_ms) + 1));
    for (int i = 0; i < n; ++i) {
      const int fd = events[static_cast<std::size_t>(i)].data.fd;
      if (is_listener(fd)) {
        for (;;) {
          const int client =
              accept4(fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
          if (client < 0) break;
          if (static_cast<std::size_t>(client) >= connections.size()) {
            connections.resize(static_cast<std::size_t>(client) + 1024);
          }
          connections[static_cast<std::size_t>(client)].open = true;
          ++open;
          epoll_event event{};
          event.events = EPOLLIN | EPOLLRDHUP;
          event.data.fd = client;
          epoll_ctl(epoll_fd, EPOLL_CTL_ADD, client, &event);
        }
        continue;
      }
      Connection& c = connections[static_cast<std::size_t>(fd)];
      const ssize_t got = read(fd, buffer, sizeof(buffer));
      if (got <= 0) {
        if (got < 0 && errno == EAGAIN) continue;
        // The client gave up (or closed after the answer): forget it. A
        // queued answer for it finds the descriptor reused or closed and
        // is dropped by the open check below.
        if (c.answered_queued) {
          // Still in the due queue: stop reading, close when due.
          epoll_ctl(epoll_fd, EPOLL_CTL_DEL, fd, nullptr);
          continue;
        }
        close_connection(fd);
        continue;
      }
      if (c.answered_queued) continue;  // Ignore anything after the head.
      c.request.append(buffer, static_cast<std::size_t>(got));
      if (c.request.find("\r\n\r\n") != std::string::npos) {
        c.answered_queued = true;
        c.request.clear();
        c.request.shrink_to_fit();
        due.push_back({fd, Clock::now() + delay});
      } else if (c.request.size() > 16384) {
        close_connection(fd);
      }
    }
  }
  if (log != nullptr) std::fclose(log);
  std::printf("answered %ld\n", answered);
  return 0;
}
