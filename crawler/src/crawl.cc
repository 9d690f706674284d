// RunCrawl: the event loop that admits domains from the list, walks each
// through resolve -> per-IP slot -> transfer -> (fallback | redirect |
// retry)* -> record, and hands records to the BatchWriter.
#include <ares.h>
#include <curl/curl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cerrno>
#include <chrono>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "batch_writer.h"
#include "curl_asio_driver.h"
#include "curl_handles.h"
#include "dns_resolver.h"
#include "domain_filter.h"
#include "endpoint_rules.h"
#include "fetch_errors.h"
#include "request_limits.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/robots/access_policy.h"
#include "time_format.h"
#include "url_parts.h"

namespace robotscan::crawler {
namespace {

using Clock = std::chrono::steady_clock;
using storage::FetchRecord;
using storage::FetchStep;
using storage::PreviousFetch;

// Selected headers of one response (RFC 9309 analyses want caching and
// type information; Location drives redirects).
struct ResponseHeaders {
  std::string content_type, content_encoding, content_length, cache_control,
      expires, last_modified, etag, retry_after, location;
};

struct DomainJob {
  std::uint64_t id = 0;
  TopListEntry entry;
  std::optional<PreviousFetch> previous;
  std::vector<std::string> start_urls;
  // start_urls split; built with them, since parsing a URL with libcurl
  // costs more than the rest of starting a transfer.
  std::vector<UrlParts> start_parts;
  std::size_t start_index = 0;
  std::string url;  // Current request.
  int redirects = 0;
  int retries_used = 0;   // For the current URL.
  int retries_total = 0;  // For the whole domain.
  std::vector<std::string> visited;
  CurlEasy easy;
  CurlStringList connect_to;
  CurlStringList request_headers;
  bool in_multi = false;
  std::string body;
  std::size_t max_body = kMinBodyLimitBytes;
  bool truncated = false;
  ResponseHeaders headers;
  std::string ip;
  std::string held_ip;  // Per-IP slot currently held.
  double dns_ms = -1;
  FetchRecord record;
  std::unique_ptr<boost::asio::steady_timer> retry_timer;
  char error_buffer[CURL_ERROR_SIZE] = {};
};

std::string TrimHeaderValue(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) {
    v.remove_prefix(1);
  }
  while (!v.empty() && (v.back() == '\r' || v.back() == '\n' ||
                        v.back() == ' ' || v.back() == '\t')) {
    v.remove_suffix(1);
  }
  return std::string(v);
}

bool HeaderNameIs(std::string_view name, std::string_view wanted) {
  if (name.size() != wanted.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c != wanted[i]) return false;
  }
  return true;
}

