#include "crawl_loop.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <utility>

#include "fetch_errors.h"
#include "robotscan/base/ascii.h"
#include "signal_fetch.h"
#include "time_format.h"
#include "url_parts.h"

namespace robotscan::crawler {
namespace {

using Clock = std::chrono::steady_clock;

// libcurl's receive buffer per transfer (CURLOPT_BUFFERSIZE; 16 KiB by
// default), allocated when the transfer connects and freed when it ends,
// so it can differ from one transfer of a handle to the next.
//
// HTTP/1.1 reads the response straight from the socket (or from OpenSSL,
// whose decrypted-but-unread bytes keep libcurl's read loop going) into
// this buffer, so any size is safe: most robots.txt files are a few KiB,
// and a large one only costs more read() calls. Plain http uses 1 KiB.
//
// Over TLS, ALPN may choose HTTP/2, and libcurl 7.88's HTTP/2 filter must
// never run out of buffer. Each time it reads the connection (one TLS
// record, at most its own 32 KiB input buffer) it copies the response's
// header text (up to its 128 KiB limit, DYN_H2_HEADERS) and then the DATA
// into this buffer. What does not fit is held back: a DATA frame paused
// in nghttp2, header text, unread input. It marks the transfer "to drain",
// but only curl_multi_perform acts on that mark; with the socket API the
// transfer runs again only when its socket is ready or its timer is due,
// and when the server had already sent everything, neither happens (the
// filter's own "data pending" test compares the wrong way: http2.c,
// nread_inbuf > inbuflen). Worse, a paused DATA frame that carries
// END_STREAM ends the stream only when nghttp2 is next given input, so not
// even running the transfer again helps: it waits for bytes the server
// never sends, and ends in the total timeout. With 1 KiB that was 16.5% of
// ~5 KB files from nginx over h2 and every 30 KB file from nghttpd; with
// 16 KiB, a response whose headers expand to 36 KB (HPACK), every time.
// 160 KiB (128 + 32) holds whatever one read can bring, so nothing is ever
// held back. Only what a read writes is touched: a buffer costs the
// response's header text and body, not 160 KiB of RSS.
constexpr long kPlainReceiveBufferBytes = 1024;
constexpr long kTlsReceiveBufferBytes = (128 + 32) * 1024;

// Records waiting for the writer beyond which no domain is admitted (about
// 1.5 KB each): a writer starved of CPU must not make memory grow without
// bound. (2,000 instead made no difference to peak RSS at 10,000 in flight.)
constexpr std::size_t kMaxWriterBacklog = 20000;

// How often a loop whose source has nothing now (a worker waiting for its
// next lease) asks again.
constexpr std::chrono::milliseconds kWaitForDomains{20};

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
  return AsciiEqualsIgnoreCase(name, wanted);
}

double MicrosToMillis(curl_off_t us) { return static_cast<double>(us) / 1000; }

DnsOptions MakeDnsOptions(const CrawlOptions& options) {
  DnsOptions dns;
  dns.servers = options.dns_servers;
  dns.timeout = options.dns_timeout;
  dns.tries = options.dns_tries;
  dns.ipv4_only = options.ipv4_only;
  return dns;
}

std::string JoinStrategy(const CrawlPlan& plan) {
  std::string s;
  for (const Scheme scheme : plan.schemes) {
    if (!s.empty()) s += ',';
    s += SchemeName(scheme);
  }
  if (plan.options.www_fallback) s += ",www";
  return s;
}

// The machine a job's events go to: its robots.txt fetch, then, with crawl
// --signals, its signals (signal_fetch.h).
template <class Job>
class JobMachine {
 public:
  explicit JobMachine(Job* job) : job_(job) {}
  FetchAction OnAddresses(const std::vector<std::string>& addresses,
                          int connect_port, double dns_ms) {
    return Call([&](auto& m) {
      return m.OnAddresses(addresses, connect_port, dns_ms);
    });
  }
  FetchAction OnResolveFailed(ErrorClass error, const std::string& message,
                              double dns_ms) {
    return Call(
        [&](auto& m) { return m.OnResolveFailed(error, message, dns_ms); });
  }
  FetchAction OnTransferDone(TransferResult result) {
    return Call([&](auto& m) { return m.OnTransferDone(std::move(result)); });
  }
  FetchAction OnRetryDue() {
    return Call([](auto& m) { return m.OnRetryDue(); });
  }
  FetchAction OnStartFailed(const std::string& message) {
    return Call([&](auto& m) { return m.OnStartFailed(message); });
  }

