// The per-domain fetch state machine (fetch_machine.h) driven from tables,
// without a server: a scripted world answers each action (addresses per
// host, transfer results per URL, in order for retries), and each case
// checks the final record and the requests made. The first table is the
// end-to-end fault matrix of crawl_e2e_test.cc, row by row, as the outcomes
// the event loop reports for those hosts; the others cover the fallback,
// retry, redirect and address rules one by one.
#include "fetch_machine.h"

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <string>
#include <vector>

namespace robotscan::crawler {
namespace {

using std::chrono::milliseconds;

constexpr char kPublicAddress[] = "93.184.216.34";
constexpr int kRobotsBytes = 33;  // The test server's robots.txt.

TransferResult Status(int status, std::size_t bytes = 0,
                      std::string redirect = "") {
  TransferResult r;
  r.http_status = status;
  r.body.assign(bytes, 'x');
  r.redirect_url = std::move(redirect);
  r.headers.location = r.redirect_url;
  r.total_ms = 1;
  return r;
}

TransferResult Truncated(std::size_t bytes) {
  TransferResult r = Status(200, bytes);
  r.truncated = true;
  return r;
}

TransferResult Failure(ErrorClass error, int status = 0) {
  TransferResult r;
  r.error = error;
  r.error_message = std::string(storage::ErrorClassName(error));
  r.http_status = status;
  return r;
}

TransferResult WithRetryAfter(TransferResult r, std::string value) {
  r.headers.retry_after = std::move(value);
  return r;
}

// What the world answers. Hosts resolve to kPublicAddress unless listed;
// a URL's results are used in order, the last one repeating.
struct World {
  std::map<std::string, std::vector<std::string>> addresses;
  std::map<std::string, ErrorClass> dns_failures;
  std::map<std::string, std::deque<TransferResult>> transfers;
};

struct Trace {
  std::vector<std::string> requests;  // "url@ip"
  std::vector<milliseconds> retry_delays;
  int resolves = 0;
  std::vector<bool> conditional;
};

storage::FetchRecord RunMachine(
    const FetchPolicy& policy, const std::string& domain, World world,
    Trace* trace, std::optional<storage::PreviousFetch> previous = {}) {
  TopListEntry entry;
  entry.domain = domain;
  entry.rank = 1;
  DomainFetch fetch(&policy, "https,http", entry, std::move(previous),
                    /*random=*/nullptr);
  FetchAction action = fetch.Start();
  for (int step = 0; step < 100; ++step) {
    switch (action.kind) {
      case FetchAction::Kind::kResolve: {
        ++trace->resolves;
        const std::string& host = action.parts.host;
        if (auto failed = world.dns_failures.find(host);
            failed != world.dns_failures.end()) {
          action = fetch.OnResolveFailed(failed->second, "no such host", 3);
          break;
        }
        auto listed = world.addresses.find(host);
        action =
            fetch.OnAddresses(listed != world.addresses.end()
                                  ? listed->second
                                  : std::vector<std::string>{kPublicAddress},
                              action.parts.port, 2);
        break;
      }
      case FetchAction::Kind::kTransfer: {
        trace->requests.push_back(action.url + "@" + action.ip);
        trace->conditional.push_back(action.conditional);
        auto& results = world.transfers[action.url];
        if (results.empty()) {
          ADD_FAILURE() << "no scripted result for " << action.url;
          return fetch.TakeRecord();
        }
        TransferResult result = results.front();
        if (results.size() > 1) results.pop_front();
        action = fetch.OnTransferDone(std::move(result));
        break;
      }
      case FetchAction::Kind::kWaitRetry:
        trace->retry_delays.push_back(action.delay);
        action = fetch.OnRetryDue();
        break;
      case FetchAction::Kind::kFinished:
        return fetch.TakeRecord();
    }
  }
  ADD_FAILURE() << "the machine did not finish";
  return fetch.TakeRecord();
}

// Same shape as crawl_e2e_test.cc's rows:
// http_status|access|error|redirects|truncated|bytes|final_url
std::string RowOf(const storage::FetchRecord& r) {
  const auto or_null = [](const std::string& s) {
    return s.empty() ? std::string("NULL") : s;
  };
  return (r.http_status > 0 ? std::to_string(r.http_status) : "NULL") + "|" +
         std::string(robots::AccessClassName(r.access)) + "|" +
         or_null(std::string(storage::ErrorClassName(r.error_class))) + "|" +
         std::to_string(r.redirects) + "|" + (r.truncated ? "1" : "0") + "|" +
         std::to_string(r.body.size()) + "|" + or_null(r.final_url);
}

struct Case {
  const char* id;
  World world;
  const char* row;
};

std::string Https(const std::string& host,
                  const std::string& path = "/robots.txt") {
  return "https://" + host + path;
}
std::string Http(const std::string& host,
                 const std::string& path = "/robots.txt") {
  return "http://" + host + path;
}

World Answer(const std::string& url, std::vector<TransferResult> results) {
  World w;
  w.transfers[url] = std::deque<TransferResult>(results.begin(), results.end());
  return w;
}

World Chain(std::vector<std::pair<std::string, TransferResult>> hops) {
  World w;
  for (auto& [url, result] : hops) w.transfers[url].push_back(result);
  return w;
}

World BothSchemes(const std::string& host, TransferResult result) {
  World w;
  w.transfers[Https(host)] = {result};
  w.transfers[Http(host)] = {result};
  return w;
}

FetchPolicy MatrixPolicy() {
  FetchPolicy policy;  // https,http; no www fallback; 5 redirects.
  policy.retries = 0;  // As the e2e matrix runs (--retries 0).
  policy.allow_private_addresses = true;
  return policy;
}

// Every row of CrawlE2eTest.FaultMatrixRowByRow, as the outcomes the event
// loop reports for those hosts (decoding and the body cap are libcurl's and
// the write callback's; here they arrive as bodies and flags).
TEST(FetchMachineTest, FaultMatrixRowByRow) {
  const std::string redir5 = "redir5.test";
  std::vector<std::pair<std::string, TransferResult>> five = {
      {Https(redir5), Status(301, 0, Https(redir5, "/hop1"))}};
  for (int i = 1; i <= 4; ++i) {
    five.push_back(
        {Https(redir5, "/hop" + std::to_string(i)),
         Status(302, 0, Https(redir5, "/hop" + std::to_string(i + 1)))});
  }
  five.push_back({Https(redir5, "/hop5"), Status(200, kRobotsBytes)});
  const std::string redir6 = "redir6.test";
  std::vector<std::pair<std::string, TransferResult>> six = {
      {Https(redir6), Status(301, 0, Https(redir6, "/hop1"))}};
  for (int i = 1; i <= 5; ++i) {
    six.push_back(
        {Https(redir6, "/hop" + std::to_string(i)),
         Status(302, 0, Https(redir6, "/hop" + std::to_string(i + 1)))});
  }
  World notls;
  notls.transfers[Https("notls.test")] = {Failure(ErrorClass::kTls)};
  notls.transfers[Http("notls.test")] = {Status(200, kRobotsBytes)};

  const Case cases[] = {
      {"ok", Answer(Https("ok.test"), {Status(200, kRobotsBytes)}),
       "200|success|NULL|0|0|33|https://ok.test/robots.txt"},
      {"s204", Answer(Https("s204.test"), {Status(204)}),
       "204|success|NULL|0|0|0|https://s204.test/robots.txt"},
      {"s301", Answer(Https("s301.test"), {Status(301)}),
       "301|unavailable|NULL|0|0|0|https://s301.test/robots.txt"},
      {"s401", Answer(Https("s401.test"), {Status(401)}),
       "401|unavailable|NULL|0|0|0|https://s401.test/robots.txt"},
      {"s403", Answer(Https("s403.test"), {Status(403)}),
       "403|unavailable|NULL|0|0|0|https://s403.test/robots.txt"},
      {"s404", Answer(Https("s404.test"), {Status(404)}),
       "404|unavailable|NULL|0|0|0|https://s404.test/robots.txt"},
      {"s410", Answer(Https("s410.test"), {Status(410)}),
       "410|unavailable|NULL|0|0|0|https://s410.test/robots.txt"},
      {"s429", Answer(Https("s429.test"), {Status(429)}),
       "429|unavailable|NULL|0|0|0|https://s429.test/robots.txt"},
      {"s500", Answer(Https("s500.test"), {Status(500)}),
       "500|unreachable|NULL|0|0|0|https://s500.test/robots.txt"},
      {"s503", Answer(Https("s503.test"), {Status(503)}),
       "503|unreachable|NULL|0|0|0|https://s503.test/robots.txt"},
      {"redir5", Chain(five),
       "200|success|NULL|5|0|33|https://redir5.test/hop5"},
      {"redir6", Chain(six),
       "302|unavailable|too_many_redirects|6|0|0|https://redir6.test/hop5"},
      {"loop",
       Chain(
           {{Https("loop.test"), Status(301, 0, Https("loop.test", "/again"))},
            {Https("loop.test", "/again"),
             Status(301, 0, Https("loop.test"))}}),
       "301|unavailable|redirect_loop|2|0|0|https://loop.test/again"},
      {"cross",
       Chain({{Https("cross.test"), Status(301, 0, Http("ok.test"))},
              {Http("ok.test"), Status(200, kRobotsBytes)}}),
       "200|success|NULL|1|0|33|http://ok.test/robots.txt"},
      {"ftp",
       Answer(Https("ftp.test"), {Status(301, 0, "ftp://ftp.test/robots.txt")}),
       "301|unavailable|redirect_scheme|1|0|0|https://ftp.test/robots.txt"},
      {"relative",
       Chain({{Https("relative.test"),
               Status(301, 0, Https("relative.test", "/robots2.txt"))},
              {Https("relative.test", "/robots2.txt"),
               Status(200, kRobotsBytes)}}),
       "200|success|NULL|1|0|33|https://relative.test/robots2.txt"},
      {"huge", Answer(Https("huge.test"), {Truncated(512000)}),
       "200|success|NULL|0|1|512000|https://huge.test/robots.txt"},
      {"gzip", Answer(Https("gzip.test"), {Status(200, kRobotsBytes)}),
       "200|success|NULL|0|0|33|https://gzip.test/robots.txt"},
      {"bomb", Answer(Https("bomb.test"), {Truncated(512000)}),
       "200|success|NULL|0|1|512000|https://bomb.test/robots.txt"},
      {"br", Answer(Https("br.test"), {Status(200, kRobotsBytes)}),
       "200|success|NULL|0|0|33|https://br.test/robots.txt"},
      {"zstd", Answer(Https("zstd.test"), {Status(200, kRobotsBytes)}),
       "200|success|NULL|0|0|33|https://zstd.test/robots.txt"},
      {"zstdbomb", Answer(Https("zstdbomb.test"), {Truncated(512000)}),
       "200|success|NULL|0|1|512000|https://zstdbomb.test/robots.txt"},
      {"badgzip",
       Answer(Https("badgzip.test"), {Failure(ErrorClass::kProtocol, 200)}),
       "200|unreachable|protocol|0|0|0|https://badgzip.test/robots.txt"},
      {"slowstart",
       Answer(Https("slowstart.test"), {Status(200, kRobotsBytes)}),
       "200|success|NULL|0|0|33|https://slowstart.test/robots.txt"},
      {"trickle", Answer(Https("trickle.test"), {Status(200, 23)}),
       "200|success|NULL|0|0|23|https://trickle.test/robots.txt"},
      // Connected, then silence until --timeout: the server was reached, so
      // http is not tried.
      {"stall", Answer(Https("stall.test"), {Failure(ErrorClass::kTimeout)}),
       "NULL|unreachable|timeout|0|0|0|NULL"},
      // Reset before any response on both schemes.
      {"resetbefore",
       BothSchemes("resetbefore.test", Failure(ErrorClass::kReset)),
       "NULL|unreachable|reset|0|0|0|NULL"},
      {"resetduring",
       Answer(Https("resetduring.test"), {Failure(ErrorClass::kReset, 200)}),
       "200|unreachable|reset|0|0|0|https://resetduring.test/robots.txt"},
      {"badchunk",
       Answer(Https("badchunk.test"), {Failure(ErrorClass::kProtocol, 200)}),
       "200|unreachable|protocol|0|0|0|https://badchunk.test/robots.txt"},
      {"soft404", Answer(Https("soft404.test"), {Status(200, 77)}),
       "200|success|NULL|0|0|77|https://soft404.test/robots.txt"},
      {"bom", Answer(Https("bom.test"), {Status(200, 32)}),
       "200|success|NULL|0|0|32|https://bom.test/robots.txt"},
      {"cronly", Answer(Https("cronly.test"), {Status(200, 28)}),
       "200|success|NULL|0|0|28|https://cronly.test/robots.txt"},
      {"latin1", Answer(Https("latin1.test"), {Status(200, 30)}),
       "200|success|NULL|0|0|30|https://latin1.test/robots.txt"},
      {"empty", Answer(Https("empty.test"), {Status(200)}),
       "200|success|NULL|0|0|0|https://empty.test/robots.txt"},
      {"notls", notls, "200|success|NULL|0|0|33|http://notls.test/robots.txt"},
      {"nothere", Answer(Https("nothere.test"), {Status(404)}),
       "404|unavailable|NULL|0|0|0|https://nothere.test/robots.txt"},
  };
  const FetchPolicy policy = MatrixPolicy();
  for (const Case& c : cases) {
    Trace trace;
    const storage::FetchRecord r =
        RunMachine(policy, std::string(c.id) + ".test", c.world, &trace);
    EXPECT_EQ(RowOf(r), c.row) << c.id;
    EXPECT_EQ(r.url, Https(std::string(c.id) + ".test")) << c.id;
    EXPECT_EQ(r.attempts, 1) << c.id;
  }
}

// The hop-by-hop record of a chain and the fallback's two steps.
TEST(FetchMachineTest, StepsRecordEveryRequest) {
  World w;
  w.transfers[Https("notls.test")] = {Failure(ErrorClass::kTls)};
  w.transfers[Http("notls.test")] = {Status(200, kRobotsBytes)};
  Trace trace;
  const storage::FetchRecord r =
      RunMachine(MatrixPolicy(), "notls.test", w, &trace);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].url, Https("notls.test"));
  EXPECT_EQ(r.steps[0].error_class, ErrorClass::kTls);
  EXPECT_EQ(r.steps[0].http_status, 0);
  EXPECT_EQ(r.steps[1].url, Http("notls.test"));
  EXPECT_EQ(r.steps[1].http_status, 200);
  EXPECT_EQ(r.steps[1].error_class, ErrorClass::kNone);
  EXPECT_EQ(trace.requests, (std::vector<std::string>{
                                Https("notls.test") + "@" + kPublicAddress,
                                Http("notls.test") + "@" + kPublicAddress}));
}

