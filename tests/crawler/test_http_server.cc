#include "test_http_server.h"

#include <brotli/encode.h>
#include <openssl/ssl.h>
#include <sys/socket.h>
#include <zlib.h>
#include <zstd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "test_http2_responder.h"

namespace robotscan::testing {

const char* TestHttpServer::kRobotsBody = "User-agent: *\nDisallow: /private\n";

namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace std::chrono_literals;

std::string Gzip(std::string_view data) {
  z_stream z{};
  if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string Brotli(std::string_view data) {
  std::size_t size = BrotliEncoderMaxCompressedSize(data.size());
  std::string out(size, '\0');
  if (!BrotliEncoderCompress(
          BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT,
          data.size(), reinterpret_cast<const std::uint8_t*>(data.data()),
          &size, reinterpret_cast<std::uint8_t*>(out.data()))) {
    throw std::runtime_error("BrotliEncoderCompress");
  }
  out.resize(size);
  return out;
}

std::string Zstd(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const std::size_t size =
      ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 19);
  if (ZSTD_isError(size)) throw std::runtime_error("ZSTD_compress");
  out.resize(size);
  return out;
}

// One accepted connection, plain or TLS.
class Connection {
 public:
  virtual ~Connection() = default;
  virtual std::size_t ReadSome(char* buffer, std::size_t size,
                               boost::system::error_code& ec) = 0;
  virtual tcp::socket& socket() = 0;

  bool Write(std::string_view data) {
    if (on_answer_) std::exchange(on_answer_, nullptr)();
    return WriteBytes(data);
  }
  // Called once, when the server starts answering (the first Write).
  void OnAnswer(std::function<void()> callback) {
    on_answer_ = std::move(callback);
  }

  // Reads until the blank line ending the request head (16 KiB at most).
  bool ReadRequest(std::string* head) {
    char buffer[4096];
    while (head->find("\r\n\r\n") == std::string::npos) {
      if (head->size() > 16384) return false;
      boost::system::error_code ec;
      const std::size_t n = ReadSome(buffer, sizeof(buffer), ec);
      if (ec || n == 0) return false;
      head->append(buffer, n);
    }
    return true;
  }
  // Closes with a TCP RST (SO_LINGER 0) instead of a FIN.
  void Reset() {
    boost::system::error_code ec;
    socket().set_option(asio::socket_base::linger(true, 0), ec);
    socket().close(ec);
  }

 protected:
  virtual bool WriteBytes(std::string_view data) = 0;

 private:
  std::function<void()> on_answer_;
};

class PlainConnection final : public Connection {
 public:
  explicit PlainConnection(tcp::socket s) : socket_(std::move(s)) {}
  std::size_t ReadSome(char* buffer, std::size_t size,
                       boost::system::error_code& ec) override {
    return socket_.read_some(asio::buffer(buffer, size), ec);
  }
  bool WriteBytes(std::string_view data) override {
    boost::system::error_code ec;
    asio::write(socket_, asio::buffer(data.data(), data.size()), ec);
    return !ec;
  }
  tcp::socket& socket() override { return socket_; }

 private:
  tcp::socket socket_;
};

class TlsConnection final : public Connection {
 public:
  TlsConnection(tcp::socket s, asio::ssl::context& context)
      : stream_(std::move(s), context) {}
  bool Handshake() {
    boost::system::error_code ec;
    stream_.handshake(asio::ssl::stream_base::server, ec);
    return !ec;
  }
  std::size_t ReadSome(char* buffer, std::size_t size,
                       boost::system::error_code& ec) override {
    return stream_.read_some(asio::buffer(buffer, size), ec);
  }
  bool WriteBytes(std::string_view data) override {
    boost::system::error_code ec;
    asio::write(stream_, asio::buffer(data.data(), data.size()), ec);
    return !ec;
  }
  tcp::socket& socket() override { return stream_.next_layer(); }
  SSL* ssl() { return stream_.native_handle(); }