 private:
  template <class Event>
  FetchAction Call(Event event) {
    return job_->signals ? event(*job_->signals) : event(job_->fetch);
  }
  Job* job_;
};

template <class Job>
JobMachine<Job> Machine(Job* job) {
  return JobMachine<Job>(job);
}

}  // namespace

// One domain in flight: its state machine and the transfer carrying out
// the machine's current action.
struct CrawlLoop::DomainJob {
  DomainJob(std::uint64_t job_id, DomainFetch machine)
      : id(job_id), fetch(std::move(machine)) {}
  std::uint64_t id;
  DomainFetch fetch;
  // With --signals, once the robots.txt fetch is finished: its record,
  // held until the signals are done, and the signals' machine.
  storage::FetchRecord robots_record;
  std::optional<SignalFetch> signals;
  CurlEasy easy;
  CurlStringList connect_to;
  CurlStringList request_headers;
  bool in_multi = false;
  // The current transfer's response, filled by libcurl's callbacks.
  std::string body;
  std::size_t max_body = kMinBodyLimitBytes;
  bool truncated = false;
  ResponseHeaders headers;
  std::string held_ip;  // Per-IP slot currently held.
  // For the low-speed check (SweepSlowTransfers): bytes of this transfer,
  // as of the last sweep, and how many sweeps in a row found it slow.
  std::size_t received = 0;
  std::size_t received_at_sweep = 0;
  int slow_sweeps = 0;
  std::unique_ptr<boost::asio::steady_timer> retry_timer;
  std::optional<Clock::time_point> retry_due;
  char error_buffer[CURL_ERROR_SIZE] = {};
};

void SharedCrawlState::StopAll(const std::string& fatal) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!fatal.empty() && fatal_message.empty()) fatal_message = fatal;
  }
  for (CrawlLoop* loop : loops) loop->PostStop();
}

CrawlLoop::CrawlLoop(const CrawlPlan& plan, const CrawlCallbacks& callbacks,
                     SharedCrawlState* shared, std::size_t loop_count,
                     DomainSource* source)
    : plan_(plan),
      options_(plan.options),
      callbacks_(callbacks),
      shared_(shared),
      loop_count_(loop_count),
      policy_(FetchPolicyFrom(plan)),
      driver_(io_, [this](CURL* easy,
                          CURLcode code) { OnTransferDone(easy, code); }),
      resolver_(io_, MakeDnsOptions(plan.options)),
      admission_(source),
      progress_timer_(io_),
      pump_timer_(io_),
      speed_timer_(io_),
      strategy_(JoinStrategy(plan)) {}

CrawlLoop::~CrawlLoop() {
  for (auto& [id, job] : jobs_) {
    if (job->in_multi) driver_.Remove(job->easy.get());
  }
  jobs_.clear();
}

Status CrawlLoop::CheckReady() const {
  if (!driver_.ok()) {
    return Status(StatusCode::kNetwork, "curl_multi_init failed");
  }
  if (!resolver_.init_error().empty()) {
    return Status(StatusCode::kNetwork, resolver_.init_error());
  }
  return Status::Ok();
}

void CrawlLoop::Run() {
  ScheduleProgress();
  ScheduleSpeedSweep();
  boost::asio::post(io_, [this] { Pump(); });
  io_.run();
  // Abandon whatever is still in flight (only after a stop): a rerun
  // fetches those domains again, none is half-recorded.
  for (auto& [id, job] : jobs_) {
    if (job->in_multi) driver_.Remove(job->easy.get());
    ReleaseAddress(job.get());
  }
  jobs_.clear();
  PublishProgress();
}

void CrawlLoop::DrainNotifications() {
  io_.restart();
  io_.poll();
  PublishProgress();
}