struct FallbackCase {
  const char* id;
  bool www_fallback;
  World world;
  std::vector<std::string> requested;  // URLs, in order.
  const char* row;
};

// https -> http on connection-level failures; www. after that; a DNS
// failure or a blocked address skips the same host's other schemes.
TEST(FetchMachineTest, SchemeAndWwwFallbacks) {
  World refused = BothSchemes("a.test", Failure(ErrorClass::kConnectRefused));
  World refused_then_www = refused;
  refused_then_www.transfers[Https("www.a.test")] = {Status(200, 5)};
  World nx;
  nx.dns_failures["a.test"] = ErrorClass::kDnsNxdomain;
  nx.transfers[Https("www.a.test")] = {Status(200, 5)};
  World private_only;
  private_only.addresses["a.test"] = {"10.0.0.1", "127.0.0.1"};
  private_only.transfers[Https("www.a.test")] = {Status(200, 5)};
  World http_404 = Answer(Https("a.test"), {Status(404)});
  World timeout_after_connect =
      Answer(Https("a.test"), {Failure(ErrorClass::kTimeout)});
  World tls_then_http_fails;
  tls_then_http_fails.transfers[Https("a.test")] = {Failure(ErrorClass::kTls)};
  tls_then_http_fails.transfers[Http("a.test")] = {
      Failure(ErrorClass::kConnectTimeout)};

  const FallbackCase cases[] = {
      {"refused, no www",
       false,
       refused,
       {Https("a.test"), Http("a.test")},
       "NULL|unreachable|connect_refused|0|0|0|NULL"},
      {"refused, then www",
       true,
       refused_then_www,
       {Https("a.test"), Http("a.test"), Https("www.a.test")},
       "200|success|NULL|0|0|5|https://www.a.test/robots.txt"},
      {"nxdomain skips http://a.test",
       true,
       nx,
       {Https("www.a.test")},
       "200|success|NULL|0|0|5|https://www.a.test/robots.txt"},
      {"blocked skips http://a.test",
       true,
       private_only,
       {Https("www.a.test")},
       "200|success|NULL|0|0|5|https://www.a.test/robots.txt"},
      {"a 404 is an answer",
       true,
       http_404,
       {Https("a.test")},
       "404|unavailable|NULL|0|0|0|https://a.test/robots.txt"},
      {"a timeout after connecting is not retried elsewhere",
       true,
       timeout_after_connect,
       {Https("a.test")},
       "NULL|unreachable|timeout|0|0|0|NULL"},
      {"last failure is recorded",
       false,
       tls_then_http_fails,
       {Https("a.test"), Http("a.test")},
       "NULL|unreachable|connect_timeout|0|0|0|NULL"},
  };
  for (const FallbackCase& c : cases) {
    FetchPolicy policy = MatrixPolicy();
    policy.allow_private_addresses = false;
    policy.www_fallback = c.www_fallback;
    Trace trace;
    const storage::FetchRecord r =
        RunMachine(policy, "a.test", c.world, &trace);
    EXPECT_EQ(RowOf(r), c.row) << c.id;
    std::vector<std::string> urls;
    for (const std::string& request : trace.requests) {
      urls.push_back(request.substr(0, request.find('@')));
    }
    EXPECT_EQ(urls, c.requested) << c.id;
  }
}

