// End-to-end tests: the built `robotscan crawl` against the loopback test
// servers (HTTP, HTTPS, DNS), checking the database row by row.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "crawl_test_util.h"
#include "test_dns_server.h"
#include "test_http2_responder.h"
#include "test_http_server.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

const std::string kBinary = ROBOTSCAN_BINARY;

class CrawlE2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_dir_ = new TempDir();
    server_ = new TestHttpServer(server_dir_->path());
  }
  static void TearDownTestSuite() {
    delete server_;
    delete server_dir_;
  }

  // Flags that send every host to the test server (no DNS involved).
  std::vector<std::string> ToTestServer() const { return ToServer(*server_); }
  static std::vector<std::string> ToServer(const TestHttpServer& server) {
    return {"--connect-to",
            ":80:127.0.0.1:" + std::to_string(server.http_port()),
            "--connect-to",
            ":443:127.0.0.1:" + std::to_string(server.https_port()),
            "--allow-private-addresses",
            "--cacert",
            server.cert_file()};
  }

  ProcessResult Crawl(const std::string& list_text,
                      std::vector<std::string> extra,
                      std::chrono::milliseconds deadline = 60s) {
    WriteFile(list_, list_text);
    std::vector<std::string> args = {"crawl", "--db", db_, list_};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunProcess(kBinary, args, dir_.path(), deadline);
  }

  std::string Row(const std::string& domain, const std::string& columns) {
    return QueryOne(db_, "SELECT " + columns +
                             " FROM latest_fetch WHERE domain = '" + domain +
                             "'");
  }

  // Every step of a domain's newest fetch, for failure messages.
  std::string Steps(const std::string& domain) {
    std::string out;
    for (const std::string& row :
         Query(db_,
               "SELECT s.url, s.http_status, s.error_class, "
               "s.error_message FROM fetch_step s JOIN latest_fetch f ON "
               "f.fetch_id = s.fetch_id WHERE f.domain = '" +
                   domain + "' ORDER BY s.seq")) {
      out += "\n  step: " + row;
    }
    return out;
  }

  void CheckFaultMatrix(const std::string& loops);

  static TempDir* server_dir_;
  static TestHttpServer* server_;
  TempDir dir_;
  std::string db_ = dir_.File("crawl.sqlite");
  std::string list_ = dir_.File("list.csv");
};

TempDir* CrawlE2eTest::server_dir_ = nullptr;
TestHttpServer* CrawlE2eTest::server_ = nullptr;

struct Expected {
  const char* domain;
  // http_status|access|error|redirects|truncated|bytes|final_url
  const char* row;
};

// RFC 9309 §2.3.1: the access class of each fault, and what is recorded;
// run once with one event loop and once with two (`--loops`), which must
// not change a single row.
TEST_F(CrawlE2eTest, FaultMatrixRowByRow) { CheckFaultMatrix("1"); }

TEST_F(CrawlE2eTest, FaultMatrixRowByRowWithTwoLoops) { CheckFaultMatrix("2"); }

