// A scaled-out crawl's two halves in the crawler: EnqueueCrawl (a list into
// a crawl's shared frontier) and RunCrawlWorker (one worker of it). The
// protocol is storage's (shared_frontier.h, docs/scale-out.md); this file
// drives it: a coordinator thread leases batches and feeds them to the
// event loops (leased_domain_source.h), renews the leases, and keeps the
// crawl-wide per-IP slots and rate tokens flowing into the loops' limiters
// (request_limits.h); the writer thread commits each batch of records with
// their leases.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "batch_writer.h"
#include "crawl_loop.h"
#include "crawl_parts.h"
#include "leased_domain_source.h"
#include "list_cursor.h"
#include "list_staging.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/top_list_download.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/shared_frontier.h"
#include "time_format.h"

namespace robotscan::crawler {
namespace {

using Clock = std::chrono::steady_clock;

// The coordinator's turn: IP slots asked for and rate tokens taken this
// often (a request for a new IP waits at most about this long for its
// grant, plus a round trip).
constexpr std::chrono::milliseconds kCoordinatorTick{20};
// With nothing to claim while others hold leases: how often to look again
// (new pending domains appear when a draining worker gives some back, and
// the crawl's end is seen at the next look: a worker outlives the crawl's
// last commit by up to this much).
constexpr std::chrono::milliseconds kIdleClaimInterval{100};
// Queued domains a worker keeps beyond a concurrency's worth: this much
// time at its rate over the last kRateWindow.
constexpr std::chrono::milliseconds kQueueAhead{500};
constexpr std::chrono::seconds kRateWindow{1};
// A worker commits every batch_size records or this often, whichever comes
// first (a single-process crawl: every 200 ms). A commit has a fixed cost
// of a dozen statements, and N workers sharing a crawl each see 1/N of its
// rate: at 200 ms, four workers on loopback would make over twice the
// commits of one, for the same records. A quarter lease at most (unless
// the options ask for longer), so that records are committed well before
// their lease could expire.
constexpr std::chrono::milliseconds kWorkerBatchInterval{1000};

std::chrono::milliseconds WorkerBatchInterval(const CrawlOptions& options,
                                              std::chrono::milliseconds lease) {
  return std::max(options.batch_interval,
                  std::min(kWorkerBatchInterval, lease / 4));
}

// Renews this worker's leases, asks the crawl for IP slots and rate tokens,
// and keeps the loops' sources filled with leased domains.
class WorkerCoordinator {
 public:
  WorkerCoordinator(const CrawlOptions& options,
                    storage::SharedFrontier* frontier, std::int64_t run_id,
                    std::int64_t worker_id,
                    const storage::CrawlSettings& settings,
                    SharedCrawlState* shared,
                    std::vector<LeasedDomainSource*> sources,
                    std::function<CrawlProgress()> progress)
      : options_(options),
        frontier_(frontier),
        run_id_(run_id),
        worker_id_(worker_id),
        settings_(settings),
        shared_(shared),
        sources_(std::move(sources)),
        progress_(std::move(progress)) {
    if (options.recrawl_older_than) {
      recrawl_cutoff_ = FormatIso8601(std::chrono::system_clock::now() -
                                      *options.recrawl_older_than);
    }
  }
  ~WorkerCoordinator() { Stop(); }

  void Start() {
    thread_ = std::thread([this] { Loop(); });
  }

  // From a Cancel(): stop leasing, give back what was not started.
  void Drain() {
    std::lock_guard<std::mutex> lock(mutex_);
    draining_ = true;
    wake_.notify_one();
  }

  // After the loops returned: stops the thread, gives back the leased
  // domains no loop started (after a fatal error there may be some).
  void Stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      wake_.notify_one();
    }
    if (thread_.joinable()) thread_.join();
    std::vector<std::string> unstarted;
    for (LeasedDomainSource* source : sources_) {
      for (std::string& d : source->TakeUnstarted()) {
        unstarted.push_back(std::move(d));
      }
    }
    if (!unstarted.empty()) {
      Note(frontier_->ReleaseUnstarted(run_id_, worker_id_, unstarted));
    }
  }