std::size_t OnHeaderLine(char* data, std::size_t size, std::size_t count,
                         void* user) {
  auto* job = static_cast<DomainJob*>(user);
  const std::size_t length = size * count;
  const std::string_view line(data, length);
  if (line.rfind("HTTP/", 0) == 0) {
    job->headers = ResponseHeaders();  // A new response (e.g. after 100).
    return length;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return length;
  const std::string_view name = line.substr(0, colon);
  std::string value = TrimHeaderValue(line.substr(colon + 1));
  // Bound what a hostile server can make us store per header.
  if (value.size() > 2048) value.resize(2048);
  ResponseHeaders& h = job->headers;
  struct Field {
    std::string_view name;
    std::string* target;
  };
  const Field fields[] = {{"content-type", &h.content_type},
                          {"content-encoding", &h.content_encoding},
                          {"content-length", &h.content_length},
                          {"cache-control", &h.cache_control},
                          {"expires", &h.expires},
                          {"last-modified", &h.last_modified},
                          {"etag", &h.etag},
                          {"retry-after", &h.retry_after},
                          {"location", &h.location}};
  for (const Field& field : fields) {
    if (HeaderNameIs(name, field.name)) {
      *field.target = std::move(value);
      break;
    }
  }
  return length;
}

// Keeps the first max_body decoded bytes. libcurl 7.88's own size limit
// only looks at Content-Length, so the cap is enforced here: returning less
// than was offered aborts the transfer (CURLE_WRITE_ERROR), which also stops
// decompressing a gzip bomb after at most one extra buffer.
std::size_t OnBodyBytes(char* data, std::size_t size, std::size_t count,
                        void* user) {
  auto* job = static_cast<DomainJob*>(user);
  const std::size_t length = size * count;
  const std::size_t room = job->max_body - job->body.size();
  if (length <= room) {
    job->body.append(data, length);
    return length;
  }
  job->body.append(data, room);
  job->truncated = true;
  return 0;
}

// libcurl's receive buffer per transfer (its minimum is 1 KiB).
constexpr long kReceiveBufferBytes = 1024;

double MicrosToMillis(curl_off_t us) { return static_cast<double>(us) / 1000; }

class Crawl;

// What the event loops of one crawl share. The loops partition the list by
// a hash of the domain, so a domain (and every duplicate of it) belongs to
// exactly one loop; everything else they share is here, thread-safe.
struct SharedCrawlState {
  explicit SharedCrawlState(const CrawlOptions& options)
      : limiter(options.per_ip_limit), rate(options.rate_limit) {}

  // Stops every loop (thread-safe); the first fatal message is kept.
  void StopAll(const std::string& fatal);
  std::string fatal() {
    std::lock_guard<std::mutex> lock(mutex);
    return fatal_message;
  }
  std::size_t LoopOf(const std::string& domain) const {
    return loops.size() <= 1 ? 0
                             : std::hash<std::string>{}(domain) % loops.size();
  }

  BatchWriter* writer = nullptr;  // Set before any loop runs.
  PerAddressLimiter limiter;
  RateLimiter rate;
  std::mutex callback_mutex;  // Serializes the user's callbacks.
  std::vector<Crawl*> loops;  // Filled before any loop runs.
  std::mutex mutex;
  std::string fatal_message;
};

// One event loop of a crawl: admits its share of the list's domains and
// walks each through resolve -> per-IP slot -> transfer -> (fallback |
// redirect | retry)* -> record. All its members are used on its own thread
// only, except those marked otherwise.
class Crawl {
 public:
  Crawl(const CrawlOptions& options, const CrawlCallbacks& callbacks,
        SharedCrawlState* shared, std::size_t index,
        storage::CrawlStore* reader, std::unique_ptr<TopListReader> list,
        bool database_was_empty)
      : options_(options),
        callbacks_(callbacks),
        shared_(shared),
        index_(index),
        reader_(reader),
        list_(std::move(list)),
        database_was_empty_(database_was_empty),
        driver_(io_, [this](CURL* easy,
                            CURLcode code) { OnTransferDone(easy, code); }),
        resolver_(io_, MakeDnsOptions(options)),
        progress_timer_(io_),
        pump_timer_(io_) {
    for (const std::string& text : options.connect_to) {
      ConnectToRule rule;
      std::string ignored;
      if (ParseConnectToRule(text, &rule, &ignored))
        connect_rules_.push_back(rule);
    }
    for (const std::string& text : options.resolve) {
      ResolveRule rule;
      std::string ignored;
      if (ParseResolveRule(text, &rule, &ignored))
        resolve_rules_.push_back(rule);
    }
    if (options.recrawl_older_than) {
      const auto cutoff =
          std::chrono::system_clock::now() - *options.recrawl_older_than;
      recrawl_cutoff_ = FormatIso8601(cutoff);
    }
    max_body_ = std::max(options.max_body_bytes, kMinBodyLimitBytes);
    max_redirects_ = std::max(options.max_redirects, 5);
    user_agent_ =
        options.user_agent.empty() ? DefaultUserAgent() : options.user_agent;
    strategy_ = JoinStrategy();
  }

  ~Crawl() {
    for (auto& [id, job] : jobs_) {
      if (job->in_multi) driver_.Remove(job->easy.get());
    }
    jobs_.clear();
  }

  CrawlStatus CheckReady() const {
    if (!driver_.ok()) return CrawlStatus("curl_multi_init failed");
    if (!resolver_.init_error().empty()) {
      return CrawlStatus(resolver_.init_error());
    }
    return CrawlStatus();
  }

  // Runs until this loop's share of the list is done or StopAll.
  void Run() {
    started_ = Clock::now();
    ScheduleProgress();
    boost::asio::post(io_, [this] { Pump(); });
    io_.run();
    // Abandon whatever is still in flight (only after a stop): a rerun
    // fetches those domains again, none is half-recorded.
    for (auto& [id, job] : jobs_) {
      if (job->in_multi) driver_.Remove(job->easy.get());
    }
    jobs_.clear();
    PublishProgress();
  }

  // After the writer has finished: counts the commit notifications that
  // Run() did not get to.
  void DrainNotifications() {
    io_.restart();
    io_.poll();
    progress_.in_flight = 0;
    PublishProgress();
  }

  // Thread-safe.
  void PostCommitted(std::vector<std::string> domains) {
    boost::asio::post(io_, [this, d = std::move(domains)] {
      for (const std::string& domain : d) {
        uncommitted_.erase(domain);
        if (database_was_empty_) committed_.Add(domain);
      }
      progress_.committed += static_cast<std::int64_t>(d.size());
    });
  }
  // Thread-safe.
  void PostStop() {
    boost::asio::post(io_, [this] { Stop(""); });
  }
  // Thread-safe: the loop's counters as of its last progress tick.
  CrawlProgress Progress() {
    std::lock_guard<std::mutex> lock(published_mutex_);
    return published_;
  }

 private:
  static DnsOptions MakeDnsOptions(const CrawlOptions& options) {
    DnsOptions dns;
    dns.servers = options.dns_servers;
    dns.timeout = options.dns_timeout;
    dns.tries = options.dns_tries;
    dns.ipv4_only = options.ipv4_only;
    return dns;
  }

  std::string JoinStrategy() const {
    std::string s;
    for (const std::string& scheme : options_.schemes) {
      if (!s.empty()) s += ',';
      s += scheme;
    }
    if (options_.www_fallback) s += ",www";
    return s;
  }

  // Stops this loop; a fatal error stops all of them.
  void Stop(const std::string& fatal) {
    if (!fatal.empty()) shared_->StopAll(fatal);
    if (stopping_) return;
    stopping_ = true;
    io_.stop();
  }

  void PublishProgress() {
    progress_.in_flight = static_cast<std::int64_t>(jobs_.size());
    std::lock_guard<std::mutex> lock(published_mutex_);
    published_ = progress_;
  }

  void ScheduleProgress() {
    progress_timer_.expires_after(options_.progress_interval);
    progress_timer_.async_wait([this](const boost::system::error_code& ec) {
      if (ec || stopping_) return;
      PublishProgress();
      ScheduleProgress();
    });
  }

  void SchedulePump(std::chrono::milliseconds delay) {
    if (pump_scheduled_) return;
    pump_scheduled_ = true;
    pump_timer_.expires_after(delay);
    pump_timer_.async_wait([this](const boost::system::error_code& ec) {
      pump_scheduled_ = false;
      if (!ec) Pump();
    });
  }

  // Returns false (and schedules a pump) when the next domain must wait
  // for the shared rate limit.
  bool TakeRateToken() {
    std::chrono::milliseconds wait{0};
    if (shared_->rate.Take(&wait)) return true;
    SchedulePump(wait);
    return false;
  }

  // Admits domains until the concurrency limit, the rate limit or the
  // writer's backlog says stop, a few at a time: each call starts at most
  // kStartsPerTurn transfers (and reads at most kLinesPerTurn list lines)
  // and then yields to the event loop, so that answers are read and slots
  // refilled continuously. Starting thousands at once (libcurl connects
  // every added handle in one socket_action call, ~0.5 s for 4,000 here)
  // made the loop deaf meanwhile, and the crawl ran in waves: 10,000
  // started, answered together, refilled together.
  void Pump() {
    if (stopping_) return;
    int lines_left = kLinesPerTurn;
    int starts_left = kStartsPerTurn;
    const std::size_t loops = shared_->loops.size();
    const std::size_t max_jobs =
        (static_cast<std::size_t>(std::max(1, options_.concurrency)) + loops -
         1) /
        loops;
    while ((pending_entry_ || !list_done_) && jobs_.size() < max_jobs) {
      if (--lines_left == 0 || starts_left == 0) {
        PostPump();
        return;
      }
      if (shared_->writer->backlog() > 20000) {
        SchedulePump(std::chrono::milliseconds(50));
        return;
      }
      if (pending_entry_) {
        if (!TakeRateToken()) return;
        TopListEntry waiting = std::move(*pending_entry_);
        pending_entry_.reset();
        --starts_left;
        StartJob(std::move(waiting), std::move(pending_previous_));
        pending_previous_.reset();
        continue;
      }
      TopListEntry entry;
      MalformedLine bad;
      switch (list_->Next(&entry, &bad)) {
        case ReadOutcome::kEnd:
          list_done_ = true;
          continue;
        case ReadOutcome::kError:
          Stop("reading the list: " + list_->error());
          return;
        case ReadOutcome::kMalformed:
          // Every loop reads the whole list; the first one reports.
          if (index_ == 0) {
            ++progress_.malformed_lines;
            if (callbacks_.on_malformed_line) {
              std::lock_guard<std::mutex> lock(shared_->callback_mutex);
              callbacks_.on_malformed_line(bad);
            }
          }
          continue;
        case ReadOutcome::kEntry:
          break;
      }
      if (skipped_ < options_.skip) {
        ++skipped_;
        continue;
      }
      if (options_.top > 0 && taken_ >= options_.top) {
        list_done_ = true;
        continue;
      }
      ++taken_;
      if (shared_->LoopOf(entry.domain) != index_) continue;
      if (uncommitted_.count(entry.domain) != 0) {
        ++progress_.duplicates;
        ++progress_.done;
        continue;
      }
      std::optional<PreviousFetch> previous;
      // Into an empty database, only a domain recorded earlier in this
      // crawl can be found there (see DomainFilter).
      if (!database_was_empty_ || committed_.MayContain(entry.domain)) {
        const storage::Status found =
            reader_->FindLatestFetch(entry.domain, &previous);
        if (!found.ok()) {
          Stop("reading the database: " + found.message());
          return;
        }
      }
      if (previous && (recrawl_cutoff_.empty() ||
                       previous->fetched_at >= recrawl_cutoff_)) {
        ++progress_.already_present;
        ++progress_.done;
        continue;
      }
      if (!TakeRateToken()) {
        pending_entry_ = std::move(entry);
        pending_previous_ = std::move(previous);
        return;
      }
      --starts_left;
      StartJob(std::move(entry), std::move(previous));
    }
    if (list_done_ && !pending_entry_ && jobs_.empty()) Stop("");
  }

  void StartJob(TopListEntry entry, std::optional<PreviousFetch> previous) {
    auto job = std::make_unique<DomainJob>();
    job->id = ++next_job_id_;
    job->entry = std::move(entry);
    job->previous = std::move(previous);
    if (!idle_easy_.empty()) {
      job->easy = std::move(idle_easy_.back());
      idle_easy_.pop_back();
    } else {
      job->easy.reset(curl_easy_init());
      if (job->easy) ConfigureEasy(job->easy.get());
    }
    job->max_body = max_body_;
    const auto add_start = [&job](const std::string& scheme,
                                  const std::string& host) {
      job->start_urls.push_back(scheme + "://" + host + "/robots.txt");
      job->start_parts.push_back(
          UrlParts{scheme, host, scheme == "https" ? 443 : 80});
    };
    for (const std::string& scheme : options_.schemes) {
      add_start(scheme, job->entry.domain);
    }
    if (options_.www_fallback && job->entry.domain.rfind("www.", 0) != 0) {
      for (const std::string& scheme : options_.schemes) {
        add_start(scheme, "www." + job->entry.domain);
      }
    }
    job->record.domain = job->entry.domain;
    job->record.rank = job->entry.rank;
    job->record.url = job->start_urls.front();
    job->record.strategy = strategy_;
    uncommitted_.insert(job->entry.domain);
    DomainJob* raw = job.get();
    jobs_.emplace(raw->id, std::move(job));
    if (!raw->easy) {
      raw->record.error_class = "other";
      raw->record.error_message = "curl_easy_init failed";
      Finish(raw, false);
      return;
    }
    StartUrl(raw);
  }

  // Starts (or moves to) start_urls[start_index].
  void StartUrl(DomainJob* job) {
    job->redirects = 0;
    job->visited.clear();
    StartHop(job, job->start_urls[job->start_index],
             &job->start_parts[job->start_index]);
  }

  DomainJob* FindJob(std::uint64_t id) {
    auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : it->second.get();
  }

  // `known` is `url` already split, if it is.
  void StartHop(DomainJob* job, const std::string& url,
                const UrlParts* known = nullptr) {
    job->url = url;
    job->visited.push_back(url);
    UrlParts parts;
    if (known != nullptr) {
      parts = *known;
    } else if (!SplitUrl(url, &parts)) {
      FailStep(job, "protocol", "unparseable URL " + url);
      return;
    }
    if (!options_.proxy.empty()) {
      // The proxy resolves and connects; our address policy cannot see
      // where, so it does not apply (documented).
      StartTransfer(job, parts, "", 0);
      return;
    }
    std::string host = parts.host;
    int port = parts.port;
    ApplyConnectTo(connect_rules_, &host, &port);
    if (IsIpLiteral(host)) {
      OnAddresses(job, parts, port, {host}, -1);
      return;
    }
    if (const ResolveRule* rule = FindResolveRule(resolve_rules_, host, port)) {
      OnAddresses(job, parts, port, rule->addresses, -1);
      return;
    }
    const std::uint64_t id = job->id;
    const auto started = Clock::now();
    resolver_.Resolve(
        host, [this, id, parts, port, started](const DnsAnswer& answer) {
          DomainJob* current = FindJob(id);
          if (current == nullptr || stopping_) return;
          const double ms =
              std::chrono::duration<double, std::milli>(Clock::now() - started)
                  .count();
          if (!answer.error_class.empty()) {
            current->dns_ms = ms;
            FailStep(current, answer.error_class, answer.error_message);
            return;
          }
          OnAddresses(current, parts, port, answer.addresses, ms);
        });
  }

  void OnAddresses(DomainJob* job, const UrlParts& parts, int connect_port,
                   const std::vector<std::string>& addresses, double dns_ms) {
    job->dns_ms = dns_ms;
    std::string chosen;
    for (const std::string& address : addresses) {
      if (options_.allow_private_addresses || IsPublicAddress(address)) {
        chosen = address;
        break;
      }
    }
    if (chosen.empty()) {
      job->ip = addresses.empty() ? "" : addresses.front();
      FailStep(job, "blocked_address",
               "resolves only to non-public addresses (" + job->ip +
                   "); see --allow-private-addresses");
      return;
    }
    const std::uint64_t id = job->id;
    shared_->limiter.Acquire(
        chosen, io_, [this, id, parts, chosen, connect_port] {
          DomainJob* current = FindJob(id);
          if (current == nullptr || stopping_) {
            shared_->limiter.Release(chosen);
            return;
          }
          current->held_ip = chosen;
          StartTransfer(current, parts, chosen, connect_port);
        });
  }

  // Options that are the same for every request of this crawl.
  void ConfigureEasy(CURL* easy) {
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    // libcurl's receive buffer is per easy handle, 16 KiB by default: at
    // 20,000 transfers in flight that alone is 320 MB. Most robots.txt
    // files are a few KiB, and a large one only costs more read() calls.
    curl_easy_setopt(easy, CURLOPT_BUFFERSIZE, kReceiveBufferBytes);
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // All built in.
    curl_easy_setopt(easy, CURLOPT_USERAGENT, user_agent_.c_str());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &OnBodyBytes);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &OnHeaderLine);
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(options_.connect_timeout.count()));
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(options_.total_timeout.count()));
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT,
                     static_cast<long>(options_.low_speed_limit));
    curl_easy_setopt(easy, CURLOPT_LOW_SPEED_TIME,
                     static_cast<long>(options_.low_speed_time.count()));
    // Every domain is a different server: a kept-alive connection would
    // only hold a file descriptor.
    curl_easy_setopt(easy, CURLOPT_FORBID_REUSE, 1L);
    // And never look for one to reuse: connections are grouped by the
    // CONNECT_TO address, so on a shared host (or the benchmark's single
    // server) that search walks every open connection per request.
    curl_easy_setopt(easy, CURLOPT_FRESH_CONNECT, 1L);
    if (!options_.cacert.empty()) {
      curl_easy_setopt(easy, CURLOPT_CAINFO, options_.cacert.c_str());
    }
    if (options_.insecure) {
      curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    if (!options_.proxy.empty()) {
      curl_easy_setopt(easy, CURLOPT_PROXY, options_.proxy.c_str());
    }
  }

  void StartTransfer(DomainJob* job, const UrlParts& parts,
                     const std::string& ip, int connect_port) {
    CURL* easy = job->easy.get();
    // No curl_easy_reset between transfers: it frees libcurl's per-handle
    // buffers, and reallocating them per domain showed up in profiles. The
    // options below that vary per request are all set every time; the rest
    // were set once by ConfigureEasy.
    job->body.clear();
    job->truncated = false;
    job->headers = ResponseHeaders();
    job->ip = ip;
    job->connect_to.Clear();
    job->request_headers.Clear();
    job->error_buffer[0] = '\0';
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, job->error_buffer);
    curl_easy_setopt(easy, CURLOPT_URL, job->url.c_str());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, job);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, job);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, job);
    curl_easy_setopt(easy, CURLOPT_CONNECT_TO, nullptr);
    // A plain-http request is the connection's first and only write, which
    // Nagle's algorithm never delays, so skip libcurl's TCP_NODELAY
    // setsockopt (one system call per domain). TLS (and a proxy tunnel)
    // writes again before the request, where Nagle would wait for an ACK.
    const bool single_write = parts.scheme == "http" && options_.proxy.empty();
    curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, single_write ? 0L : 1L);
    if (!ip.empty()) {
      // Pin the connection to the address we resolved and vetted; the
      // URL's host still names the server (Host header, SNI, certificate).
      job->connect_to.Append(
          BracketIfIpv6(parts.host) + ":" + std::to_string(parts.port) + ":" +
          BracketIfIpv6(ip) + ":" + std::to_string(connect_port));
      curl_easy_setopt(easy, CURLOPT_CONNECT_TO, job->connect_to.get());
    }
    job->request_headers.Append("Accept: text/plain, */*;q=0.8");
    // One request per connection: saying so lets the server close first,
    // so its side, not ours, holds the TIME_WAIT state. A crawler opening
    // thousands of connections a second would otherwise fill the kernel's
    // TIME_WAIT table, and the server need not keep an idle keep-alive
    // slot for a client that never comes back on it.
    job->request_headers.Append("Connection: close");
    if (job->previous && job->redirects == 0 && job->previous->has_body) {
      if (!job->previous->etag.empty()) {
        job->request_headers.Append("If-None-Match: " + job->previous->etag);
      }
      if (!job->previous->last_modified.empty()) {
        job->request_headers.Append("If-Modified-Since: " +
                                    job->previous->last_modified);
      }
    }
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, job->request_headers.get());
    if (driver_.Add(easy) != CURLM_OK) {
      FailStep(job, "other", "curl_multi_add_handle failed");
      return;
    }
    job->in_multi = true;
  }

  void ReleaseAddress(DomainJob* job) {
    if (!job->held_ip.empty()) {
      shared_->limiter.Release(job->held_ip);
      job->held_ip.clear();
    }
  }

  // Records a failed step (no HTTP response) and decides what follows.
  void FailStep(DomainJob* job, const std::string& error_class,
                const std::string& message) {
    FetchStep step;
    step.url = job->url;
    step.error_class = error_class;
    step.error_message = message;
    step.ip = job->ip;
    job->record.steps.push_back(step);
    job->record.error_class = error_class;
    job->record.error_message = message;
    job->record.http_status = 0;

    const bool first_hop = job->redirects == 0;
    const bool more_start_urls = job->start_index + 1 < job->start_urls.size();
    if (first_hop && more_start_urls &&
        (IsConnectionLevel(error_class) || error_class == "blocked_address" ||
         IsDnsError(error_class))) {
      // A DNS failure or a blocked address rules out the same host's URLs.
      std::size_t next = job->start_index + 1;
      if (IsDnsError(error_class) || error_class == "blocked_address") {
        const std::string& failed = job->start_parts[job->start_index].host;
        while (next < job->start_urls.size() &&
               job->start_parts[next].host == failed) {
          ++next;
        }
      }
      if (next < job->start_urls.size()) {
        job->start_index = next;
        job->retries_used = 0;
        StartUrl(job);
        return;
      }
    }
    if (IsRetryableError(error_class, options_.retry_timeouts) &&
        job->retries_used < options_.retries) {
      ScheduleRetry(job, std::nullopt);
      return;
    }
    Finish(job, /*network_error=*/true);
  }

  void ScheduleRetry(DomainJob* job,
                     std::optional<std::chrono::milliseconds> retry_after) {
    ++job->retries_used;
    ++job->retries_total;
    auto delay =
        options_.retry_delay * (1 << std::min(job->retries_used - 1, 10));
    // Jitter (0.5x-1.5x) so that retries of one provider's sites spread out.
    std::uniform_real_distribution<double> jitter(0.5, 1.5);
    delay = std::chrono::milliseconds(static_cast<long>(
        static_cast<double>(delay.count()) * jitter(random_)));
    if (retry_after) {
      delay = std::max(delay, std::min(*retry_after, options_.max_retry_after));
    }
    job->retry_timer = std::make_unique<boost::asio::steady_timer>(io_);
    job->retry_timer->expires_after(delay);
    const std::uint64_t id = job->id;
    job->retry_timer->async_wait(
        [this, id](const boost::system::error_code& ec) {
          if (ec || stopping_) return;
          DomainJob* current = FindJob(id);
          if (current == nullptr) return;
          current->visited.pop_back();  // The same URL again is not a loop.
          StartHop(current, current->url);
        });
  }

  void OnTransferDone(CURL* easy, CURLcode code) {
    char* private_data = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &private_data);
    auto* job = reinterpret_cast<DomainJob*>(private_data);
    if (job == nullptr) return;
    job->in_multi = false;
    ReleaseAddress(job);
    if (stopping_) return;

    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl_off_t connect_us = 0, tls_us = 0, first_byte_us = 0, total_us = 0;
    curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
    curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &tls_us);
    curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us);
    curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &total_us);
    FetchRecord& r = job->record;
    r.dns_ms = job->dns_ms;
    r.connect_ms = connect_us > 0 ? MicrosToMillis(connect_us) : -1;
    r.tls_ms = tls_us > 0 ? MicrosToMillis(tls_us) : -1;
    r.first_byte_ms = first_byte_us > 0 ? MicrosToMillis(first_byte_us) : -1;
    r.total_ms = MicrosToMillis(total_us);
    r.ip = job->ip;

    const bool cut_by_us = code == CURLE_WRITE_ERROR && job->truncated;
    if (code != CURLE_OK && !cut_by_us) {
      // libcurl's detailed message when it left one, else the generic one.
      const std::string message = job->error_buffer[0] != '\0'
                                      ? job->error_buffer
                                      : curl_easy_strerror(code);
      if (status > 0) {
        // A response began but the transfer failed (reset mid-body, bad
        // chunking, stall): keep the status, it is still a network error.
        FailStepWithStatus(job, ClassifyCurlError(easy, code, message), message,
                           static_cast<int>(status));
        return;
      }
      FailStep(job, ClassifyCurlError(easy, code, message), message);
      return;
    }

    FetchStep step;
    step.url = job->url;
    step.http_status = static_cast<int>(status);
    step.location = job->headers.location;
    step.ip = job->ip;
    step.total_ms = r.total_ms;
    r.steps.push_back(step);
    r.http_status = static_cast<int>(status);
    r.final_url = job->url;
    r.error_class.clear();
    r.error_message.clear();

    if (status >= 300 && status < 400 && status != 304) {
      char* target = nullptr;
      curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &target);
      if (target != nullptr) {
        const std::string next = target;
        ++job->redirects;
        if (job->redirects > max_redirects_) {
          FinishUnresolvedRedirect(
              job, "too_many_redirects",
              "more than " + std::to_string(max_redirects_) + " redirects");
          return;
        }
        UrlParts parts;
        std::string ascii_next;
        if (!SplitUrl(next, &parts, &ascii_next) ||
            (parts.scheme != "http" && parts.scheme != "https")) {
          FinishUnresolvedRedirect(job, "redirect_scheme",
                                   "redirect to a non-HTTP URL: " + next);
          return;
        }
        if (std::find(job->visited.begin(), job->visited.end(), ascii_next) !=
            job->visited.end()) {
          FinishUnresolvedRedirect(job, "redirect_loop",
                                   "redirect loop at " + next);
          return;
        }
        job->retries_used = 0;
        StartHop(job, ascii_next, &parts);
        return;
      }
    }
    if ((status >= 500 || status == 429) &&
        job->retries_used < options_.retries) {
      ScheduleRetry(job, ParseRetryAfter(job->headers.retry_after));
      return;
    }
    r.truncated = job->truncated;
    Finish(job, /*network_error=*/false);
  }

  void FailStepWithStatus(DomainJob* job, const std::string& error_class,
                          const std::string& message, int status) {
    FetchStep step;
    step.url = job->url;
    step.http_status = status;
    step.error_class = error_class;
    step.error_message = message;
    step.ip = job->ip;
    job->record.steps.push_back(step);
    job->record.http_status = status;
    job->record.final_url = job->url;
    job->record.error_class = error_class;
    job->record.error_message = message;
    if (IsRetryableError(error_class, options_.retry_timeouts) &&
        job->retries_used < options_.retries) {
      ScheduleRetry(job, std::nullopt);
      return;
    }
    Finish(job, /*network_error=*/true);
  }

  void FinishUnresolvedRedirect(DomainJob* job, const std::string& error_class,
                                const std::string& message) {
    job->record.error_class = error_class;
    job->record.error_message = message;
    Finish(job, /*network_error=*/false, /*redirects_unresolved=*/true);
  }

  void Finish(DomainJob* job, bool network_error,
              bool redirects_unresolved = false) {
    FetchRecord& r = job->record;
    r.redirects = job->redirects;
    r.attempts = 1 + job->retries_total;
    r.ip = job->ip;
    r.fetched_at = FormatIso8601(std::chrono::system_clock::now());
    const ResponseHeaders& h = job->headers;
    if (r.http_status > 0) {
      r.content_type = h.content_type;
      r.content_encoding = h.content_encoding;
      r.content_length = h.content_length;
      r.cache_control = h.cache_control;
      r.expires = h.expires;
      r.last_modified = h.last_modified;
      r.etag = h.etag;
      r.retry_after = h.retry_after;
    }
    if (r.http_status == 304 && job->previous && job->previous->has_body) {
      r.not_modified = true;
      r.body_from_fetch_id = job->previous->fetch_id;
      r.access = job->previous->access;
      // A 304 carries no validators of its own in some servers; keep the
      // previous ones so the next conditional request still works.
      if (r.etag.empty()) r.etag = job->previous->etag;
      if (r.last_modified.empty())
        r.last_modified = job->previous->last_modified;
    } else {
      robots::HttpOutcome outcome;
      outcome.status = r.http_status;
      outcome.network_error = network_error;
      outcome.redirects_unresolved = redirects_unresolved;
      r.access = std::string(
          robots::AccessClassName(robots::ClassifyHttpOutcome(outcome)));
      if (r.http_status >= 200 && r.http_status < 300 && !network_error) {
        r.body = std::move(job->body);
      }
    }
    ++progress_.fetched;
    ++progress_.done;
    if (r.access == "success") {
      ++progress_.success;
    } else if (r.access == "unavailable") {
      ++progress_.unavailable;
    } else {
      ++progress_.unreachable;
    }
    if (callbacks_.on_fetch) {
      std::lock_guard<std::mutex> lock(shared_->callback_mutex);
      callbacks_.on_fetch(r);
    }
    shared_->writer->Push(std::move(r));
    ReleaseAddress(job);
    const std::uint64_t id = job->id;
    // Keep the easy handle for the next domain: creating one per domain
    // costs more than the transfer's own bookkeeping. It is reset on reuse.
    if (job->easy && idle_easy_.size() < kMaxIdleEasyHandles) {
      idle_easy_.push_back(std::move(job->easy));
    }
    jobs_.erase(id);  // Destroys job (its easy handle is out of the multi).
    // Admit the next domain from a fresh stack frame: Finish can run inside
    // the driver's completion loop.
    PostPump();
  }

  // Runs Pump soon, once however often asked.
  void PostPump() {
    if (pump_posted_) return;
    pump_posted_ = true;
    boost::asio::post(io_, [this] {
      pump_posted_ = false;
      Pump();
    });
  }

  const CrawlOptions& options_;
  const CrawlCallbacks& callbacks_;
  SharedCrawlState* shared_;
  const std::size_t index_;
  storage::CrawlStore* reader_;
  std::unique_ptr<TopListReader> list_;
  const bool database_was_empty_;
  boost::asio::io_context io_{1};
  CurlAsioDriver driver_;
  DnsResolver resolver_;
  boost::asio::steady_timer progress_timer_;
  boost::asio::steady_timer pump_timer_;

  std::vector<ConnectToRule> connect_rules_;
  std::vector<ResolveRule> resolve_rules_;
  std::string recrawl_cutoff_;
  std::size_t max_body_ = kMinBodyLimitBytes;
  int max_redirects_ = 5;
  std::string user_agent_;
  std::string strategy_;

  std::unordered_map<std::uint64_t, std::unique_ptr<DomainJob>> jobs_;
  static constexpr std::size_t kMaxIdleEasyHandles = 256;
  static constexpr int kStartsPerTurn = 64;
  static constexpr int kLinesPerTurn = 4096;
  std::vector<CurlEasy> idle_easy_;
  // Domains admitted in this run whose record is not yet committed: with
  // the database, this catches duplicates in the list.
  std::unordered_set<std::string> uncommitted_;
  // Domains committed in this crawl, when it started on an empty database.
  DomainFilter committed_;
  std::optional<TopListEntry> pending_entry_;
  std::optional<PreviousFetch> pending_previous_;
  std::uint64_t next_job_id_ = 0;
  std::int64_t skipped_ = 0;
  std::int64_t taken_ = 0;
  bool list_done_ = false;
  bool stopping_ = false;
  bool pump_scheduled_ = false;
  bool pump_posted_ = false;
  Clock::time_point started_;
  std::mt19937 random_{std::random_device{}()};
  CrawlProgress progress_;
  std::mutex published_mutex_;
  CrawlProgress published_;  // Guarded by published_mutex_.
};

