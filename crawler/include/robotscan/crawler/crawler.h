// The robots.txt crawler behind `robotscan crawl`: fetches /robots.txt for
// every domain of a top-sites list and records each outcome in a crawl
// database (robotscan/storage/crawl_store.h).
//
// Per domain (RFC 9309 §2.3): https://DOMAIN/robots.txt first, then
// http:// on a connection-level failure (refused, connect timeout, TLS
// handshake, reset before a response); optionally the same for www.DOMAIN.
// Redirects are followed by the crawler itself, hop by hop (at least five,
// §2.3.1.2), across hosts, http/https only; every hop is recorded. The first
// max_body_bytes of the decoded body are kept (never less than 500 KiB,
// §2.5); beyond that the transfer is cut and marked truncated, which also
// bounds compression bombs. The access class follows §2.3.1 through
// robotscan::robots::ClassifyHttpOutcome.
//
// Engine: libcurl's multi socket API and c-ares, both driven by a
// Boost.Asio io_context on a thread of its own (thousands of transfers in
// flight), plus one writer thread that commits batches to SQLite. With
// loops > 1 there are that many such event loops, each with its own curl
// multi handle and resolver; the list is partitioned among them by a hash of
// the domain, and the per-IP cap, the rate limit and the writer are shared.
//
// One live crawl per database: RunCrawl holds the database (storage's
// CrawlStore::LockForCrawl) from start to end; a second RunCrawl on it fails
// with StatusCode::kLocked, CrawlSummary::locked_by naming the holder. The hold
// of a crawl that died (kill -9) is taken over, reported by on_stale_lock.
//
// Resume: a domain is skipped when the database already has a fetch of it
// (newer than recrawl_older_than when set), so rerunning the same command
// continues a crawl after a crash or a signal; each (crawl, domain) has at
// most one record even after kill -9, because a record and its domain's
// "done" state are one SQLite row committed atomically.
//
// Thread-safety: RunCrawl may be called from any thread; it blocks until
// the crawl ends, reporting progress on that thread. Callbacks run on the
// calling thread or an event loop's, one at a time. The library installs no
// signal handlers: the caller stops a crawl with CrawlHandle::Cancel.
//
// Usage:
//   CrawlOptions options;
//   options.list_path = "top-1m.csv";
//   options.db_path = "crawl.sqlite";
//   CrawlSummary summary;
//   Status status = RunCrawl(options, {}, &summary);
#ifndef ROBOTSCAN_CRAWLER_CRAWLER_H_
#define ROBOTSCAN_CRAWLER_CRAWLER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/status.h"
#include "robotscan/crawler/top_list.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/shared_frontier.h"

namespace robotscan::crawler {

inline constexpr std::size_t kMinBodyLimitBytes = 500 * 1024;

// "robotscan/<version> (+https://github.com/robotscan/robotscan)"
std::string DefaultUserAgent();

// A value sent in an HTTP header line (a User-Agent): kInvalidArgument
// naming `flag` when it holds CR, LF, NUL or any other control character
// but HTAB, which would end the header line early and smuggle the rest in
// as headers of its own (RFC 9110 §5.5).
Status CheckHeaderValue(std::string_view flag, std::string_view value);

// The schemes a crawl may start a domain with (CrawlOptions::schemes), and
// their names: the one table SchemeName and ParseSchemeName read, and
// `robotscan crawl --schemes` accepts.
enum class Scheme : std::uint8_t { kHttps, kHttp };
inline constexpr std::string_view kSchemeNames[] = {"https", "http"};
std::string_view SchemeName(Scheme scheme);
std::optional<Scheme> ParseSchemeName(std::string_view name);

// Which entries of a list a crawl takes, by list position: the first
// `skip` are left out, then `top` are taken (0: all the rest).
struct ListSelection {
  std::int64_t skip = 0;
  std::int64_t top = 0;
  // How many entries of a list of `entries` are taken.
  std::int64_t CountOf(std::int64_t entries) const;
};

// HOST:PORT:HOST2:PORT2 (curl --connect-to). Empty HOST or PORT match any;
// empty HOST2 or PORT2 keep the original. IPv6 hosts in brackets.
struct ConnectToRule {
  std::string host;
  int port = 0;
  std::string to_host;
  int to_port = 0;
};

// HOST:PORT:ADDR[,ADDR...] (curl --resolve). HOST "*" matches any host.
struct ResolveRule {
  std::string host;
  int port = 0;
  std::vector<std::string> addresses;
};

struct CrawlOptions {
  std::string list_path;
  std::string db_path;
  std::int64_t top = 0;   // Take this many list entries (0: all).
  std::int64_t skip = 0;  // After skipping this many.

  int concurrency = 500;  // Domains in flight, shared out among the loops.
  int loops = 1;          // Event loops (threads); 0: one per core.
  double rate_limit = 0;  // New domains per second; 0: unlimited.
  int per_ip_limit = 8;   // Concurrent requests per IP; 0: unlimited.