  // The writer's side: the lease of each record (false if one has none,
  // which would be a bug: every record comes from a leased domain).
  bool TagsFor(std::span<const storage::FetchRecord> records,
               std::vector<storage::LeaseTag>* tags) {
    tags->clear();
    std::lock_guard<std::mutex> lock(leases_mutex_);
    for (const storage::FetchRecord& r : records) {
      auto it = leases_.find(r.domain);
      if (it == leases_.end()) return false;
      tags->push_back(it->second);
    }
    return true;
  }
  void Committed(std::span<const storage::FetchRecord> records,
                 const storage::CommitOutcome& outcome) {
    rejected_ += outcome.rejected;
    std::lock_guard<std::mutex> lock(leases_mutex_);
    for (const storage::FetchRecord& r : records) leases_.erase(r.domain);
  }

  void Amend(CrawlProgress* p) const {
    p->leased = leased_.load();
    p->taken_over = taken_over_.load();
    p->rejected = rejected_.load();
    p->already_present += present_.load();
    p->done += present_.load();
  }

  // The first storage error the coordinator met (ok: none).
  Status failure() {
    std::lock_guard<std::mutex> lock(mutex_);
    return failure_;
  }

 private:
  // A storage error ends the worker (its leases expire and others take
  // them over), except a deadlock or serialization failure (kBusy), which
  // the next tick simply tries again.
  void Note(const storage::Status& status) {
    if (status.ok() || status.code() == storage::Status::Code::kBusy) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failure_.ok()) failure_ = status;
    }
    shared_->StopAll("shared frontier: " + status.message());
  }

  std::size_t Queued() const {
    std::size_t n = 0;
    for (const LeasedDomainSource* s : sources_) n += s->queued();
    return n;
  }

  void Loop() {
    const auto heartbeat_every =
        std::max(std::chrono::milliseconds(50), settings_.lease / 4);
    Clock::time_point next_heartbeat = Clock::now() + heartbeat_every;
    Clock::time_point next_claim = Clock::now();
    std::int64_t fetched_at_heartbeat = 0;
    Clock::time_point heartbeat_at = Clock::now();
    std::int64_t fetched_at_rate = 0;
    Clock::time_point rate_at = Clock::now();
    bool ended = false;
    bool drained = false;
    for (;;) {
      if (Clock::now() - rate_at >= kRateWindow) {
        const std::int64_t fetched = progress_().fetched;
        recent_rate_ =
            (fetched - fetched_at_rate) /
            std::chrono::duration<double>(Clock::now() - rate_at).count();
        fetched_at_rate = fetched;
        rate_at = Clock::now();
      }
      bool draining = false;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (stopping_) return;
        draining = draining_;
      }
      if (draining && !drained) {
        drained = true;
        std::vector<std::string> unstarted;
        for (LeasedDomainSource* source : sources_) {
          for (std::string& d : source->TakeUnstarted()) {
            unstarted.push_back(std::move(d));
          }
        }
        Note(frontier_->ReleaseUnstarted(run_id_, worker_id_, unstarted));
      }
      const Clock::time_point now = Clock::now();
      if (!draining && !ended && now >= next_claim) {
        ClaimWhileLow(&ended, &next_claim);
      }
      if (settings_.per_ip_limit > 0) TradeIpSlots();
      if (settings_.rate_limit > 0 && !draining) TakeTokens();
      if (Clock::now() >= next_heartbeat) {
        const CrawlProgress p = progress_();
        const double seconds =
            std::chrono::duration<double>(Clock::now() - heartbeat_at).count();
        const double rate =
            seconds > 0 ? (p.fetched - fetched_at_heartbeat) / seconds : 0;
        fetched_at_heartbeat = p.fetched;
        heartbeat_at = Clock::now();
        Note(
            frontier_->Heartbeat(worker_id_, settings_.lease, rate, p.in_flight)
                .status());
        next_heartbeat = Clock::now() + heartbeat_every;
      }
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait_for(lock, kCoordinatorTick, [this, drained] {
        return stopping_ || draining_ != drained;
      });
    }
  }

  // Leases batches until the loops have a concurrency's worth of domains
  // queued and kQueueAhead of this worker's recent rate, or there is
  // nothing to lease now. (A concurrency's worth alone is little time for a
  // worker with a share of the crawl's concurrency: four workers of 125 on
  // loopback run through it in 100 ms, less than a heartbeat waiting for
  // a commit's locks (67 ms measured) plus a claim on a busy machine, and
  // their loops could run dry meanwhile.)
  void ClaimWhileLow(bool* ended, Clock::time_point* next_claim) {
    const double ahead =
        recent_rate_ * std::chrono::duration<double>(kQueueAhead).count();
    const std::size_t low_water = static_cast<std::size_t>(
        std::max({static_cast<double>(options_.concurrency),
                  static_cast<double>(settings_.batch_size), ahead}));
    while (Queued() < low_water) {
      storage::Result<storage::ClaimResult> claimed =
          frontier_->ClaimBatch(run_id_, worker_id_, settings_);
      if (!claimed.ok()) {
        Note(claimed.status());
        *next_claim = Clock::now() + kIdleClaimInterval;
        return;
      }
      storage::ClaimResult claim = std::move(claimed).value();
      if (claim.domains.empty()) {
        if (!claim.others_hold_leases) {
          // Nothing pending and no live lease of anyone else's: what is
          // left is this worker's own, already in its loops.
          *ended = true;
          for (LeasedDomainSource* source : sources_) source->End();
          return;
        }
        auto wait = kIdleClaimInterval;
        if (claim.soonest_expiry.count() >= 0) {
          wait = std::min(wait,
                          claim.soonest_expiry + std::chrono::milliseconds(10));
        }
        *next_claim = Clock::now() + wait;
        return;
      }
      Distribute(std::move(claim.domains));
    }
  }

  void Distribute(std::vector<storage::LeasedDomain> domains) {
    std::vector<std::string> present;
    std::vector<storage::LeaseTag> present_tags;
    {
      // A domain this worker already has in hand is never leased to it
      // again (the frontier does not take over a worker's own leases), so
      // one record per domain holds here too; should it happen, the
      // domain is not fetched twice.
      std::lock_guard<std::mutex> lock(leases_mutex_);
      std::vector<storage::LeasedDomain> fresh;
      for (storage::LeasedDomain& d : domains) {
        if (leases_.emplace(d.entry.domain, d.lease).second) {
          fresh.push_back(std::move(d));
        }
      }
      domains = std::move(fresh);
    }
    for (storage::LeasedDomain& d : domains) {
      ++leased_;
      if (d.taken_over) ++taken_over_;
      // --recrawl-older-than: a domain fetched since the cutoff (by an
      // earlier crawl) is done without a request.
      if (!recrawl_cutoff_.empty() && d.previous &&
          d.previous->fetched_at >= recrawl_cutoff_) {
        present.push_back(d.entry.domain);
        present_tags.push_back(d.lease);
        continue;
      }
      AdmittedDomain admitted;
      admitted.entry.domain = std::move(d.entry.domain);
      admitted.entry.rank = d.entry.rank;
      admitted.previous = std::move(d.previous);
      LeasedDomainSource* emptiest = sources_.front();
      for (LeasedDomainSource* source : sources_) {
        if (source->queued() < emptiest->queued()) emptiest = source;
      }
      emptiest->Add(std::move(admitted));
    }
    if (!present.empty()) {
      Note(frontier_
               ->CommitFetches(run_id_, worker_id_, {}, {}, present,
                               present_tags)
               .status());
      present_ += static_cast<std::int64_t>(present.size());
      std::lock_guard<std::mutex> lock(leases_mutex_);
      for (const std::string& domain : present) leases_.erase(domain);
    }
  }

  void TradeIpSlots() {
    const std::vector<storage::IpSlotRequest> requests =
        shared_->limiter.Demand();
    if (requests.empty()) return;
    const storage::Result<std::vector<storage::IpSlotGrant>> grants =
        frontier_->TakeIpSlots(run_id_, worker_id_, settings_, requests);
    if (!grants.ok()) {
      Note(grants.status());
      return;
    }
    shared_->limiter.Grant(*grants);
  }

  // Keeps about one tick's worth of the crawl's rate in the local bucket:
  // what a worker holds unspent is at most that (docs/scale-out.md).
  void TakeTokens() {
    const double tick_share =
        settings_.rate_limit *
        std::chrono::duration<double>(kCoordinatorTick).count();
    const double want = std::max(1.0, tick_share) - shared_->rate.tokens();
    if (want < 1) return;
    const storage::Result<double> granted =
        frontier_->TakeStartTokens(run_id_, std::floor(want));
    if (!granted.ok()) {
      Note(granted.status());
      return;
    }
    if (*granted > 0) shared_->rate.AddTokens(*granted);
  }

  const CrawlOptions& options_;
  storage::SharedFrontier* frontier_;
  const std::int64_t run_id_;
  const std::int64_t worker_id_;
  const storage::CrawlSettings settings_;
  SharedCrawlState* shared_;
  const std::vector<LeasedDomainSource*> sources_;
  const std::function<CrawlProgress()> progress_;
  std::string recrawl_cutoff_;
  double recent_rate_ = 0;  // Domains/s over the last kRateWindow.

  std::mutex mutex_;
  std::condition_variable wake_;
  bool draining_ = false;
  bool stopping_ = false;
  Status failure_;
  std::thread thread_;

  std::mutex leases_mutex_;
  std::unordered_map<std::string, storage::LeaseTag> leases_;

  std::atomic<std::int64_t> leased_{0}, taken_over_{0}, rejected_{0},
      present_{0};
};