void SharedCrawlState::StopAll(const std::string& fatal) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!fatal.empty() && fatal_message.empty()) fatal_message = fatal;
  }
  for (Crawl* loop : loops) loop->PostStop();
}

// Sums the loops' counters into one picture of the crawl.
CrawlProgress SumProgress(const std::vector<std::unique_ptr<Crawl>>& loops,
                          std::int64_t total, Clock::time_point started) {
  CrawlProgress sum;
  for (const auto& loop : loops) {
    const CrawlProgress p = loop->Progress();
    sum.done += p.done;
    sum.fetched += p.fetched;
    sum.already_present += p.already_present;
    sum.duplicates += p.duplicates;
    sum.in_flight += p.in_flight;
    sum.success += p.success;
    sum.unavailable += p.unavailable;
    sum.unreachable += p.unreachable;
    sum.committed += p.committed;
    sum.malformed_lines += p.malformed_lines;
  }
  sum.total = total;
  sum.elapsed_seconds =
      std::chrono::duration<double>(Clock::now() - started).count();
  return sum;
}

}  // namespace

std::string DefaultUserAgent() {
  return "robotscan/" ROBOTSCAN_VERSION_STRING
         " (robots.txt research crawler; "
         "+https://github.com/robotscan/robotscan)";
}

CrawlStatus ValidateCrawlOptions(const CrawlOptions& options) {
  if (options.list_path.empty()) return CrawlStatus("no list given");
  if (options.db_path.empty()) return CrawlStatus("no database given");
  if (options.schemes.empty()) return CrawlStatus("no scheme to try");
  for (const std::string& scheme : options.schemes) {
    if (scheme != "https" && scheme != "http") {
      return CrawlStatus("scheme '" + scheme + "' is not http or https");
    }
  }
  if (options.concurrency < 1) return CrawlStatus("concurrency must be >= 1");
  if (options.top < 0 || options.skip < 0) {
    return CrawlStatus("--top and --skip must not be negative");
  }
  std::string error;
  for (const std::string& text : options.connect_to) {
    ConnectToRule rule;
    if (!ParseConnectToRule(text, &rule, &error)) return CrawlStatus(error);
  }
  for (const std::string& text : options.resolve) {
    ResolveRule rule;
    if (!ParseResolveRule(text, &rule, &error)) return CrawlStatus(error);
  }
  for (const std::string& server : options.dns_servers) {
    if (server.empty() || server.find(',') != std::string::npos) {
      return CrawlStatus("invalid --dns-server '" + server + "'");
    }
  }
  return CrawlStatus();
}

