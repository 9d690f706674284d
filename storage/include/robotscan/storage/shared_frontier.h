// The shared frontier of a scaled-out crawl (PostgreSQL only): a top list
// enqueued once as a crawl (`robotscan enqueue`), then fetched by any
// number of worker processes on any hosts (`robotscan crawl --worker`)
// that lease batches of it. The design, its guarantees and its failure
// cases are in docs/scale-out.md; in short:
//   * ClaimBatch leases up to batch_size pending domains (FOR UPDATE SKIP
//     LOCKED: concurrent claims never take the same rows nor wait for each
//     other), or takes over a whole batch whose lease expired.
//   * Heartbeat renews the worker's unexpired leases and IP slots.
//   * CommitFetches writes records and their frontier rows' completion in
//     one transaction, after locking the records' batches and checking
//     that each is still leased to this worker in the same generation;
//     records of batches taken over since are refused (counted), so a
//     crawl has exactly one record per domain (fetch's UNIQUE(run_id,
//     domain_id) backs this).
//   * TakeIpSlots / TakeStartTokens: the crawl-wide per-IP cap and rate.
//
// Thread-safety: one SharedFrontier per thread (each holds a connection).
//
// A worker's first steps (crawler's RunCrawlWorker is the whole loop).
//
// Usage:
//   auto frontier = SharedFrontier::Open("postgresql://host/crawls", {});
//   if (!frontier.ok()) return frontier.status();
//   SharedFrontier& f = *frontier.value();
//   Result<CrawlToJoin> crawl = f.FindCrawl(0);
//   if (!crawl.ok()) return crawl.status();
//   Result<std::int64_t> worker_id = f.RegisterWorker(crawl->run_id, me);
//   if (!worker_id.ok()) return worker_id.status();
//   Result<ClaimResult> claim =
//       f.ClaimBatch(crawl->run_id, *worker_id, crawl->settings);
#ifndef ROBOTSCAN_STORAGE_SHARED_FRONTIER_H_
#define ROBOTSCAN_STORAGE_SHARED_FRONTIER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/storage/crawl_lock.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

// Crawl-wide settings, fixed at enqueue time (crawl_settings).
struct CrawlSettings {
  int per_ip_limit = 8;   // Concurrent requests per IP, all workers; 0: none.
  double rate_limit = 0;  // New domains per second, all workers; 0: none.
  std::chrono::milliseconds lease{60000};  // Lease time of a batch.
  int batch_size = 100;                    // Domains per batch.
};

struct FrontierEntry {
  std::string domain;  // Normalized, as the list reader gives it.
  std::int64_t rank = 0;
};

// The entries of a list being enqueued, streamed.
class FrontierInput {
 public:
  virtual ~FrontierInput() = default;
  // The next entry; false at the end (or on an error).
  virtual bool Next(FrontierEntry* entry) = 0;
  // Once Next returned false: why, if it was not the end ("" otherwise).
  virtual std::string error() const = 0;
  // Lines of the list that were not entries (shown by crawl --status).
  virtual std::int64_t malformed_lines() const = 0;
};

struct EnqueueSummary {
  std::int64_t run_id = 0;
  std::int64_t entries = 0;     // Distinct domains enqueued.
  std::int64_t duplicates = 0;  // Entries dropped: domain already enqueued.
};

// The lease a domain is fetched under.
struct LeaseTag {
  std::int64_t batch_id = 0;
  std::int64_t generation = 0;  // +1 each time the batch is taken over.
};

struct LeasedDomain {
  FrontierEntry entry;
  LeaseTag lease;
  bool taken_over = false;  // From an expired lease of another worker.
  std::int64_t position = 0;
  // The domain's newest fetch in the database (any crawl), for the
  // already-present check and conditional requests.
  std::optional<PreviousFetch> previous;
};

struct ClaimResult {
  std::vector<LeasedDomain> domains;  // Empty: nothing to claim now.
  // When nothing was claimed: whether other workers still hold live
  // leases (whose domains may come back if those workers die). False with
  // no pending domain either: the crawl has nothing left for anyone.
  bool others_hold_leases = false;
  // Time until the soonest of those leases expires (-1: none).
  std::chrono::milliseconds soonest_expiry{-1};
};

struct CommitOutcome {
  std::int64_t accepted = 0;
  std::int64_t rejected = 0;  // Records whose batch was taken over.
  std::vector<std::string> rejected_domains;
  bool crawl_finished = false;  // This commit completed the crawl.
};

struct IpSlotRequest {
  std::string ip;
  int held = 0;     // Slots the worker holds and may be using.
  int desired = 0;  // Slots it wants (0 with held 0: give them all back).
};

struct IpSlotGrant {
  std::string ip;
  int slots = 0;           // Now held (>= the request's held).
  int others_wanting = 0;  // Other workers waiting for slots on this IP.
};

struct CrawlToJoin {
  std::int64_t run_id = 0;
  CrawlSettings settings;
};

