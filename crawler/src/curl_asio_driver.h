// Drives one libcurl multi handle from a Boost.Asio io_context with the
// multi *socket* API, in the structure of curl's docs/examples/multi-uv.c:
//   * CURLMOPT_SOCKETFUNCTION tells us which socket wants which events; a
//     socket is new to us while its libcurl context (curl_multi_assign) is
//     unset, and libcurl drops that context on CURL_POLL_REMOVE;
//   * CURLMOPT_TIMERFUNCTION only (re)arms one steady_timer (or posts a
//     handler for "now"); libcurl is called from the handler, never from
//     inside its own callback;
//   * a socket is reported to libcurl for as long as it is ready in a
//     direction libcurl asked for (level-triggered, as libcurl expects).
//
// Why not one Asio descriptor per socket: every socket then costs Asio an
// EPOLL_CTL_ADD, a FIONBIO ioctl, an EPOLL_CTL_MOD per re-armed wait, an
// EPOLL_CTL_DEL and a heap-allocated operation per wait. For a crawl, where
// every domain is a new connection, those system calls were a fifth of the
// loop's. Instead the driver keeps its own epoll set of libcurl's sockets
// and Asio watches that one descriptor: a socket costs an EPOLL_CTL_ADD and
// one EPOLL_CTL_MOD when libcurl turns from sending to receiving; closing
// the socket removes it from the set without a call.
//
// Thread-safety: everything runs on the io_context's (single) thread.
#ifndef ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_
#define ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_

#include <curl/curl.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "curl_handles.h"

namespace robotscan::crawler {

class CurlAsioDriver {
 public:
  // `on_done` is called (on the loop thread, outside any libcurl callback)
  // for each transfer that finished; the easy handle has already been
  // removed from the multi handle and may be reused or freed.
  using DoneHandler = std::function<void(CURL* easy, CURLcode result)>;

  CurlAsioDriver(boost::asio::io_context& io, DoneHandler on_done);
  ~CurlAsioDriver();
  CurlAsioDriver(const CurlAsioDriver&) = delete;
  CurlAsioDriver& operator=(const CurlAsioDriver&) = delete;

  bool ok() const { return multi_ != nullptr && epoll_.is_open(); }
  CURLMcode Add(CURL* easy);
  // Abandons a transfer in progress (no DoneHandler call for it).
  void Remove(CURL* easy);
  int running() const { return running_; }

 private:
  // What we know of one socket, indexed by descriptor.
  struct SocketState {
    std::uint32_t registered = 0;  // Events in our epoll set; 0: none known.
    int wanted = 0;                // CURL_POLL_IN/OUT/INOUT; 0: not wanted.
    // The dispatch round in which libcurl last let go of the socket.
    std::uint64_t released_in_round = 0;
  };

  static int OnSocket(CURL* easy, curl_socket_t socket, int what, void* self,
                      void* socket_context);
  static int OnTimer(CURLM* multi, long timeout_ms, void* self);

  void WatchSocket(curl_socket_t socket, int what, bool known);
  void WaitForEvents();
  void DispatchReadySockets();
  void Act(curl_socket_t socket, int select_bits);
  void DrainFinished();

  boost::asio::io_context& io_;
  DoneHandler on_done_;
  CurlMulti multi_;
  // Owns our epoll descriptor; Asio reports it readable when any socket in
  // the set is ready.
  boost::asio::posix::stream_descriptor epoll_;
  boost::asio::steady_timer timer_;
  std::vector<SocketState> sockets_;
  struct Finished {
    CURL* easy;
    CURLcode result;
  };
  std::vector<Finished> finished_;  // DrainFinished's, kept for capacity.
  std::uint64_t round_ = 0;         // Counts epoll_wait calls.
  int running_ = 0;
  bool timer_armed_ = false;
  std::chrono::steady_clock::time_point timer_deadline_;
  bool timeout_posted_ = false;
  bool waiting_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_