// The address policy: the first public address is used; only private
// ones is blocked_address with the address named, and no request.
TEST(FetchMachineTest, BlockedAndAllowedAddresses) {
  FetchPolicy policy = MatrixPolicy();
  policy.allow_private_addresses = false;
  policy.schemes = {Scheme::kHttps};
  World mixed = Answer(Https("a.test"), {Status(200, 1)});
  mixed.addresses["a.test"] = {"192.168.1.1", kPublicAddress, "10.0.0.2"};
  Trace trace;
  storage::FetchRecord r = RunMachine(policy, "a.test", mixed, &trace);
  EXPECT_EQ(RowOf(r), "200|success|NULL|0|0|1|https://a.test/robots.txt");
  EXPECT_EQ(trace.requests,
            std::vector<std::string>{Https("a.test") + "@" + kPublicAddress});
  EXPECT_EQ(r.ip, kPublicAddress);

  World loopback;
  loopback.addresses["a.test"] = {"127.0.0.1", "::1"};
  Trace blocked;
  r = RunMachine(policy, "a.test", loopback, &blocked);
  EXPECT_EQ(RowOf(r), "NULL|unreachable|blocked_address|0|0|0|NULL");
  EXPECT_TRUE(blocked.requests.empty()) << "no request to a private address";
  EXPECT_EQ(r.ip, "127.0.0.1");
  EXPECT_NE(r.error_message.find("127.0.0.1"), std::string::npos);

  policy.allow_private_addresses = true;
  Trace allowed;
  r = RunMachine(policy, "a.test", Answer(Https("a.test"), {Status(200, 1)}),
                 &allowed);
  EXPECT_EQ(r.access, robots::AccessClass::kSuccess);
}

