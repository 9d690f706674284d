// Drives one libcurl multi handle from a Boost.Asio io_context with the
// multi *socket* API, in the structure of curl's docs/examples/multi-uv.c:
//   * CURLMOPT_SOCKETFUNCTION tells us which socket wants which events; each
//     socket gets a context (curl_multi_assign) that is dropped on
//     CURL_POLL_REMOVE, which libcurl sends before it closes the socket;
//   * CURLMOPT_TIMERFUNCTION only (re)arms one steady_timer (or posts a
//     handler for "now"); libcurl is called from the handler, never from
//     inside its own callback;
//   * each async_wait is re-armed after its event as long as libcurl still
//     wants that direction.
// Asio's async_wait on epoll re-arms the descriptor (EPOLL_CTL_MOD), so a
// socket that is already readable when we wait again is reported at once.
//
// Thread-safety: everything runs on the io_context's (single) thread.
#ifndef ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_
#define ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_

#include <curl/curl.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <unordered_map>

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

  bool ok() const { return multi_ != nullptr; }
  CURLMcode Add(CURL* easy);
  // Abandons a transfer in progress (no DoneHandler call for it).
  void Remove(CURL* easy);
  int running() const { return running_; }

 private:
  struct SocketWatch {
    SocketWatch(boost::asio::io_context& io, curl_socket_t fd)
        : descriptor(io, fd), socket(fd) {}
    // libcurl owns the socket: detach instead of closing it.
    ~SocketWatch() { descriptor.release(); }
    boost::asio::posix::stream_descriptor descriptor;
    curl_socket_t socket;
    bool want_read = false;
    bool want_write = false;
    bool read_pending = false;
    bool write_pending = false;
    bool closed = false;
  };

  static int OnSocket(CURL* easy, curl_socket_t socket, int what, void* self,
                      void* socket_context);
  static int OnTimer(CURLM* multi, long timeout_ms, void* self);

  void WatchSocket(curl_socket_t socket, int what);
  void ArmRead(const std::shared_ptr<SocketWatch>& watch);
  void ArmWrite(const std::shared_ptr<SocketWatch>& watch);
  void Act(curl_socket_t socket, int select_bits);
  void DrainFinished();

  boost::asio::io_context& io_;
  DoneHandler on_done_;
  CurlMulti multi_;
  boost::asio::steady_timer timer_;
  std::unordered_map<curl_socket_t, std::shared_ptr<SocketWatch>> sockets_;
  int running_ = 0;
  bool timer_armed_ = false;
  std::chrono::steady_clock::time_point timer_deadline_;
  bool timeout_posted_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CURL_ASIO_DRIVER_H_