void CrawlE2eTest::CheckFaultMatrix(const std::string& loops) {
  const Expected expected[] = {
      {"ok.test", "200|success|NULL|0|0|33|https://ok.test/robots.txt"},
      {"s204.test", "204|success|NULL|0|0|0|https://s204.test/robots.txt"},
      {"s301.test", "301|unavailable|NULL|0|0|0|https://s301.test/robots.txt"},
      {"s401.test", "401|unavailable|NULL|0|0|0|https://s401.test/robots.txt"},
      {"s403.test", "403|unavailable|NULL|0|0|0|https://s403.test/robots.txt"},
      {"s404.test", "404|unavailable|NULL|0|0|0|https://s404.test/robots.txt"},
      {"s410.test", "410|unavailable|NULL|0|0|0|https://s410.test/robots.txt"},
      {"s429.test", "429|unavailable|NULL|0|0|0|https://s429.test/robots.txt"},
      {"s500.test", "500|unreachable|NULL|0|0|0|https://s500.test/robots.txt"},
      {"s503.test", "503|unreachable|NULL|0|0|0|https://s503.test/robots.txt"},
      {"redir5.test", "200|success|NULL|5|0|33|https://redir5.test/hop5"},
      {"redir6.test",
       "302|unavailable|too_many_redirects|6|0|0|https://redir6.test/hop5"},
      {"loop.test",
       "301|unavailable|redirect_loop|2|0|0|https://loop.test/again"},
      {"cross.test", "200|success|NULL|1|0|33|http://ok.test/robots.txt"},
      {"ftp.test",
       "301|unavailable|redirect_scheme|1|0|0|https://ftp.test/robots.txt"},
      {"relative.test",
       "200|success|NULL|1|0|33|https://relative.test/robots2.txt"},
      {"huge.test", "200|success|NULL|0|1|512000|https://huge.test/robots.txt"},
      {"gzip.test", "200|success|NULL|0|0|33|https://gzip.test/robots.txt"},
      {"bomb.test", "200|success|NULL|0|1|512000|https://bomb.test/robots.txt"},
      {"br.test", "200|success|NULL|0|0|33|https://br.test/robots.txt"},
      {"zstd.test", "200|success|NULL|0|0|33|https://zstd.test/robots.txt"},
      {"zstdbomb.test",
       "200|success|NULL|0|1|512000|https://zstdbomb.test/robots.txt"},
      {"badgzip.test",
       "200|unreachable|protocol|0|0|0|https://badgzip.test/robots.txt"},
      {"slowstart.test",
       "200|success|NULL|0|0|33|https://slowstart.test/robots.txt"},
      {"trickle.test",
       "200|success|NULL|0|0|23|https://trickle.test/robots.txt"},
      {"stall.test", "NULL|unreachable|timeout|0|0|0|NULL"},
      {"resetbefore.test", "NULL|unreachable|reset|0|0|0|NULL"},
      {"resetduring.test",
       "200|unreachable|reset|0|0|0|https://resetduring.test/robots.txt"},
      {"badchunk.test",
       "200|unreachable|protocol|0|0|0|https://badchunk.test/robots.txt"},
      {"soft404.test",
       "200|success|NULL|0|0|77|https://soft404.test/robots.txt"},
      {"bom.test", "200|success|NULL|0|0|32|https://bom.test/robots.txt"},
      {"cronly.test", "200|success|NULL|0|0|28|https://cronly.test/robots.txt"},
      {"latin1.test", "200|success|NULL|0|0|30|https://latin1.test/robots.txt"},
      {"empty.test", "200|success|NULL|0|0|0|https://empty.test/robots.txt"},
      {"notls.test", "200|success|NULL|0|0|33|http://notls.test/robots.txt"},
      {"nothere.test",
       "404|unavailable|NULL|0|0|0|https://nothere.test/robots.txt"},
  };
  std::string list;
  int rank = 0;
  for (const Expected& e : expected) {
    list += std::to_string(++rank) + "," + e.domain + "\n";
  }
  std::vector<std::string> flags = ToTestServer();
  for (const char* f :
       {"--timeout", "3s", "--connect-timeout", "2s", "--retries", "0",
        "--concurrency", "64", "--log-json", "events.jsonl"}) {
    flags.push_back(f);
  }
  flags.back() = dir_.File("events.jsonl");
  flags.insert(flags.end(), {"--loops", loops});
  const ProcessResult run = Crawl(list, flags);
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_LT(run.seconds, 20) << "stalls must end at the timeout";

  rank = 0;
  for (const Expected& e : expected) {
    ++rank;
    EXPECT_EQ(Row(e.domain,
                  "http_status, access, error, redirects, truncated, bytes, "
                  "final_url"),
              e.row)
        << e.domain << Steps(e.domain);
    EXPECT_EQ(Row(e.domain, "rank, url"),
              std::to_string(rank) + "|https://" + e.domain + "/robots.txt")
        << e.domain;
  }
  // Bodies are stored byte for byte (BOM, CR-only, Latin-1 kept as sent).
  EXPECT_EQ(Row("bom.test", "hex(body)"),
            "EFBBBF557365722D6167656E743A202A0A446973616C6C6F773A202F626F6D0A");
  EXPECT_EQ(Row("cronly.test", "body"), "User-agent: *\rDisallow: /cr\r");
  EXPECT_EQ(Row("latin1.test", "hex(substr(body, -3))"), "66E90A");
  EXPECT_EQ(Row("gzip.test", "body, content_encoding"),
            std::string(TestHttpServer::kRobotsBody) + "|gzip");
  EXPECT_EQ(Row("br.test", "body, content_encoding"),
            std::string(TestHttpServer::kRobotsBody) + "|br");
  EXPECT_EQ(Row("zstd.test", "body, content_encoding"),
            std::string(TestHttpServer::kRobotsBody) + "|zstd");
  // Every encoding the crawler decodes is offered.
  const std::string request = server_->LastRequestFor("ok.test");
  for (const char* coding : {"gzip", "deflate", "br", "zstd"}) {
    EXPECT_NE(request.find(coding), std::string::npos) << coding << request;
  }
  // One request per connection, and the server is told so (it closes
  // first and keeps the TIME_WAIT state).
  EXPECT_NE(request.find("\r\nConnection: close\r\n"), std::string::npos)
      << request;
  EXPECT_NE(request.find("\r\nAccept: text/plain"), std::string::npos)
      << request;
  EXPECT_EQ(Row("empty.test", "body IS NULL, body"), "0|");
  EXPECT_EQ(Row("s404.test", "body IS NULL"), "1");
  EXPECT_EQ(Row("soft404.test", "content_type"), "text/html; charset=utf-8");
  EXPECT_EQ(Row("huge.test", "length(body)"), "512000");
  // The whole chain is recorded, hop by hop.
  EXPECT_EQ(
      Query(db_,
            "SELECT s.seq, s.url, s.http_status, s.location FROM "
            "fetch_step s JOIN latest_fetch f ON f.fetch_id = "
            "s.fetch_id WHERE f.domain = 'redir5.test' ORDER BY s.seq"),
      (std::vector<std::string>{"0|https://redir5.test/robots.txt|301|/hop1",
                                "1|https://redir5.test/hop1|302|/hop2",
                                "2|https://redir5.test/hop2|302|/hop3",
                                "3|https://redir5.test/hop3|302|/hop4",
                                "4|https://redir5.test/hop4|302|/hop5",
                                "5|https://redir5.test/hop5|200|NULL"}));
  // https failed at TLS, http answered: both steps kept.
  EXPECT_EQ(
      Query(db_,
            "SELECT s.url, s.http_status, s.error_class FROM fetch_step "
            "s JOIN latest_fetch f ON f.fetch_id = s.fetch_id WHERE "
            "f.domain = 'notls.test' ORDER BY s.seq"),
      (std::vector<std::string>{"https://notls.test/robots.txt|NULL|tls",
                                "http://notls.test/robots.txt|200|NULL"}));
  EXPECT_EQ(Row("ok.test", "ip, strategy, attempts, tls_ms > 0, total_ms > 0"),
            "127.0.0.1|https,http|1|1|1");
  // Identical bodies (ok, cross, redir5, ...) are stored once.
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM body WHERE data = CAST('" +
                              std::string(TestHttpServer::kRobotsBody) +
                              "' AS BLOB)"),
            "1");
  const std::string log = ReadFile(dir_.File("events.jsonl"));
  std::size_t fetch_events = 0;
  for (std::size_t p = 0;
       (p = log.find("\"event\":\"fetch\"", p)) != std::string::npos; ++p) {
    ++fetch_events;
  }
  EXPECT_EQ(fetch_events, std::size(expected));
  EXPECT_NE(log.find("\"event\":\"summary\""), std::string::npos);
}