struct RetryCase {
  const char* id;
  int retries;
  bool retry_timeouts;
  World world;
  std::vector<milliseconds> delays;
  const char* row;
  int attempts;
};

// Retries: network errors, 5xx and 429; doubling delays; Retry-After
// raises a delay up to the cap; timeouts only with retry_timeouts.
TEST(FetchMachineTest, RetriesWithBackoffAndRetryAfter) {
  const std::string url = Https("a.test");
  const RetryCase cases[] = {
      {"503 then 200",
       2,
       false,
       Answer(url, {Status(503), Status(200, 4)}),
       {milliseconds(100)},
       "200|success|NULL|0|0|4|https://a.test/robots.txt",
       2},
      {"503 three times: delays double",
       2,
       false,
       Answer(url, {Status(503)}),
       {milliseconds(100), milliseconds(200)},
       "503|unreachable|NULL|0|0|0|https://a.test/robots.txt",
       3},
      {"Retry-After 1 s raises the delay",
       1,
       false,
       Answer(url, {WithRetryAfter(Status(503), "1"), Status(200, 4)}),
       {milliseconds(1000)},
       "200|success|NULL|0|0|4|https://a.test/robots.txt",
       2},
      {"Retry-After beyond the cap is capped",
       1,
       false,
       Answer(url, {WithRetryAfter(Status(429), "3600"), Status(429)}),
       {milliseconds(5000)},
       "429|unavailable|NULL|0|0|0|https://a.test/robots.txt",
       2},
      {"reset is retried",
       1,
       false,
       Answer(url, {Failure(ErrorClass::kReset), Status(200, 4)}),
       {milliseconds(100)},
       "200|success|NULL|0|0|4|https://a.test/robots.txt",
       2},
      {"timeout is not retried by default",
       2,
       false,
       Answer(url, {Failure(ErrorClass::kTimeout)}),
       {},
       "NULL|unreachable|timeout|0|0|0|NULL",
       1},
      {"timeout is retried with retry_timeouts",
       2,
       true,
       Answer(url, {Failure(ErrorClass::kTimeout)}),
       {milliseconds(100), milliseconds(200)},
       "NULL|unreachable|timeout|0|0|0|NULL",
       3},
      {"404 is never retried",
       2,
       false,
       Answer(url, {Status(404)}),
       {},
       "404|unavailable|NULL|0|0|0|https://a.test/robots.txt",
       1},
      {"tls is final",
       2,
       false,
       Answer(url, {Failure(ErrorClass::kTls)}),
       {},
       "NULL|unreachable|tls|0|0|0|NULL",
       1},
  };
  for (const RetryCase& c : cases) {
    FetchPolicy policy = MatrixPolicy();
    policy.schemes = {Scheme::kHttps};
    policy.retries = c.retries;
    policy.retry_timeouts = c.retry_timeouts;
    policy.retry_delay = milliseconds(100);
    policy.max_retry_after = milliseconds(5000);
    Trace trace;
    const storage::FetchRecord r =
        RunMachine(policy, "a.test", c.world, &trace);
    EXPECT_EQ(RowOf(r), c.row) << c.id;
    EXPECT_EQ(trace.retry_delays, c.delays) << c.id;
    EXPECT_EQ(r.attempts, c.attempts) << c.id;
    EXPECT_EQ(static_cast<int>(r.steps.size()), c.attempts) << c.id;
  }
}