namespace {

// Counts the entries --top/--skip select, for progress and ETA. A second
// pass over the file; cheap next to the crawl (about a second per million
// lines, gzip included).
CrawlStatus CountSelectedEntries(const CrawlOptions& options,
                                 std::int64_t* total) {
  std::string error;
  auto reader = TopListReader::Open(options.list_path, &error);
  if (!reader) return CrawlStatus(error);
  std::int64_t entries = 0;
  TopListEntry entry;
  MalformedLine bad;
  for (;;) {
    const ReadOutcome outcome = reader->Next(&entry, &bad);
    if (outcome == ReadOutcome::kEnd) break;
    if (outcome == ReadOutcome::kError) return CrawlStatus(reader->error());
    if (outcome == ReadOutcome::kEntry) ++entries;
  }
  entries = std::max<std::int64_t>(0, entries - options.skip);
  if (options.top > 0) entries = std::min(entries, options.top);
  *total = entries;
  return CrawlStatus();
}

std::string OptionsAsJson(const CrawlOptions& o) {
  // Hand-written to keep the library free of a JSON dependency; values are
  // numbers, booleans and option strings we escape minimally.
  auto quote = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') out += '\\';
      if (static_cast<unsigned char>(c) < 0x20) continue;
      out += c;
    }
    return out + "\"";
  };
  auto list = [&](const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out += ',';
      out += quote(items[i]);
    }
    return out + "]";
  };
  std::string json = "{";
  json += "\"top\":" + std::to_string(o.top);
  json += ",\"skip\":" + std::to_string(o.skip);
  json += ",\"concurrency\":" + std::to_string(o.concurrency);
  json += ",\"loops\":" + std::to_string(o.loops);
  json += ",\"rate_limit\":" + std::to_string(o.rate_limit);
  json += ",\"per_ip_limit\":" + std::to_string(o.per_ip_limit);
  json += ",\"schemes\":" + list(o.schemes);
  json += ",\"www_fallback\":" + std::string(o.www_fallback ? "true" : "false");
  json += ",\"max_redirects\":" + std::to_string(std::max(o.max_redirects, 5));
  json += ",\"max_body_bytes\":" +
          std::to_string(std::max(o.max_body_bytes, kMinBodyLimitBytes));
  json +=
      ",\"connect_timeout_ms\":" + std::to_string(o.connect_timeout.count());
  json += ",\"timeout_ms\":" + std::to_string(o.total_timeout.count());
  json += ",\"retries\":" + std::to_string(o.retries);
  json +=
      ",\"retry_timeouts\":" + std::string(o.retry_timeouts ? "true" : "false");
  json += ",\"user_agent\":" +
          quote(o.user_agent.empty() ? DefaultUserAgent() : o.user_agent);
  json += ",\"dns_servers\":" + list(o.dns_servers);
  json += ",\"allow_private_addresses\":" +
          std::string(o.allow_private_addresses ? "true" : "false");
  json += ",\"connect_to\":" + list(o.connect_to);
  json += ",\"resolve\":" + list(o.resolve);
  json += ",\"proxy\":" + quote(o.proxy);
  json += ",\"recrawl_older_than_s\":" +
          (o.recrawl_older_than ? std::to_string(o.recrawl_older_than->count())
                                : std::string("null"));
  return json + "}";
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

