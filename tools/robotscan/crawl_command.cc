// `robotscan crawl`: flags -> crawler::CrawlOptions, progress line, JSON event
// log and exit codes. The crawl itself is robotscan::crawler::RunCrawl.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "robotscan/base/version.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/robots/access_policy.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/fetch_classes.h"
#include "robotscan/storage/shared_frontier.h"
#include "stop_on_signals.h"

namespace robotscan::cli {
namespace {

// "24h", "30s", "500ms", "2m", "7d"; a bare number is seconds.
std::optional<std::chrono::milliseconds> ParseDuration(const std::string& s) {
  std::size_t digits = 0;
  while (digits < s.size() &&
         ((s[digits] >= '0' && s[digits] <= '9') || s[digits] == '.')) {
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  double value = 0;
  try {
    value = std::stod(s.substr(0, digits));
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = s.substr(digits);
  double ms_per_unit = 0;
  if (unit.empty() || unit == "s") {
    ms_per_unit = 1000;
  } else if (unit == "ms") {
    ms_per_unit = 1;
  } else if (unit == "m") {
    ms_per_unit = 60e3;
  } else if (unit == "h") {
    ms_per_unit = 3600e3;
  } else if (unit == "d") {
    ms_per_unit = 86400e3;
  } else {
    return std::nullopt;
  }
  return std::chrono::milliseconds(
      static_cast<std::int64_t>(value * ms_per_unit));
}

struct CrawlFlags {
  crawler::CrawlOptions options;
  std::string connect_timeout = "10s", timeout = "30s", low_speed_time = "15s",
              retry_delay = "1s", max_retry_after = "30s", dns_timeout = "3s",
              recrawl_older_than;
  std::string schemes = "https,http";
  bool quiet = false;
  std::string log_json;
  bool worker = false;      // --worker: one worker of an enqueued crawl.
  bool status = false;      // --status: show the enqueued crawl's progress.
  std::int64_t run_id = 0;  // --run: which enqueued crawl (0: newest).
  // Given on the command line? A worker follows its crawl's politeness.
  const CLI::Option* rate_option = nullptr;
  const CLI::Option* per_ip_limit_option = nullptr;
};

// Every transfer in flight holds a socket: raises the soft RLIMIT_NOFILE
// as far as the hard limit allows (the usual soft limit is 1024) and
// refuses to start a crawl that could not have its descriptors, which would
// otherwise fail transfers with "too many open files" mid-crawl.
bool RaiseOpenFileLimit(const crawler::CrawlOptions& o) {
  const std::int64_t needed = crawler::DescriptorsNeeded(o);
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return true;  // Cannot tell.
  if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) getrlimit(RLIMIT_NOFILE, &limit);
  }
  if (limit.rlim_cur == RLIM_INFINITY ||
      static_cast<std::int64_t>(limit.rlim_cur) >= needed) {
    return true;
  }
  std::fprintf(stderr,
               "robotscan crawl: --concurrency %d needs about %lld file "
               "descriptors, but this process may open %lld (hard limit "
               "%lld). Lower --concurrency to %lld, or raise the limit "
               "(ulimit -Hn %lld as root, or LimitNOFILE= in a systemd "
               "unit).\n",
               o.concurrency, static_cast<long long>(needed),
               static_cast<long long>(limit.rlim_cur),
               static_cast<long long>(limit.rlim_max),
               static_cast<long long>(std::max<std::int64_t>(
                   1, static_cast<std::int64_t>(limit.rlim_cur) -
                          (needed - o.concurrency))),
               static_cast<long long>(needed));
  return false;
}

std::string FormatSeconds(double seconds) {
  if (seconds < 0 || seconds > 1e7) return "--:--";
  const auto s = static_cast<long>(seconds);
  char text[32];
  if (s >= 3600) {
    std::snprintf(text, sizeof(text), "%ld:%02ld:%02ld", s / 3600,
                  (s / 60) % 60, s % 60);
  } else {
    std::snprintf(text, sizeof(text), "%02ld:%02ld", s / 60, s % 60);
  }
  return text;
}

// "35 waiting to retry, next in 12 s": a crawl's tail is mostly retries
// waiting out their delays, which must not look like a hang.
std::string WaitingRetries(const crawler::CrawlProgress& p) {
  if (p.waiting_retries == 0) return "";
  char text[96];
  std::snprintf(text, sizeof(text), " | %lld waiting to retry, next in %.0f s",
                static_cast<long long>(p.waiting_retries),
                std::max(0.0, p.next_retry_in_seconds));
  return text;
}

// Domains fetched per second so far.
double FetchRate(const crawler::CrawlProgress& p) {
  return p.elapsed_seconds > 0
             ? static_cast<double>(p.fetched) / p.elapsed_seconds
             : 0;
}

void PrintProgressLine(const crawler::CrawlProgress& p) {
  const double rate = FetchRate(p);
  const double remaining = static_cast<double>(p.total - p.done);
  const double eta = rate > 0 ? remaining / rate : -1;
  std::fprintf(
      stderr,
      "\r\033[K%lld/%lld (%.1f%%) %.0f/s ETA %s | success %lld "
      "unavailable %lld unreachable %lld | in flight %lld%s",
      static_cast<long long>(p.done), static_cast<long long>(p.total),
      p.total > 0
          ? 100.0 * static_cast<double>(p.done) / static_cast<double>(p.total)
          : 100.0,
      rate, FormatSeconds(eta).c_str(), static_cast<long long>(p.success),
      static_cast<long long>(p.unavailable),
      static_cast<long long>(p.unreachable),
      static_cast<long long>(p.in_flight), WaitingRetries(p).c_str());
  std::fflush(stderr);
}

// A worker's share of a crawl: the crawl-wide figures are `crawl --status`.
void PrintWorkerProgressLine(const crawler::CrawlProgress& p) {
  const double rate = FetchRate(p);
  std::fprintf(
      stderr,
      "\r\033[Kworker: fetched %lld %.0f/s | success %lld "
      "unavailable %lld unreachable %lld | leased %lld, taken over "
      "%lld, refused %lld | in flight %lld%s",
      static_cast<long long>(p.fetched), rate,
      static_cast<long long>(p.success), static_cast<long long>(p.unavailable),
      static_cast<long long>(p.unreachable), static_cast<long long>(p.leased),
      static_cast<long long>(p.taken_over), static_cast<long long>(p.rejected),
      static_cast<long long>(p.in_flight), WaitingRetries(p).c_str());
  std::fflush(stderr);
}

// --log-json: one JSON object a line, appended. Owns its FILE (closed
// once, so neither copyable nor reopened over a live one).
class JsonLog {
 public:
  JsonLog() = default;
  JsonLog(const JsonLog&) = delete;
  JsonLog& operator=(const JsonLog&) = delete;