TEST_F(CrawlE2eTest, HttpToHttpsAndCrossHostRedirects) {
  std::vector<std::string> flags = ToTestServer();
  flags.insert(flags.end(), {"--schemes", "http"});
  const ProcessResult run =
      Crawl("1,tohttps.test\n2,cross.test\n3,idncross.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // A UTF-8 host in Location is followed, and checked, as its punycode.
  EXPECT_EQ(Row("idncross.test", "http_status, access, redirects"),
            "200|success|1")
      << Steps("idncross.test");
  EXPECT_EQ(server_->RequestsFor("xn--bcher-kva.test"), 1);
  EXPECT_EQ(Row("tohttps.test", "http_status, access, redirects, final_url"),
            "200|success|1|https://tohttps.test/robots.txt")
      << Steps("tohttps.test");
  EXPECT_EQ(Row("cross.test", "http_status, redirects, final_url, strategy"),
            "200|1|http://ok.test/robots.txt|http");
}

// HTTP/2 (ALPN h2) responses shaped so that libcurl 7.88 reads the end of
// the response before handing it over: each must arrive whole, or end in
// its error class, never in the timeout (the server keeps the connection
// open, so only the crawler can end these transfers). h2dyn ends in the
// timeout with any TLS receive buffer up to 128 KiB (kTlsReceiveBufferBytes
// in crawl_loop.cc; 16, 64 and 128 KiB tried).
TEST_F(CrawlE2eTest, Http2ResponsesHeldByLibcurlArriveWhole) {
  std::vector<std::string> flags = ToTestServer();
  flags.insert(flags.end(),
               {"--schemes", "https", "--retries", "0", "--timeout", "20s"});
  const ProcessResult run = Crawl(
      "1,h2ok.test\n2,h2dyn.test\n3,h2longline.test\n4,h2huge.test\n"
      "5,h2rst.test\n6,h2goaway.test\n",
      flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* host : {"h2ok.test", "h2dyn.test", "h2longline.test"}) {
    const std::string body = Http2TestBody(
        std::string_view(host).substr(0, std::string_view(host).find('.')));
    EXPECT_EQ(Row(host, "http_status, access, error, truncated, bytes"),
              "200|success|NULL|0|" + std::to_string(body.size()))
        << host << Steps(host);
    EXPECT_EQ(Row(host, "body"), body) << host;
    EXPECT_EQ(server_->LastRequestFor(host), "(HTTP/2)") << host;
  }
  // Cut at the 500 KiB cap like any other body.
  const std::string huge = Http2TestBody("h2huge");
  EXPECT_EQ(Row("h2huge.test", "http_status, truncated, bytes"), "200|1|512000")
      << Steps("h2huge.test");
  EXPECT_EQ(Row("h2huge.test", "body"), huge.substr(0, 512000));
  // A stream reset mid-body, and a GOAWAY then close mid-body: errors of
  // their own (a stall would be recorded as "timeout").
  EXPECT_EQ(Row("h2rst.test", "access, error"), "unreachable|protocol")
      << Steps("h2rst.test");
  EXPECT_EQ(Row("h2goaway.test", "access, error"), "unreachable|reset")
      << Steps("h2goaway.test");
}

TEST_F(CrawlE2eTest, RetriesHonourRetryAfter) {
  std::vector<std::string> flags = ToTestServer();
  flags.insert(flags.end(), {"--retries", "1", "--retry-delay", "100ms"});
  const int before = server_->RequestsFor("s503.test");
  const ProcessResult run = Crawl("1,retry503.test\n2,s503.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("retry503.test", "http_status, access, attempts"),
            "200|success|2");
  EXPECT_EQ(Row("s503.test", "http_status, access, attempts, retry_after"),
            "503|unreachable|2|1");
  EXPECT_EQ(server_->RequestsFor("s503.test") - before, 2);
  EXPECT_GE(run.seconds, 1.0) << "Retry-After: 1 must be waited for";
}

// A stalled server costs one timeout, not one per retry, unless asked.
TEST_F(CrawlE2eTest, StalledServerIsRetriedOnlyWithRetryTimeouts) {
  std::vector<std::string> flags = ToTestServer();
  flags.insert(flags.end(), {"--schemes", "http", "--timeout", "1s",
                             "--retries", "2", "--retry-delay", "10ms"});
  int before = server_->RequestsFor("stallretry.test");
  ProcessResult run = Crawl("1,stallretry.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("stallretry.test", "access, error, attempts"),
            "unreachable|timeout|1");
  EXPECT_EQ(server_->RequestsFor("stallretry.test") - before, 1);

  flags.push_back("--retry-timeouts");
  before = server_->RequestsFor("stallretry2.test");
  run = Crawl("1,stallretry2.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("stallretry2.test", "access, error, attempts"),
            "unreachable|timeout|3");
  EXPECT_EQ(server_->RequestsFor("stallretry2.test") - before, 3);
}

// On a terminal the live progress line says what the crawl waits for:
// "| 1 waiting to retry, next in 2 s" (script(1) gives it a terminal).
TEST_F(CrawlE2eTest, ProgressLineShowsWaitingRetries) {
  WriteFile(list_, "1,s503.test\n");
  std::string command = "'" + kBinary + "' crawl --db '" + db_ + "' '" + list_ +
                        "' --retries 1 --retry-delay 2s";
  for (const std::string& f : ToTestServer()) command += " '" + f + "'";
  const ProcessResult run = RunProcess(
      "/usr/bin/script", {"-qec", command, "/dev/null"}, dir_.path(), 30s);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("| 1 waiting to retry, next in "), std::string::npos)
      << run.out;
  EXPECT_EQ(Row("s503.test", "attempts"), "2");
}