void CrawlLoop::PostCommitted(std::vector<std::string> domains) {
  boost::asio::post(io_, [this, d = std::move(domains)] {
    admission_->Committed(d);
    progress_.committed += static_cast<std::int64_t>(d.size());
  });
}

void CrawlLoop::PostStop() {
  boost::asio::post(io_, [this] { Stop(""); });
}

CrawlProgress CrawlLoop::Progress() {
  std::lock_guard<std::mutex> lock(published_mutex_);
  return published_;
}

void CrawlLoop::Stop(const std::string& fatal) {
  if (!fatal.empty()) shared_->StopAll(fatal);
  if (stopping_) return;
  stopping_ = true;
  io_.stop();
}

void CrawlLoop::PublishProgress() {
  progress_.in_flight = static_cast<std::int64_t>(jobs_.size());
  progress_.duplicates = admission_->duplicates();
  progress_.already_present = admission_->already_present();
  progress_.malformed_lines = admission_->malformed_lines();
  progress_.done =
      progress_.fetched + progress_.duplicates + progress_.already_present;
  // Retries that wait, and the soonest: a crawl's tail is mostly these.
  progress_.waiting_retries = 0;
  std::optional<Clock::time_point> next;
  for (const auto& [id, job] : jobs_) {
    if (!job->retry_due) continue;
    ++progress_.waiting_retries;
    if (!next || *job->retry_due < *next) next = job->retry_due;
  }
  progress_.next_retry_in_seconds =
      next ? std::max(
                 0.0,
                 std::chrono::duration<double>(*next - Clock::now()).count())
           : -1;
  std::lock_guard<std::mutex> lock(published_mutex_);
  published_ = progress_;
}

void CrawlLoop::ScheduleProgress() {
  progress_timer_.expires_after(options_.progress_interval);
  progress_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    PublishProgress();
    ScheduleProgress();
  });
}

void CrawlLoop::SchedulePump(std::chrono::milliseconds delay) {
  if (pump_scheduled_) return;
  pump_scheduled_ = true;
  pump_timer_.expires_after(delay);
  pump_timer_.async_wait([this](const boost::system::error_code& ec) {
    pump_scheduled_ = false;
    if (!ec) Pump();
  });
}

void CrawlLoop::PostPump() {
  if (pump_posted_) return;
  pump_posted_ = true;
  boost::asio::post(io_, [this] {
    pump_posted_ = false;
    Pump();
  });
}

// Returns false (and schedules a pump) when the next domain must wait for
// the shared rate limit.
bool CrawlLoop::TakeRateToken() {
  std::chrono::milliseconds wait{0};
  if (shared_->rate.Take(&wait)) return true;
  SchedulePump(wait);
  return false;
}

// Admits domains while there is room (concurrency, rate limit, writer's
// backlog), a few at a time: each call starts at most kStartsPerTurn
// transfers and reads at most kLinesPerTurn list lines, then yields to the
// event loop, so that answers are read and slots refilled continuously.
// Starting thousands at once (libcurl connects every added handle in one
// socket_action call, ~0.5 s for 4,000 here) made the loop deaf meanwhile,
// and the crawl ran in waves: 10,000 started, answered together, refilled
// together.
void CrawlLoop::Pump() {
  if (stopping_) return;
  int lines_left = kLinesPerTurn;
  int starts_left = kStartsPerTurn;
  const std::size_t max_jobs =
      (static_cast<std::size_t>(std::max(1, options_.concurrency)) +
       loop_count_ - 1) /
      loop_count_;
  while ((pending_ || !list_done_) && jobs_.size() < max_jobs) {
    if (starts_left == 0) {
      PostPump();
      return;
    }
    if (shared_->writer->backlog() > kMaxWriterBacklog) {
      SchedulePump(std::chrono::milliseconds(50));
      return;
    }
    if (!pending_) {
      AdmittedDomain next;
      switch (admission_->Next(&lines_left, &next)) {
        case DomainSource::Outcome::kDomain:
          pending_ = std::move(next);
          break;
        case DomainSource::Outcome::kYield:
          PostPump();
          return;
        case DomainSource::Outcome::kWait:
          SchedulePump(kWaitForDomains);
          return;
        case DomainSource::Outcome::kEnd:
          list_done_ = true;
          continue;
        case DomainSource::Outcome::kError:
          Stop(admission_->error());
          return;
      }
    }
    if (!TakeRateToken()) return;
    --starts_left;
    AdmittedDomain admitted = std::move(*pending_);
    pending_.reset();
    StartJob(std::move(admitted));
  }
  if (list_done_ && !pending_ && jobs_.empty()) Stop("");
}

