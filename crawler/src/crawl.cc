// RunCrawl: opens and holds the database, builds one event loop per
// --loops (crawl_loop.h, each with its admission stage and state machines),
// runs them on threads of their own while the calling thread reports
// progress, and records the run. Cancellation comes through a CrawlHandle;
// the library installs no signal handlers.
#include <ares.h>
#include <curl/curl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "batch_writer.h"
#include "crawl_loop.h"
#include "crawl_parts.h"
#include "domain_admission.h"
#include "list_staging.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/top_list_download.h"
#include "time_format.h"

namespace robotscan::crawler {

using Clock = std::chrono::steady_clock;

// Sums the loops' counters into one picture of the crawl.
CrawlProgress SumProgress(const std::vector<std::unique_ptr<CrawlLoop>>& loops,
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
    sum.waiting_retries += p.waiting_retries;
    if (p.next_retry_in_seconds >= 0 &&
        (sum.next_retry_in_seconds < 0 ||
         p.next_retry_in_seconds < sum.next_retry_in_seconds)) {
      sum.next_retry_in_seconds = p.next_retry_in_seconds;
    }
  }
  sum.total = total;
  sum.elapsed_seconds =
      std::chrono::duration<double>(Clock::now() - started).count();
  return sum;
}

// `stop` runs under the mutex: once OnCancel(nullptr) returns, no Cancel()
// is still inside a stop function whose crawl is ending.
void CrawlHandle::Cancel() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (cancelled_) return;
  cancelled_ = true;
  if (stop_) std::exchange(stop_, nullptr)();
}

bool CrawlHandle::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

void CrawlHandle::OnCancel(std::function<void()> stop) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!cancelled_) {
    stop_ = std::move(stop);
  } else if (stop) {
    stop();  // Cancelled already: stop at once.
  }
}

namespace {

// Counts the entries --top/--skip select, for progress and ETA. A second
// pass over the file; cheap next to the crawl (about a second per million
// lines, gzip included).
Status CountSelectedEntries(const ListSelection& selection,
                            const std::string& list_path, std::int64_t* total) {
  Result<std::unique_ptr<TopListReader>> reader =
      TopListReader::Open(list_path);
  if (!reader.ok()) return reader.status();
  std::int64_t entries = 0;
  TopListEntry entry;
  MalformedLine bad;
  for (;;) {
    const ReadOutcome outcome = (*reader)->Next(&entry, &bad);
    if (outcome == ReadOutcome::kEnd) break;
    if (outcome == ReadOutcome::kError) {
      return Status(StatusCode::kIoError, (*reader)->error());
    }
    if (outcome == ReadOutcome::kEntry) ++entries;
  }
  *total = selection.CountOf(entries);
  return Status::Ok();
}

}  // namespace