// --low-speed-limit/--low-speed-time: a server dripping 2.5 bytes/s is cut
// after the low-speed time (checked once a second for all transfers), a
// slow but steady one (trickle: 20 bytes/s) is not, and a server that takes
// longer than that to answer at all is cut too.
TEST_F(CrawlE2eTest, LowSpeedTransfersAreCut) {
  std::vector<std::string> flags = ToTestServer();
  flags.insert(flags.end(),
               {"--schemes", "http", "--timeout", "20s", "--retries", "0",
                "--low-speed-limit", "10", "--low-speed-time", "2s"});
  const ProcessResult run =
      Crawl("1,drip.test\n2,trickle.test\n3,stall9.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_LT(run.seconds, 8) << "cut at 2-3 s, not at the 20 s timeout";
  EXPECT_EQ(Row("drip.test", "http_status, access, error"),
            "200|unreachable|timeout");
  EXPECT_NE(Row("drip.test", "error_message").find("--low-speed-limit"),
            std::string::npos);
  EXPECT_EQ(Row("stall9.test", "access, error"), "unreachable|timeout");
  EXPECT_EQ(Row("trickle.test", "http_status, access, bytes"),
            "200|success|23");
}

TEST_F(CrawlE2eTest, PrivateAddressesAreBlockedByDefault) {
  std::vector<std::string> flags = ToTestServer();
  flags.erase(
      std::find(flags.begin(), flags.end(), "--allow-private-addresses"));
  const int before = server_->RequestsFor("ok.test");
  const ProcessResult run = Crawl("1,ok.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("ok.test", "http_status, access, error, ip"),
            "NULL|unreachable|blocked_address|127.0.0.1");
  EXPECT_EQ(server_->RequestsFor("ok.test"), before) << "no request sent";
}

TEST_F(CrawlE2eTest, TopSkipDuplicatesAndMalformedLines) {
  const ProcessResult run = Crawl(
      "1,ok.test\n2,bad line\n3,OK.test.\n4,s404.test\n5,s500.test\n", [&] {
        auto f = ToTestServer();
        f.insert(f.end(), {"--skip", "1", "--top", "2", "--retries", "0"});
        return f;
      }());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Query(db_, "SELECT domain, rank FROM latest_fetch ORDER BY rank"),
            (std::vector<std::string>{"ok.test|3", "s404.test|4"}));
  EXPECT_NE(run.err.find("list.csv:2: skipped"), std::string::npos) << run.err;
  EXPECT_NE(run.out.find("malformed lines 1"), std::string::npos) << run.out;
}