// A DNS timeout or SERVFAIL is retried; NXDOMAIN is final.
TEST(FetchMachineTest, DnsFailuresRetriedOrFinal) {
  FetchPolicy policy = MatrixPolicy();
  policy.schemes = {Scheme::kHttps};
  policy.retries = 2;
  policy.retry_delay = milliseconds(10);
  for (const auto& [error, retried] : std::vector<std::pair<ErrorClass, bool>>{
           {ErrorClass::kDnsServfail, true},
           {ErrorClass::kDnsTimeout, true},
           {ErrorClass::kDnsNxdomain, false},
           {ErrorClass::kDnsNodata, false}}) {
    World w;
    w.dns_failures["a.test"] = error;
    Trace trace;
    const storage::FetchRecord r = RunMachine(policy, "a.test", w, &trace);
    const std::string name(storage::ErrorClassName(error));
    EXPECT_EQ(RowOf(r), "NULL|unreachable|" + name + "|0|0|0|NULL") << name;
    EXPECT_EQ(trace.resolves, retried ? 3 : 1) << name;
    EXPECT_TRUE(trace.requests.empty()) << name;
    EXPECT_EQ(r.dns_ms, 3) << name;
  }
}

// Redirects the crawler cannot resolve end as "unavailable" (RFC 9309
// §2.3.1.2), with the redirect responses counted; an unresolvable redirect
// target is a DNS failure of that hop (not a fallback to http).
TEST(FetchMachineTest, UnresolvedRedirects) {
  FetchPolicy policy = MatrixPolicy();
  World self = Answer(Https("a.test"), {Status(302, 0, Https("a.test"))});
  Trace trace;
  storage::FetchRecord r = RunMachine(policy, "a.test", self, &trace);
  EXPECT_EQ(RowOf(r),
            "302|unavailable|redirect_loop|1|0|0|https://a.test/robots.txt");

  World elsewhere =
      Answer(Https("a.test"), {Status(301, 0, Https("gone.test"))});
  elsewhere.dns_failures["gone.test"] = ErrorClass::kDnsNxdomain;
  Trace hop;
  r = RunMachine(policy, "a.test", elsewhere, &hop);
  EXPECT_EQ(RowOf(r),
            "NULL|unreachable|dns_nxdomain|1|0|0|https://a.test/robots.txt");
  EXPECT_EQ(hop.requests.size(), 1u) << "no http fallback after a redirect";

  policy.max_redirects = 7;
  World long_chain;
  for (int i = 0; i < 8; ++i) {
    long_chain.transfers[Https("a.test", "/" + std::to_string(i))] = {
        Status(301, 0, Https("a.test", "/" + std::to_string(i + 1)))};
  }
  long_chain.transfers[Https("a.test")] = {
      Status(301, 0, Https("a.test", "/0"))};
  Trace eight;
  r = RunMachine(policy, "a.test", long_chain, &eight);
  EXPECT_EQ(r.error_class, ErrorClass::kTooManyRedirects);
  EXPECT_EQ(r.redirects, 8) << "one more than followed";
  EXPECT_EQ(eight.requests.size(), 8u);
}