 private:
  asio::ssl::stream<tcp::socket> stream_;
};

struct Request {
  std::string method, path, host, label, if_none_match, head;
};

Request ParseRequest(const std::string& head) {
  Request r;
  r.head = head;
  const std::size_t line_end = head.find("\r\n");
  const std::string line = head.substr(0, line_end);
  const std::size_t sp1 = line.find(' ');
  const std::size_t sp2 = line.find(' ', sp1 + 1);
  r.method = line.substr(0, sp1);
  r.path = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::size_t pos = line_end + 2;
  while (pos < head.size()) {
    const std::size_t end = head.find("\r\n", pos);
    if (end == std::string::npos || end == pos) break;
    const std::string header = head.substr(pos, end - pos);
    pos = end + 2;
    const std::size_t colon = header.find(':');
    if (colon == std::string::npos) continue;
    std::string name = header.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(c));
    std::string value = header.substr(colon + 1);
    while (!value.empty() && value.front() == ' ') value.erase(0, 1);
    if (name == "host") {
      for (char& c : value) c = static_cast<char>(std::tolower(c));
      r.host = value.substr(0, value.find(':'));
    } else if (name == "if-none-match") {
      r.if_none_match = value;
    }
  }
  r.label = r.host.substr(0, r.host.find('.'));
  return r;
}

std::string Response(int status, std::string_view body,
                     const std::vector<std::string>& headers = {},
                     std::string_view content_type = "text/plain") {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " Test\r\n";
  out += "Content-Type: " + std::string(content_type) + "\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  out += "Connection: close\r\n";
  for (const std::string& h : headers) out += h + "\r\n";
  out += "\r\n";
  out.append(body);
  return out;
}

// A response's header lines and body, without its status line.
std::string AfterStatusLine(const std::string& response) {
  return response.substr(response.find("\r\n") + 2);
}

