// SharedFrontier on PostgreSQL (shared_frontier.h; protocol in
// docs/scale-out.md). The steps that must be atomic on the server are SQL
// functions of schema version 3 (pg_schema.h); the commit is one
// transaction here.
#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "location/backends.h"
#include "postgres/pg_crawl_lock.h"
#include "postgres/pg_database.h"
#include "postgres/pg_fetch_writer.h"
#include "postgres/pg_handles.h"
#include "robotscan/storage/shared_frontier.h"
#include "schema/previous_fetch_columns.h"

namespace robotscan::storage {
namespace {

constexpr int kBusyRetries = 5;
// While a worker waits with nothing pending ahead of it: how often it looks
// for pending domains behind (a scan over the dead entries of every domain
// claimed since the last VACUUM).
constexpr std::chrono::seconds kRescanInterval{2};

std::chrono::milliseconds MillisOf(double value) {
  return std::chrono::milliseconds(static_cast<std::int64_t>(value));
}

class PgSharedFrontier final : public SharedFrontier {
 public:
  PgSharedFrontier(PgDatabase db, std::string uri, const StoreOptions& options)
      : db_(std::move(db)),
        uri_(std::move(uri)),
        writer_(db_.utf8, options.compress_bodies) {}

  Result<EnqueueSummary> Enqueue(const RunInfo& info,
                                 const CrawlSettings& settings,
                                 FrontierInput* input) override {
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    Result<std::int64_t> inserted_run =
        InsertPgCrawlRun(conn(), db_.utf8, info);
    if (!inserted_run.ok()) return inserted_run.status();
    const std::int64_t run_id = *inserted_run;
    EnqueueSummary summary;
    if (Status s = ExecPg(
            conn(),
            "INSERT INTO crawl_settings(run_id, per_ip_limit, rate_limit, "
            "lease_ms, batch_size) VALUES ($1, $2, $3, $4, $5)",
            PgParams()
                .Int(run_id)
                .Int(settings.per_ip_limit)
                .Double(settings.rate_limit)
                .Int(settings.lease.count())
                .Int(settings.batch_size),
            "insert crawl_settings");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPgSimple(
            conn(),
            "CREATE TEMP TABLE staged_frontier (position bigint, domain text, "
            "rank bigint) ON COMMIT DROP",
            "stage frontier");
        !s.ok()) {
      return s;
    }
    std::int64_t staged = 0;
    if (Status s = CopyEntries(input, &staged); !s.ok()) return s;
    if (const std::string error = input->error(); !error.empty()) {
      return Status(Status::Code::kInvalidArgument, error);
    }
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "WITH ins AS (INSERT INTO crawl_frontier(run_id, domain, rank, "
            "position) SELECT DISTINCT ON (domain) $1::int8, domain, rank, "
            "position FROM staged_frontier ORDER BY domain, position "
            "RETURNING 1) SELECT count(*)::int8 FROM ins",
            PgParams().Int(run_id), "enqueue", &r);
        !s.ok()) {
      return s;
    }
    summary.run_id = run_id;
    summary.entries = PgInt(r.get(), 0, 0);
    summary.duplicates = staged - summary.entries;
    if (Status s = ExecPg(
            conn(),
            "UPDATE crawl_settings SET duplicates = $2, malformed_lines = $3 "
            "WHERE run_id = $1",
            PgParams()
                .Int(run_id)
                .Int(summary.duplicates)
                .Int(input->malformed_lines()),
            "count duplicates");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPg(
            conn(), "UPDATE crawl_run SET list_entries = $2 WHERE id = $1",
            PgParams().Int(run_id).Int(staged), "count the list's entries");
        !s.ok()) {
      return s;
    }
    if (Status s = txn.Commit(); !s.ok()) return s;
    // Fresh statistics for the frontier the workers are about to query:
    // without them the planner takes a whole list's rows of this crawl for
    // a handful and scans them by position on every commit (autovacuum
    // analyzes a minute later at best). They stay right for the whole
    // crawl: the run is the table's big value, and domains leave pending
    // in list order.
    if (Status s = ExecPgSimple(conn(), "ANALYZE crawl_frontier",
                                "analyze the frontier");
        !s.ok()) {
      return s;
    }
    return summary;
  }