TEST_F(CrawlE2eTest, DuplicateCommittedEarlierInAFreshCrawlIsNotRefetched) {
  // Into an empty database the crawler skips the per-domain lookup unless
  // the domain was committed earlier in this crawl. ok.test is committed
  // (batch interval 200 ms) while delay800 is in flight, so its second line
  // must be found in the database, not fetched again.
  const int before = server_->RequestsFor("ok.test");
  auto flags = ToTestServer();
  flags.insert(flags.end(), {"--concurrency", "1", "--retries", "0"});
  const ProcessResult run =
      Crawl("1,ok.test\n2,delay800.test\n3,ok.test\n4,s404.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(server_->RequestsFor("ok.test") - before, 1);
  EXPECT_NE(run.out.find("already in the database 1"), std::string::npos)
      << run.out;
  EXPECT_EQ(Query(db_, "SELECT domain, rank FROM latest_fetch ORDER BY rank"),
            (std::vector<std::string>{"ok.test|1", "delay800.test|2",
                                      "s404.test|4"}));
}

TEST_F(CrawlE2eTest, RerunSkipsDoneDomainsAndRecrawlIsConditional) {
  const auto flags = ToTestServer();
  const int before = server_->RequestsFor("etag.test");
  ASSERT_EQ(Crawl("1,etag.test\n2,ok.test\n", flags).exit_code, 0);
  EXPECT_EQ(server_->RequestsFor("etag.test") - before, 1);
  const ProcessResult again = Crawl("1,etag.test\n2,ok.test\n", flags);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(server_->RequestsFor("etag.test") - before, 1) << "no refetch";
  EXPECT_NE(again.out.find("already in the database 2"), std::string::npos)
      << again.out;

  auto recrawl = flags;
  recrawl.insert(recrawl.end(), {"--recrawl-older-than", "0s"});
  ASSERT_EQ(Crawl("1,etag.test\n", recrawl).exit_code, 0);
  EXPECT_EQ(server_->RequestsFor("etag.test") - before, 2);
  EXPECT_NE(server_->LastRequestFor("etag.test").find("If-None-Match: \"v1\""),
            std::string::npos);
  EXPECT_NE(server_->LastRequestFor("etag.test")
                .find("If-Modified-Since: Wed, 21 Oct 2015 07:28:00 GMT"),
            std::string::npos);
  EXPECT_EQ(
      Row("etag.test", "http_status, not_modified, access, body, etag"),
      "304|1|success|" + std::string(TestHttpServer::kRobotsBody) + "|\"v1\"");
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM fetch f JOIN domain d ON "
                     "d.id = f.domain_id WHERE d.name = 'etag.test'"),
            "2")
      << "history is kept";
}

TEST_F(CrawlE2eTest, ResolvesThroughDnsServerAndClassifiesFailures) {
  TestDnsServer dns;
  const std::vector<std::string> flags = {
      "--dns-server",
      "127.0.0.1:" + std::to_string(dns.port()),
      "--dns-timeout",
      "300ms",
      "--dns-tries",
      "1",
      "--retries",
      "0",
      "--connect-to",
      ":80::" + std::to_string(server_->http_port()),
      "--connect-to",
      ":443::" + std::to_string(server_->https_port()),
      "--cacert",
      server_->cert_file(),
      "--allow-private-addresses"};
  const ProcessResult run = Crawl(
      "1,ok.test\n2,nx.test\n3,servfail.test\n4,timeout.test\n", flags, 30s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("ok.test", "http_status, access, ip, dns_ms >= 0"),
            "200|success|127.0.0.1|1");
  EXPECT_EQ(Row("nx.test", "http_status, access, error"),
            "NULL|unreachable|dns_nxdomain");
  EXPECT_EQ(Row("servfail.test", "access, error"), "unreachable|dns_servfail")
      << Row("servfail.test", "error_message");
  EXPECT_EQ(Row("timeout.test", "access, error"), "unreachable|dns_timeout");
  // DNS failures do not fall back to http: one host, one answer.
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM fetch_step s JOIN latest_fetch "
                     "f ON f.fetch_id = s.fetch_id WHERE f.domain = "
                     "'nx.test'"),
            "1");
  EXPECT_GE(dns.queries(), 4);
}

TEST_F(CrawlE2eTest, WwwFallbackAfterNxdomainSkipsTheSameHost) {
  TestDnsServer dns;
  const std::vector<std::string> flags = {
      "--dns-server",
      "127.0.0.1:" + std::to_string(dns.port()),
      "--www-fallback",
      "--retries",
      "0",
      "--connect-to",
      ":80::" + std::to_string(server_->http_port()),
      "--connect-to",
      ":443::" + std::to_string(server_->https_port()),
      "--cacert",
      server_->cert_file(),
      "--allow-private-addresses"};
  // nx.test does not exist; www.nx.test resolves (first label "www").
  const ProcessResult run = Crawl("1,nx.test\n", flags, 30s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Row("nx.test", "http_status, access, final_url, strategy"),
            "200|success|https://www.nx.test/robots.txt|https,http,www")
      << Steps("nx.test");
  // http://nx.test is not tried after its NXDOMAIN: same host, same answer.
  EXPECT_EQ(Query(db_,
                  "SELECT s.url, s.error_class FROM fetch_step s JOIN "
                  "latest_fetch f ON f.fetch_id = s.fetch_id WHERE "
                  "f.domain = 'nx.test' ORDER BY s.seq"),
            (std::vector<std::string>{"https://nx.test/robots.txt|dns_nxdomain",
                                      "https://www.nx.test/robots.txt|NULL"}));
}

TEST_F(CrawlE2eTest, RateLimitSpacesOutNewDomains) {
  std::string list;
  for (int i = 1; i <= 12; ++i) {
    list += std::to_string(i) + ",d" + std::to_string(i) + ".test\n";
  }
  auto flags = ToTestServer();
  flags.insert(flags.end(), {"--rate", "10", "--insecure"});
  const ProcessResult run = Crawl(list, flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success'"),
            "12");
  // 12 domains at 10/s with a burst of 1: at least 1.1 s.
  EXPECT_GE(run.seconds, 1.1);
}