std::string Redirect(int status, const std::string& location) {
  return Response(status, "moved", {"Location: " + location});
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

struct TestHttpServer::Impl {
  asio::io_context io;  // Only for socket construction; no run().
  tcp::acceptor http{io};
  tcp::acceptor https{io};
  asio::ssl::context tls{asio::ssl::context::tls_server};
  std::atomic<bool> stopping{false};
  std::mutex mutex;
  std::condition_variable stop_cv;
  std::map<std::string, int> requests;
  std::map<std::string, std::string> last_request;
  std::map<std::string, std::pair<int, std::string>> answers;  // SetAnswer.
  std::vector<std::thread> threads;
  std::atomic<int> open{0};
  std::atomic<int>* max_open = nullptr;
  std::thread http_thread, https_thread;
  std::string huge_body, gzip_body, bomb_body, br_body, zstd_body,
      zstd_bomb_body;
  struct File {
    int status = 200;
    std::string content_type, body;
  };
  std::map<std::string, File> files;  // By path, any host; guarded by mutex.

  void AcceptLoop(tcp::acceptor& acceptor, bool use_tls) {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket(io);
      acceptor.accept(socket, ec);
      if (stopping) return;
      if (ec) continue;
      std::lock_guard lock(mutex);
      threads.emplace_back([this, s = std::move(socket), use_tls]() mutable {
        const int now = ++open;
        int seen = max_open->load();
        while (now > seen && !max_open->compare_exchange_weak(seen, now)) {
        }
        // A connection stops counting as open when the server starts to
        // answer: the client can finish (and, under a per-IP cap, open its
        // next connection) only after that, so the two are never counted
        // at once because this thread was slower to finish than the client.
        bool counted = true;
        const auto stop_counting = [this, &counted] {
          if (std::exchange(counted, false)) --open;
        };
        Serve(std::move(s), use_tls, stop_counting);
        stop_counting();
      });
    }
  }

  void Serve(tcp::socket socket, bool use_tls,
             const std::function<void()>& on_answer) {
    // Bound reads so a vanished client never pins a thread for long.
    timeval tv{10, 0};
    setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv,
               sizeof(tv));
    std::unique_ptr<Connection> conn;
    if (use_tls) {
      auto tls_conn = std::make_unique<TlsConnection>(std::move(socket), tls);
      if (!tls_conn->Handshake()) return;
      if (NegotiatedHttp2(tls_conn->ssl())) {
        tls_conn->OnAnswer(on_answer);
        ServeHttp2Connection(*tls_conn);
        return;
      }
      conn = std::move(tls_conn);
    } else {
      conn = std::make_unique<PlainConnection>(std::move(socket));
    }
    conn->OnAnswer(on_answer);
    std::string head;
    if (!conn->ReadRequest(&head)) return;
    const Request request = ParseRequest(head);
    int count = 0;
    {
      std::lock_guard lock(mutex);
      count = ++requests[request.host];
      last_request[request.host] = head;
    }
    Handle(*conn, request, use_tls, count);
  }

  static bool NegotiatedHttp2(SSL* ssl) {
    const unsigned char* protocol = nullptr;
    unsigned int length = 0;
    SSL_get0_alpn_selected(ssl, &protocol, &length);
    return std::string_view(reinterpret_cast<const char*>(protocol), length) ==
           "h2";
  }

  // ALPN chose h2, which it does only for the h2* labels (by SNI).
  void ServeHttp2Connection(TlsConnection& c) {
    const char* name = SSL_get_servername(c.ssl(), TLSEXT_NAMETYPE_host_name);
    const std::string host = name != nullptr ? name : "";
    {
      std::lock_guard lock(mutex);
      ++requests[host];
      last_request[host] = "(HTTP/2)";
    }
    Http2Connection h2;
    h2.read_more = [&c](std::string* out) {
      char buffer[16384];
      boost::system::error_code ec;
      const std::size_t n = c.ReadSome(buffer, sizeof(buffer), ec);
      if (ec || n == 0) return false;
      out->append(buffer, n);
      return true;
    };
    h2.write = [&c](std::string_view bytes) { return c.Write(bytes); };
    ServeHttp2(h2, host.substr(0, host.find('.')));
  }

  // Waits up to `duration`, returning early (false) when the server stops.
  bool Sleep(std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex);
    return !stop_cv.wait_for(lock, duration,
                             [this] { return stopping.load(); });
  }

  void Handle(Connection& c, const Request& r, bool on_tls, int count) {
    {
      std::unique_lock lock(mutex);
      if (auto file = files.find(r.path); file != files.end()) {
        const File answer = file->second;
        lock.unlock();
        c.Write(Response(answer.status, answer.body, {}, answer.content_type));
        return;
      }
    }
    const std::string& label = r.label;
    {
      std::unique_lock lock(mutex);
      const auto answer = answers.find(label);
      if (answer != answers.end()) {
        const std::string response =
            Response(answer->second.first, answer->second.second);
        lock.unlock();
        c.Write(response);
        return;
      }
    }
    const std::string robots = kRobotsBody;
    if (label == "ok" || label == "notls" || label == "www" ||
        label == "xn--bcher-kva" ||  // bücher, idncross's target
        (StartsWith(label, "d") && label.size() > 1 &&
         std::isdigit(static_cast<unsigned char>(label[1])))) {
      c.Write(Response(200, robots));
    } else if (StartsWith(label, "s") && label.size() == 4 &&
               std::isdigit(static_cast<unsigned char>(label[1]))) {
      const int status = std::atoi(label.c_str() + 1);
      std::vector<std::string> headers;
      if (status == 429 || status == 503) headers.push_back("Retry-After: 1");
      if (status >= 200 && status < 300) {
        c.Write(Response(status, status == 204 ? "" : robots, headers));
      } else {
        c.Write(Response(status, "<html><body>error</body></html>", headers,
                         "text/html"));
      }
    } else if (StartsWith(label, "redir")) {
      const int hops = std::atoi(label.c_str() + 5);
      int at = 0;
      if (StartsWith(r.path, "/hop")) at = std::atoi(r.path.c_str() + 4);
      if (at < hops) {
        c.Write(Redirect(at == 0 ? 301 : 302, "/hop" + std::to_string(at + 1)));
      } else {
        c.Write(Response(200, robots));
      }
    } else if (label == "loop") {
      c.Write(Redirect(301, r.path == "/again" ? "/robots.txt" : "/again"));
    } else if (label == "cross") {
      c.Write(Redirect(301, "http://ok.test/robots.txt"));
    } else if (label == "idncross") {
      // A raw UTF-8 host in Location (not punycode), as some servers send.
      c.Write(Redirect(301,
                       "http://b\xC3\xBC"
                       "cher.test/robots.txt"));
    } else if (label == "tohttps") {
      if (on_tls) {
        c.Write(Response(200, robots));
      } else {
        c.Write(Redirect(301, "https://tohttps.test/robots.txt"));
      }
    } else if (label == "ftp") {
      c.Write(Redirect(301, "ftp://ftp.test/robots.txt"));
    } else if (label == "relative") {
      if (r.path == "/robots.txt") {
        c.Write(Redirect(307, "robots2.txt"));
      } else {
        c.Write(Response(200, robots));
      }
    } else if (label == "huge") {
      c.Write(Response(200, huge_body));
    } else if (label == "gzip") {
      c.Write(Response(200, gzip_body, {"Content-Encoding: gzip"}));
    } else if (label == "bomb") {
      c.Write(Response(200, bomb_body, {"Content-Encoding: gzip"}));
    } else if (label == "br") {
      c.Write(Response(200, br_body, {"Content-Encoding: br"}));
    } else if (label == "zstd") {
      c.Write(Response(200, zstd_body, {"Content-Encoding: zstd"}));
    } else if (label == "zstdbomb") {
      c.Write(Response(200, zstd_bomb_body, {"Content-Encoding: zstd"}));
    } else if (label == "badgzip") {
      c.Write(Response(200, "this is not gzip at all, sorry",
                       {"Content-Encoding: gzip"}));
    } else if (label == "slowstart") {
      if (Sleep(1500ms)) c.Write(Response(200, robots));
    } else if (StartsWith(label, "delay")) {
      if (Sleep(std::chrono::milliseconds(std::atoi(label.c_str() + 5)))) {
        c.Write(Response(200, robots));
      }
    } else if (label == "trickle") {
      const std::string body = "User-agent: *\nAllow: /\n";
      c.Write(
          "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
          "Content-Length: " +
          std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n");
      for (char ch : body) {
        if (!Sleep(50ms) || !c.Write(std::string_view(&ch, 1))) return;
      }
    } else if (label == "drip") {
      // 100 bytes promised, one every 400 ms: 2.5 bytes/s.
      c.Write(
          "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
          "Content-Length: 100\r\nConnection: close\r\n\r\n");
      for (int i = 0; i < 100; ++i) {
        if (!Sleep(400ms) || !c.Write("#")) return;
      }
    } else if (StartsWith(label, "stall")) {
      Sleep(60s);
    } else if (label == "resetbefore") {
      c.Reset();
    } else if (label == "resetduring") {
      c.Write(
          "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
          "Content-Length: 1000\r\nConnection: close\r\n\r\n" +
          std::string(100, 'x'));
      Sleep(100ms);
      c.Reset();
    } else if (label == "badchunk") {
      c.Write(
          "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
          "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
          "zz\r\nabc\r\n0\r\n\r\n");
    } else if (label == "status777") {
      c.Write(
          "HTTP/1.1 777 Lucky\r\nContent-Type: text/plain\r\n"
          "Content-Length: 2\r\nConnection: close\r\n\r\nok");
    } else if (label == "bigheaderline") {
      // One 1 MB header line: over libcurl's 100 KiB a line.
      c.Write("HTTP/1.1 200 OK\r\nX-Big: " + std::string(1 << 20, 'b') +
              "\r\n" + AfterStatusLine(Response(200, robots)));
    } else if (label == "manyheaders") {
      // 400 KB of 100-byte header lines: over libcurl's 300 KiB in all.
      std::string head = "HTTP/1.1 200 OK\r\n";
      for (int i = 0; i < 4000; ++i) {
        head += "X-Many-" + std::to_string(i) + ": " + std::string(80, 'm') +
                "\r\n";
      }
      c.Write(head + AfterStatusLine(Response(200, robots)));
    } else if (label == "soft404") {
      c.Write(Response(200,
                       "<html><head><title>Not Found</title></head>"
                       "<body>Page not found</body></html>",
                       {}, "text/html; charset=utf-8"));
    } else if (label == "bom") {
      c.Write(Response(200, "\xEF\xBB\xBFUser-agent: *\nDisallow: /bom\n"));
    } else if (label == "cronly") {
      c.Write(Response(200, "User-agent: *\rDisallow: /cr\r"));
    } else if (label == "latin1") {
      c.Write(Response(200, "User-agent: *\nDisallow: /caf\xE9\n", {},
                       "text/plain; charset=iso-8859-1"));
    } else if (label == "empty") {
      c.Write(Response(200, ""));
    } else if (label == "etag") {
      if (r.if_none_match == "\"v1\"") {
        c.Write(
            "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n"
            "Connection: close\r\n\r\n");
      } else {
        c.Write(Response(
            200, robots,
            {"ETag: \"v1\"", "Last-Modified: Wed, 21 Oct 2015 07:28:00 GMT",
             "Cache-Control: max-age=86400"}));
      }
    } else if (label == "retry503") {
      if (count == 1) {
        c.Write(Response(503, "busy", {"Retry-After: 0"}));
      } else {
        c.Write(Response(200, robots));
      }
    } else {
      c.Write(Response(404, "no such test host", {}, "text/html"));
    }
  }
};

