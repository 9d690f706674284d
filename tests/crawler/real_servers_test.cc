// The built `robotscan crawl` against the web's real server software on
// 127.0.0.1 (real_servers.h): nginx (HTTP/1.1 and h2, TLS 1.2 and 1.3),
// Apache httpd with mod_http2, nghttpd (h2 only), Caddy, h2o, lighttpd and
// HAProxy in front of nginx, over https and http. Every site must arrive
// byte for byte (cut at 500 KiB where bigger), decoded where the server
// compressed it, over the protocol the server's own log names, with no
// timeout. A server that cannot start here is a skip that CTest counts and
// names, never a silent pass.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "crawl_test_util.h"
#include "real_servers.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

const std::string kBinary = ROBOTSCAN_BINARY;

// Started in this order: HAProxy fronts nginx's plain-http port.
const char* const kSoftware[] = {"nginx", "apache",   "nghttpd", "caddy",
                                 "h2o",   "lighttpd", "haproxy"};

// Each "hop" site redirects to a site of another software.
const std::map<std::string, std::string>& Hops() {
  static const auto* hops = new std::map<std::string, std::string>{
      {"nginx-h2-tls13", "https://mid.apache-h2-tls13.test/robots.txt"},
      {"apache-h2-tls13", "https://tiny.caddy-h2.test/robots.txt"},
      {"caddy-h2", "https://gz.h2o-h2.test/robots.txt"},
      {"h2o-h2", "https://br.lighttpd-h2.test/robots.txt"},
      {"lighttpd-h2", "https://big.nghttpd-big.test/robots.txt"}};
  return *hops;
}

std::string SoftwareOfVariant(const std::string& variant) {
  return variant.substr(0, variant.find('-'));
}

class RealServersTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir();
    // Servers drop privileges (www-data, nobody) and must reach the files.
    ::chmod(dir_->path().c_str(), 0755);
    std::vector<std::string> names;
    for (const char* software : kSoftware) {
      for (const std::string& name : VariantNamesOf(software)) {
        names.push_back(name);
      }
    }
    files_ = new SiteFiles(dir_->path() + "/sites", names);
    servers_ = new std::map<std::string, std::unique_ptr<RealServer>>();
    why_not_ = new std::map<std::string, std::string>();
    for (const char* software : kSoftware) {
      int backend_port = 0;
      if (std::string(software) == "haproxy") {
        auto nginx = servers_->find("nginx");
        if (nginx == servers_->end()) {
          (*why_not_)[software] = "haproxy fronts nginx, which did not start";
          continue;
        }
        backend_port = nginx->second->variants()[0].port;  // nginx-h1
      }
      std::string why_not;
      auto server =
          RealServer::Start(software, *files_, Hops(), backend_port, &why_not);
      if (server) {
        (*servers_)[software] = std::move(server);
      } else {
        (*why_not_)[software] = why_not;
      }
    }
  }
  static void TearDownTestSuite() {
    delete servers_;
    delete why_not_;
    delete files_;
    delete dir_;
  }

  static const RealServer* Server(const std::string& software) {
    auto it = servers_->find(software);
    return it == servers_->end() ? nullptr : it->second.get();
  }

  // Crawls `hosts` with one scheme; every started server's sites are
  // reachable (a redirect may lead to any of them).
  ProcessResult Crawl(const std::vector<std::string>& hosts,
                      const std::string& scheme, const std::string& db) {
    std::string list;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
      list += std::to_string(i + 1) + "," + hosts[i] + "\n";
    }
    const std::string list_file = db + ".csv";
    WriteFile(list_file, list);
    std::vector<std::string> args = {"crawl",
                                     "--db",
                                     db,
                                     list_file,
                                     "--schemes",
                                     scheme,
                                     "--cacert",
                                     files_->ca_file(),
                                     "--allow-private-addresses",
                                     "--retries",
                                     "0",
                                     "--timeout",
                                     "30s",
                                     "--per-ip-limit",
                                     "0",
                                     "--concurrency",
                                     "32",
                                     "--quiet"};
    for (const auto& [software, server] : *servers_) {
      for (const ServerVariant& v : server->variants()) {
        const std::string port = v.scheme == "https" ? "443" : "80";
        for (const std::string& kind : v.kinds) {
          args.push_back("--connect-to");
          args.push_back(v.Host(kind) + ":" + port + ":" + v.Address() + ":" +
                         std::to_string(v.port));
        }
      }
    }
    return RunProcess(kBinary, args, work_.path(), 120s);
  }

  // What the database must hold for a site of `kind`: status, access,
  // error, truncated, bytes, content encoding.
  static std::string ExpectedRow(const std::string& kind) {
    const std::size_t size = files_->Body(kind).size();
    const bool cut = size > 512000;
    const std::string encoding = kind == "gz"   ? "gzip"
                                 : kind == "br" ? "br"
                                 : kind == "zs" ? "zstd"
                                                : "";
    return "200|success|-|" + std::string(cut ? "1" : "0") + "|" +
           std::to_string(cut ? 512000 : size) + "|" + encoding;
  }
  static std::string ExpectedBody(const std::string& kind) {
    return files_->Body(kind).substr(0, 512000);
  }

  static constexpr const char* kRowColumns =
      "http_status, access, ifnull(error, '-'), truncated, bytes, "
      "ifnull(content_encoding, '')";

  static TempDir* dir_;
  static SiteFiles* files_;
  static std::map<std::string, std::unique_ptr<RealServer>>* servers_;
  static std::map<std::string, std::string>* why_not_;
  TempDir work_;
};

