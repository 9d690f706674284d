// The leanest libcurl client we could write, as a peer for the crawler
// benchmark: libcurl's multi socket API on a bare epoll loop, one thread,
// no storage, no DNS, no redirects, no per-domain bookkeeping beyond the
// transfer itself. Whatever it cannot reach, no libcurl-based crawler can,
// so it shows how much of the server's ceiling libcurl itself leaves.
//
//   lean_libcurl_client URL_FILE CONCURRENCY CONNECT_TO
//
// URL_FILE has one URL per line; CONNECT_TO is curl's HOST:PORT:HOST2:PORT2
// (e.g. "::127.0.0.1:8080"). Prints "done N ok M" at the end.
#include <curl/curl.h>
#include <sys/epoll.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

struct Loop {
  int epoll_fd = -1;
  long timeout_ms = -1;
  CURLM* multi = nullptr;
};

int OnSocket(CURL*, curl_socket_t fd, int what, void* user, void* known) {
  auto* loop = static_cast<Loop*>(user);
  if (what == CURL_POLL_REMOVE) return 0;  // close() drops it from the set.
  epoll_event event{};
  event.events = ((what & CURL_POLL_IN) ? std::uint32_t{EPOLLIN} : 0u) |
                 ((what & CURL_POLL_OUT) ? std::uint32_t{EPOLLOUT} : 0u);
  event.data.fd = fd;
  if (known == nullptr) {
    if (epoll_ctl(loop->epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) {
      epoll_ctl(loop->epoll_fd, EPOLL_CTL_MOD, fd, &event);
    }
    curl_multi_assign(loop->multi, fd, loop);
  } else {
    epoll_ctl(loop->epoll_fd, EPOLL_CTL_MOD, fd, &event);
  }
  return 0;
}

int OnTimer(CURLM*, long timeout_ms, void* user) {
  static_cast<Loop*>(user)->timeout_ms = timeout_ms;
  return 0;
}

size_t Discard(char*, size_t size, size_t count, void*) { return size * count; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s URL_FILE CONCURRENCY CONNECT_TO\n",
                 argv[0]);
    return 2;
  }
  std::vector<std::string> urls;
  std::ifstream in(argv[1]);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) urls.push_back(line);
  }
  const int concurrency = std::atoi(argv[2]);
  curl_global_init(CURL_GLOBAL_DEFAULT);
  curl_slist* connect_to = curl_slist_append(nullptr, argv[3]);

  Loop loop;
  loop.epoll_fd = epoll_create1(EPOLL_CLOEXEC);
  loop.multi = curl_multi_init();
  curl_multi_setopt(loop.multi, CURLMOPT_SOCKETFUNCTION, OnSocket);
  curl_multi_setopt(loop.multi, CURLMOPT_SOCKETDATA, &loop);
  curl_multi_setopt(loop.multi, CURLMOPT_TIMERFUNCTION, OnTimer);
  curl_multi_setopt(loop.multi, CURLMOPT_TIMERDATA, &loop);

  std::size_t next = 0, done = 0, ok = 0;
  auto start = [&](CURL* easy) {
    curl_easy_setopt(easy, CURLOPT_URL, urls[next++].c_str());
    curl_multi_add_handle(loop.multi, easy);
  };
  for (int i = 0; i < concurrency && next < urls.size(); ++i) {
    CURL* easy = curl_easy_init();
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, Discard);
    curl_easy_setopt(easy, CURLOPT_CONNECT_TO, connect_to);
    curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, 0L);
    start(easy);
  }
  int running = 0;
  std::vector<epoll_event> events(256);
  while (done < urls.size()) {
    const int count = epoll_wait(
        loop.epoll_fd, events.data(), static_cast<int>(events.size()),
        static_cast<int>(loop.timeout_ms < 0 ? 1000 : loop.timeout_ms));
    if (count == 0) {
      curl_multi_socket_action(loop.multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    for (int i = 0; i < count; ++i) {
      const std::uint32_t e = events[static_cast<std::size_t>(i)].events;
      const int bits = (e & (EPOLLIN | EPOLLHUP) ? CURL_CSELECT_IN : 0) |
                       (e & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                       (e & EPOLLERR ? CURL_CSELECT_ERR : 0);
      curl_multi_socket_action(loop.multi,
                               events[static_cast<std::size_t>(i)].data.fd,
                               bits, &running);
    }
    if (loop.timeout_ms == 0) {
      curl_multi_socket_action(loop.multi, CURL_SOCKET_TIMEOUT, 0, &running);
    }
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(loop.multi, &queued)) {
      if (message->msg != CURLMSG_DONE) continue;
      CURL* easy = message->easy_handle;
      long status = 0;
      curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
      if (message->data.result == CURLE_OK && status == 200) ++ok;
      ++done;
      curl_multi_remove_handle(loop.multi, easy);
      if (next < urls.size()) {
        start(easy);
      } else {
        curl_easy_cleanup(easy);
      }
    }
  }
  std::printf("done %zu ok %zu\n", done, ok);
  curl_multi_cleanup(loop.multi);
  curl_slist_free_all(connect_to);
  close(loop.epoll_fd);
  curl_global_cleanup();
  return ok == urls.size() ? 0 : 1;
}
