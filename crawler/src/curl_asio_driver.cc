#include "curl_asio_driver.h"

#include <boost/asio/post.hpp>
#include <chrono>
#include <utility>

namespace robotscan::crawler {

CurlAsioDriver::CurlAsioDriver(boost::asio::io_context& io, DoneHandler on_done)
    : io_(io),
      on_done_(std::move(on_done)),
      multi_(curl_multi_init()),
      timer_(io) {
  if (!multi_) return;
  curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETFUNCTION, &OnSocket);
  curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_.get(), CURLMOPT_TIMERFUNCTION, &OnTimer);
  curl_multi_setopt(multi_.get(), CURLMOPT_TIMERDATA, this);
}

CurlAsioDriver::~CurlAsioDriver() {
  timer_.cancel();
  // Remaining easy handles belong to their owners, who remove them first;
  // curl_multi_cleanup then closes cached connections, calling OnSocket
  // with CURL_POLL_REMOVE for each, which drops its watch.
  multi_.reset();
  for (auto& [fd, watch] : sockets_) watch->closed = true;
  sockets_.clear();
}

CURLMcode CurlAsioDriver::Add(CURL* easy) {
  // Adding arms the timer (timeout 0) through OnTimer; the transfer starts
  // from the timer's handler.
  return curl_multi_add_handle(multi_.get(), easy);
}

void CurlAsioDriver::Remove(CURL* easy) {
  curl_multi_remove_handle(multi_.get(), easy);
}

int CurlAsioDriver::OnSocket(CURL* /*easy*/, curl_socket_t socket, int what,
                             void* self, void* /*socket_context*/) {
  static_cast<CurlAsioDriver*>(self)->WatchSocket(socket, what);
  return 0;
}

int CurlAsioDriver::OnTimer(CURLM* /*multi*/, long timeout_ms, void* self) {
  auto* driver = static_cast<CurlAsioDriver*>(self);
  // Re-arming a steady_timer costs a timerfd_settime system call, and
  // libcurl moves its deadline after nearly every event. An early wake-up
  // is harmless (libcurl finds nothing due and tells us the real deadline),
  // so the timer is only moved earlier, never later, and "now" is a post.
  if (timeout_ms < 0) return 0;  // Let an armed timer fire spuriously.
  if (timeout_ms == 0) {
    if (!driver->timeout_posted_) {
      driver->timeout_posted_ = true;
      boost::asio::post(driver->io_, [driver] {
        driver->timeout_posted_ = false;
        driver->Act(CURL_SOCKET_TIMEOUT, 0);
      });
    }
    return 0;
  }
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  if (driver->timer_armed_ && driver->timer_deadline_ <= deadline) return 0;
  driver->timer_armed_ = true;
  driver->timer_deadline_ = deadline;
  driver->timer_.expires_at(deadline);
  driver->timer_.async_wait([driver](const boost::system::error_code& ec) {
    if (ec) return;  // Cancelled or re-armed.
    driver->timer_armed_ = false;
    driver->Act(CURL_SOCKET_TIMEOUT, 0);
  });
  return 0;
}

void CurlAsioDriver::WatchSocket(curl_socket_t socket, int what) {
  if (what == CURL_POLL_REMOVE) {
    auto it = sockets_.find(socket);
    if (it != sockets_.end()) {
      // Pending waits complete with operation_aborted and see `closed`.
      it->second->closed = true;
      it->second->descriptor.release();
      sockets_.erase(it);
    }
    return;
  }
  auto& watch = sockets_[socket];
  if (!watch) {
    watch = std::make_shared<SocketWatch>(io_, socket);
  }
  watch->want_read = what == CURL_POLL_IN || what == CURL_POLL_INOUT;
  watch->want_write = what == CURL_POLL_OUT || what == CURL_POLL_INOUT;
  if (watch->want_read) ArmRead(watch);
  if (watch->want_write) ArmWrite(watch);
}

void CurlAsioDriver::ArmRead(const std::shared_ptr<SocketWatch>& watch) {
  if (watch->read_pending || watch->closed) return;
  watch->read_pending = true;
  watch->descriptor.async_wait(
      boost::asio::posix::stream_descriptor::wait_read,
      [this, watch](const boost::system::error_code& ec) {
        watch->read_pending = false;
        if (watch->closed || ec == boost::asio::error::operation_aborted) {
          return;
        }
        if (!watch->want_read) return;
        // An error on the descriptor is reported to libcurl as an event so
        // that it finds the failure itself when it reads.
        Act(watch->socket, ec ? CURL_CSELECT_ERR : CURL_CSELECT_IN);
        if (!watch->closed && watch->want_read) ArmRead(watch);
      });
}

void CurlAsioDriver::ArmWrite(const std::shared_ptr<SocketWatch>& watch) {
  if (watch->write_pending || watch->closed) return;
  watch->write_pending = true;
  watch->descriptor.async_wait(
      boost::asio::posix::stream_descriptor::wait_write,
      [this, watch](const boost::system::error_code& ec) {
        watch->write_pending = false;
        if (watch->closed || ec == boost::asio::error::operation_aborted) {
          return;
        }
        if (!watch->want_write) return;
        Act(watch->socket, ec ? CURL_CSELECT_ERR : CURL_CSELECT_OUT);
        if (!watch->closed && watch->want_write) ArmWrite(watch);
      });
}

void CurlAsioDriver::Act(curl_socket_t socket, int select_bits) {
  curl_multi_socket_action(multi_.get(), socket, select_bits, &running_);
  DrainFinished();
}

void CurlAsioDriver::DrainFinished() {
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi_.get(), &queued)) {
    if (message->msg != CURLMSG_DONE) continue;
    CURL* easy = message->easy_handle;
    const CURLcode result = message->data.result;
    // `message` is invalid after remove_handle; copy first.
    curl_multi_remove_handle(multi_.get(), easy);
    on_done_(easy, result);
  }
}

}  // namespace robotscan::crawler
