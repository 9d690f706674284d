#include "curl_asio_driver.h"

#include <sys/epoll.h>

#include <array>
#include <boost/asio/post.hpp>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <utility>

namespace robotscan::crawler {

namespace {

std::uint32_t EpollEventsFor(int what) {
  switch (what) {
    case CURL_POLL_IN:
      return EPOLLIN;
    case CURL_POLL_OUT:
      return EPOLLOUT;
    case CURL_POLL_INOUT:
      return EPOLLIN | EPOLLOUT;
    default:
      return 0;
  }
}

int SelectBitsFor(std::uint32_t events) {
  int bits = 0;
  // A hang-up is reported as readable so that libcurl reads the end of the
  // stream (or the error) itself.
  if (events & (EPOLLIN | EPOLLHUP)) bits |= CURL_CSELECT_IN;
  if (events & EPOLLOUT) bits |= CURL_CSELECT_OUT;
  if (events & EPOLLERR) bits |= CURL_CSELECT_ERR;
  return bits;
}

// Adds `fd` to (or updates it in) the epoll set. Tries `op` first and
// falls back to the other one: ADD finds the socket still registered when
// libcurl forgot it without closing it; MOD finds it gone when it was
// closed and its number reused.
bool Register(int epoll_fd, int op, int fd, std::uint32_t events) {
  epoll_event event{};
  event.events = events;
  event.data.fd = fd;
  if (epoll_ctl(epoll_fd, op, fd, &event) == 0) return true;
  if (op == EPOLL_CTL_ADD && errno == EEXIST) {
    return epoll_ctl(epoll_fd, EPOLL_CTL_MOD, fd, &event) == 0;
  }
  if (op == EPOLL_CTL_MOD && errno == ENOENT) {
    return epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) == 0;
  }
  return false;
}

// Events collected per epoll_wait; more are picked up by the next round.
constexpr std::size_t kEventsPerRound = 256;

}  // namespace

CurlAsioDriver::CurlAsioDriver(boost::asio::io_context& io, DoneHandler on_done)
    : io_(io),
      on_done_(std::move(on_done)),
      multi_(curl_multi_init()),
      epoll_(io),
      timer_(io) {
  if (!multi_) return;
  const int epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd < 0) return;  // ok() reports it.
  epoll_.assign(epoll_fd);
  curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETFUNCTION, &OnSocket);
  curl_multi_setopt(multi_.get(), CURLMOPT_SOCKETDATA, this);
  curl_multi_setopt(multi_.get(), CURLMOPT_TIMERFUNCTION, &OnTimer);
  curl_multi_setopt(multi_.get(), CURLMOPT_TIMERDATA, this);
  WaitForEvents();
}

CurlAsioDriver::~CurlAsioDriver() {
  timer_.cancel();
  // Remaining easy handles belong to their owners, who remove them first;
  // curl_multi_cleanup then closes cached connections, calling OnSocket
  // with CURL_POLL_REMOVE for each.
  multi_.reset();
  // Closing our epoll descriptor (epoll_'s destructor) drops the whole set.
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
                             void* self, void* socket_context) {
  static_cast<CurlAsioDriver*>(self)->WatchSocket(socket, what,
                                                  socket_context != nullptr);
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
        driver->DrainFinished();
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
    driver->DrainFinished();
  });
  return 0;
}

void CurlAsioDriver::WatchSocket(curl_socket_t socket, int what, bool known) {
  if (socket < 0) return;
  const auto index = static_cast<std::size_t>(socket);
  if (index >= sockets_.size()) sockets_.resize(index + 64);
  SocketState& state = sockets_[index];
  if (what == CURL_POLL_REMOVE) {
    // No system call: libcurl closes the socket next, which takes it out
    // of the epoll set. If it stays open and becomes ready, the dispatch
    // loop sees it is not wanted and removes it then.
    state.wanted = 0;
    state.released_in_round = round_;
    return;
  }
  const std::uint32_t events = EpollEventsFor(what);
  state.wanted = what;
  if (known && state.registered == events) return;
  const int op = known && state.registered != 0 ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;
  if (!Register(epoll_.native_handle(), op, socket, events)) {
    // Cannot happen for a valid socket; if it does, libcurl's own
    // timeouts end the transfer instead of a silent hang.
    state.registered = 0;
    return;
  }
  state.registered = events;
  if (!known) curl_multi_assign(multi_.get(), socket, this);
}

void CurlAsioDriver::WaitForEvents() {
  if (waiting_) return;
  waiting_ = true;
  epoll_.async_wait(boost::asio::posix::stream_descriptor::wait_read,
                    [this](const boost::system::error_code& ec) {
                      if (ec == boost::asio::error::operation_aborted) return;
                      waiting_ = false;
                      DispatchReadySockets();
                    });
}

void CurlAsioDriver::DispatchReadySockets() {
  std::array<epoll_event, kEventsPerRound> events;
  const int count = epoll_wait(epoll_.native_handle(), events.data(),
                               static_cast<int>(events.size()), 0);
  ++round_;
  if (count < 0 && errno != EINTR) {
    // Not expected for a valid epoll descriptor; keep waiting rather than
    // spin. libcurl's timeouts still end every transfer.
    WaitForEvents();
    return;
  }
  for (int i = 0; i < count; ++i) {
    const int fd = events[static_cast<std::size_t>(i)].data.fd;
    SocketState& state = sockets_[static_cast<std::size_t>(fd)];
    if (state.wanted == 0) {
      // Released in this round: the event predates the release, and the
      // descriptor is most likely closed already (deleting it would fail
      // with EBADF, a wasted system call for one domain in three). If it
      // is still open and ready, the next round reports it again.
      if (state.released_in_round == round_) continue;
      // Released earlier and still open: take it out of the set.
      epoll_ctl(epoll_.native_handle(), EPOLL_CTL_DEL, fd, nullptr);
      state.registered = 0;
      continue;
    }
    Act(fd, SelectBitsFor(events[static_cast<std::size_t>(i)].events));
  }
  DrainFinished();
  if (count != 0) {
    // Level-triggered: a socket libcurl did not drain is still ready and is
    // reported by the next round. Only an empty round proves the set idle,
    // after which any new readiness wakes Asio's wait on our descriptor.
    boost::asio::post(io_, [this] { DispatchReadySockets(); });
    return;
  }
  WaitForEvents();
}

void CurlAsioDriver::Act(curl_socket_t socket, int select_bits) {
  curl_multi_socket_action(multi_.get(), socket, select_bits, &running_);
}

void CurlAsioDriver::DrainFinished() {
  // Every message is read before any handle is removed: libcurl 7.88's
  // curl_multi_remove_handle walks the whole list of unread messages
  // looking for one of its handle's, so removing while hundreds of them
  // wait (a burst of answers at high concurrency) cost O(n^2) and was 15%
  // of the loop's time at 10,000 in flight.
  finished_.clear();
  int queued = 0;
  while (CURLMsg* message = curl_multi_info_read(multi_.get(), &queued)) {
    if (message->msg != CURLMSG_DONE) continue;
    finished_.push_back({message->easy_handle, message->data.result});
  }
  // on_done_ may add handles but never runs transfers, so no new message
  // arrives while this loop runs.
  for (const Finished& done : finished_) {
    curl_multi_remove_handle(multi_.get(), done.easy);
    on_done_(done.easy, done.result);
  }
}

}  // namespace robotscan::crawler