  // Start URLs, in order: each scheme for DOMAIN, then (www_fallback) for
  // www.DOMAIN. Only "https" and "http" are accepted.
  std::vector<std::string> schemes = {"https", "http"};
  bool www_fallback = false;
  // After each domain's robots.txt, also fetch /llms.txt and
  // /.well-known/tdmrep.json and record the homepage's AI-preference
  // headers (X-Robots-Tag, Content-Usage, tdm-reservation, tdm-policy):
  // storage's signal_fetch, written with the fetch (docs/crawler.md,
  // "Signals"). Up to three more requests per domain, under the same per-IP
  // cap; --rate counts domains, so it is unchanged.
  bool signals = false;
  int max_redirects = 5;  // Raised to 5 if lower (RFC 9309 §2.3.1.2).
  std::size_t max_body_bytes = kMinBodyLimitBytes;  // Raised to the minimum.

  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds total_timeout{30000};  // Per request.
  int low_speed_limit = 100;                // Bytes/s below which a transfer...
  std::chrono::seconds low_speed_time{15};  // ...for this long is aborted.

  int retries = 2;  // For network errors, 5xx and 429.
  // Also retry a request that timed out after connecting (a stalled
  // server); off by default, since each retry costs a whole timeout.
  bool retry_timeouts = false;
  std::chrono::milliseconds retry_delay{1000};       // Doubles per retry.
  std::chrono::milliseconds max_retry_after{30000};  // Cap on Retry-After.

  std::string user_agent;  // Empty: DefaultUserAgent().

  std::vector<std::string> dns_servers;  // "HOST:PORT"; empty: resolv.conf.
  std::chrono::milliseconds dns_timeout{3000};
  int dns_tries = 2;
  bool ipv4_only = false;

  bool allow_private_addresses = false;
  std::vector<std::string> connect_to;  // curl syntax HOST:PORT:HOST2:PORT2
  std::vector<std::string> resolve;     // curl syntax HOST:PORT:ADDR[,ADDR]
  std::string proxy;                    // Any libcurl proxy URL.
  std::string cacert;
  bool insecure = false;

  // Re-fetch domains whose newest fetch is older than this, sending
  // If-None-Match / If-Modified-Since when the previous copy had them
  // (RFC 9309 §2.4). Unset: never re-fetch a domain the database has.
  std::optional<std::chrono::seconds> recrawl_older_than;

  bool compress_bodies = false;
  std::chrono::milliseconds progress_interval{250};
  // Commit a batch after this many records or this long, whichever first.
  int batch_size = 500;
  std::chrono::milliseconds batch_interval{200};
  std::string tool_version;
};

struct CrawlProgress {
  std::int64_t total = 0;    // List entries selected by --top/--skip.
  std::int64_t done = 0;     // Fetched + already present + duplicates.
  std::int64_t fetched = 0;  // Fetched in this run.
  std::int64_t already_present = 0;
  std::int64_t duplicates = 0;
  std::int64_t in_flight = 0;
  std::int64_t success = 0, unavailable = 0, unreachable = 0;
  std::int64_t committed = 0;
  std::int64_t malformed_lines = 0;
  // Domains waiting for a retry, and when the soonest is due (-1: none):
  // a crawl's tail is mostly these.
  std::int64_t waiting_retries = 0;
  double next_retry_in_seconds = -1;
  double elapsed_seconds = 0;
  // A worker's (RunCrawlWorker): domains it leased, those of them taken
  // over from another worker's expired lease, and its records refused
  // because their own lease had been taken over meanwhile.
  std::int64_t leased = 0, taken_over = 0, rejected = 0;
};

struct CrawlCallbacks {
  std::function<void(const CrawlProgress&)> on_progress;
  std::function<void(const storage::FetchRecord&)> on_fetch;
  std::function<void(const MalformedLine&)> on_malformed_line;
  // Once, before the crawl starts, when it took over the hold of a crawl
  // that died holding the database (see storage/crawl_lock.h).
  std::function<void(const storage::CrawlHolder&)> on_stale_lock;
};

struct CrawlSummary {
  CrawlProgress progress;
  std::int64_t run_id = 0;
  bool cancelled = false;  // Stopped by CrawlHandle::Cancel.
  // When RunCrawl failed with kLocked: the live crawl holding the database.
  std::optional<storage::CrawlHolder> locked_by;
};

// Stops a running crawl from another thread: RunCrawl then admits nothing
// new, abandons the transfers in flight (a rerun fetches them, none is
// half-recorded), commits what finished, marks the run "interrupted" and
// returns with CrawlSummary::cancelled. A Cancel() before RunCrawl starts
// stops it as soon as it does.
//
// Thread-safe. Not async-signal-safe: to stop on a signal, wait for it on
// a thread (sigwait) and call Cancel() there, as `robotscan crawl` does.
class CrawlHandle {
 public:
  CrawlHandle() = default;
  CrawlHandle(const CrawlHandle&) = delete;
  CrawlHandle& operator=(const CrawlHandle&) = delete;

  void Cancel();
  bool cancelled() const;