void CrawlLoop::StartJob(AdmittedDomain admitted) {
  const std::uint64_t id = ++next_job_id_;
  auto owned = std::make_unique<DomainJob>(
      id, DomainFetch(&policy_, strategy_, std::move(admitted.entry),
                      std::move(admitted.previous), &random_));
  DomainJob* job = owned.get();
  jobs_.emplace(id, std::move(owned));
  // Reuse an easy handle: creating one per domain costs more than the
  // transfer's own bookkeeping.
  if (!idle_easy_.empty()) {
    job->easy = std::move(idle_easy_.back());
    idle_easy_.pop_back();
  } else {
    job->easy.reset(curl_easy_init());
    if (job->easy) ConfigureEasy(job->easy.get());
  }
  job->max_body = plan_.max_body_bytes;
  if (!job->easy) {
    Act(job, Machine(job).OnStartFailed("curl_easy_init failed"));
    return;
  }
  Act(job, job->fetch.Start());
}

CrawlLoop::DomainJob* CrawlLoop::FindJob(std::uint64_t id) {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : it->second.get();
}

void CrawlLoop::Act(DomainJob* job, FetchAction action) {
  switch (action.kind) {
    case FetchAction::Kind::kResolve:
      Resolve(job, action);
      return;
    case FetchAction::Kind::kTransfer:
      AcquireSlotAndTransfer(job, std::move(action));
      return;
    case FetchAction::Kind::kWaitRetry:
      WaitForRetry(job, action.delay);
      return;
    case FetchAction::Kind::kFinished:
      if (policy_.signals && !job->signals) {
        job->robots_record = job->fetch.TakeRecord();
        job->robots_record.fetched_at =
            FormatIso8601(std::chrono::system_clock::now());
        job->signals.emplace(&policy_, job->robots_record);
        Act(job, job->signals->Start());
        return;
      }
      Finish(job);
      return;
  }
}

// Where the request connects: --connect-to, then an IP literal, a
// --resolve rule or our own resolver.
void CrawlLoop::Resolve(DomainJob* job, const FetchAction& action) {
  std::string host = action.parts.host;
  int port = action.parts.port;
  ApplyConnectTo(plan_.connect_to, &host, &port);
  if (IsIpLiteral(host)) {
    Act(job, Machine(job).OnAddresses({host}, port, -1));
    return;
  }
  if (const ResolveRule* rule = FindResolveRule(plan_.resolve, host, port)) {
    Act(job, Machine(job).OnAddresses(rule->addresses, port, -1));
    return;
  }
  const std::uint64_t id = job->id;
  const auto started = Clock::now();
  resolver_.Resolve(host, [this, id, port, started](const DnsAnswer& answer) {
    DomainJob* current = FindJob(id);
    if (current == nullptr || stopping_) return;
    const double ms =
        std::chrono::duration<double, std::milli>(Clock::now() - started)
            .count();
    if (answer.error_class != ErrorClass::kNone) {
      Act(current, Machine(current).OnResolveFailed(answer.error_class,
                                                    answer.error_message, ms));
      return;
    }
    Act(current, Machine(current).OnAddresses(answer.addresses, port, ms));
  });
}

void CrawlLoop::AcquireSlotAndTransfer(DomainJob* job, FetchAction action) {
  if (action.ip.empty()) {  // Through a proxy: no per-IP slot to take.
    StartTransfer(job, action);
    return;
  }
  const std::uint64_t id = job->id;
  const std::string ip = action.ip;
  shared_->limiter.Acquire(ip, io_, [this, id, ip, action = std::move(action)] {
    DomainJob* current = FindJob(id);
    if (current == nullptr || stopping_) {
      shared_->limiter.Release(ip);
      return;
    }
    current->held_ip = ip;
    StartTransfer(current, action);
  });
}