TEST_F(CrawlE2eTest, PerIpLimitBoundsConcurrentConnections) {
  std::string list;
  for (int i = 1; i <= 24; ++i) {
    list += std::to_string(i) + ",delay200.n" + std::to_string(i) + ".test\n";
  }
  auto flags = ToTestServer();
  flags.insert(flags.end(),
               {"--per-ip-limit", "3", "--concurrency", "24", "--insecure"});
  const ProcessResult run = Crawl(list, flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success'"),
            "24");
  // 24 requests of 200 ms, 3 at a time: at least 8 rounds.
  EXPECT_GE(run.seconds, 1.5);
}

// Several event loops share one per-IP cap: a fresh server counts the most
// connections it saw open at once.
TEST_F(CrawlE2eTest, PerIpLimitHoldsAcrossLoops) {
  TempDir own_dir;
  TestHttpServer own_server(own_dir.path());
  std::string list;
  for (int i = 1; i <= 24; ++i) {
    list += std::to_string(i) + ",delay200.m" + std::to_string(i) + ".test\n";
  }
  const ProcessResult run = Crawl(
      list, {"--connect-to",
             ":80:127.0.0.1:" + std::to_string(own_server.http_port()),
             "--allow-private-addresses", "--schemes", "http", "--per-ip-limit",
             "3", "--concurrency", "24", "--loops", "3"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success'"),
            "24");
  EXPECT_LE(own_server.max_concurrent_connections(), 3);
  EXPECT_GE(own_server.max_concurrent_connections(), 2);
}

// The smallest cap: two hosts on one address, fetched over https as a
// crawl does first, are never in flight at once. (--insecure: the test
// certificate does not name these hosts. A handshake the client gives up
// on stays counted until the server's thread notices the close, which can
// come after the client's next connection: with failing handshakes, the
// count was sometimes 2 (2 of 20 runs), and a log of the server's accepts
// and closes showed the failed handshake's close noticed 0.1 ms after the
// next accept. That is the 2-under-a-cap-of-1 an earlier session saw.)
TEST_F(CrawlE2eTest, PerIpLimitOfOneHoldsForTwoHosts) {
  TempDir own_dir;
  TestHttpServer own_server(own_dir.path());
  std::vector<std::string> flags = ToServer(own_server);
  flags.insert(flags.end(),
               {"--insecure", "--per-ip-limit", "1", "--concurrency", "8"});
  const ProcessResult run =
      Crawl("1,delay200.p1.test\n2,delay200.p2.test\n", flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Both over https: no handshake was given up on.
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success' AND url LIKE 'https://%'"),
            "2");
  EXPECT_EQ(own_server.max_concurrent_connections(), 1);
}

// With loops, every list entry still has one owner: duplicates (however
// spelled) are recorded once, --top/--skip count list positions, malformed
// lines are reported once.
TEST_F(CrawlE2eTest, LoopsPartitionTheListExactly) {
  std::string list;
  for (int i = 1; i <= 60; ++i) {
    if (i == 4) list += "bad line\n";  // Line 4; not a list position.
    list += std::to_string(i) + ",d" + std::to_string(i) + ".test\n";
    if (i % 10 == 0)
      list += std::to_string(i) + ",D" + std::to_string(i) + ".TEST.\n";
  }
  auto flags = ToTestServer();
  flags.insert(flags.end(), {"--loops", "4", "--skip", "5", "--top", "50",
                             "--insecure", "--schemes", "http"});
  const ProcessResult run = Crawl(list, flags);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // The entries at list positions 6..55 (of 66), by name.
  int position = 0;
  std::set<std::string> seen;
  int duplicates = 0;
  for (int i = 1; i <= 60; ++i) {
    for (int copy = 0; copy < (i % 10 == 0 ? 2 : 1); ++copy) {
      ++position;
      if (position <= 5 || position > 55) continue;
      const std::string domain = "d" + std::to_string(i) + ".test";
      if (!seen.insert(domain).second) ++duplicates;
    }
  }
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM fetch"),
            std::to_string(seen.size()));
  EXPECT_EQ(QueryOne(db_, "SELECT count(DISTINCT domain) FROM latest_fetch"),
            std::to_string(seen.size()));
  EXPECT_NE(run.out.find("duplicates " + std::to_string(duplicates)),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("malformed lines 1"), std::string::npos) << run.out;
  std::size_t reported = 0;
  for (std::size_t p = 0;
       (p = run.err.find("list.csv:4: skipped", p)) != std::string::npos; ++p) {
    ++reported;
  }
  EXPECT_EQ(reported, 1u) << run.err;
}