std::size_t LoopCount(const CrawlOptions& options) {
  if (options.loops > 0) return static_cast<std::size_t>(options.loops);
  return std::max(1u, std::thread::hardware_concurrency());
}

// Runs every loop on a thread of its own while the calling thread reports
// progress and turns SIGINT/SIGTERM into a stop of all loops. Returns the
// signal that stopped the crawl, or 0.
int RunLoops(const CrawlOptions& options, const CrawlCallbacks& callbacks,
             std::int64_t total, SharedCrawlState* shared,
             const std::vector<std::unique_ptr<Crawl>>& loops,
             BatchWriter* writer) {
  const Clock::time_point started = Clock::now();
  boost::asio::io_context coordinator{1};
  boost::asio::signal_set signals(coordinator);
  boost::asio::steady_timer ticker(coordinator);
  int signal = 0;
  if (options.handle_signals) {
    signals.add(SIGINT);
    signals.add(SIGTERM);
    signals.async_wait([&](const boost::system::error_code& ec, int n) {
      if (ec) return;
      signal = n;
      shared->StopAll("");
    });
  }
  std::function<void()> tick = [&] {
    ticker.expires_after(options.progress_interval);
    ticker.async_wait([&](const boost::system::error_code& ec) {
      if (ec) return;
      if (callbacks.on_progress) {
        const CrawlProgress progress = SumProgress(loops, total, started);
        std::lock_guard<std::mutex> lock(shared->callback_mutex);
        callbacks.on_progress(progress);
      }
      tick();
    });
  };
  tick();

  writer->Start();
  std::atomic<std::size_t> running{loops.size()};
  std::vector<std::thread> threads;
  for (const auto& loop : loops) {
    threads.emplace_back([&, raw = loop.get()] {
      raw->Run();
      if (--running == 0) {
        boost::asio::post(coordinator, [&] { coordinator.stop(); });
      }
    });
  }
  coordinator.run();
  for (std::thread& thread : threads) thread.join();
  signals.cancel();
  ticker.cancel();
  return signal;
}

}  // namespace