  // For RunCrawl: `stop` runs on the next Cancel() (at once if cancelled
  // already), under the handle's lock, so it must not call the handle;
  // nullptr clears it, and once that returns no Cancel() is still running
  // the previous `stop`.
  void OnCancel(std::function<void()> stop);

 private:
  mutable std::mutex mutex_;
  bool cancelled_ = false;
  std::function<void()> stop_;
};

// A crawl's options, checked, with everything that needs parsing parsed
// once: what the event loops, the fetch machines and a worker run by, as
// it is. Made by ValidateCrawlOptions.
struct CrawlPlan {
  CrawlOptions options;         // As given (crawl_run.options records them).
  std::vector<Scheme> schemes;  // options.schemes, in order.
  std::vector<ConnectToRule> connect_to;  // options.connect_to, parsed.
  std::vector<ResolveRule> resolve;       // options.resolve, parsed.
  std::string user_agent;  // options.user_agent, or DefaultUserAgent().
  std::size_t max_body_bytes = kMinBodyLimitBytes;  // Raised to the minimum.
  ListSelection selection;                          // --skip and --top.
};

// Checks options (syntax of --connect-to, --resolve, --dns-server, schemes,
// numbers and durations) without touching the network or the database,
// and makes the crawl's plan: kInvalidArgument naming the flag.
Result<CrawlPlan> ValidateCrawlOptions(const CrawlOptions& options);

// File descriptors a crawl with these options needs at most: one socket
// per transfer in flight plus a fixed reserve (database and list files,
// each loop's epoll, timer and resolver descriptors, stdio). The caller
// owns the process's RLIMIT_NOFILE and checks it against this.
std::int64_t DescriptorsNeeded(const CrawlOptions& options);

// Runs a crawl to its end (or a Cancel() on `handle`, or a fatal error).
// Failures keep their kind: kInvalidArgument (options), kLocked (another
// live crawl; summary->locked_by), kIoError (the list), kNetwork (libcurl
// or c-ares setup), and storage's own codes (kDiskFull, kBusy, kCorrupt,
// kSchemaTooNew, ...) as the database gave them.
Status RunCrawl(const CrawlOptions& options, const CrawlCallbacks& callbacks,
                CrawlSummary* summary, CrawlHandle* handle = nullptr);
// The same with options ValidateCrawlOptions has made into `plan`.
Status RunCrawl(const CrawlPlan& plan, const CrawlCallbacks& callbacks,
                CrawlSummary* summary, CrawlHandle* handle = nullptr);

// A scaled-out crawl (PostgreSQL; docs/scale-out.md): `robotscan enqueue`
// loads a list as a crawl with its crawl-wide politeness settings, then any
// number of `robotscan crawl --worker` processes on any hosts fetch it.
struct EnqueueOptions {
  std::string list_path;
  std::string db_path;    // postgresql://...
  std::int64_t top = 0;   // Take this many list entries (0: all).
  std::int64_t skip = 0;  // After skipping this many.
  storage::CrawlSettings settings;
  std::string tool_version;
};

// Reads the list (with its provenance) into a new crawl's frontier, in one
// transaction: kInvalidArgument (options, not PostgreSQL), kIoError (the
// list), storage's codes.
Status EnqueueCrawl(
    const EnqueueOptions& options,
    const std::function<void(const MalformedLine&)>& on_malformed_line,
    storage::EnqueueSummary* summary);

// Runs one worker of the enqueued crawl `run_id` (0: the newest one still
// running) in options.db_path until the crawl has nothing left for anyone:
// leases batches of the frontier, fetches them with `options` (its
// list_path, top, skip, per_ip_limit and rate_limit are not used: the
// crawl's settings rule), commits each batch of records with their leases,
// heartbeats, and takes over batches whose worker died. A Cancel() on
// `handle` drains: nothing new is started, unstarted domains go back to
// the frontier, the transfers in flight finish and are committed
// (bounded by the request timeouts), then RunCrawlWorker returns with
// summary->cancelled. kLocked (summary->locked_by) while a single-process
// crawl holds the database; kInvalidArgument for a file --db or no
// enqueued crawl; storage's codes as the database gave them.
Status RunCrawlWorker(const CrawlOptions& options, std::int64_t run_id,
                      const CrawlCallbacks& callbacks, CrawlSummary* summary,
                      CrawlHandle* handle = nullptr);
// The same with options ValidateCrawlOptions has made into `plan` (a
// worker has no list: any non-empty list_path passes the check).
Status RunCrawlWorker(const CrawlPlan& plan, std::int64_t run_id,
                      const CrawlCallbacks& callbacks, CrawlSummary* summary,
                      CrawlHandle* handle = nullptr);

// Initializes libcurl and c-ares process-wide; construct one in main
// before any crawl and keep it alive until the end.
class NetworkLibraries {
 public:
  NetworkLibraries();
  ~NetworkLibraries();
  NetworkLibraries(const NetworkLibraries&) = delete;
  NetworkLibraries& operator=(const NetworkLibraries&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_ = false;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_CRAWLER_H_