// Options that are the same for every request of this crawl.
void CrawlLoop::ConfigureEasy(CURL* easy) {
  curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");  // All built in.
  curl_easy_setopt(easy, CURLOPT_USERAGENT, plan_.user_agent.c_str());
  curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &OnBodyBytes);
  curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &OnHeaderLine);
  curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(options_.connect_timeout.count()));
  curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(options_.total_timeout.count()));
  // No libcurl low-speed check: it arms a 1 s timer per transfer, which
  // at thousands of slow (far-away) transfers in flight was a fifth of the
  // loop's CPU. SweepSlowTransfers does it for all of them at once.
  curl_easy_setopt(easy, CURLOPT_LOW_SPEED_LIMIT, 0L);
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

void CrawlLoop::StartTransfer(DomainJob* job, const FetchAction& action) {
  CURL* easy = job->easy.get();
  // No curl_easy_reset between transfers: it frees libcurl's per-handle
  // buffers, and reallocating them per domain showed up in profiles. The
  // options below that vary per request are all set every time; the rest
  // were set once by ConfigureEasy.
  job->body.clear();
  job->max_body = action.max_body > 0 ? action.max_body : plan_.max_body_bytes;
  job->truncated = false;
  job->headers = ResponseHeaders();
  job->received = 0;
  job->received_at_sweep = 0;
  job->slow_sweeps = 0;
  job->connect_to.Clear();
  job->request_headers.Clear();
  job->error_buffer[0] = '\0';
  curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, job->error_buffer);
  curl_easy_setopt(easy, CURLOPT_URL, action.url.c_str());
  curl_easy_setopt(easy, CURLOPT_PRIVATE, job);
  curl_easy_setopt(easy, CURLOPT_WRITEDATA, job);
  curl_easy_setopt(easy, CURLOPT_HEADERDATA, job);
  curl_easy_setopt(easy, CURLOPT_CONNECT_TO, nullptr);
  curl_easy_setopt(easy, CURLOPT_BUFFERSIZE,
                   action.parts.scheme == "https" ? kTlsReceiveBufferBytes
                                                  : kPlainReceiveBufferBytes);
  // A plain-http request is the connection's first and only write, which
  // Nagle's algorithm never delays, so skip libcurl's TCP_NODELAY
  // setsockopt (one system call per domain). TLS (and a proxy tunnel)
  // writes again before the request, where Nagle would wait for an ACK.
  const bool single_write =
      action.parts.scheme == "http" && options_.proxy.empty();
  curl_easy_setopt(easy, CURLOPT_TCP_NODELAY, single_write ? 0L : 1L);
  if (!action.ip.empty()) {
    // Pin the connection to the address we resolved and vetted; the URL's
    // host still names the server (Host header, SNI, certificate).
    job->connect_to.Append(BracketIfIpv6(action.parts.host) + ":" +
                           std::to_string(action.parts.port) + ":" +
                           BracketIfIpv6(action.ip) + ":" +
                           std::to_string(action.connect_port));
    curl_easy_setopt(easy, CURLOPT_CONNECT_TO, job->connect_to.get());
  }
  job->request_headers.Append("Accept: text/plain, */*;q=0.8");
  // One request per connection: saying so lets the server close first, so
  // its side, not ours, holds the TIME_WAIT state. A crawler opening
  // thousands of connections a second would otherwise fill the kernel's
  // TIME_WAIT table, and the server need not keep an idle keep-alive slot
  // for a client that never comes back on it.
  job->request_headers.Append("Connection: close");
  if (action.conditional) {
    const storage::PreviousFetch& previous = *job->fetch.previous();
    if (!previous.etag.empty()) {
      job->request_headers.Append("If-None-Match: " + previous.etag);
    }
    if (!previous.last_modified.empty()) {
      job->request_headers.Append("If-Modified-Since: " +
                                  previous.last_modified);
    }
  }
  curl_easy_setopt(easy, CURLOPT_HTTPHEADER, job->request_headers.get());
  if (driver_.Add(easy) != CURLM_OK) {
    ReleaseAddress(job);
    Act(job, Machine(job).OnStartFailed("curl_multi_add_handle failed"));
    return;
  }
  job->in_multi = true;
}