TestHttpServer::TestHttpServer(const std::string& work_dir)
    : impl_(std::make_unique<Impl>()) {
  impl_->max_open = &max_open_;
  cert_file_ = work_dir + "/cert.pem";
  const std::string key_file = work_dir + "/key.pem";
  // OpenSSL refuses a wildcard right below a TLD ("*.test"), so the
  // certificate names each fixed test host; bulk hosts (d1.test,
  // delay50.n7.test) are crawled with --insecure.
  std::string names = "DNS:localhost";
  for (const char* label :
       {"ok",          "s200",        "s204",      "s301",    "s401",
        "s403",        "s404",        "s410",      "s429",    "s500",
        "s503",        "redir5",      "redir6",    "loop",    "cross",
        "tohttps",     "ftp",         "relative",  "huge",    "gzip",
        "bomb",        "badgzip",     "slowstart", "trickle", "stall",
        "resetbefore", "resetduring", "badchunk",  "soft404", "bom",
        "cronly",      "latin1",      "empty",     "notls",   "nothere",
        "etag",        "retry503",    "www.ok",    "www.nx",  "br",
        "zstd",        "zstdbomb",    "h2ok",      "h2dyn",   "h2longline",
        "h2huge",      "h2rst",       "h2goaway"}) {
    names += std::string(",DNS:") + label + ".test";
  }
  const std::string command =
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 "
      "-nodes -days 2 -subj /CN=robotscan-test -addext "
      "'subjectAltName=" +
      names + "' -keyout " + key_file + " -out " + cert_file_ + " 2>/dev/null";
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("openssl req failed");
  }
  impl_->tls.use_certificate_chain_file(cert_file_);
  impl_->tls.use_private_key_file(key_file, asio::ssl::context::pem);
  // Refuse the handshake for "notls.*" (by SNI) so tests can exercise the
  // https -> http fallback on a TLS failure.
  int (*refuse_notls)(SSL*, int*, void*) = [](SSL* ssl, int*, void*) {
    const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
    if (name != nullptr && std::string_view(name).substr(0, 5) == "notls") {
      return SSL_TLSEXT_ERR_ALERT_FATAL;
    }
    return SSL_TLSEXT_ERR_OK;
  };
  // What SSL_CTX_set_tlsext_servername_callback expands to, without its
  // C-style cast.
  SSL_CTX_callback_ctrl(impl_->tls.native_handle(),
                        SSL_CTRL_SET_TLSEXT_SERVERNAME_CB,
                        reinterpret_cast<void (*)()>(refuse_notls));
  // ALPN: h2 for the HTTP/2 labels (test_http2_responder.h), http/1.1 for
  // every other host, as a server speaking both would choose per site.
  SSL_CTX_set_alpn_select_cb(
      impl_->tls.native_handle(),
      [](SSL* ssl, const unsigned char** out, unsigned char* out_length,
         const unsigned char* offered, unsigned int offered_length, void*) {
        const char* name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name);
        const std::string_view host = name != nullptr ? name : "";
        static const unsigned char kH2[] = {2, 'h', '2'};
        static const unsigned char kHttp11[] = {8,   'h', 't', 't', 'p',
                                                '/', '1', '.', '1'};
        const bool h2 = IsHttp2TestLabel(host.substr(0, host.find('.')));
        unsigned char* chosen = nullptr;
        if (SSL_select_next_proto(&chosen, out_length, h2 ? kH2 : kHttp11,
                                  h2 ? sizeof(kH2) : sizeof(kHttp11), offered,
                                  offered_length) != OPENSSL_NPN_NEGOTIATED) {
          return SSL_TLSEXT_ERR_NOACK;
        }
        *out = chosen;
        return SSL_TLSEXT_ERR_OK;
      },
      nullptr);

  std::string lines;
  while (lines.size() < 2 * 1024 * 1024) lines += "Disallow: /a/long/path/\n";
  impl_->huge_body = lines;
  impl_->gzip_body = Gzip(kRobotsBody);
  impl_->bomb_body = Gzip(std::string(64 * 1024 * 1024, '\0'));
  impl_->br_body = Brotli(kRobotsBody);
  impl_->zstd_body = Zstd(kRobotsBody);
  impl_->zstd_bomb_body = Zstd(std::string(64 * 1024 * 1024, '\0'));

  const tcp::endpoint loopback(asio::ip::make_address("127.0.0.1"), 0);
  for (tcp::acceptor* acceptor : {&impl_->http, &impl_->https}) {
    acceptor->open(loopback.protocol());
    acceptor->set_option(tcp::acceptor::reuse_address(true));
    acceptor->bind(loopback);
    acceptor->listen(1024);
  }
  http_port_ = impl_->http.local_endpoint().port();
  https_port_ = impl_->https.local_endpoint().port();
  impl_->http_thread =
      std::thread([this] { impl_->AcceptLoop(impl_->http, false); });
  impl_->https_thread =
      std::thread([this] { impl_->AcceptLoop(impl_->https, true); });
}