TEST_F(CrawlE2eTest, SignalsStopCleanlyAndRerunCompletes) {
  std::string list = "1,ok.test\n";
  for (int i = 2; i <= 10; ++i) {
    list += std::to_string(i) + ",stall" + std::to_string(i) + ".test\n";
  }
  WriteFile(list_, list);
  auto flags = ToTestServer();
  flags.insert(flags.end(), {"--timeout", "20s", "--insecure"});
  std::vector<std::string> args = {"crawl", "--db", db_, list_};
  args.insert(args.end(), flags.begin(), flags.end());
  for (const int sig : {SIGINT, SIGTERM}) {
    // The second stop runs with two event loops: the signal stops both.
    std::vector<std::string> run_args = args;
    run_args.insert(run_args.end(), {"--loops", sig == SIGINT ? "1" : "2"});
    const pid_t pid = StartProcess(kBinary, run_args, dir_.File("out.txt"),
                                   dir_.File("err.txt"));
    std::this_thread::sleep_for(1000ms);
    kill(pid, sig);
    bool timed_out = false;
    const auto start = std::chrono::steady_clock::now();
    const int code = WaitProcess(pid, 10s, &timed_out);
    EXPECT_FALSE(timed_out);
    EXPECT_EQ(code, 128 + sig) << ReadFile(dir_.File("err.txt"));
    EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  }
  EXPECT_EQ(Query(db_, "SELECT status FROM crawl_run ORDER BY id"),
            (std::vector<std::string>{"interrupted", "interrupted"}));
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM fetch"), "1")
      << "only ok.test finished; abandoned transfers leave no record";
}

// Failures keep their kind to the exit status (docs/cli.md, "Exit codes";
// robotscan/base/exit_codes.h): a damaged database and one from a newer
// robotscan (6) are told apart from an unreadable list (2, usage), and
// none is touched.
TEST_F(CrawlE2eTest, FailuresExitWithTheirOwnStatus) {
  const std::string garbage(8192, '\x5a');
  WriteFile(db_, garbage);
  const ProcessResult corrupt = Crawl("1,ok.test\n", ToTestServer(), 20s);
  EXPECT_EQ(corrupt.exit_code, 6) << corrupt.err;
  EXPECT_NE(corrupt.err.find("robotscan crawl: "), std::string::npos)
      << corrupt.err;
  EXPECT_EQ(ReadFile(db_), garbage) << "a file that is not a database is "
                                       "left as it was";
  std::remove(db_.c_str());

  ASSERT_EQ(Crawl("1,ok.test\n", ToTestServer(), 20s).exit_code, 0);
  const std::string version = QueryOne(db_, "PRAGMA user_version");
  ASSERT_EQ(Execute(db_, "PRAGMA user_version = 9999"), "");
  const ProcessResult newer = Crawl("1,ok.test\n", ToTestServer(), 20s);
  EXPECT_EQ(newer.exit_code, 6) << newer.err;
  EXPECT_EQ(QueryOne(db_, "PRAGMA user_version"), "9999");
  ASSERT_EQ(Execute(db_, "PRAGMA user_version = " + version), "");

  std::vector<std::string> args = {"crawl", "--db", db_,
                                   dir_.File("no-such-list.csv")};
  for (const std::string& f : ToTestServer()) args.push_back(f);
  const ProcessResult missing = RunProcess(kBinary, args, dir_.path(), 20s);
  EXPECT_EQ(missing.exit_code, 2) << missing.err;
  EXPECT_NE(missing.err.find("no-such-list.csv"), std::string::npos)
      << missing.err;
}

// A concurrency the descriptor limit cannot serve is refused up front with
// what to do, not discovered as failing transfers mid-crawl.
TEST_F(CrawlE2eTest, ConcurrencyBeyondTheDescriptorLimitIsRefused) {
  WriteFile(list_, "1,ok.test\n");
  std::string command = "ulimit -n 300 && exec '" + kBinary + "' crawl --db '" +
                        db_ + "' '" + list_ + "' --concurrency 500";
  for (const std::string& f : ToTestServer()) command += " '" + f + "'";
  const ProcessResult refused =
      RunProcess("/bin/sh", {"-c", command}, dir_.path(), 20s);
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("--concurrency 500 needs about"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("may open 300"), std::string::npos) << refused.err;
  // The same crawl within the limit runs.
  const std::string fits =
      command.substr(0, command.find(" --concurrency")) + " --concurrency 100" +
      command.substr(command.find(" --concurrency 500") +
                     std::string(" --concurrency 500").size());
  const ProcessResult ran =
      RunProcess("/bin/sh", {"-c", fits}, dir_.path(), 20s);
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  EXPECT_EQ(Row("ok.test", "access"), "success");
}

// Starts a crawl of stalling hosts in the background and waits until it
// holds the database (its lock file names its run). Returns its pid.
pid_t StartHoldingCrawl(const std::string& binary,
                        const std::vector<std::string>& args,
                        const std::string& db, const TempDir& dir) {
  const pid_t pid =
      StartProcess(binary, args, dir.File("first.out"), dir.File("first.err"));
  const auto deadline = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string lock = ReadFile(db + "-lock");
    if (lock.find("pid=" + std::to_string(pid) + "\n") != std::string::npos &&
        lock.find("run_id=0\n") == std::string::npos) {
      return pid;
    }
    std::this_thread::sleep_for(20ms);
  }
  ADD_FAILURE() << "the first crawl never took the lock: "
                << ReadFile(dir.File("first.err"));
  return pid;
}

std::string ThisHost() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