void CrawlLoop::WaitForRetry(DomainJob* job, std::chrono::milliseconds delay) {
  job->retry_timer = std::make_unique<boost::asio::steady_timer>(io_);
  job->retry_timer->expires_after(delay);
  job->retry_due = Clock::now() + delay;
  const std::uint64_t id = job->id;
  job->retry_timer->async_wait([this, id](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    DomainJob* current = FindJob(id);
    if (current == nullptr) return;
    current->retry_due.reset();
    Act(current, Machine(current).OnRetryDue());
  });
}

void CrawlLoop::OnTransferDone(CURL* easy, CURLcode code) {
  char* private_data = nullptr;
  curl_easy_getinfo(easy, CURLINFO_PRIVATE, &private_data);
  auto* job = reinterpret_cast<DomainJob*>(private_data);
  if (job == nullptr) return;
  job->in_multi = false;
  ReleaseAddress(job);
  if (stopping_) return;
  Act(job, Machine(job).OnTransferDone(ResultOf(job, code, "")));
}

TransferResult CrawlLoop::ResultOf(DomainJob* job, CURLcode code,
                                   const std::string& message) {
  CURL* easy = job->easy.get();
  TransferResult result;
  long status = 0;
  curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
  result.http_status = static_cast<int>(status);
  curl_off_t connect_us = 0, tls_us = 0, first_byte_us = 0, total_us = 0;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect_us);
  curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &tls_us);
  curl_easy_getinfo(easy, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us);
  curl_easy_getinfo(easy, CURLINFO_TOTAL_TIME_T, &total_us);
  result.connect_ms = connect_us > 0 ? MicrosToMillis(connect_us) : -1;
  result.tls_ms = tls_us > 0 ? MicrosToMillis(tls_us) : -1;
  result.first_byte_ms = first_byte_us > 0 ? MicrosToMillis(first_byte_us) : -1;
  result.total_ms = MicrosToMillis(total_us);
  // Cutting the body at the cap (our write callback's short count) is a
  // complete fetch, not an error.
  const bool cut_by_us = code == CURLE_WRITE_ERROR && job->truncated;
  if (code != CURLE_OK && !cut_by_us) {
    // Ours, else libcurl's detailed message when it left one, else the
    // generic one.
    result.error_message = !message.empty() ? message
                           : job->error_buffer[0] != '\0'
                               ? job->error_buffer
                               : curl_easy_strerror(code);
    if (code == CURLE_OUT_OF_MEMORY) {
      result.error_message =
          "a response header line over libcurl's 100 KiB limit (libcurl: " +
          result.error_message + ")";
    }
    result.error = ClassifyCurlError(easy, code, result.error_message);
  } else if (status >= 300 && status < 400) {
    char* target = nullptr;
    curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &target);
    if (target != nullptr) result.redirect_url = target;
  }
  result.headers = std::move(job->headers);
  result.body = std::move(job->body);
  result.truncated = job->truncated;
  return result;
}

void CrawlLoop::ScheduleSpeedSweep() {
  if (options_.low_speed_limit <= 0 || options_.low_speed_time.count() <= 0) {
    return;
  }
  speed_timer_.expires_after(std::chrono::seconds(1));
  speed_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (ec || stopping_) return;
    SweepSlowTransfers();
    ScheduleSpeedSweep();
  });
}