  Result<CrawlToJoin> FindCrawl(std::int64_t run_id) override {
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "SELECT r.id, s.per_ip_limit::int8, s.rate_limit, s.lease_ms, "
            "s.batch_size::int8 FROM crawl_run r JOIN crawl_settings s ON "
            "s.run_id = r.id WHERE ($1::int8 = 0 AND r.status = 'running') OR "
            "r.id = $1::int8 ORDER BY r.id DESC LIMIT 1",
            PgParams().Int(run_id), "find crawl", &r);
        !s.ok()) {
      return s;
    }
    if (PQntuples(r.get()) == 0) {
      return Status(Status::Code::kInvalidArgument,
                    run_id > 0 ? "no enqueued crawl " + std::to_string(run_id)
                               : std::string("no enqueued crawl is running "
                                             "(robotscan enqueue LIST --db "
                                             "URI makes one)"));
    }
    CrawlToJoin crawl;
    crawl.run_id = PgInt(r.get(), 0, 0);
    crawl.settings.per_ip_limit = static_cast<int>(PgInt(r.get(), 0, 1));
    crawl.settings.rate_limit = PgDouble(r.get(), 0, 2);
    crawl.settings.lease = std::chrono::milliseconds(PgInt(r.get(), 0, 3));
    crawl.settings.batch_size = static_cast<int>(PgInt(r.get(), 0, 4));
    return crawl;
  }

  Result<std::int64_t> RegisterWorker(std::int64_t run_id,
                                      const WorkerInfo& info) override {
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "INSERT INTO crawl_worker(run_id, host, pid, started_at, options) "
            "VALUES ($1, $2, $3, $4, $5) RETURNING id",
            PgParams()
                .Int(run_id)
                .Text(PgSafeText(info.host, db_.utf8))
                .Int(info.pid)
                .Text(info.started_at)
                .TextOrNull(PgSafeText(info.options_json, db_.utf8)),
            "register worker", &r);
        !s.ok()) {
      return s;
    }
    return PgInt(r.get(), 0, 0);
  }

  Status FinishWorker(std::int64_t worker_id, std::string_view status,
                      std::string_view stopped_at) override {
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    if (Status s =
            ExecPg(conn(),
                   "UPDATE crawl_worker SET status = $2, stopped_at = "
                   "$3, in_flight = 0 WHERE id = $1",
                   PgParams().Int(worker_id).Text(status).Text(stopped_at),
                   "finish worker");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPg(conn(), "DELETE FROM ip_quota WHERE worker_id = $1",
                          PgParams().Int(worker_id), "give back IP slots");
        !s.ok()) {
      return s;
    }
    return txn.Commit();
  }

  // New domains are claimed from the position after this worker's
  // previous claim (robotscan_claim's p_from: a scan from the list's start
  // would step over the dead index entries of every domain claimed so
  // far). Domains behind it that are pending again (given back by a
  // draining worker, or skipped by a claim that failed) are found by a
  // scan from the start: when nothing is pending ahead and nobody else
  // holds a lease, and every kRescanInterval while this worker waits.
  Result<ClaimResult> ClaimBatch(std::int64_t run_id, std::int64_t worker_id,
                                 const CrawlSettings& settings) override {
    ClaimResult claim;
    if (run_id != claim_run_) {
      claim_run_ = run_id;
      claim_from_ = 0;
    }
    if (Status s = ClaimFrom(run_id, worker_id, settings, &claim); !s.ok()) {
      return s;
    }
    if (!claim.domains.empty() || claim_from_ == 0) return claim;
    const auto now = std::chrono::steady_clock::now();
    if (claim.others_hold_leases && now - rescanned_at_ < kRescanInterval) {
      return claim;
    }
    rescanned_at_ = now;
    const std::int64_t ahead = claim_from_;
    claim_from_ = 0;
    if (Status s = ClaimFrom(run_id, worker_id, settings, &claim); !s.ok()) {
      return s;
    }
    // Nothing behind either: the next claims look ahead again.
    if (claim.domains.empty()) claim_from_ = ahead;
    return claim;
  }

  Status ClaimFrom(std::int64_t run_id, std::int64_t worker_id,
                   const CrawlSettings& settings, ClaimResult* claim) {
    *claim = ClaimResult();
    PgResult r;
    // Each claimed domain's previous fetch is looked up by its name, an
    // index probe per domain: OFFSET 0 keeps the planner from turning the
    // lookup into a join, which it did by hashing the whole domain table
    // on every claim (it cannot know that a claim returns batch_size rows,
    // not its default guess of 1000), a cost growing with the crawl.
    if (Status s = ExecPg(
            conn(),
            std::string("SELECT c.lease_batch, c.lease_generation::int8, "
                        "c.lease_domain, c.lease_rank, c.lease_position, "
                        "c.lease_taken_over::int, pf.* FROM "
                        "robotscan_claim($1, $2, $3, $4, $5) c LEFT JOIN "
                        "LATERAL "
                        "(SELECT ") +
                schema::PreviousFetchColumnsSql(schema::Dialect::kPostgres) +
                " FROM domain d JOIN \"fetch\" f ON f.id = d.latest_fetch_id "
                "WHERE d.name = c.lease_domain OFFSET 0) pf ON true ORDER BY "
                "c.lease_position",
            PgParams()
                .Int(run_id)
                .Int(worker_id)
                .Int(std::max(1, settings.batch_size))
                .Int(settings.lease.count())
                .Int(claim_from_),
            "claim a batch", &r);
        !s.ok()) {
      return s;
    }
    const PGresult* res = r.get();
    for (int i = 0; i < PQntuples(res); ++i) {
      LeasedDomain d;
      d.lease.batch_id = PgInt(res, i, 0);
      d.lease.generation = PgInt(res, i, 1);
      d.entry.domain = PgText(res, i, 2);
      d.entry.rank = PgInt(res, i, 3);
      d.position = PgInt(res, i, 4);
      d.taken_over = PgInt(res, i, 5) != 0;
      if (!PgIsNull(res, i, 6)) {
        PreviousFetch previous;
        if (Status s =
                schema::DecodePreviousFetch(PgCells(res, i), 6, &previous);
            !s.ok()) {
          return s;
        }
        d.previous = std::move(previous);
      }
      if (!d.taken_over) {
        claim_from_ = std::max(claim_from_, d.position + 1);
      }
      claim->domains.push_back(std::move(d));
    }
    if (!claim->domains.empty()) return Status::Ok();
    if (Status s = ExecPg(
            conn(),
            "SELECT EXISTS (SELECT 1 FROM crawl_frontier WHERE run_id = $1 "
            "AND state = 'pending' AND position >= $3)::int, (SELECT "
            "extract(epoch FROM min(b.expires_at) - clock_timestamp()) * 1000 "
            "FROM crawl_batch b WHERE b.run_id = $1 AND b.state = 'leased' "
            "AND b.worker_id <> $2)::float8",
            PgParams().Int(run_id).Int(worker_id).Int(claim_from_),
            "claim: what is left", &r);
        !s.ok()) {
      return s;
    }
    const bool pending = PgInt(r.get(), 0, 0) != 0;
    const bool leases = !PgIsNull(r.get(), 0, 1);
    claim->others_hold_leases = pending || leases;
    if (leases) {
      claim->soonest_expiry = std::max(std::chrono::milliseconds(0),
                                       MillisOf(PgDouble(r.get(), 0, 1)));
    }
    return Status::Ok();
  }

  Result<std::int64_t> Heartbeat(std::int64_t worker_id,
                                 std::chrono::milliseconds lease, double rate,
                                 std::int64_t in_flight) override {
    PgResult r;
    if (Status s =
            ExecPg(conn(), "SELECT robotscan_heartbeat($1, $2, $3, $4)::int8",
                   PgParams()
                       .Int(worker_id)
                       .Int(lease.count())
                       .Double(rate)
                       .Int(in_flight),
                   "heartbeat", &r);
        !s.ok()) {
      return s;
    }
    return PgInt(r.get(), 0, 0);
  }

  Result<CommitOutcome> CommitFetches(
      std::int64_t run_id, std::int64_t worker_id,
      std::span<const FetchRecord> records, std::span<const LeaseTag> tags,
      std::span<const std::string> present,
      std::span<const LeaseTag> present_tags) override {
    if (tags.size() != records.size() ||
        present_tags.size() != present.size()) {
      return Status(Status::Code::kInvalidArgument,
                    "every record needs its lease");
    }
    Status status;
    for (int attempt = 0; attempt <= kBusyRetries; ++attempt) {
      CommitOutcome outcome;
      status = CommitOnce(run_id, worker_id, records, tags, present,
                          present_tags, &outcome);
      if (status.ok()) {
        writer_.Committed();
        return outcome;
      }
      writer_.RolledBack();
      if (status.code() != Status::Code::kBusy) break;
    }
    return status;
  }

  Status ReleaseUnstarted(std::int64_t run_id, std::int64_t worker_id,
                          std::span<const std::string> domains) override {
    if (domains.empty()) return Status::Ok();
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    const std::vector<std::string> list(domains.begin(), domains.end());
    if (Status s = ExecPg(
            conn(),
            "UPDATE crawl_frontier f SET state = 'pending', batch_id = NULL "
            "FROM crawl_batch b WHERE f.run_id = $1 AND f.domain = "
            "ANY($2::text[]) AND f.state = 'leased' AND b.id = f.batch_id AND "
            "b.worker_id = $3",
            PgParams().Int(run_id).Text(PgTextArray(list)).Int(worker_id),
            "release unstarted domains");
        !s.ok()) {
      return s;
    }
    if (Status s = CloseEmptyBatches(worker_id); !s.ok()) return s;
    return txn.Commit();
  }

  Result<std::vector<IpSlotGrant>> TakeIpSlots(
      std::int64_t run_id, std::int64_t worker_id,
      const CrawlSettings& settings,
      std::span<const IpSlotRequest> requests) override {
    std::vector<IpSlotGrant> grants;
    if (requests.empty()) return grants;
    std::vector<std::string> ips;
    std::vector<std::int64_t> held, desired;
    for (const IpSlotRequest& request : requests) {
      ips.push_back(request.ip);
      held.push_back(request.held);
      desired.push_back(request.desired);
    }
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "SELECT quota_ip, quota_slots::int8, quota_others_wanting::int8 "
            "FROM robotscan_ip_quota($1, $2, $3::text[], $4::int[], "
            "$5::int[], $6, $7)",
            PgParams()
                .Int(run_id)
                .Int(worker_id)
                .Text(PgTextArray(ips))
                .Text(PgIntArray(held))
                .Text(PgIntArray(desired))
                .Int(settings.per_ip_limit)
                .Int(settings.lease.count()),
            "take IP slots", &r);
        !s.ok()) {
      return s;
    }
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      IpSlotGrant grant;
      grant.ip = PgText(r.get(), i, 0);
      grant.slots = static_cast<int>(PgInt(r.get(), i, 1));
      grant.others_wanting = static_cast<int>(PgInt(r.get(), i, 2));
      grants.push_back(std::move(grant));
    }
    return grants;
  }

  Result<double> TakeStartTokens(std::int64_t run_id, double want) override {
    PgResult r;
    if (Status s =
            ExecPg(conn(), "SELECT robotscan_take_tokens($1, $2)",
                   PgParams().Int(run_id).Double(want), "take tokens", &r);
        !s.ok()) {
      return s;
    }
    return PgDouble(r.get(), 0, 0);
  }

  Result<FrontierStatus> ReadStatus(std::int64_t run_id) override {
    FrontierStatus status;
    if (run_id == 0) {
      PgResult newest;
      if (Status s = ExecPg(conn(),
                            "SELECT coalesce(max(run_id), 0)::int8 FROM "
                            "crawl_settings",
                            {}, "find crawl", &newest);
          !s.ok()) {
        return s;
      }
      run_id = PgInt(newest.get(), 0, 0);
      if (run_id == 0) {
        return Status(Status::Code::kInvalidArgument,
                      "no crawl was enqueued in this database");
      }
    }
    Result<CrawlToJoin> crawl = FindCrawl(run_id);
    if (!crawl.ok()) return crawl.status();
    status.settings = crawl->settings;
    Result<std::vector<RunRecord>> runs = ReadPgRuns(conn(), db_.version);
    if (!runs.ok()) return runs.status();
    for (const RunRecord& run : *runs) {
      if (run.id == run_id) status.run = run;
    }
    PgTransaction txn(conn());
    if (Status s =
            txn.Begin("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        !s.ok()) {
      return s;
    }
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "SELECT count(*)::int8, count(*) FILTER (WHERE state = "
            "'pending')::int8, count(*) FILTER (WHERE state = 'leased')::int8, "
            "count(*) FILTER (WHERE state = 'done')::int8, count(*) FILTER "
            "(WHERE state = 'present')::int8, count(*) FILTER (WHERE "
            "expired_leases > 0)::int8, coalesce(sum(expired_leases), "
            "0)::int8, (SELECT duplicates FROM crawl_settings WHERE run_id = "
            "$1)::int8, (SELECT malformed_lines FROM crawl_settings WHERE "
            "run_id = $1)::int8, (SELECT count(*) FROM crawl_batch WHERE "
            "run_id = $1 AND state = 'leased' AND expires_at < "
            "clock_timestamp())::int8 FROM crawl_frontier WHERE run_id = $1",
            PgParams().Int(run_id), "count the frontier", &r);
        !s.ok()) {
      return s;
    }
    const PGresult* c = r.get();
    status.total = PgInt(c, 0, 0);
    status.pending = PgInt(c, 0, 1);
    status.leased = PgInt(c, 0, 2);
    status.done = PgInt(c, 0, 3);
    status.present = PgInt(c, 0, 4);
    status.taken_over_domains = PgInt(c, 0, 5);
    status.taken_over_leases = PgInt(c, 0, 6);
    status.duplicates = PgInt(c, 0, 7);
    status.malformed_lines = PgInt(c, 0, 8);
    status.expired_batches = PgInt(c, 0, 9);
    if (Status s = ExecPg(
            conn(),
            "SELECT w.id, w.host, w.pid, w.started_at, w.stopped_at, "
            "w.status, extract(epoch FROM clock_timestamp() - "
            "w.heartbeat_at)::float8, w.fetched, w.rejected, w.in_flight, "
            "w.rate, (SELECT count(*) FROM crawl_batch b WHERE b.worker_id = "
            "w.id AND b.state = 'leased')::int8, (SELECT count(*) FROM "
            "crawl_frontier f JOIN crawl_batch b ON b.id = f.batch_id WHERE "
            "b.worker_id = w.id AND f.state = 'leased')::int8, (SELECT "
            "extract(epoch FROM min(b.expires_at) - clock_timestamp()) FROM "
            "crawl_batch b WHERE b.worker_id = w.id AND b.state = "
            "'leased')::float8, (SELECT coalesce(sum(q.slots), 0) FROM "
            "ip_quota q WHERE q.worker_id = w.id AND q.expires_at > "
            "clock_timestamp())::int8 FROM crawl_worker w WHERE w.run_id = $1 "
            "ORDER BY w.id",
            PgParams().Int(run_id), "read workers", &r);
        !s.ok()) {
      return s;
    }
    const PGresult* w = r.get();
    for (int i = 0; i < PQntuples(w); ++i) {
      WorkerStatus ws;
      ws.id = PgInt(w, i, 0);
      ws.host = PgText(w, i, 1);
      ws.pid = PgInt(w, i, 2);
      ws.started_at = PgText(w, i, 3);
      ws.stopped_at = PgText(w, i, 4);
      ws.status = PgText(w, i, 5);
      ws.heartbeat_age_seconds = PgDouble(w, i, 6);
      ws.fetched = PgInt(w, i, 7);
      ws.rejected = PgInt(w, i, 8);
      ws.in_flight = PgInt(w, i, 9);
      ws.rate = PgDouble(w, i, 10);
      ws.batches = PgInt(w, i, 11);
      ws.leased_domains = PgInt(w, i, 12);
      ws.lease_expires_in_seconds =
          PgIsNull(w, i, 13) ? -1 : PgDouble(w, i, 13);
      ws.ip_slots = PgInt(w, i, 14);
      status.rejected_records += ws.rejected;
      status.workers.push_back(std::move(ws));
    }
    if (Status s = txn.Commit(); !s.ok()) return s;
    return status;
  }

  Result<LockAttempt> LockForWorker(const CrawlHolder& me) override {
    return AcquirePgCrawlLock(uri_, me, CrawlLockMode::kShared);
  }

 private:
  PGconn* conn() { return db_.conn.get(); }

  // Streams the entries into staged_frontier with one COPY.
  Status CopyEntries(FrontierInput* input, std::int64_t* staged) {
    PgResult start(PQexec(conn(),
                          "COPY staged_frontier (position, domain, rank) FROM "
                          "STDIN"));
    if (start == nullptr || PQresultStatus(start.get()) != PGRES_COPY_IN) {
      return StatusFromPgResult(conn(), start.get(), "copy the list");
    }
    CopyRows rows(db_.utf8);
    FrontierEntry entry;
    std::int64_t position = 0;
    bool more = true;
    while (more) {
      more = input->Next(&entry);
      if (more) {
        rows.Int(++position).Text(entry.domain).Int(entry.rank);
        rows.EndRow();
      }
      if (rows.data().size() >= (1u << 20) || (!more && !rows.empty())) {
        if (PQputCopyData(conn(), rows.data().data(),
                          static_cast<int>(rows.data().size())) != 1) {
          return StatusFromPgResult(conn(), nullptr, "copy the list");
        }
        rows.Clear();
      }
    }
    if (PQputCopyEnd(conn(), nullptr) != 1) {
      return StatusFromPgResult(conn(), nullptr, "copy the list");
    }
    Status status;
    while (PGresult* raw = PQgetResult(conn())) {
      PgResult r(raw);
      if (PQresultStatus(r.get()) != PGRES_COMMAND_OK && status.ok()) {
        status = StatusFromPgResult(conn(), r.get(), "copy the list");
      }
    }
    *staged = position;
    return status;
  }

  Status CloseEmptyBatches(std::int64_t worker_id) {
    return ExecPg(conn(),
                  "UPDATE crawl_batch b SET state = 'done' WHERE b.worker_id "
                  "= $1 AND b.state = 'leased' AND NOT EXISTS (SELECT 1 FROM "
                  "crawl_frontier f WHERE f.batch_id = b.id AND f.state = "
                  "'leased' OFFSET 0)",
                  PgParams().Int(worker_id), "close finished batches");
  }

  Status CommitOnce(std::int64_t run_id, std::int64_t worker_id,
                    std::span<const FetchRecord> records,
                    std::span<const LeaseTag> tags,
                    std::span<const std::string> present,
                    std::span<const LeaseTag> present_tags,
                    CommitOutcome* outcome) {
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    std::set<std::int64_t> batch_set;
    std::vector<StagedLease> leases;
    for (const LeaseTag& tag : tags) {
      batch_set.insert(tag.batch_id);
      leases.push_back({tag.batch_id, tag.generation});
    }
    for (const LeaseTag& tag : present_tags) batch_set.insert(tag.batch_id);
    const std::vector<std::int64_t> batches(batch_set.begin(), batch_set.end());
    // The batches first, in id order (concurrent commits and claims lock
    // them in one order): from here until COMMIT no claim can take them
    // over, and a claim that took one over before has changed its worker
    // or generation.
    if (Status s =
            ExecPg(conn(),
                   "SELECT id FROM crawl_batch WHERE id = "
                   "ANY($1::int8[]) ORDER BY id FOR UPDATE",
                   PgParams().Text(PgIntArray(batches)), "lock the batches");
        !s.ok()) {
      return s;
    }
    if (!records.empty()) {
      if (Status s = writer_.Stage(conn(), records, leases); !s.ok()) return s;
      PgResult r;
      if (Status s = ExecPg(
              conn(),
              "DELETE FROM staged_fetch s WHERE NOT EXISTS (SELECT 1 FROM "
              "crawl_batch b WHERE b.id = s.batch_id AND b.worker_id = $1 AND "
              "b.generation = s.generation AND b.state = 'leased') RETURNING "
              "s.domain",
              PgParams().Int(worker_id), "check the leases", &r);
          !s.ok()) {
        return s;
      }
      for (int i = 0; i < PQntuples(r.get()); ++i) {
        outcome->rejected_domains.push_back(PgText(r.get(), i, 0));
      }
      outcome->rejected = PQntuples(r.get());
      if (outcome->rejected > 0) {
        if (Status s = ExecPgSimple(
                conn(),
                "DELETE FROM staged_step st WHERE NOT EXISTS (SELECT 1 FROM "
                "staged_fetch s WHERE s.ord = st.ord)",
                "drop refused steps");
            !s.ok()) {
          return s;
        }
      }
      if (Status s =
              writer_.InsertStaged(conn(), run_id, true, &outcome->accepted);
          !s.ok()) {
        return s;
      }
    }
    if (!present.empty()) {
      std::vector<std::string> domains(present.begin(), present.end());
      std::vector<std::int64_t> ids, generations;
      for (const LeaseTag& tag : present_tags) {
        ids.push_back(tag.batch_id);
        generations.push_back(tag.generation);
      }
      if (Status s = ExecPg(
              conn(),
              "UPDATE crawl_frontier f SET state = 'present' FROM "
              "unnest($2::text[], $3::int8[], $4::int8[]) AS p(domain, batch, "
              "generation) JOIN crawl_batch b ON b.id = p.batch AND "
              "b.worker_id = $5 AND b.generation = p.generation AND b.state = "
              "'leased' WHERE f.run_id = $1 AND f.domain = p.domain AND "
              "f.state = 'leased' AND f.batch_id = p.batch",
              PgParams()
                  .Int(run_id)
                  .Text(PgTextArray(domains))
                  .Text(PgIntArray(ids))
                  .Text(PgIntArray(generations))
                  .Int(worker_id),
              "mark present domains");
          !s.ok()) {
        return s;
      }
    }
    // OFFSET 0 (here and in CloseEmptyBatches): the check stays a lookup
    // of each batch's rows in crawl_frontier_by_batch. As an anti-join the
    // planner, whose statistics say nothing is leased, scanned the whole
    // index once per batch: every leased domain of the crawl, per batch.
    if (Status s = ExecPg(
            conn(),
            "UPDATE crawl_batch b SET state = 'done' WHERE b.id = "
            "ANY($1::int8[]) AND b.worker_id = $2 AND b.state = 'leased' AND "
            "NOT EXISTS (SELECT 1 FROM crawl_frontier f WHERE f.batch_id = "
            "b.id AND f.state = 'leased' OFFSET 0)",
            PgParams().Text(PgIntArray(batches)).Int(worker_id),
            "complete batches");
        !s.ok()) {
      return s;
    }
    if (Status s = ExecPg(conn(),
                          "UPDATE crawl_worker SET fetched = fetched + $2, "
                          "rejected = rejected + $3 WHERE id = $1",
                          PgParams()
                              .Int(worker_id)
                              .Int(outcome->accepted)
                              .Int(outcome->rejected),
                          "count the worker's records");
        !s.ok()) {
      return s;
    }
    // Whether this commit finished the crawl: under a lock of the crawl's, and
    // in a statement of its own (READ COMMITTED: a fresh snapshot), so that of
    // two commits finishing the last batches at once the second sees the
    // first's rows; checked without the lock, each would see the other's still
    // leased and the crawl never be marked finished. The lock is held only from
    // here to COMMIT. (An advisory lock, not the crawl_run row's: every insert
    // into "fetch" holds that row's FOR KEY SHARE lock for its foreign key, and
    // two commits upgrading it to FOR UPDATE deadlock.)
    if (Status s = ExecPg(conn(),
                          "SELECT pg_advisory_xact_lock(hashtextextended("
                          "'robotscan crawl end ' || $1::text, 0))",
                          PgParams().Int(run_id), "lock the crawl's end");
        !s.ok()) {
      return s;
    }
    PgResult finished;
    if (Status s = ExecPg(
            conn(),
            "UPDATE crawl_run SET status = 'finished', finished_at = "
            "to_char(clock_timestamp() AT TIME ZONE 'UTC', "
            "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') WHERE id = $1 AND status = "
            "'running' AND NOT EXISTS (SELECT 1 FROM crawl_frontier WHERE "
            "run_id = $1 AND state = 'pending') AND NOT EXISTS (SELECT 1 FROM "
            "crawl_frontier WHERE run_id = $1 AND state = 'leased') RETURNING "
            "id",
            PgParams().Int(run_id), "finish the crawl", &finished);
        !s.ok()) {
      return s;
    }
    outcome->crawl_finished = PQntuples(finished.get()) > 0;
    return txn.Commit();
  }

  PgDatabase db_;
  std::string uri_;
  PgFetchWriter writer_;
  // ClaimBatch's list position to claim from, for crawl claim_run_.
  std::int64_t claim_run_ = 0;
  std::int64_t claim_from_ = 0;
  std::chrono::steady_clock::time_point rescanned_at_{};
};

}  // namespace

Result<std::unique_ptr<SharedFrontier>> OpenPgSharedFrontier(
    std::string_view uri, const StoreOptions& options) {
  PgDatabase db;
  if (Status s = OpenPgDatabase(uri, true, &db); !s.ok()) return s;
  return std::unique_ptr<SharedFrontier>(std::make_unique<PgSharedFrontier>(
      std::move(db), std::string(uri), options));
}

}  // namespace robotscan::storage