std::string OptionsAsJson(const CrawlPlan& plan) {
  const CrawlOptions& o = plan.options;
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
  json += ",\"signals\":" + std::string(o.signals ? "true" : "false");
  json += ",\"max_redirects\":" + std::to_string(std::max(o.max_redirects, 5));
  json += ",\"max_body_bytes\":" + std::to_string(plan.max_body_bytes);
  json +=
      ",\"connect_timeout_ms\":" + std::to_string(o.connect_timeout.count());
  json += ",\"timeout_ms\":" + std::to_string(o.total_timeout.count());
  json += ",\"retries\":" + std::to_string(o.retries);
  json +=
      ",\"retry_timeouts\":" + std::string(o.retry_timeouts ? "true" : "false");
  json += ",\"user_agent\":" + quote(plan.user_agent);
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

bool RunLoops(const CrawlOptions& options, const CrawlCallbacks& callbacks,
              std::int64_t total, SharedCrawlState* shared,
              const std::vector<std::unique_ptr<CrawlLoop>>& loops,
              BatchWriter* writer, CrawlHandle* handle,
              const std::function<void()>& on_cancel,
              const std::function<void(CrawlProgress*)>& amend_progress) {
  const Clock::time_point started = Clock::now();
  boost::asio::io_context coordinator{1};
  boost::asio::steady_timer ticker(coordinator);
  std::atomic<bool> cancelled{false};
  if (handle != nullptr) {
    handle->OnCancel([&cancelled, shared, &on_cancel] {
      cancelled = true;
      if (on_cancel) {
        on_cancel();
      } else {
        shared->StopAll("");
      }
    });
  }
  std::function<void()> tick = [&] {
    ticker.expires_after(options.progress_interval);
    ticker.async_wait([&](const boost::system::error_code& ec) {
      if (ec) return;
      if (callbacks.on_progress) {
        CrawlProgress progress = SumProgress(loops, total, started);
        if (amend_progress) amend_progress(&progress);
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
  // From here on a Cancel() has nothing to stop.
  if (handle != nullptr) handle->OnCancel(nullptr);
  ticker.cancel();
  return cancelled;
}

std::int64_t DescriptorsNeeded(const CrawlOptions& options) {
  // Per loop: epoll (Asio's and the driver's), Asio's eventfd and timerfd,
  // c-ares's sockets, the list file and a database reader; for the
  // process: the writer's database, WAL, shm and lock files, stdio and a
  // log. Generous on purpose: running out mid-crawl fails transfers.
  const auto loops = static_cast<std::int64_t>(LoopCount(options));
  return static_cast<std::int64_t>(options.concurrency) + 64 + 16 * loops;
}

Status RunCrawl(const CrawlOptions& options, const CrawlCallbacks& callbacks,
                CrawlSummary* summary, CrawlHandle* handle) {
  const Result<CrawlPlan> plan = ValidateCrawlOptions(options);
  if (!plan.ok()) return plan.status();
  return RunCrawl(*plan, callbacks, summary, handle);
}

Status RunCrawl(const CrawlPlan& plan, const CrawlCallbacks& callbacks,
                CrawlSummary* summary, CrawlHandle* handle) {
  const CrawlOptions& options = plan.options;
  const Clock::time_point started = Clock::now();
  // The list first: one that cannot be read must not leave a new, empty
  // database behind. Read once, whatever it is (list_staging.h).
  Result<StagedList> list = StagedList::Stage(options.list_path, [handle] {
    return handle != nullptr && handle->cancelled();
  });
  if (!list.ok()) return list.status();
  const std::string& list_path = list->path();
  storage::StoreOptions write_options;
  write_options.compress_bodies = options.compress_bodies;
  auto writer = storage::CrawlStore::Open(options.db_path, write_options);
  if (!writer.ok()) return writer.status();

  // One live crawl per database, held until this function returns.
  storage::CrawlHolder me;
  me.pid = getpid();
  me.host = HostName();
  me.started_at = FormatIso8601(std::chrono::system_clock::now());
  storage::Result<storage::LockAttempt> locked =
      writer.value()->LockForCrawl(me);
  if (!locked.ok()) return locked.status();
  storage::LockAttempt hold = std::move(locked).value();
  if (!hold.lock) {
    summary->locked_by = *hold.held_by;
    return Status(StatusCode::kLocked,
                  "the database is being written by another crawl");
  }
  if (hold.stale && callbacks.on_stale_lock) {
    callbacks.on_stale_lock(*hold.stale);
  }
  // Counted once the hold is ours: a refused crawl is refused at once,
  // not after a pass over a million-line list.
  std::int64_t total = 0;
  if (Status counted = CountSelectedEntries(plan.selection, list_path, &total);
      !counted.ok()) {
    return counted;
  }

  const storage::Result<bool> any_fetch = writer.value()->HasFetches();
  if (!any_fetch.ok()) return any_fetch.status();
  const bool database_was_empty = !*any_fetch;

  const std::size_t loop_count = LoopCount(options);
  SharedCrawlState shared(options.per_ip_limit, options.rate_limit, false);
  // Each loop has its own list reader and database reader (a SQLite
  // connection is used by one thread).
  std::vector<std::unique_ptr<storage::CrawlStore>> readers;
  std::vector<std::unique_ptr<DomainAdmission>> sources;
  std::vector<std::unique_ptr<CrawlLoop>> loops;
  for (std::size_t i = 0; i < loop_count; ++i) {
    Result<std::unique_ptr<TopListReader>> list_reader =
        TopListReader::Open(list_path);
    if (!list_reader.ok()) return list_reader.status();
    storage::StoreOptions read_options;
    read_options.read_only = true;
    auto reader = storage::CrawlStore::Open(options.db_path, read_options);
    if (!reader.ok()) return reader.status();
    readers.push_back(std::move(reader.value()));
    sources.push_back(std::make_unique<DomainAdmission>(
        plan, i, loop_count, std::move(list_reader).value(),
        readers.back().get(), database_was_empty,
        [&callbacks, &shared](const MalformedLine& bad) {
          if (!callbacks.on_malformed_line) return;
          std::lock_guard<std::mutex> lock(shared.callback_mutex);
          callbacks.on_malformed_line(bad);
        }));
    loops.push_back(std::make_unique<CrawlLoop>(
        plan, callbacks, &shared, loop_count, sources.back().get()));
    if (Status ready = loops.back()->CheckReady(); !ready.ok()) {
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
  // Which list this is, for a paper's methods section: the provenance line
  // `robotscan toplist` wrote, or the file's own SHA-256.
  if (Status read = ReadListProvenance(list_path, &info.list); !read.ok()) {
    return read;
  }
  info.list.entries = total;
  info.options_json = OptionsAsJson(plan);
  const storage::Result<std::int64_t> begun = writer.value()->BeginRun(info);
  if (!begun.ok()) return begun.status();
  const std::int64_t run_id = *begun;
  summary->run_id = run_id;
  // Best effort: without it a refused crawl names us without the run id.
  if (!hold.lock->SetRunId(run_id).ok()) me.run_id = 0;

  BatchWriter batch_writer(
      [store = writer.value().get(),
       run_id](std::span<const storage::FetchRecord> records) {
        return store->AppendFetches(run_id, records);
      },
      options.batch_size, options.batch_interval,
      [&shared](std::vector<std::string> domains) {
        // Tell each loop which of its domains are now in the database.
        if (shared.loops.size() == 1) {
          shared.loops[0]->PostCommitted(std::move(domains));
          return;
        }
        std::vector<std::vector<std::string>> by_loop(shared.loops.size());
        for (std::string& domain : domains) {
          by_loop[LoopOfDomain(domain, shared.loops.size())].push_back(
              std::move(domain));
        }
        for (std::size_t i = 0; i < by_loop.size(); ++i) {
          if (!by_loop[i].empty()) {
            shared.loops[i]->PostCommitted(std::move(by_loop[i]));
          }
        }
      },
      [&shared](const Status& failure) {
        shared.StopAll("storage failure: " + failure.message());
      });
  shared.writer = &batch_writer;

  const bool cancelled = RunLoops(options, callbacks, total, &shared, loops,
                                  &batch_writer, handle, nullptr, nullptr);
  const Status write_failure = batch_writer.Finish();
  for (const auto& loop : loops) loop->DrainNotifications();
  summary->progress = SumProgress(loops, total, started);
  summary->cancelled = cancelled;
  if (callbacks.on_progress) callbacks.on_progress(summary->progress);

  Status status;
  if (!write_failure.ok()) {
    status = write_failure.WithContext("storage failure");
  } else if (std::string fatal = shared.fatal(); !fatal.empty()) {
    status = Status(StatusCode::kIoError, fatal);
  }
  const char* outcome = !status.ok()         ? "failed"
                        : summary->cancelled ? "interrupted"
                                             : "finished";
  const Status finished = writer.value()->FinishRun(
      run_id, outcome, FormatIso8601(std::chrono::system_clock::now()));
  if (status.ok() && !finished.ok()) return finished;
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