// --low-speed-limit/--low-speed-time for every transfer at once, once a
// second: a transfer that received fewer than the limit's bytes in each of
// low_speed_time sweeps in a row (waiting for the answer included, as with
// libcurl's own check) ends as a timeout. Checked at whole seconds, so a
// slow transfer ends within one second after low_speed_time.
void CrawlLoop::SweepSlowTransfers() {
  const auto limit = static_cast<std::size_t>(options_.low_speed_limit);
  const auto sweeps = static_cast<int>(options_.low_speed_time.count());
  std::vector<std::uint64_t> too_slow;
  for (auto& [id, job] : jobs_) {
    if (!job->in_multi) continue;
    const std::size_t got = job->received - job->received_at_sweep;
    job->received_at_sweep = job->received;
    job->slow_sweeps = got < limit ? job->slow_sweeps + 1 : 0;
    if (job->slow_sweeps >= sweeps) too_slow.push_back(id);
  }
  // Acting may finish (and erase) jobs: not while iterating.
  for (const std::uint64_t id : too_slow) {
    DomainJob* job = FindJob(id);
    if (job == nullptr || !job->in_multi) continue;
    driver_.Remove(job->easy.get());
    job->in_multi = false;
    ReleaseAddress(job);
    Act(job, Machine(job).OnTransferDone(ResultOf(
                 job, CURLE_OPERATION_TIMEDOUT,
                 "less than " + std::to_string(limit) + " bytes/s for " +
                     std::to_string(sweeps) + " s (--low-speed-limit)")));
  }
}

void CrawlLoop::ReleaseAddress(DomainJob* job) {
  if (!job->held_ip.empty()) {
    shared_->limiter.Release(job->held_ip);
    job->held_ip.clear();
  }
}

void CrawlLoop::Finish(DomainJob* job) {
  storage::FetchRecord record;
  if (job->signals) {
    record = std::move(job->robots_record);
    record.signals = job->signals->TakeRecords();
  } else {
    record = job->fetch.TakeRecord();
    record.fetched_at = FormatIso8601(std::chrono::system_clock::now());
  }
  ++progress_.fetched;
  switch (job->fetch.access()) {
    case robots::AccessClass::kSuccess:
      ++progress_.success;
      break;
    case robots::AccessClass::kUnavailable:
      ++progress_.unavailable;
      break;
    case robots::AccessClass::kUnreachable:
      ++progress_.unreachable;
      break;
  }
  if (callbacks_.on_fetch) {
    std::lock_guard<std::mutex> lock(shared_->callback_mutex);
    callbacks_.on_fetch(record);
  }
  shared_->writer->Push(std::move(record));
  ReleaseAddress(job);
  // Keep the easy handle for the next domain (see StartJob).
  if (job->easy && idle_easy_.size() < kMaxIdleEasyHandles) {
    idle_easy_.push_back(std::move(job->easy));
  }
  jobs_.erase(job->id);  // Destroys job (its easy handle is out of the multi).
  // Admit the next domain from a fresh stack frame: Finish can run inside
  // the driver's completion loop.
  PostPump();
}

std::size_t CrawlLoop::OnHeaderLine(char* data, std::size_t size,
                                    std::size_t count, void* user) {
  auto* job = static_cast<DomainJob*>(user);
  const std::size_t length = size * count;
  job->received += length;
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
      return length;
    }
  }
  // The AI-preference headers (crawl --signals) may come on several lines:
  // joined, as one field value (RFC 9110 §5.3), within the same bound.
  const Field joined[] = {{"x-robots-tag", &h.x_robots_tag},
                          {"content-usage", &h.content_usage},
                          {"tdm-reservation", &h.tdm_reservation},
                          {"tdm-policy", &h.tdm_policy}};
  for (const Field& field : joined) {
    if (HeaderNameIs(name, field.name)) {
      std::string& target = *field.target;
      if (target.size() < 2048) {
        if (!target.empty()) target += ", ";
        target += value;
        if (target.size() > 2048) target.resize(2048);
      }
      break;
    }
  }
  return length;
}

// Keeps the first max_body decoded bytes. libcurl 7.88's own size limit
// only looks at Content-Length, so the cap is enforced here: returning less
// than was offered aborts the transfer (CURLE_WRITE_ERROR), which also stops
// decompressing a gzip bomb after at most one extra buffer.
std::size_t CrawlLoop::OnBodyBytes(char* data, std::size_t size,
                                   std::size_t count, void* user) {
  auto* job = static_cast<DomainJob*>(user);
  const std::size_t length = size * count;
  job->received += length;
  const std::size_t room = job->max_body - job->body.size();
  if (length <= room) {
    job->body.append(data, length);
    return length;
  }
  job->body.append(data, room);
  job->truncated = true;
  return 0;
}

}  // namespace robotscan::crawler