struct WorkerInfo {
  std::string host;
  std::int64_t pid = 0;
  std::string started_at;
  std::string options_json;
};

// What `robotscan crawl --status` shows.
struct WorkerStatus {
  std::int64_t id = 0;
  std::string host;
  std::int64_t pid = 0;
  std::string started_at, stopped_at, status;
  double heartbeat_age_seconds = 0;  // Since its last heartbeat.
  std::int64_t fetched = 0, rejected = 0, in_flight = 0;
  double rate = 0;           // Domains per second, last reported.
  std::int64_t batches = 0;  // Leases held now.
  std::int64_t leased_domains = 0;
  double lease_expires_in_seconds = -1;  // Soonest of its leases; -1: none.
  std::int64_t ip_slots = 0;
};

struct FrontierStatus {
  RunRecord run;
  CrawlSettings settings;
  std::int64_t total = 0, pending = 0, leased = 0, done = 0, present = 0;
  std::int64_t duplicates = 0, malformed_lines = 0;
  // Domains taken over from expired leases (each may have been fetched
  // by the worker that lost the lease as well), and the batches.
  std::int64_t taken_over_domains = 0;
  std::int64_t taken_over_leases = 0;
  std::int64_t rejected_records = 0;
  std::int64_t expired_batches = 0;  // Leased, expired, not yet taken over.
  std::vector<WorkerStatus> workers;
};

class SharedFrontier {
 public:
  // Opens (creating or migrating the schema) the PostgreSQL database at
  // `uri`. A file path fails with kInvalidArgument: the frontier needs
  // PostgreSQL. options.compress_bodies applies to CommitFetches.
  static Result<std::unique_ptr<SharedFrontier>> Open(
      std::string_view uri, const StoreOptions& options);
  virtual ~SharedFrontier() = default;

  // Creates a crawl (a crawl_run row with its list provenance and
  // settings) and its frontier from `input`, in list order; a domain
  // already enqueued in this crawl is counted as a duplicate.
  // crawl_run.list_entries becomes the number of entries `input` gave.
  // One transaction: all or nothing (an input error rolls it back and is
  // returned as kInvalidArgument).
  virtual Result<EnqueueSummary> Enqueue(const RunInfo& info,
                                         const CrawlSettings& settings,
                                         FrontierInput* input) = 0;

  // The crawl `run_id`, or with 0 the newest crawl still running with a
  // frontier. kInvalidArgument when there is none.
  virtual Result<CrawlToJoin> FindCrawl(std::int64_t run_id) = 0;

  // The new worker's id.
  virtual Result<std::int64_t> RegisterWorker(std::int64_t run_id,
                                              const WorkerInfo& info) = 0;
  // Records the worker's end and gives back its IP slots.
  virtual Status FinishWorker(std::int64_t worker_id, std::string_view status,
                              std::string_view stopped_at) = 0;

  virtual Result<ClaimResult> ClaimBatch(std::int64_t run_id,
                                         std::int64_t worker_id,
                                         const CrawlSettings& settings) = 0;

  // The number of leases renewed (those not expired).
  virtual Result<std::int64_t> Heartbeat(std::int64_t worker_id,
                                         std::chrono::milliseconds lease,
                                         double rate,
                                         std::int64_t in_flight) = 0;

  // One transaction: the records (tags[i] is records[i]'s lease), the
  // domains found already present (present_tags likewise; they are done
  // without a record), their frontier rows, completed batches, the
  // worker's counters, and the crawl's end when nothing is left.
  virtual Result<CommitOutcome> CommitFetches(
      std::int64_t run_id, std::int64_t worker_id,
      std::span<const FetchRecord> records, std::span<const LeaseTag> tags,
      std::span<const std::string> present,
      std::span<const LeaseTag> present_tags) = 0;

  // Gives leased domains that were never started back to the frontier
  // (pending again, for anyone). Domains that were started keep their
  // lease until it expires: nobody fetches them again before.
  virtual Status ReleaseUnstarted(std::int64_t run_id, std::int64_t worker_id,
                                  std::span<const std::string> domains) = 0;

  virtual Result<std::vector<IpSlotGrant>> TakeIpSlots(
      std::int64_t run_id, std::int64_t worker_id,
      const CrawlSettings& settings,
      std::span<const IpSlotRequest> requests) = 0;

  // Up to `want` start tokens of the crawl's rate limit: those granted.
  virtual Result<double> TakeStartTokens(std::int64_t run_id, double want) = 0;

  // The crawl's progress and workers (run_id 0: the newest crawl with a
  // frontier).
  virtual Result<FrontierStatus> ReadStatus(std::int64_t run_id) = 0;

  // The worker's share of the one-live-crawl hold (crawl_lock.h): shared
  // with other workers, refused while a single-process crawl holds the
  // database.
  virtual Result<LockAttempt> LockForWorker(const CrawlHolder& me) = 0;
};

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SHARED_FRONTIER_H_