// A conditional re-crawl: validators on the first request only; a 304
// keeps the previous body, access and validators.
TEST(FetchMachineTest, NotModifiedReusesThePreviousBody) {
  storage::PreviousFetch previous;
  previous.fetch_id = 41;
  previous.access = robots::AccessClass::kSuccess;
  previous.etag = "\"v1\"";
  previous.last_modified = "Wed, 21 Oct 2015 07:28:00 GMT";
  previous.has_body = true;
  FetchPolicy policy = MatrixPolicy();
  Trace trace;
  storage::FetchRecord r =
      RunMachine(policy, "a.test", Answer(Https("a.test"), {Status(304)}),
                 &trace, previous);
  EXPECT_TRUE(r.not_modified);
  EXPECT_EQ(r.body_from_fetch_id, 41);
  EXPECT_EQ(r.access, robots::AccessClass::kSuccess);
  EXPECT_EQ(r.etag, "\"v1\"");
  EXPECT_EQ(r.last_modified, previous.last_modified);
  EXPECT_EQ(trace.conditional, std::vector<bool>{true});

  Trace redirected;
  r = RunMachine(
      policy, "a.test",
      Chain({{Https("a.test"), Status(301, 0, Https("a.test", "/new"))},
             {Https("a.test", "/new"), Status(200, 3)}}),
      &redirected, previous);
  EXPECT_EQ(redirected.conditional, (std::vector<bool>{true, false}))
      << "validators belong to the first URL";
  EXPECT_FALSE(r.not_modified);

  previous.has_body = false;
  Trace no_body;
  r = RunMachine(policy, "a.test", Answer(Https("a.test"), {Status(200, 3)}),
                 &no_body, previous);
  EXPECT_EQ(no_body.conditional, std::vector<bool>{false});
}