TempDir* RealServersTest::dir_ = nullptr;
SiteFiles* RealServersTest::files_ = nullptr;
std::map<std::string, std::unique_ptr<RealServer>>* RealServersTest::servers_ =
    nullptr;
std::map<std::string, std::string>* RealServersTest::why_not_ = nullptr;

TEST_P(RealServersTest, EverySiteArrivesWholeOverItsProtocol) {
  const std::string software = GetParam();
  const RealServer* server = Server(software);
  if (server == nullptr) GTEST_SKIP() << (*why_not_)[software];
  for (const std::string scheme : {"https", "http"}) {
    std::vector<std::string> hosts;
    std::map<std::string, std::pair<const ServerVariant*, std::string>> sites;
    for (const ServerVariant& v : server->variants()) {
      if (v.scheme != scheme) continue;
      for (const std::string& kind : v.kinds) {
        if (kind == "hop") continue;  // RedirectsAcrossServers.
        hosts.push_back(v.Host(kind));
        sites[v.Host(kind)] = {&v, kind};
      }
    }
    if (hosts.empty()) continue;
    const std::string db = work_.File(scheme + ".sqlite");
    const ProcessResult run = Crawl(hosts, scheme, db);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(QueryOne(db, "SELECT count(*) FROM latest_fetch"),
              std::to_string(hosts.size()));
    EXPECT_EQ(QueryOne(db,
                       "SELECT count(*) FROM latest_fetch WHERE error = "
                       "'timeout'"),
              "0");
    for (const auto& [host, site] : sites) {
      const auto& [variant, kind] = site;
      const std::string where =
          " FROM latest_fetch WHERE domain = '" + host + "'";
      EXPECT_EQ(QueryOne(db, std::string("SELECT ") + kRowColumns + where),
                ExpectedRow(kind))
          << host << ": " << QueryOne(db, "SELECT error_message" + where);
      EXPECT_TRUE(QueryOne(db, "SELECT body" + where) == ExpectedBody(kind))
          << host << ": the body differs from the served file";
      if (!variant->protocol.empty()) {
        EXPECT_EQ(server->LoggedProtocol(host), variant->protocol) << host;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Servers, RealServersTest,
    ::testing::ValuesIn(std::vector<std::string>(std::begin(kSoftware),
                                                 std::end(kSoftware))),
    [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// A 301 from one software's h2 site to another's (five such hops): recorded
// as one redirect, with the target's body and final URL.
TEST_F(RealServersTest, RedirectsAcrossServers) {
  std::vector<std::string> hosts;
  std::map<std::string, std::string> targets;
  for (const auto& [variant, target] : Hops()) {
    const std::string target_host =
        target.substr(8, target.find('/', 8) - 8);  // After "https://".
    const std::string target_variant =
        target_host.substr(target_host.find('.') + 1,
                           target_host.rfind('.') - target_host.find('.') - 1);
    if (Server(SoftwareOfVariant(variant)) == nullptr ||
        Server(SoftwareOfVariant(target_variant)) == nullptr) {
      continue;
    }
    hosts.push_back("hop." + variant + ".test");
    targets["hop." + variant + ".test"] = target;
  }
  if (hosts.empty()) GTEST_SKIP() << "no two servers of a hop started";
  const std::string db = work_.File("hops.sqlite");
  const ProcessResult run = Crawl(hosts, "https", db);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const auto& [host, target] : targets) {
    const std::string kind = target.substr(8, target.find('.') - 8);
    const std::string where =
        " FROM latest_fetch WHERE domain = '" + host + "'";
    EXPECT_EQ(QueryOne(db, std::string("SELECT ") + kRowColumns + where),
              ExpectedRow(kind))
        << host << ": " << QueryOne(db, "SELECT error_message" + where);
    EXPECT_EQ(QueryOne(db, "SELECT redirects, final_url" + where),
              "1|" + target)
        << host;
    EXPECT_TRUE(QueryOne(db, "SELECT body" + where) == ExpectedBody(kind))
        << host << ": the body differs from the target's file";
  }
}

}  // namespace
}  // namespace robotscan::testing
