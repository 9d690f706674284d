// Real web server software started on 127.0.0.1 for the crawler's tests:
// nginx, Apache httpd (mod_http2), nghttpd, Caddy, h2o, lighttpd and
// HAProxy, all Debian packages, each with a configuration of our own in a
// temporary directory. The test server of our own (test_http_server.h)
// proves only what we thought of; these are what the web runs.
//
// Every server serves the same sites. A site is "<kind>.<variant>.test":
// the kind picks the file (and the compression), the variant the server,
// port, protocols and TLS version. Kinds:
//   tiny  30-byte robots.txt
//   mid   20,000 bytes
//   big   600 KiB (the crawler keeps 500 KiB)
//   gz    20,000 bytes, compressed by the server with gzip
//   br    20,000 bytes, compressed by the server with brotli
//   zs    20,000 bytes, compressed by the server with zstd (Caddy)
//   hop   a 301 to another server's site (RealServers::SetHop)
// Each server writes an access log of "host protocol" lines, so a test can
// check which protocol a request really used.
#ifndef ROBOTSCAN_TESTS_CRAWLER_REAL_SERVERS_H_
#define ROBOTSCAN_TESTS_CRAWLER_REAL_SERVERS_H_

#include <sys/types.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace robotscan::testing {

// One way a server is reached: its hosts are "<kind>.<name>.test".
struct ServerVariant {
  std::string name;    // e.g. "nginx-h2-tls12"
  std::string scheme;  // "http" or "https"
  int port = 0;
  // What the access log must say for a request to this variant
  // ("HTTP/1.1", "HTTP/2.0"); empty: the server keeps no such log.
  std::string protocol;
  std::vector<std::string> kinds;  // Sites served (see above).
  bool ipv6 = false;               // On ::1 instead of 127.0.0.1.
  std::string Address() const { return ipv6 ? "[::1]" : "127.0.0.1"; }
  std::string Host(const std::string& kind) const {
    return kind + "." + name + ".test";
  }
};

// The files every server serves, by kind, and the certificate they use.
class SiteFiles {
 public:
  // Writes the files and a CA-signed certificate for "*.<variant>.test"
  // under `dir` (world-readable: some servers read as www-data/nobody).
  explicit SiteFiles(const std::string& dir,
                     const std::vector<std::string>& variant_names);
  const std::string& dir() const { return dir_; }
  std::string Root(const std::string& kind) const {
    return dir_ + "/www/" + kind;
  }
  const std::string& Body(const std::string& kind) const;
  const std::string& ca_file() const { return ca_file_; }
  const std::string& cert_file() const { return cert_file_; }
  const std::string& key_file() const { return key_file_; }

 private:
  std::string dir_, ca_file_, cert_file_, key_file_;
  std::map<std::string, std::string> bodies_;
};

// A started server (one or more processes), stopped by the destructor.
class RealServer {
 public:
  // Starts `software` ("nginx", "apache", "nghttpd", "caddy", "h2o",
  // "lighttpd", "haproxy"). `hops` maps a variant name to the URL its
  // "hop" site redirects to. On failure returns nullptr and says why in
  // *why_not (not installed, would not start: with its own message).
  // haproxy needs `backend_port`, a plain-http port of another server.
  static std::unique_ptr<RealServer> Start(
      const std::string& software, const SiteFiles& files,
      const std::map<std::string, std::string>& hops, int backend_port,
      std::string* why_not);
  ~RealServer();
  RealServer(const RealServer&) = delete;
  RealServer& operator=(const RealServer&) = delete;

  const std::string& software() const { return software_; }
  const std::vector<ServerVariant>& variants() const { return variants_; }
  // The access log's protocol for the latest request to `host` (empty if
  // none was logged within 10 s).
  std::string LoggedProtocol(const std::string& host) const;

 private:
  std::string ReadLoggedProtocol(const std::string& host) const;
  RealServer() = default;
  bool Launch(const std::string& binary, const std::vector<std::string>& args,
              const std::string& name, std::string* why_not);
  bool WaitUntilListening(std::string* why_not);

  std::string software_;
  std::string dir_;
  std::vector<pid_t> pids_;
  std::vector<std::string> logs_;  // Each process's stderr.
  std::vector<ServerVariant> variants_;
  std::string access_log_;
};

// Names of the variants RealServer::Start("software") will serve, known
// before it starts (for the certificate).
std::vector<std::string> VariantNamesOf(const std::string& software);

// A free TCP port on 127.0.0.1 or ::1 (bound and released: a server
// started at once gets it).
int FreePort(bool ipv6 = false);

}  // namespace robotscan::testing

#endif  // ROBOTSCAN_TESTS_CRAWLER_REAL_SERVERS_H_