// Through a proxy the machine does not resolve (the proxy does).
TEST(FetchMachineTest, ProxyRequestsWithoutResolving) {
  FetchPolicy policy = MatrixPolicy();
  policy.via_proxy = true;
  Trace trace;
  const storage::FetchRecord r = RunMachine(
      policy, "a.test", Answer(Https("a.test"), {Status(200, 2)}), &trace);
  EXPECT_EQ(r.access, robots::AccessClass::kSuccess);
  EXPECT_EQ(trace.resolves, 0);
  EXPECT_EQ(trace.requests, std::vector<std::string>{Https("a.test") + "@"});
}

// Jitter keeps a retry within 0.5x-1.5x of its base delay.
TEST(FetchMachineTest, JitteredRetryDelaysStayInRange) {
  FetchPolicy policy = MatrixPolicy();
  policy.schemes = {Scheme::kHttps};
  policy.retries = 1;
  policy.retry_delay = milliseconds(1000);
  std::mt19937 random(7);
  for (int i = 0; i < 50; ++i) {
    TopListEntry entry;
    entry.domain = "a.test";
    DomainFetch fetch(&policy, "https", entry, std::nullopt, &random);
    FetchAction a = fetch.Start();
    ASSERT_EQ(a.kind, FetchAction::Kind::kResolve);
    a = fetch.OnAddresses({kPublicAddress}, 443, -1);
    ASSERT_EQ(a.kind, FetchAction::Kind::kTransfer);
    a = fetch.OnTransferDone(Status(503));
    ASSERT_EQ(a.kind, FetchAction::Kind::kWaitRetry);
    EXPECT_GE(a.delay, milliseconds(500));
    EXPECT_LE(a.delay, milliseconds(1500));
  }
}

}  // namespace
}  // namespace robotscan::crawler
