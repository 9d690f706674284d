#include "real_servers.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "crawl_test_util.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

// A robots.txt of exactly `size` bytes whose lines name the kind and number
// themselves, so that a lost, repeated or foreign byte shows.
std::string RobotsBody(const std::string& kind, std::size_t size) {
  std::string body = "User-agent: *\n";
  for (int i = 0; body.size() < size; ++i) {
    body += "Disallow: /" + kind + "/" + std::to_string(i) + "/\n";
  }
  body.resize(size);
  return body;
}

void Run(const std::string& command) {
  if (std::system((command + " >/dev/null 2>&1").c_str()) != 0) {
    throw std::runtime_error("failed: " + command);
  }
}

void MakeReadableDir(const std::string& path) {
  ::mkdir(path.c_str(), 0755);
  ::chmod(path.c_str(), 0755);
}

std::string FindBinary(const std::string& name) {
  for (const char* dir : {"/usr/sbin/", "/usr/bin/", "/sbin/",
                          "/usr/local/sbin/", "/usr/local/bin/"}) {
    const std::string path = dir + name;
    if (::access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

bool RunningAsRoot() { return ::geteuid() == 0; }

std::string Tail(const std::string& text, std::size_t max = 600) {
  return text.size() <= max ? text : "..." + text.substr(text.size() - max);
}

// The variants each software serves: name, scheme, protocol in its access
// log, kinds. Ports are assigned at start.
std::vector<ServerVariant> VariantsOf(const std::string& software) {
  const std::vector<std::string> plain = {"tiny", "mid", "big", "gz", "br"};
  const std::vector<std::string> with_hop = {"tiny", "mid", "big",
                                             "gz",   "br",  "hop"};
  if (software == "nginx") {
    return {{"nginx-h1", "http", 0, "HTTP/1.1", plain},
            {"nginx-h1-tls", "https", 0, "HTTP/1.1", plain},
            {"nginx-h2-tls13", "https", 0, "HTTP/2.0", with_hop},
            {"nginx-h2-tls12", "https", 0, "HTTP/2.0", plain},
            {"nginx-h2-v6", "https", 0, "HTTP/2.0", {"tiny", "mid"}, true}};
  }
  if (software == "apache") {
    return {{"apache-h1", "http", 0, "HTTP/1.1", plain},
            {"apache-h2-tls13", "https", 0, "HTTP/2.0", with_hop},
            {"apache-h2-tls12", "https", 0, "HTTP/2.0", plain}};
  }
  if (software == "nghttpd") {
    // No virtual hosts: one process per file. It speaks only h2 and keeps
    // no access log.
    return {{"nghttpd-tiny", "https", 0, "", {"tiny"}},
            {"nghttpd-mid", "https", 0, "", {"mid"}},
            {"nghttpd-big", "https", 0, "", {"big"}}};
  }
  if (software == "caddy") {
    // Caddy 2.6 compresses with gzip and zstd, not brotli.
    return {
        {"caddy-h1", "http", 0, "HTTP/1.1", {"tiny", "mid", "big", "gz", "zs"}},
        {"caddy-h2",
         "https",
         0,
         "HTTP/2.0",
         {"tiny", "mid", "big", "gz", "zs", "hop"}}};
  }
  if (software == "h2o") {
    return {{"h2o-h1", "http", 0, "HTTP/1.1", plain},
            {"h2o-h2", "https", 0, "HTTP/2", with_hop}};
  }
  if (software == "lighttpd") {
    return {{"lighttpd-h1", "http", 0, "HTTP/1.1", plain},
            {"lighttpd-h2", "https", 0, "HTTP/2.0", with_hop}};
  }
  if (software == "haproxy") {
    // TLS in front of nginx's plain-http port, which compresses.
    return {{"haproxy-h2", "https", 0, "HTTP/2.0", plain}};
  }
  return {};
}

struct Listen {
  std::string address;  // 127.0.0.1:PORT
  const ServerVariant* variant;
};

// ---- configuration writers, one per software --------------------------

std::string NginxConfig(const std::string& dir, const SiteFiles& files,
                        const std::vector<ServerVariant>& variants,
                        const std::map<std::string, std::string>& hops,
                        bool with_brotli) {
  std::ostringstream c;
  c << "daemon off;\nworker_processes 1;\npid " << dir << "/nginx.pid;\n"
    << "error_log " << dir << "/error.log warn;\n";
  if (with_brotli) {
    c << "load_module "
         "/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so;\n";
  }
  c << "events { worker_connections 1024; }\nhttp {\n"
    << "  log_format rs '$host $server_protocol';\n"
    << "  access_log " << dir << "/access.log rs;\n"
    << "  default_type text/plain;\n";
  for (const char* temp :
       {"client_body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
    c << "  " << temp << "_temp_path " << dir << ";\n";
  }
  c << "  ssl_certificate " << files.cert_file() << ";\n"
    << "  ssl_certificate_key " << files.key_file() << ";\n";
  for (const ServerVariant& v : variants) {
    const bool tls = v.scheme == "https";
    const bool h2 = v.protocol == "HTTP/2.0";
    for (const std::string& kind : v.kinds) {
      c << "  server {\n    listen " << v.Address() << ":" << v.port
        << (tls ? " ssl" : "") << (h2 ? " http2" : "") << ";\n"
        << "    server_name " << v.Host(kind) << ";\n"
        << "    root " << files.Root(kind) << ";\n";
      // Every server block of a port says the same: with SNI, the port's
      // first block decides the handshake.
      if (v.name == "nginx-h2-tls13") c << "    ssl_protocols TLSv1.3;\n";
      if (v.name == "nginx-h2-tls12") c << "    ssl_protocols TLSv1.2;\n";
      if (kind == "gz") {
        c << "    gzip on; gzip_types text/plain; gzip_min_length 1;\n";
      }
      if (kind == "br") {
        c << "    brotli on; brotli_types text/plain; brotli_min_length 1;\n";
      }
      if (kind == "hop") {
        c << "    location = /robots.txt { return 301 " << hops.at(v.name)
          << "; }\n";
      }
      c << "  }\n";
    }
  }
  c << "}\n";
  return c.str();
}

std::string ApacheConfig(const std::string& dir, const SiteFiles& files,
                         const std::vector<ServerVariant>& variants,
                         const std::map<std::string, std::string>& hops) {
  const std::string modules = "/usr/lib/apache2/modules/";
  std::ostringstream c;
  c << "ServerRoot " << dir << "\nPidFile " << dir << "/httpd.pid\n"
    << "DefaultRuntimeDir " << dir << "\nMutex file:" << dir << " default\n";
  if (RunningAsRoot()) c << "User www-data\nGroup www-data\n";
  for (const char* module : {"mpm_event", "authz_core", "mime", "ssl", "http2",
                             "deflate", "brotli", "alias", "filter"}) {
    c << "LoadModule " << module << "_module " << modules << "mod_" << module
      << ".so\n";
  }
  c << "ErrorLog " << dir << "/error.log\nLogLevel warn\n"
    << "LogFormat \"%{Host}i %H\" rs\nCustomLog " << dir
    << "/access.log rs\nTypesConfig /etc/mime.types\n"
    << "ServerName localhost\nSSLSessionCache none\n"
    << "<Directory " << files.dir() << "/www>\n  Require all granted\n"
    << "</Directory>\n";
  for (const ServerVariant& v : variants) {
    c << "Listen 127.0.0.1:" << v.port << (v.scheme == "https" ? " https" : "")
      << "\n";
  }
  for (const ServerVariant& v : variants) {
    for (const std::string& kind : v.kinds) {
      c << "<VirtualHost 127.0.0.1:" << v.port << ">\n"
        << "  ServerName " << v.Host(kind) << "\n"
        << "  DocumentRoot " << files.Root(kind) << "\n";
      if (v.scheme == "https") {
        c << "  SSLEngine on\n  SSLCertificateFile " << files.cert_file()
          << "\n  SSLCertificateKeyFile " << files.key_file() << "\n"
          << "  Protocols h2 http/1.1\n";
        if (v.name == "apache-h2-tls13") c << "  SSLProtocol -all +TLSv1.3\n";
        if (v.name == "apache-h2-tls12") c << "  SSLProtocol -all +TLSv1.2\n";
      }
      if (kind == "gz") c << "  SetOutputFilter DEFLATE\n";
      if (kind == "br") c << "  SetOutputFilter BROTLI_COMPRESS\n";
      if (kind == "hop") {
        c << "  Redirect 301 /robots.txt " << hops.at(v.name) << "\n";
      }
      c << "</VirtualHost>\n";
    }
  }
  return c.str();
}

std::string CaddyConfig(const std::string& dir, const SiteFiles& files,
                        const std::vector<ServerVariant>& variants,
                        const std::map<std::string, std::string>& hops) {
  std::ostringstream c;
  c << "{\n  admin off\n  auto_https off\n  servers {\n    protocols h1 h2\n"
    << "  }\n}\n";
  for (const ServerVariant& v : variants) {
    c << v.scheme << "://:" << v.port << " {\n"
      << "  bind 127.0.0.1\n"
      << "  log {\n    output file " << dir << "/access.log\n"
      << "    format json\n  }\n";
    if (v.scheme == "https") {
      c << "  tls " << files.cert_file() << " " << files.key_file() << "\n";
    }
    // The site's first label picks the directory, as the kind.
    c << "  root * " << files.dir() << "/www/{http.request.host.labels.2}\n"
      << "  @gz host gz." << v.name << ".test\n  encode @gz gzip\n"
      << "  @zs host zs." << v.name << ".test\n  encode @zs zstd\n";
    if (hops.count(v.name) != 0) {
      c << "  @hop host hop." << v.name << ".test\n  redir @hop "
        << hops.at(v.name) << " 301\n";
    }
    c << "  file_server\n}\n";
  }
  return c.str();
}

std::string H2oConfig(const std::string& dir, const SiteFiles& files,
                      const std::vector<ServerVariant>& variants,
                      const std::map<std::string, std::string>& hops) {
  std::ostringstream c;
  c << "pid-file: " << dir << "/h2o.pid\nerror-log: " << dir << "/error.log\n";
  if (RunningAsRoot()) c << "user: nobody\n";
  c << "access-log:\n  path: " << dir << "/access.log\n  format: \"%V %H\"\n";
  // One listen per port; h2o's YAML takes the key more than once.
  for (const ServerVariant& v : variants) {
    c << "listen:\n  host: 127.0.0.1\n  port: " << v.port << "\n";
    if (v.scheme == "https") {
      // No OCSP stapling: it would look for a responder on the network.
      c << "  ssl:\n    certificate-file: " << files.cert_file()
        << "\n    key-file: " << files.key_file()
        << "\n    ocsp-update-interval: 0\n";
    }
  }
  c << "hosts:\n";
  for (const ServerVariant& v : variants) {
    for (const std::string& kind : v.kinds) {
      c << "  \"" << v.Host(kind) << "\":\n    paths:\n";
      if (kind == "hop") {
        c << "      /robots.txt:\n        redirect:\n          url: "
          << hops.at(v.name) << "\n          status: 301\n";
        continue;
      }
      c << "      /:\n        file.dir: " << files.Root(kind) << "\n";
      if (kind == "gz") c << "    compress: [ gzip ]\n";
      if (kind == "br") c << "    compress: [ br ]\n";
      if (kind == "gz" || kind == "br") c << "    compress-minimum-size: 1\n";
    }
  }
  return c.str();
}

std::string LighttpdConfig(const std::string& dir, const SiteFiles& files,
                           const std::vector<ServerVariant>& variants,
                           const std::map<std::string, std::string>& hops) {
  std::ostringstream c;
  c << "server.modules = (\"mod_openssl\", \"mod_deflate\", "
       "\"mod_accesslog\", \"mod_redirect\")\n"
    << "server.document-root = \"" << files.Root("tiny") << "\"\n"
    << "server.errorlog = \"" << dir << "/error.log\"\n"
    << "server.feature-flags = ( \"server.h2proto\" => \"enable\" )\n"
    << "accesslog.filename = \"" << dir << "/access.log\"\n"
    << "accesslog.format = \"%V %H\"\n"
    << "mimetype.assign = ( \".txt\" => \"text/plain\" )\n";
  if (RunningAsRoot()) {
    c << "server.username = \"www-data\"\nserver.groupname = \"www-data\"\n";
  }
  bool first = true;
  for (const ServerVariant& v : variants) {
    if (first) {
      c << "server.bind = \"127.0.0.1\"\nserver.port = " << v.port << "\n";
    }
    c << "$SERVER[\"socket\"] == \"127.0.0.1:" << v.port << "\" {\n";
    if (v.scheme == "https") {
      c << "  ssl.engine = \"enable\"\n  ssl.pemfile = \"" << files.cert_file()
        << "\"\n  ssl.privkey = \"" << files.key_file() << "\"\n";
    }
    c << "}\n";
    first = false;
  }
  for (const ServerVariant& v : variants) {
    for (const std::string& kind : v.kinds) {
      c << "$HTTP[\"host\"] == \"" << v.Host(kind) << "\" {\n"
        << "  server.document-root = \"" << files.Root(kind) << "\"\n";
      if (kind == "gz" || kind == "br") {
        c << "  deflate.mimetypes = ( \"text/plain\" )\n"
          << "  deflate.allowed-encodings = ( \""
          << (kind == "gz" ? "gzip" : "br") << "\" )\n"
          << "  deflate.min-compress-size = 1\n";
      }
      if (kind == "hop") {
        c << "  url.redirect = ( \"^/robots\\.txt$\" => \"" << hops.at(v.name)
          << "\" )\n  url.redirect-code = 301\n";
      }
      c << "}\n";
    }
  }
  return c.str();
}

std::string HaproxyConfig(const std::string& pem, const ServerVariant& v,
                          int backend_port) {
  std::ostringstream c;
  c << "global\n  log stdout format raw local0\n"
    << "  ssl-default-bind-options ssl-min-ver TLSv1.2\n"
    << "defaults\n  mode http\n  log global\n  timeout connect 5s\n"
    << "  timeout client 30s\n  timeout server 30s\n"
    << "frontend in\n  bind 127.0.0.1:" << v.port << " ssl crt " << pem
    << " alpn h2,http/1.1\n"
    << "  http-request set-var(txn.host) req.hdr(host)\n"
    << "  log-format \"%[var(txn.host)] %HV\"\n"
    // nginx's plain-http sites answer to nginx-h1 names.
    << "  http-request set-header Host %[req.hdr(host),regsub(haproxy-h2,"
       "nginx-h1)]\n"
    << "  default_backend out\n"
    << "backend out\n  server nginx 127.0.0.1:" << backend_port << "\n";
  return c.str();
}

}  // namespace

namespace {

// Connects to (or, with `bind_only`, binds) `port` on the loopback address
// of that family; returns the socket or -1.
int LoopbackSocket(bool ipv6, int port, bool bind_only) {
  const int fd = ::socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0);
  sockaddr_storage storage{};
  socklen_t length = 0;
  if (ipv6) {
    auto* a = reinterpret_cast<sockaddr_in6*>(&storage);
    a->sin6_family = AF_INET6;
    a->sin6_addr = in6addr_loopback;
    a->sin6_port = htons(static_cast<std::uint16_t>(port));
    length = sizeof(*a);
  } else {
    auto* a = reinterpret_cast<sockaddr_in*>(&storage);
    a->sin_family = AF_INET;
    a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a->sin_port = htons(static_cast<std::uint16_t>(port));
    length = sizeof(*a);
  }
  auto* address = reinterpret_cast<sockaddr*>(&storage);
  const bool ok = bind_only ? ::bind(fd, address, length) == 0
                            : ::connect(fd, address, length) == 0;
  if (!ok) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

int FreePort(bool ipv6) {
  const int fd = LoopbackSocket(ipv6, 0, true);
  if (fd < 0) throw std::runtime_error("bind");
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ipv6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port)
              : ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port);
}

std::vector<std::string> VariantNamesOf(const std::string& software) {
  std::vector<std::string> names;
  for (const ServerVariant& v : VariantsOf(software)) names.push_back(v.name);
  return names;
}

SiteFiles::SiteFiles(const std::string& dir,
                     const std::vector<std::string>& variant_names)
    : dir_(dir) {
  MakeReadableDir(dir_);
  MakeReadableDir(dir_ + "/www");
  bodies_ = {{"tiny", RobotsBody("tiny", 30)},
             {"mid", RobotsBody("mid", 20000)},
             {"big", RobotsBody("big", 600 * 1024)},
             {"gz", RobotsBody("gz", 20000)},
             {"br", RobotsBody("br", 20000)},
             {"zs", RobotsBody("zs", 20000)},
             {"hop", ""}};
  for (const auto& [kind, body] : bodies_) {
    MakeReadableDir(Root(kind));
    if (kind == "hop") continue;
    WriteFile(Root(kind) + "/robots.txt", body);
    ::chmod((Root(kind) + "/robots.txt").c_str(), 0644);
  }
  // A CA of our own and one certificate naming "*.<variant>.test" for
  // every variant: the crawl verifies it with --cacert, as on the web.
  ca_file_ = dir_ + "/ca.pem";
  cert_file_ = dir_ + "/cert.pem";
  key_file_ = dir_ + "/key.pem";
  const std::string ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1";
  Run("openssl req -x509 " + ec + " -nodes -days 2 -subj /CN=robotscan-ca " +
      "-keyout " + dir_ + "/ca.key -out " + ca_file_);
  Run("openssl req " + ec + " -nodes -subj /CN=robotscan-servers -keyout " +
      key_file_ + " -out " + dir_ + "/cert.csr");
  std::string names;
  for (const std::string& name : variant_names) {
    names +=
        (names.empty() ? "" : ",") + std::string("DNS:*.") + name + ".test";
  }
  WriteFile(dir_ + "/cert.ext", "subjectAltName=" + names +
                                    "\nbasicConstraints=CA:FALSE\n"
                                    "extendedKeyUsage=serverAuth\n");
  Run("openssl x509 -req -in " + dir_ + "/cert.csr -CA " + ca_file_ +
      " -CAkey " + dir_ + "/ca.key -CAcreateserial -days 2 -extfile " + dir_ +
      "/cert.ext -out " + cert_file_);
  for (const std::string& f : {ca_file_, cert_file_, key_file_}) {
    ::chmod(f.c_str(), 0644);
  }
}

const std::string& SiteFiles::Body(const std::string& kind) const {
  return bodies_.at(kind);
}

std::unique_ptr<RealServer> RealServer::Start(
    const std::string& software, const SiteFiles& files,
    const std::map<std::string, std::string>& hops, int backend_port,
    std::string* why_not) {
  std::unique_ptr<RealServer> server(new RealServer());
  server->software_ = software;
  server->dir_ = files.dir() + "/" + software;
  MakeReadableDir(server->dir_);
  // Its logs are written after it drops privileges (lighttpd, h2o).
  ::chmod(server->dir_.c_str(), 0777);
  server->access_log_ = server->dir_ + "/access.log";
  server->variants_ = VariantsOf(software);
  std::erase_if(server->variants_, [](const ServerVariant& v) {
    // Only where the machine has IPv6 loopback.
    if (!v.ipv6) return false;
    const int fd = LoopbackSocket(true, 0, true);
    if (fd >= 0) ::close(fd);
    return fd < 0;
  });
  for (ServerVariant& v : server->variants_) {
    v.port = FreePort(v.ipv6);
    // A hop site only where the test gave it a target.
    if (hops.count(v.name) == 0) {
      std::erase(v.kinds, std::string("hop"));
    }
  }
  const std::string& dir = server->dir_;
  const std::string config = dir + "/server.conf";
  if (software == "nginx") {
    const bool brotli =
        ::access("/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so",
                 R_OK) == 0;
    if (!brotli) {
      for (ServerVariant& v : server->variants_) std::erase(v.kinds, "br");
    }
    WriteFile(config, NginxConfig(dir, files, server->variants_, hops, brotli));
    if (!server->Launch("nginx", {"-c", config, "-p", dir}, "nginx", why_not)) {
      return nullptr;
    }
  } else if (software == "apache") {
    WriteFile(config, ApacheConfig(dir, files, server->variants_, hops));
    if (!server->Launch("apache2", {"-f", config, "-DFOREGROUND"}, "apache",
                        why_not)) {
      return nullptr;
    }
  } else if (software == "nghttpd") {
    for (const ServerVariant& v : server->variants_) {
      if (!server->Launch(
              "nghttpd",
              {"-a", "127.0.0.1", "-d", files.Root(v.kinds[0]),
               std::to_string(v.port), files.key_file(), files.cert_file()},
              v.name, why_not)) {
        return nullptr;
      }
    }
  } else if (software == "caddy") {
    WriteFile(config, CaddyConfig(dir, files, server->variants_, hops));
    // Caddy keeps state under $HOME and the XDG directories: ours.
    const std::string caddy = FindBinary("caddy");
    if (caddy.empty()) {
      *why_not = "caddy is not installed (scripts/bootstrap --extras)";
      return nullptr;
    }
    if (!server->Launch(
            "env",
            {"HOME=" + dir, "XDG_DATA_HOME=" + dir, "XDG_CONFIG_HOME=" + dir,
             caddy, "run", "--config", config, "--adapter", "caddyfile"},
            "caddy", why_not)) {
      return nullptr;
    }
  } else if (software == "h2o") {
    WriteFile(config, H2oConfig(dir, files, server->variants_, hops));
    if (!server->Launch("h2o", {"-c", config}, "h2o", why_not)) return nullptr;
  } else if (software == "lighttpd") {
    WriteFile(config, LighttpdConfig(dir, files, server->variants_, hops));
    if (!server->Launch("lighttpd", {"-D", "-f", config}, "lighttpd",
                        why_not)) {
      return nullptr;
    }
  } else if (software == "haproxy") {
    const std::string pem = dir + "/cert-and-key.pem";
    WriteFile(pem, ReadFile(files.cert_file()) + ReadFile(files.key_file()));
    WriteFile(config, HaproxyConfig(pem, server->variants_[0], backend_port));
    // Its log goes to stdout (the process's output file).
    server->access_log_ = dir + "/haproxy.out";
    if (!server->Launch("haproxy", {"-db", "-f", config}, "haproxy", why_not)) {
      return nullptr;
    }
  } else {
    *why_not = "unknown server software " + software;
    return nullptr;
  }
  if (!server->WaitUntilListening(why_not)) return nullptr;
  return server;
}

bool RealServer::Launch(const std::string& binary,
                        const std::vector<std::string>& args,
                        const std::string& name, std::string* why_not) {
  const std::string path = FindBinary(binary);
  if (path.empty()) {
    *why_not = binary + " is not installed (scripts/bootstrap --extras)";
    return false;
  }
  const std::string out = dir_ + "/" + name + ".out";
  const std::string err = dir_ + "/" + name + ".err";
  pids_.push_back(StartProcess(path, args, out, err));
  logs_.push_back(err);
  return true;
}

bool RealServer::WaitUntilListening(std::string* why_not) {
  const auto deadline = std::chrono::steady_clock::now() + 15s;
  for (const ServerVariant& v : variants_) {
    for (;;) {
      for (std::size_t i = 0; i < pids_.size(); ++i) {
        int status = 0;
        if (::waitpid(pids_[i], &status, WNOHANG) == pids_[i]) {
          pids_[i] = -1;
          std::string log = ReadFile(logs_[i]);
          if (::access((dir_ + "/error.log").c_str(), R_OK) == 0) {
            log += ReadFile(dir_ + "/error.log");
          }
          *why_not = software_ + " exited at start: " + Tail(log);
          return false;
        }
      }
      const int fd = LoopbackSocket(v.ipv6, v.port, false);
      if (fd >= 0) ::close(fd);
      if (fd >= 0) break;
      if (std::chrono::steady_clock::now() > deadline) {
        *why_not = software_ + " did not listen on port " +
                   std::to_string(v.port) + " within 15 s";
        return false;
      }
      std::this_thread::sleep_for(20ms);
    }
  }
  return true;
}

RealServer::~RealServer() {
  for (const pid_t pid : pids_) {
    if (pid > 0) ::kill(pid, SIGTERM);
  }
  for (const pid_t pid : pids_) {
    if (pid <= 0) continue;
    bool timed_out = false;
    WaitProcess(pid, 10s, &timed_out);
  }
}

std::string RealServer::LoggedProtocol(const std::string& host) const {
  // lighttpd writes its access log about once a second: wait for the line.
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  for (;;) {
    std::string protocol = ReadLoggedProtocol(host);
    if (!protocol.empty() || std::chrono::steady_clock::now() > deadline) {
      return protocol;
    }
    std::this_thread::sleep_for(50ms);
  }
}

std::string RealServer::ReadLoggedProtocol(const std::string& host) const {
  std::ifstream in(access_log_);
  std::string line, protocol;
  if (software_ == "caddy") {
    // JSON lines: ..."host":"H",..."proto":"HTTP/2.0"...
    const std::regex host_re("\"host\":\"([^\"]*)\"");
    const std::regex proto_re("\"proto\":\"([^\"]*)\"");
    std::smatch m;
    while (std::getline(in, line)) {
      if (std::regex_search(line, m, host_re) && m[1] == host &&
          std::regex_search(line, m, proto_re)) {
        protocol = m[1];
      }
    }
    return protocol;
  }
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string logged_host, logged_protocol;
    fields >> logged_host >> logged_protocol;
    // Some servers log the Host header with a port.
    if (logged_host == host || logged_host.rfind(host + ":", 0) == 0) {
      protocol = logged_protocol;
    }
  }
  return protocol;
}

}  // namespace robotscan::testing