// The list's entries selected by --top/--skip, for Enqueue.
class ListInput final : public storage::FrontierInput {
 public:
  ListInput(TopListReader* list, const ListSelection& selection,
            const std::function<void(const MalformedLine&)>& on_malformed)
      : list_(list), cursor_(selection), on_malformed_(on_malformed) {}
  bool Next(storage::FrontierEntry* out) override {
    TopListEntry entry;
    MalformedLine bad;
    for (;;) {
      if (cursor_.Exhausted()) return false;
      switch (list_->Next(&entry, &bad)) {
        case ReadOutcome::kEnd:
          return false;
        case ReadOutcome::kError:
          error_ = "reading the list: " + list_->error();
          return false;
        case ReadOutcome::kMalformed:
          ++malformed_;
          if (on_malformed_) on_malformed_(bad);
          continue;
        case ReadOutcome::kEntry:
          break;
      }
      if (cursor_.Next() != ListCursor::Verdict::kTake) continue;
      out->domain = std::move(entry.domain);
      out->rank = entry.rank;
      return true;
    }
  }
  std::string error() const override { return error_; }
  std::int64_t malformed_lines() const override { return malformed_; }

 private:
  TopListReader* list_;
  ListCursor cursor_;
  const std::function<void(const MalformedLine&)>& on_malformed_;
  std::int64_t malformed_ = 0;
  std::string error_;
};

}  // namespace