  bool Open(const std::string& path) {
    file_.reset(std::fopen(path.c_str(), "a"));
    return file_ != nullptr;
  }
  void Write(const nlohmann::json& event) {
    if (file_ == nullptr) return;
    // Crawled headers and list lines may not be UTF-8: replace, never throw.
    const std::string line =
        event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::fprintf(file_.get(), "%s\n", line.c_str());
  }

 private:
  struct CloseFile {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::unique_ptr<std::FILE, CloseFile> file_;
};

// An error class as the event log and the database name it ("" for none).
std::string ErrorName(storage::ErrorClass error) {
  return std::string(storage::ErrorClassName(error));
}

// A fetch as the event log writes it (its classes by their names).
nlohmann::json FetchJson(const storage::FetchRecord& r) {
  nlohmann::json hops = nlohmann::json::array();
  for (const storage::FetchStep& step : r.steps) {
    hops.push_back({{"url", step.url},
                    {"status", step.http_status},
                    {"error", ErrorName(step.error_class)}});
  }
  return {{"event", "fetch"},
          {"domain", r.domain},
          {"rank", r.rank},
          {"url", r.url},
          {"final_url", r.final_url},
          {"http_status", r.http_status},
          {"access", std::string(robots::AccessClassName(r.access))},
          {"error", ErrorName(r.error_class)},
          {"error_message", r.error_message},
          {"redirects", r.redirects},
          {"attempts", r.attempts},
          {"bytes", r.body.size()},
          {"truncated", r.truncated},
          {"ip", r.ip},
          {"total_ms", r.total_ms},
          {"steps", hops},
          {"fetched_at", r.fetched_at}};
}

nlohmann::json ProgressJson(const crawler::CrawlProgress& p) {
  return {{"total", p.total},
          {"done", p.done},
          {"fetched", p.fetched},
          {"already_present", p.already_present},
          {"duplicates", p.duplicates},
          {"success", p.success},
          {"unavailable", p.unavailable},
          {"unreachable", p.unreachable},
          {"committed", p.committed},
          {"malformed_lines", p.malformed_lines},
          {"leased", p.leased},
          {"taken_over", p.taken_over},
          {"rejected", p.rejected},
          {"elapsed_seconds", p.elapsed_seconds}};
}

std::string DescribeHolder(const storage::CrawlHolder& h) {
  std::string text = "pid " + std::to_string(h.pid) + " on host " +
                     (h.host.empty() ? "?" : h.host) + ", started " +
                     (h.started_at.empty() ? "?" : h.started_at);
  if (h.run_id > 0) text += " (crawl_run " + std::to_string(h.run_id) + ")";
  return text;
}

// A worker refused while a single-process crawl holds the database.
void PrintWorkerLockedMessage(const std::string& db,
                              const storage::CrawlHolder& h) {
  std::fprintf(stderr,
               "robotscan crawl: %s is being written by a single-process "
               "crawl: %s.\n  Workers share a database only with other "
               "workers: wait for it or stop it (kill %lld), then enqueue "
               "the list (robotscan enqueue LIST --db URI).\n",
               storage::RedactDatabaseUri(db).c_str(),
               DescribeHolder(h).c_str(), static_cast<long long>(h.pid));
}

// A second crawl on one database would fetch every domain again; say who
// holds it and what to do instead.
void PrintLockedMessage(const std::string& db, const storage::CrawlHolder& h) {
  if (storage::IsPostgresUri(db)) {
    std::fprintf(stderr,
                 "robotscan crawl: %s is being written by another crawl or "
                 "its workers: %s.\n  One single-process crawl per database. "
                 "To share the work between processes and machines, enqueue "
                 "the list once (robotscan enqueue LIST --db URI) and start "
                 "any number of robotscan crawl --worker --db URI "
                 "(docs/scale-out.md).\n",
                 storage::RedactDatabaseUri(db).c_str(),
                 DescribeHolder(h).c_str());
    return;
  }
  std::fprintf(stderr,
               "robotscan crawl: %s is being written by another crawl: %s.\n"
               "  One live crawl per database (a second one would fetch every "
               "domain again). Wait for it, stop it (kill %lld; rerunning "
               "resumes), or scale out instead: --loops 0 uses every core of "
               "this machine in one crawl, and further machines or processes "
               "crawl other parts of the list (--skip/--top) into databases "
               "of their own, or move to PostgreSQL, where any number of "
               "workers share one crawl (docs/scale-out.md).\n",
               db.c_str(), DescribeHolder(h).c_str(),
               static_cast<long long>(h.pid));
}

std::string Seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f s", s);
  return text;
}

// `robotscan crawl --status --db URI`: the crawl's progress and each worker
// with its lease (docs/scale-out.md).
int PrintCrawlStatus(const CrawlFlags& flags) {
  const std::string& db = flags.options.db_path;
  auto frontier = storage::SharedFrontier::Open(db, {});
  if (!frontier.ok()) {
    std::fprintf(stderr, "robotscan crawl --status: %s\n",
                 frontier.status().message().c_str());
    return ExitCodeFor(frontier.status());
  }
  const storage::Result<storage::FrontierStatus> read =
      frontier.value()->ReadStatus(flags.run_id);
  if (!read.ok()) {
    std::fprintf(stderr, "robotscan crawl --status: %s\n",
                 read.status().message().c_str());
    return kExitUsage;
  }
  const storage::FrontierStatus& st = *read;
  const std::int64_t finished = st.done + st.present;
  std::printf(
      "crawl %lld (%s): %lld of %lld domains done (%.1f%%): %lld fetched, "
      "%lld already present; %lld leased, %lld pending\n",
      static_cast<long long>(st.run.id), st.run.status.c_str(),
      static_cast<long long>(finished), static_cast<long long>(st.total),
      st.total > 0 ? 100.0 * static_cast<double>(finished) /
                         static_cast<double>(st.total)
                   : 100.0,
      static_cast<long long>(st.done), static_cast<long long>(st.present),
      static_cast<long long>(st.leased), static_cast<long long>(st.pending));
  std::printf(
      "  list %s (%lld entries, %lld duplicates, %lld malformed lines); "
      "started %s%s%s\n",
      st.run.input.c_str(), static_cast<long long>(st.run.list.entries),
      static_cast<long long>(st.duplicates),
      static_cast<long long>(st.malformed_lines), st.run.started_at.c_str(),
      st.run.finished_at.empty() ? "" : ", finished ",
      st.run.finished_at.c_str());
  std::printf(
      "  crawl-wide: per-IP cap %d, rate %s, lease %s, batches of %d\n",
      st.settings.per_ip_limit,
      st.settings.rate_limit > 0
          ? (std::to_string(st.settings.rate_limit) + "/s").c_str()
          : "unlimited",
      Seconds(static_cast<double>(st.settings.lease.count()) / 1000).c_str(),
      st.settings.batch_size);
  std::printf(
      "  taken over from expired leases: %lld domains (%lld leases); records "
      "refused (lease lost): %lld; leases expired now: %lld\n",
      static_cast<long long>(st.taken_over_domains),
      static_cast<long long>(st.taken_over_leases),
      static_cast<long long>(st.rejected_records),
      static_cast<long long>(st.expired_batches));
  for (const storage::WorkerStatus& w : st.workers) {
    const double lease_s =
        static_cast<double>(st.settings.lease.count()) / 1000;
    std::string state = w.status;
    if (w.status == "running" && w.heartbeat_age_seconds > lease_s) {
      state =
          "lost (no heartbeat for " + Seconds(w.heartbeat_age_seconds) + ")";
    }
    std::printf(
        "  worker %lld %s pid %lld: %s since %s; heartbeat %s ago; %.1f/s, "
        "%lld fetched, %lld refused, %lld in flight; leases %lld (%lld "
        "domains)%s%s; IP slots %lld\n",
        static_cast<long long>(w.id), w.host.c_str(),
        static_cast<long long>(w.pid), state.c_str(), w.started_at.c_str(),
        Seconds(w.heartbeat_age_seconds).c_str(), w.rate,
        static_cast<long long>(w.fetched), static_cast<long long>(w.rejected),
        static_cast<long long>(w.in_flight), static_cast<long long>(w.batches),
        static_cast<long long>(w.leased_domains),
        w.lease_expires_in_seconds >= 0 ? ", expiring in " : "",
        w.lease_expires_in_seconds >= 0
            ? Seconds(w.lease_expires_in_seconds).c_str()
            : "",
        static_cast<long long>(w.ip_slots));
  }
  return kExitOk;
}

// The crawl options from the flags that need parsing (durations, the
// scheme list), checked and made into the crawl's plan; nullopt after
// saying why not (*exit_code). A worker has no list: a placeholder passes
// the check.
std::optional<crawler::CrawlPlan> PlanFromFlags(CrawlFlags& flags,
                                                int* exit_code) {
  crawler::CrawlOptions& o = flags.options;
  *exit_code = kExitUsage;
  struct DurationFlag {
    const char* name;
    const std::string* text;
    std::chrono::milliseconds* target;
  };
  const DurationFlag durations[] = {
      {"--connect-timeout", &flags.connect_timeout, &o.connect_timeout},
      {"--timeout", &flags.timeout, &o.total_timeout},
      {"--retry-delay", &flags.retry_delay, &o.retry_delay},
      {"--max-retry-after", &flags.max_retry_after, &o.max_retry_after},
      {"--dns-timeout", &flags.dns_timeout, &o.dns_timeout},
  };
  for (const DurationFlag& d : durations) {
    const auto parsed = ParseDuration(*d.text);
    if (!parsed) {
      std::fprintf(stderr, "robotscan crawl: %s: invalid duration '%s'\n",
                   d.name, d.text->c_str());
      return std::nullopt;
    }
    *d.target = *parsed;
  }
  if (const auto low = ParseDuration(flags.low_speed_time)) {
    o.low_speed_time = std::chrono::duration_cast<std::chrono::seconds>(*low);
  } else {
    std::fprintf(stderr,
                 "robotscan crawl: --low-speed-time: invalid duration\n");
    return std::nullopt;
  }
  if (!flags.recrawl_older_than.empty()) {
    const auto age = ParseDuration(flags.recrawl_older_than);
    if (!age) {
      std::fprintf(stderr,
                   "robotscan crawl: --recrawl-older-than: invalid duration "
                   "'%s'\n",
                   flags.recrawl_older_than.c_str());
      return std::nullopt;
    }
    o.recrawl_older_than =
        std::chrono::duration_cast<std::chrono::seconds>(*age);
  }
  o.schemes.clear();
  for (std::size_t start = 0; start <= flags.schemes.size();) {
    const std::size_t comma = flags.schemes.find(',', start);
    const std::size_t end =
        comma == std::string::npos ? flags.schemes.size() : comma;
    if (end > start)
      o.schemes.push_back(flags.schemes.substr(start, end - start));
    start = end + 1;
  }
  o.tool_version = ROBOTSCAN_VERSION_STRING;
  crawler::CrawlOptions checked = o;
  if (flags.worker) checked.list_path = "(enqueued)";
  Result<crawler::CrawlPlan> plan = crawler::ValidateCrawlOptions(checked);
  if (!plan.ok()) {
    std::fprintf(stderr, "robotscan crawl: %s\n",
                 plan.status().message().c_str());
    *exit_code = ExitCodeFor(plan.status());
    return std::nullopt;
  }
  *exit_code = kExitOk;
  return std::move(plan).value();
}

// What tells a single-process crawl and a worker apart once planned: how
// each runs, shows its progress and sums up, and what each says when it
// cannot start or is stopped.
struct CrawlMode {
  bool worker = false;
  std::function<Status(const crawler::CrawlPlan&,
                       const crawler::CrawlCallbacks&, crawler::CrawlSummary*,
                       crawler::CrawlHandle*)>
      run;
  void (*print_progress)(const crawler::CrawlProgress&) = nullptr;
  void (*print_summary)(const crawler::CrawlSummary&) = nullptr;
  void (*print_locked)(const std::string& db,
                       const storage::CrawlHolder& holder) = nullptr;
  // Said on any stopping signal but SIGINT (nullptr: the crawl's own
  // words for SIGTERM).
  const char* stopped_by_signal = nullptr;
};

void PrintCrawlSummary(const crawler::CrawlSummary& summary) {
  const crawler::CrawlProgress& p = summary.progress;
  const double rate = FetchRate(p);
  std::printf(
      "crawl %lld: %lld of %lld domains done in %.1fs (%.0f/s): fetched %lld "
      "(success %lld, unavailable %lld, unreachable %lld), already in the "
      "database %lld, duplicates %lld, malformed lines %lld\n",
      static_cast<long long>(summary.run_id), static_cast<long long>(p.done),
      static_cast<long long>(p.total), p.elapsed_seconds, rate,
      static_cast<long long>(p.fetched), static_cast<long long>(p.success),
      static_cast<long long>(p.unavailable),
      static_cast<long long>(p.unreachable),
      static_cast<long long>(p.already_present),
      static_cast<long long>(p.duplicates),
      static_cast<long long>(p.malformed_lines));
}

void PrintWorkerSummary(const crawler::CrawlSummary& summary) {
  const crawler::CrawlProgress& p = summary.progress;
  const double rate = FetchRate(p);
  std::printf(
      "worker of crawl %lld: fetched %lld in %.1fs (%.0f/s) (success %lld, "
      "unavailable %lld, unreachable %lld), already present %lld; leased "
      "%lld, taken over from expired leases %lld, records refused (lease "
      "lost) %lld\n",
      static_cast<long long>(summary.run_id), static_cast<long long>(p.fetched),
      p.elapsed_seconds, rate, static_cast<long long>(p.success),
      static_cast<long long>(p.unavailable),
      static_cast<long long>(p.unreachable),
      static_cast<long long>(p.already_present),
      static_cast<long long>(p.leased), static_cast<long long>(p.taken_over),
      static_cast<long long>(p.rejected));
}

// Runs a planned crawl in `mode`: network libraries, descriptors, the
// event log, the progress line and warnings, signals; then the summary and
// the exit code.
int RunPlannedCrawl(const CrawlFlags& flags, const crawler::CrawlPlan& plan,
                    const CrawlMode& mode) {
  const crawler::CrawlOptions& o = flags.options;
  crawler::NetworkLibraries libraries;
  if (!libraries.ok()) {
    std::fprintf(stderr, "robotscan crawl: cannot initialize libcurl/c-ares\n");
    return kExitNetworkSetup;
  }
  if (!RaiseOpenFileLimit(o)) return kExitUsage;

  JsonLog log;
  if (!flags.log_json.empty() && !log.Open(flags.log_json)) {
    std::fprintf(stderr, "robotscan crawl: cannot open %s\n",
                 flags.log_json.c_str());
    return kExitUsage;
  }
  const bool live = !flags.quiet && isatty(STDERR_FILENO) == 1;
  int malformed_shown = 0;
  constexpr int kMaxMalformedShown = 10;

  crawler::CrawlCallbacks callbacks;
  if (live) callbacks.on_progress = mode.print_progress;
  callbacks.on_stale_lock = [&](const storage::CrawlHolder& h) {
    log.Write({{"event", "stale_lock"},
               {"pid", h.pid},
               {"host", h.host},
               {"started_at", h.started_at},
               {"run_id", h.run_id}});
    if (flags.quiet) return;
    std::fprintf(stderr,
                 "robotscan crawl: took over the hold of a crawl that ended "
                 "without releasing it (%s); resuming\n",
                 DescribeHolder(h).c_str());
  };
  callbacks.on_malformed_line = [&](const crawler::MalformedLine& bad) {
    log.Write({{"event", "malformed_line"},
               {"line", bad.line},
               {"reason", bad.reason},
               {"text", bad.text}});
    if (flags.quiet || malformed_shown >= kMaxMalformedShown) return;
    ++malformed_shown;
    if (live) std::fprintf(stderr, "\r\033[K");
    std::fprintf(stderr, "robotscan crawl: %s:%lld: skipped: %s\n",
                 o.list_path.c_str(), static_cast<long long>(bad.line),
                 bad.reason.c_str());
  };
  if (!flags.log_json.empty()) {
    callbacks.on_fetch = [&](const storage::FetchRecord& r) {
      log.Write(FetchJson(r));
    };
  }

  log.Write({{"event", "start"},
             {"list", o.list_path},
             {"db", storage::RedactDatabaseUri(o.db_path)},
             {"worker", mode.worker},
             {"version", ROBOTSCAN_VERSION_STRING}});
  crawler::CrawlSummary summary;
  crawler::CrawlHandle handle;
  Status status;
  int signal = 0;
  {
    StopOnSignals stop_on_signals(&handle);
    status = mode.run(plan, callbacks, &summary, &handle);
    signal = stop_on_signals.received();
  }
  if (live) std::fprintf(stderr, "\r\033[K");

  nlohmann::json end = ProgressJson(summary.progress);
  end["event"] = "summary";
  end["run_id"] = summary.run_id;
  end["signal"] = signal;
  end["error"] = status.message();
  log.Write(end);
  mode.print_summary(summary);
  std::fflush(stdout);
  if (status.code() == StatusCode::kLocked && summary.locked_by) {
    mode.print_locked(o.db_path, *summary.locked_by);
    return ExitCodeFor(status);
  }
  // A signal that stopped the crawl before it began (waiting for its list
  // on a pipe or FIFO) exits like one that stopped it later.
  const bool stopped_by_signal =
      status.code() == StatusCode::kCancelled && signal != 0;
  if (!status.ok() && !stopped_by_signal) {
    std::fprintf(stderr, "robotscan crawl: %s\n", status.message().c_str());
    return ExitCodeFor(status);
  }
  if (stopped_by_signal) {
    std::fprintf(stderr, "robotscan crawl: %s\n", status.message().c_str());
    return kExitSignalBase + signal;
  }
  if (signal == SIGINT) {
    std::fprintf(stderr, "robotscan crawl: interrupted; rerun to continue\n");
    return kExitSignalBase + SIGINT;
  }
  if (signal != 0 && mode.stopped_by_signal != nullptr) {
    std::fprintf(stderr, "robotscan crawl: %s\n", mode.stopped_by_signal);
    return kExitSignalBase + signal;
  }
  if (signal == SIGTERM) {
    std::fprintf(stderr, "robotscan crawl: terminated; rerun to continue\n");
    return kExitSignalBase + SIGTERM;
  }
  return kExitOk;
}

// `robotscan crawl LIST --db DB`: one process crawls the list.
int RunSingleProcessCrawl(CrawlFlags& flags) {
  const crawler::CrawlOptions& o = flags.options;
  if (o.list_path.empty()) {
    std::fprintf(stderr,
                 "robotscan crawl: LIST is required (or --worker / --status "
                 "with a PostgreSQL --db)\n");
    return kExitUsage;
  }
  int exit_code = kExitOk;
  const std::optional<crawler::CrawlPlan> plan =
      PlanFromFlags(flags, &exit_code);
  if (!plan) return exit_code;
  // The list named on the command line: unreadable is a usage error (2),
  // told apart from a read failing mid-crawl (3). "-" is standard input.
  if (access(o.list_path == "-" ? "/dev/stdin" : o.list_path.c_str(), R_OK) !=
      0) {
    std::fprintf(stderr, "robotscan crawl: cannot read the list %s: %s\n",
                 o.list_path.c_str(), std::strerror(errno));
    return kExitUsage;
  }
  CrawlMode mode;
  mode.run = [](const crawler::CrawlPlan& p,
                const crawler::CrawlCallbacks& callbacks,
                crawler::CrawlSummary* summary, crawler::CrawlHandle* handle) {
    return crawler::RunCrawl(p, callbacks, summary, handle);
  };
  mode.print_progress = PrintProgressLine;
  mode.print_summary = PrintCrawlSummary;
  mode.print_locked = PrintLockedMessage;
  return RunPlannedCrawl(flags, *plan, mode);
}

// `robotscan crawl --worker --db URI`: one worker of an enqueued crawl.
int RunWorker(CrawlFlags& flags) {
  const crawler::CrawlOptions& o = flags.options;
  if (!o.list_path.empty()) {
    std::fprintf(stderr,
                 "robotscan crawl: a worker takes no LIST: its crawl's list "
                 "was enqueued (robotscan enqueue LIST --db URI)\n");
    return kExitUsage;
  }
  if (!storage::IsPostgresUri(o.db_path)) {
    std::fprintf(stderr,
                 "robotscan crawl: --worker needs a PostgreSQL --db "
                 "(postgresql://...): an SQLite file has one writer\n");
    return kExitUsage;
  }
  // The per-IP cap and the rate are the crawl's, for all its workers
  // together (docs/scale-out.md): a worker's own would break the bound.
  // Said, not refused, so that one set of fetch flags serves both kinds of
  // crawl.
  for (const CLI::Option* given :
       {flags.per_ip_limit_option, flags.rate_option}) {
    if (given != nullptr && given->count() > 0) {
      std::fprintf(stderr,
                   "robotscan crawl: %s ignored: a worker follows its "
                   "crawl's setting, fixed by robotscan enqueue (crawl "
                   "--status shows it)\n",
                   given->get_name().c_str());
    }
  }
  int exit_code = kExitOk;
  const std::optional<crawler::CrawlPlan> plan =
      PlanFromFlags(flags, &exit_code);
  if (!plan) return exit_code;
  CrawlMode mode;
  mode.worker = true;
  const std::int64_t run_id = flags.run_id;
  mode.run = [run_id](const crawler::CrawlPlan& p,
                      const crawler::CrawlCallbacks& callbacks,
                      crawler::CrawlSummary* summary,
                      crawler::CrawlHandle* handle) {
    return crawler::RunCrawlWorker(p, run_id, callbacks, summary, handle);
  };
  mode.print_progress = PrintWorkerProgressLine;
  mode.print_summary = PrintWorkerSummary;
  mode.print_locked = PrintWorkerLockedMessage;
  mode.stopped_by_signal =
      "worker stopped after finishing its transfers; its unstarted domains "
      "went back to the crawl";
  return RunPlannedCrawl(flags, *plan, mode);
}

// `robotscan crawl --status --db URI`: the enqueued crawl's progress.
int RunStatus(const CrawlFlags& flags) {
  if (flags.worker || !flags.options.list_path.empty()) {
    std::fprintf(stderr,
                 "robotscan crawl: --status takes only --db (and --run)\n");
    return kExitUsage;
  }
  return PrintCrawlStatus(flags);
}

int RunCrawlCommand(CrawlFlags& flags) {
  if (flags.status) return RunStatus(flags);
  if (flags.worker) return RunWorker(flags);
  return RunSingleProcessCrawl(flags);
}

}  // namespace

void AddCrawlCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CrawlFlags>();
  crawler::CrawlOptions& o = flags->options;
  CLI::App* cmd = app.add_subcommand(
      "crawl",
      "Fetch /robots.txt for every domain of a top-sites list into SQLite or "
      "PostgreSQL (rerun to resume), or work on an enqueued crawl (--worker)");
  cmd->add_option("list", o.list_path,
                  "Top-sites list: rank,domain CSV (Tranco/Alexa/Umbrella), "
                  "Majestic CSV, or one domain per line; .gz accepted "
                  "(not with --worker or --status)");
  cmd->add_option("--db", o.db_path,
                  "Crawl database: an SQLite file (created if new) or a "
                  "postgresql:// URI (PG* environment variables apply; put "
                  "the password in PGPASSWORD or ~/.pgpass)")
      ->required();
  cmd->add_flag("--worker", flags->worker,
                "Work on the enqueued crawl of a PostgreSQL --db with any "
                "number of other workers (docs/scale-out.md)");
  cmd->add_flag("--status", flags->status,
                "Show the enqueued crawl's progress, workers and leases");
  cmd->add_option("--run", flags->run_id,
                  "The enqueued crawl (crawl_run id) for --worker/--status; "
                  "default: the newest");
  cmd->add_option("--top", o.top, "Only the first N list entries");
  cmd->add_option("--skip", o.skip, "Skip the first N list entries");
  cmd->add_option("--concurrency", o.concurrency, "Domains in flight")
      ->capture_default_str();
  cmd->add_option("--loops", o.loops,
                  "Event loops (threads) sharing the work; 0: one per core")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  flags->rate_option =
      cmd->add_option("--rate", o.rate_limit,
                      "At most N new domains per second (0: no limit; a "
                      "worker follows its crawl's, set by enqueue)")
          ->capture_default_str();
  flags->per_ip_limit_option =
      cmd->add_option("--per-ip-limit", o.per_ip_limit,
                      "Concurrent requests per server IP (0: no limit; a "
                      "worker follows its crawl's, set by enqueue)")
          ->capture_default_str();
  cmd->add_option("--schemes", flags->schemes,
                  "Schemes to try in order; the next one on connection failure")
      ->capture_default_str();
  cmd->add_flag("--www-fallback", o.www_fallback,
                "Also try www.DOMAIN when DOMAIN cannot be reached");
  cmd->add_flag("--signals", o.signals,
                "Also fetch /llms.txt and /.well-known/tdmrep.json and record "
                "the homepage's X-Robots-Tag, Content-Usage, tdm-reservation "
                "and tdm-policy headers (table signal_fetch; up to three more "
                "requests per domain, same per-IP cap)");
  cmd->add_option("--max-redirects", o.max_redirects,
                  "Redirect hops to follow (at least 5, RFC 9309)")
      ->capture_default_str();
  cmd->add_option("--max-body-bytes", o.max_body_bytes,
                  "Keep this many decoded bytes (at least 500 KiB)")
      ->capture_default_str();
  cmd->add_option("--connect-timeout", flags->connect_timeout,
                  "Connect timeout (e.g. 10s, 500ms)")
      ->capture_default_str();
  cmd->add_option("--timeout", flags->timeout, "Timeout per request")
      ->capture_default_str();
  cmd->add_option("--low-speed-limit", o.low_speed_limit,
                  "Abort below this many bytes/s ...")
      ->capture_default_str();
  cmd->add_option("--low-speed-time", flags->low_speed_time,
                  "... sustained this long")
      ->capture_default_str();
  cmd->add_option("--retries", o.retries,
                  "Retries for network errors, 5xx and 429")
      ->capture_default_str();
  cmd->add_flag("--retry-timeouts", o.retry_timeouts,
                "Also retry requests that timed out after connecting");
  cmd->add_option("--retry-delay", flags->retry_delay,
                  "First retry delay (doubles per retry)")
      ->capture_default_str();
  cmd->add_option("--max-retry-after", flags->max_retry_after,
                  "Honour Retry-After up to this long")
      ->capture_default_str();
  cmd->add_option("--user-agent", o.user_agent,
                  "User-Agent (default names robotscan and a URL)");
  cmd->add_option("--dns-server", o.dns_servers,
                  "DNS server HOST:PORT (repeatable; default resolv.conf)");
  cmd->add_option("--dns-timeout", flags->dns_timeout, "DNS timeout per try")
      ->capture_default_str();
  cmd->add_option("--dns-tries", o.dns_tries, "DNS tries")
      ->capture_default_str();
  cmd->add_flag("--ipv4-only", o.ipv4_only,
                "Resolve and connect over IPv4 only");
  cmd->add_flag("--allow-private-addresses", o.allow_private_addresses,
                "Allow loopback, private and link-local servers");
  cmd->add_option("--connect-to", o.connect_to,
                  "HOST:PORT:HOST2:PORT2 as in curl (repeatable)");
  cmd->add_option("--resolve", o.resolve,
                  "HOST:PORT:ADDR[,ADDR] as in curl (repeatable)");
  cmd->add_option("--proxy", o.proxy, "Proxy URL (as curl --proxy)");
  cmd->add_option("--cacert", o.cacert, "CA certificates (PEM) to trust");
  cmd->add_flag("--insecure", o.insecure, "Do not verify TLS certificates");
  cmd->add_option("--recrawl-older-than", flags->recrawl_older_than,
                  "Re-fetch domains whose newest fetch is older (e.g. 24h), "
                  "conditionally");
  cmd->add_flag(
      "--compress-bodies", o.compress_bodies,
      "Store bodies zstd-compressed (latest_fetch.body is then NULL)");
  cmd->add_flag("--quiet,-q", flags->quiet, "No progress line or warnings");
  cmd->add_option("--log-json", flags->log_json,
                  "Append a JSON-lines event log to FILE");
  cmd->callback([flags, exit_code] { *exit_code = RunCrawlCommand(*flags); });
}

}  // namespace robotscan::cli