std::int64_t DescriptorsNeeded(const CrawlOptions& options) {
  // Per loop: epoll (Asio's and the driver's), Asio's eventfd and timerfd,
  // c-ares's sockets, the list file and a database reader; for the
  // process: the writer's database, WAL, shm and lock files, stdio and a
  // log. Generous on purpose: running out mid-crawl fails transfers.
  const auto loops = static_cast<std::int64_t>(LoopCount(options));
  return static_cast<std::int64_t>(options.concurrency) + 64 + 16 * loops;
}

CrawlStatus RunCrawl(const CrawlOptions& options,
                     const CrawlCallbacks& callbacks, CrawlSummary* summary) {
  if (CrawlStatus valid = ValidateCrawlOptions(options); !valid.ok()) {
    return valid;
  }
  const Clock::time_point started = Clock::now();
  std::int64_t total = 0;
  if (CrawlStatus counted = CountSelectedEntries(options, &total);
      !counted.ok()) {
    return counted;
  }
  storage::StoreOptions write_options;
  write_options.compress_bodies = options.compress_bodies;
  auto writer = storage::CrawlStore::Open(options.db_path, write_options);
  if (!writer.ok()) return CrawlStatus(writer.status().message());

  // One live crawl per database, held until this function returns.
  storage::CrawlHolder me;
  me.pid = getpid();
  me.host = HostName();
  me.started_at = FormatIso8601(std::chrono::system_clock::now());
  storage::LockAttempt hold;
  if (storage::Status s = writer.value()->LockForCrawl(me, &hold); !s.ok()) {
    return CrawlStatus(s.message());
  }
  if (!hold.lock) return CrawlStatus::Locked(*hold.held_by);
  if (hold.stale && callbacks.on_stale_lock) {
    callbacks.on_stale_lock(*hold.stale);
  }

  bool any_fetch = true;
  if (storage::Status s = writer.value()->HasFetches(&any_fetch); !s.ok()) {
    return CrawlStatus(s.message());
  }
  const bool database_was_empty = !any_fetch;

  const std::size_t loop_count = LoopCount(options);
  SharedCrawlState shared(options);
  // Each loop has its own list reader and database reader (a SQLite
  // connection is used by one thread).
  std::vector<std::unique_ptr<storage::CrawlStore>> readers;
  std::vector<std::unique_ptr<Crawl>> loops;
  for (std::size_t i = 0; i < loop_count; ++i) {
    std::string error;
    auto list = TopListReader::Open(options.list_path, &error);
    if (!list) return CrawlStatus(error);
    storage::StoreOptions read_options;
    read_options.read_only = true;
    auto reader = storage::CrawlStore::Open(options.db_path, read_options);
    if (!reader.ok()) return CrawlStatus(reader.status().message());
    readers.push_back(std::move(reader.value()));
    loops.push_back(std::make_unique<Crawl>(
        options, callbacks, &shared, i, readers.back().get(), std::move(list),
        database_was_empty));
    if (CrawlStatus ready = loops.back()->CheckReady(); !ready.ok()) {
      return ready;
    }
    shared.loops.push_back(loops.back().get());
  }

  storage::RunInfo info;
  info.started_at = me.started_at;
  info.host = me.host;
  info.pid = me.pid;
  info.tool_version = options.tool_version;
  info.input = options.list_path;
  info.options_json = OptionsAsJson(options);
  std::int64_t run_id = 0;
  if (storage::Status s = writer.value()->BeginRun(info, &run_id); !s.ok()) {
    return CrawlStatus(s.message());
  }
  summary->run_id = run_id;
  // Best effort: without it a refused crawl names us without the run id.
  if (!hold.lock->SetRunId(run_id).ok()) me.run_id = 0;

  BatchWriter batch_writer(
      writer.value().get(), run_id, options.batch_size, options.batch_interval,
      [&shared](std::vector<std::string> domains) {
        // Tell each loop which of its domains are now in the database.
        if (shared.loops.size() == 1) {
          shared.loops[0]->PostCommitted(std::move(domains));
          return;
        }
        std::vector<std::vector<std::string>> by_loop(shared.loops.size());
        for (std::string& domain : domains) {
          by_loop[shared.LoopOf(domain)].push_back(std::move(domain));
        }
        for (std::size_t i = 0; i < by_loop.size(); ++i) {
          if (!by_loop[i].empty()) {
            shared.loops[i]->PostCommitted(std::move(by_loop[i]));
          }
        }
      },
      [&shared](const std::string& message) {
        shared.StopAll("storage failure: " + message);
      });
  shared.writer = &batch_writer;

  const int signal =
      RunLoops(options, callbacks, total, &shared, loops, &batch_writer);
  const std::string write_failure = batch_writer.Finish();
  for (const auto& loop : loops) loop->DrainNotifications();
  summary->progress = SumProgress(loops, total, started);
  summary->signal = signal;
  if (callbacks.on_progress) callbacks.on_progress(summary->progress);

  CrawlStatus status;
  if (!write_failure.empty()) {
    status = CrawlStatus("storage failure: " + write_failure);
  } else if (std::string fatal = shared.fatal(); !fatal.empty()) {
    status = CrawlStatus(fatal);
  }
  const char* outcome = !status.ok()           ? "failed"
                        : summary->signal != 0 ? "interrupted"
                                               : "finished";
  const storage::Status finished = writer.value()->FinishRun(
      run_id, outcome, FormatIso8601(std::chrono::system_clock::now()));
  if (status.ok() && !finished.ok()) return CrawlStatus(finished.message());
  return status;
}

NetworkLibraries::NetworkLibraries() {
  ok_ = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK &&
        ares_library_init(ARES_LIB_INIT_ALL) == ARES_SUCCESS;
}

NetworkLibraries::~NetworkLibraries() {
  ares_library_cleanup();
  curl_global_cleanup();
}

}  // namespace robotscan::crawler