Status EnqueueCrawl(
    const EnqueueOptions& options,
    const std::function<void(const MalformedLine&)>& on_malformed_line,
    storage::EnqueueSummary* summary) {
  if (options.list_path.empty()) {
    return Status(StatusCode::kInvalidArgument, "no list given");
  }
  if (options.top < 0 || options.skip < 0) {
    return Status(StatusCode::kInvalidArgument,
                  "--top and --skip must not be negative");
  }
  if (options.settings.batch_size < 1) {
    return Status(StatusCode::kInvalidArgument, "--batch-size must be >= 1");
  }
  if (options.settings.lease < std::chrono::milliseconds(100)) {
    return Status(StatusCode::kInvalidArgument,
                  "--lease must be at least 100ms");
  }
  // Read once, whatever the list is (list_staging.h), before the database
  // is touched.
  Result<StagedList> staged = StagedList::Stage(options.list_path, nullptr);
  if (!staged.ok()) return staged.status();
  auto frontier = storage::SharedFrontier::Open(options.db_path, {});
  if (!frontier.ok()) return frontier.status();
  Result<std::unique_ptr<TopListReader>> list =
      TopListReader::Open(staged->path());
  if (!list.ok()) return list.status();
  storage::RunInfo info;
  info.started_at = FormatIso8601(std::chrono::system_clock::now());
  info.host = HostName();
  info.pid = getpid();
  info.tool_version = options.tool_version;
  info.input = options.list_path;
  if (Status read = ReadListProvenance(staged->path(), &info.list);
      !read.ok()) {
    return read;
  }
  // Crawl-wide settings as the run's options; each worker records its own
  // fetch options in crawl_worker.options.
  info.options_json =
      "{\"mode\":\"enqueued\",\"top\":" + std::to_string(options.top) +
      ",\"skip\":" + std::to_string(options.skip) +
      ",\"per_ip_limit\":" + std::to_string(options.settings.per_ip_limit) +
      ",\"rate_limit\":" + std::to_string(options.settings.rate_limit) +
      ",\"lease_ms\":" + std::to_string(options.settings.lease.count()) +
      ",\"batch_size\":" + std::to_string(options.settings.batch_size) + "}";
  ListInput input(list.value().get(),
                  ListSelection{.skip = options.skip, .top = options.top},
                  on_malformed_line);
  storage::Result<storage::EnqueueSummary> enqueued =
      frontier.value()->Enqueue(info, options.settings, &input);
  if (!enqueued.ok()) return enqueued.status();
  *summary = *enqueued;
  return Status::Ok();
}