TestHttpServer::~TestHttpServer() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->stop_cv.notify_all();
  // Unblock accept(): shutting the listening socket down makes it return.
  ::shutdown(impl_->http.native_handle(), SHUT_RDWR);
  ::shutdown(impl_->https.native_handle(), SHUT_RDWR);
  impl_->http_thread.join();
  impl_->https_thread.join();
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(impl_->mutex);
    threads.swap(impl_->threads);
  }
  for (std::thread& t : threads) t.join();
}

void TestHttpServer::ServeFile(const std::string& path, int status,
                               const std::string& content_type,
                               const std::string& body) {
  std::lock_guard lock(impl_->mutex);
  impl_->files[path] = {status, content_type, body};
}

void TestHttpServer::SetAnswer(const std::string& label, int status,
                               std::string body) {
  std::lock_guard lock(impl_->mutex);
  impl_->answers[label] = {status, std::move(body)};
}

int TestHttpServer::RequestsFor(const std::string& host) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->requests.find(host);
  return it == impl_->requests.end() ? 0 : it->second;
}

std::string TestHttpServer::LastRequestFor(const std::string& host) const {
  std::lock_guard lock(impl_->mutex);
  auto it = impl_->last_request.find(host);
  return it == impl_->last_request.end() ? "" : it->second;
}

}  // namespace robotscan::testing