// One live crawl per database: a second `robotscan crawl` on it exits 2,
// naming the first (pid, host, start) and how to scale out, and changes
// nothing in the database.
TEST_F(CrawlE2eTest, SecondCrawlOnALiveDatabaseIsRefused) {
  std::string list;
  for (int i = 1; i <= 6; ++i) {
    list += std::to_string(i) + ",stall" + std::to_string(i) + ".test\n";
  }
  WriteFile(list_, list);
  std::vector<std::string> args = {"crawl",     "--db", db_,         list_,
                                   "--timeout", "20s",  "--insecure"};
  for (const std::string& f : ToTestServer()) args.push_back(f);
  const pid_t first = StartHoldingCrawl(kBinary, args, db_, dir_);

  const ProcessResult second = RunProcess(kBinary, args, dir_.path(), 20s);
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_LT(second.seconds, 5);
  EXPECT_NE(second.err.find("being written by another crawl: pid " +
                            std::to_string(first) + " on host " + ThisHost() +
                            ", started 20"),
            std::string::npos)
      << second.err;
  EXPECT_NE(second.err.find("(crawl_run 1)"), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("--loops 0"), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("--skip/--top"), std::string::npos) << second.err;
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM crawl_run"), "1")
      << "the refused crawl recorded no run";

  kill(first, SIGTERM);
  bool timed_out = false;
  EXPECT_EQ(WaitProcess(first, 10s, &timed_out), 128 + SIGTERM);
  // Released: the next crawl runs, and finds no stale hold.
  const ProcessResult third = Crawl("1,ok.test\n", ToTestServer());
  EXPECT_EQ(third.exit_code, 0) << third.err;
  EXPECT_EQ(third.err.find("took over"), std::string::npos) << third.err;
}

// A crawl killed with SIGKILL cannot release its hold; the next crawl sees
// the dead holder's description, says so, takes over and completes.
TEST_F(CrawlE2eTest, KilledCrawlsStaleLockIsTakenOver) {
  WriteFile(list_, "1,stall1.test\n2,stall2.test\n");
  std::vector<std::string> args = {"crawl",     "--db", db_,         list_,
                                   "--timeout", "20s",  "--insecure"};
  for (const std::string& f : ToTestServer()) args.push_back(f);
  const pid_t first = StartHoldingCrawl(kBinary, args, db_, dir_);
  kill(first, SIGKILL);
  bool timed_out = false;
  ASSERT_EQ(WaitProcess(first, 10s, &timed_out), 128 + SIGKILL);
  EXPECT_NE(ReadFile(db_ + "-lock").find("pid=" + std::to_string(first)),
            std::string::npos)
      << "a killed crawl leaves its description behind";

  const ProcessResult next = Crawl("1,ok.test\n2,s404.test\n", ToTestServer());
  ASSERT_EQ(next.exit_code, 0) << next.err;
  EXPECT_NE(next.err.find("took over the hold of a crawl that ended without "
                          "releasing it (pid " +
                          std::to_string(first) + " on host " + ThisHost()),
            std::string::npos)
      << next.err;
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM latest_fetch"), "2");
  EXPECT_EQ(ReadFile(db_ + "-lock"), "") << "released at the end";
}

// SIGKILL at random moments, then resume: every domain ends with exactly one
// record and the file is intact.
TEST_F(CrawlE2eTest, SlowCrashAndResumeKeepsExactlyOneRecordPerDomain) {
  constexpr int kDomains = 400;
  std::mt19937 random(12345);
  std::uniform_int_distribution<int> delay(0, 120);
  std::string list;
  for (int i = 1; i <= kDomains; ++i) {
    list += std::to_string(i) + ",delay" + std::to_string(delay(random)) +
            ".n" + std::to_string(i) + ".test\n";
  }
  WriteFile(list_, list);
  auto flags = ToTestServer();
  flags.insert(flags.end(), {"--concurrency", "16", "--quiet", "--insecure"});
  std::vector<std::string> args = {"crawl", "--db", db_, list_};
  args.insert(args.end(), flags.begin(), flags.end());
  std::uniform_int_distribution<int> kill_after(50, 600);
  int killed = 0;
  for (int round = 0; round < 6; ++round) {
    // Every other run with two event loops: resuming must not care.
    std::vector<std::string> run_args = args;
    run_args.insert(run_args.end(), {"--loops", round % 2 ? "2" : "1"});
    const pid_t pid = StartProcess(kBinary, run_args, dir_.File("out.txt"),
                                   dir_.File("err.txt"));
    std::this_thread::sleep_for(std::chrono::milliseconds(kill_after(random)));
    kill(pid, SIGKILL);
    bool timed_out = false;
    if (WaitProcess(pid, 10s, &timed_out) == 128 + SIGKILL) ++killed;
  }
  EXPECT_GE(killed, 3) << "the crawl should still be running when killed";
  const ProcessResult final_run = RunProcess(kBinary, args, dir_.path(), 120s);
  ASSERT_EQ(final_run.exit_code, 0) << final_run.err;
  EXPECT_EQ(QueryOne(db_, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM latest_fetch"),
            std::to_string(kDomains));
  EXPECT_EQ(QueryOne(db_, "SELECT count(*) FROM fetch"),
            std::to_string(kDomains))
      << "a domain was fetched twice";
  EXPECT_EQ(QueryOne(db_,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success'"),
            std::to_string(kDomains));
  EXPECT_GE(std::stoi(QueryOne(db_, "SELECT count(*) FROM crawl_run")), 7);
}

}  // namespace
}  // namespace robotscan::testing