Status RunCrawlWorker(const CrawlOptions& options, std::int64_t run_id,
                      const CrawlCallbacks& callbacks, CrawlSummary* summary,
                      CrawlHandle* handle) {
  CrawlOptions checked = options;
  checked.list_path = "(the shared frontier)";
  const Result<CrawlPlan> plan = ValidateCrawlOptions(checked);
  if (!plan.ok()) return plan.status();
  return RunCrawlWorker(*plan, run_id, callbacks, summary, handle);
}

Status RunCrawlWorker(const CrawlPlan& plan, std::int64_t run_id,
                      const CrawlCallbacks& callbacks, CrawlSummary* summary,
                      CrawlHandle* handle) {
  const CrawlOptions& options = plan.options;
  if (!storage::IsPostgresUri(options.db_path)) {
    return Status(
        StatusCode::kInvalidArgument,
        "--worker needs a PostgreSQL database (--db postgresql://...): an "
        "SQLite file has one writer");
  }
  const Clock::time_point started = Clock::now();
  storage::StoreOptions store_options;
  store_options.compress_bodies = options.compress_bodies;
  auto coordination =
      storage::SharedFrontier::Open(options.db_path, store_options);
  if (!coordination.ok()) return coordination.status();
  storage::Result<storage::CrawlToJoin> found =
      coordination.value()->FindCrawl(run_id);
  if (!found.ok()) return found.status();
  const storage::CrawlToJoin crawl = *found;
  summary->run_id = crawl.run_id;

  storage::CrawlHolder me;
  me.pid = getpid();
  me.host = HostName();
  me.started_at = FormatIso8601(std::chrono::system_clock::now());
  me.run_id = crawl.run_id;
  storage::Result<storage::LockAttempt> locked =
      coordination.value()->LockForWorker(me);
  if (!locked.ok()) return locked.status();
  storage::LockAttempt hold = std::move(locked).value();
  if (!hold.lock) {
    summary->locked_by = *hold.held_by;
    return Status(StatusCode::kLocked,
                  "the database is being written by a single-process crawl");
  }
  if (hold.stale && callbacks.on_stale_lock) {
    callbacks.on_stale_lock(*hold.stale);
  }
  storage::WorkerInfo info{me.host, me.pid, me.started_at, OptionsAsJson(plan)};
  const storage::Result<std::int64_t> registered =
      coordination.value()->RegisterWorker(crawl.run_id, info);
  if (!registered.ok()) return registered.status();
  const std::int64_t worker_id = *registered;
  // The writer thread commits on a connection of its own.
  auto commits = storage::SharedFrontier::Open(options.db_path, store_options);
  if (!commits.ok()) return commits.status();

  const std::size_t loop_count = LoopCount(options);
  SharedCrawlState shared(crawl.settings.per_ip_limit,
                          crawl.settings.rate_limit, true);
  std::vector<std::unique_ptr<LeasedDomainSource>> sources;
  std::vector<LeasedDomainSource*> source_pointers;
  std::vector<std::unique_ptr<CrawlLoop>> loops;
  for (std::size_t i = 0; i < loop_count; ++i) {
    sources.push_back(std::make_unique<LeasedDomainSource>());
    source_pointers.push_back(sources.back().get());
    loops.push_back(std::make_unique<CrawlLoop>(
        plan, callbacks, &shared, loop_count, sources.back().get()));
    if (Status ready = loops.back()->CheckReady(); !ready.ok()) {
      return ready;
    }
    shared.loops.push_back(loops.back().get());
  }
  WorkerCoordinator coordinator(
      options, coordination.value().get(), crawl.run_id, worker_id,
      crawl.settings, &shared, source_pointers,
      [&loops, started] { return SumProgress(loops, 0, started); });
  storage::SharedFrontier* commit_frontier = commits.value().get();
  BatchWriter batch_writer(
      [&](std::span<const storage::FetchRecord> records) {
        std::vector<storage::LeaseTag> tags;
        if (!coordinator.TagsFor(records, &tags)) {
          return storage::Status(storage::Status::Code::kInternal,
                                 "a record without its lease");
        }
        storage::Result<storage::CommitOutcome> outcome =
            commit_frontier->CommitFetches(crawl.run_id, worker_id, records,
                                           tags, {}, {});
        if (outcome.ok()) coordinator.Committed(records, *outcome);
        return outcome.status();
      },
      options.batch_size, WorkerBatchInterval(options, crawl.settings.lease),
      nullptr,
      [&shared](const Status& failure) {
        shared.StopAll("storage failure: " + failure.message());
      });
  shared.writer = &batch_writer;

  coordinator.Start();
  const bool cancelled = RunLoops(
      options, callbacks, 0, &shared, loops, &batch_writer, handle,
      [&coordinator] { coordinator.Drain(); },
      [&coordinator](CrawlProgress* p) { coordinator.Amend(p); });
  const Status write_failure = batch_writer.Finish();
  coordinator.Stop();
  for (const auto& loop : loops) loop->DrainNotifications();
  summary->progress = SumProgress(loops, 0, started);
  coordinator.Amend(&summary->progress);
  summary->cancelled = cancelled;
  if (callbacks.on_progress) callbacks.on_progress(summary->progress);

  // The coordinator's storage failure keeps its code; a loop's fatal
  // message is an I/O failure, as in RunCrawl.
  Status status;
  if (!write_failure.ok()) {
    status = write_failure.WithContext("storage failure");
  } else if (Status failed = coordinator.failure(); !failed.ok()) {
    status = failed.WithContext("shared frontier");
  } else if (std::string fatal = shared.fatal(); !fatal.empty()) {
    status = Status(StatusCode::kIoError, fatal);
  }
  const char* outcome = !status.ok()         ? "failed"
                        : summary->cancelled ? "interrupted"
                                             : "finished";
  const storage::Status finished = coordination.value()->FinishWorker(
      worker_id, outcome, FormatIso8601(std::chrono::system_clock::now()));
  if (status.ok() && !finished.ok()) return finished;
  return status;
}

}  // namespace robotscan::crawler
