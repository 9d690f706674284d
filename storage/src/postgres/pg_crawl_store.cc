// The PostgreSQL backend of CrawlStore (crawl_store.h): the same schema
// and semantics as the SQLite file, with fetches written set-wise
// (pg_fetch_writer.h) and the one-live-crawl hold as a session advisory
// lock (pg_crawl_lock.h).
#include "location/backends.h"

#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "body_codec.h"
#include "postgres/pg_crawl_lock.h"
#include "postgres/pg_database.h"
#include "postgres/pg_fetch_writer.h"
#include "postgres/pg_handles.h"
#include "schema/previous_fetch_columns.h"

namespace robotscan::storage {
namespace {

// Deadlocks and serialization failures (another crawl writing the same
// domains) are retried this often before the batch fails.
constexpr int kBusyRetries = 5;

class PgCrawlStore final : public CrawlStore {
 public:
  PgCrawlStore(PgDatabase db, std::string uri, const StoreOptions& options)
      : db_(std::move(db)),
        uri_(std::move(uri)),
        options_(options),
        writer_(db_.utf8, options.compress_bodies) {}

  Result<std::int64_t> BeginRun(const RunInfo& info) override {
    return InsertPgCrawlRun(conn(), db_.utf8, info);
  }

  Status FinishRun(std::int64_t run_id, std::string_view status,
                   std::string_view finished_at) override {
    return ExecPg(conn(),
                  "UPDATE crawl_run SET status = $2, finished_at = $3 WHERE "
                  "id = $1",
                  PgParams().Int(run_id).Text(status).Text(finished_at),
                  "update crawl_run");
  }

  Status AppendFetches(std::int64_t run_id,
                       std::span<const FetchRecord> records) override {
    if (records.empty()) return Status::Ok();
    Status status;
    for (int attempt = 0; attempt <= kBusyRetries; ++attempt) {
      status = AppendOnce(run_id, records);
      if (status.code() != Status::Code::kBusy) break;
    }
    return status;
  }

  Result<std::optional<PreviousFetch>> FindLatestFetch(
      std::string_view domain) override {
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "SELECT " +
                schema::PreviousFetchColumnsSql(schema::Dialect::kPostgres) +
                " FROM domain d JOIN \"fetch\" f ON f.id = "
                "d.latest_fetch_id WHERE d.name = $1",
            PgParams().Text(domain), "latest fetch", &r);
        !s.ok()) {
      return s;
    }
    if (PQntuples(r.get()) == 0) return std::optional<PreviousFetch>();
    PreviousFetch p;
    if (Status s = schema::DecodePreviousFetch(PgCells(r.get(), 0), 0, &p);
        !s.ok()) {
      return s;
    }
    return std::optional<PreviousFetch>(std::move(p));
  }

  Result<std::string> ReadBody(std::int64_t fetch_id) override {
    PgResult r;
    if (Status s =
            ExecPg(conn(),
                   "SELECT b.compression, b.size, b.data FROM \"fetch\" f "
                   "JOIN body b ON b.id = f.body_id WHERE f.id = $1",
                   PgParams().Int(fetch_id), "read body", &r);
        !s.ok()) {
      return s;
    }
    if (PQntuples(r.get()) == 0) return std::string();
    const std::string_view data = PgBytes(r.get(), 0, 2);
    if (PgBytes(r.get(), 0, 0) != "zstd") return std::string(data);
    std::string body;
    if (Status s = DecompressBody(
            data, static_cast<std::size_t>(PgInt(r.get(), 0, 1)), &body);
        !s.ok()) {
      return s;
    }
    return body;
  }

  // PostgreSQL checks its own pages (data checksums, if enabled); this
  // checks the crawl's invariants: every domain points at its newest
  // fetch, a fetch of that domain (newest written, or, after imports of
  // archived captures, newest captured).
  Result<IntegrityReport> CheckIntegrity() override {
    PgResult r;
    if (Status s =
            ExecPg(conn(),
                   "SELECT count(*)::int8 FROM domain d LEFT JOIN \"fetch\" f "
                   "ON f.id = "
                   "d.latest_fetch_id WHERE d.latest_fetch_id IS NOT NULL AND "
                   "(f.id IS NULL OR f.domain_id <> d.id OR (f.id <> (SELECT "
                   "max(g.id) FROM \"fetch\" g WHERE g.domain_id = d.id) AND "
                   "f.id <> (SELECT g.id FROM \"fetch\" g WHERE g.domain_id = "
                   "d.id ORDER BY g.fetched_at DESC, g.id DESC LIMIT 1)))",
                   {}, "integrity", &r);
        !s.ok()) {
      return s;
    }
    const std::int64_t bad = PgInt(r.get(), 0, 0);
    IntegrityReport report;
    report.healthy = bad == 0;
    report.text = report.healthy
                      ? "ok"
                      : std::to_string(bad) +
                            " domains do not point at their newest fetch";
    return report;
  }

  Result<RowCounts> CountRows() override {
    PgResult r;
    if (Status s = ExecPg(conn(),
                          "SELECT (SELECT count(*) FROM \"fetch\")::int8, "
                          "(SELECT count(*) FROM body)::int8",
                          {}, "count", &r);
        !s.ok()) {
      return s;
    }
    RowCounts counts;
    counts.fetches = PgInt(r.get(), 0, 0);
    counts.bodies = PgInt(r.get(), 0, 1);
    return counts;
  }

  Result<bool> HasFetches() override {
    PgResult r;
    if (Status s =
            ExecPg(conn(), "SELECT EXISTS (SELECT 1 FROM \"fetch\")::int", {},
                   "any fetch", &r);
        !s.ok()) {
      return s;
    }
    return PgInt(r.get(), 0, 0) != 0;
  }

  Result<std::vector<RunRecord>> ReadRuns() override {
    return ReadPgRuns(conn(), db_.version);
  }

  // Imports (docs/history.md): importers on several hosts share a run's
  // files through history_file's leases; their batches commit one at a
  // time per run (an advisory lock), which keeps the run's one fetch per
  // domain exact while the reading, the costly part, runs in parallel.
  Result<std::optional<std::int64_t>> FindImportRun(
      FetchSource source, std::string_view source_crawl) override {
    PgResult r;
    if (Status s =
            ExecPg(conn(),
                   "SELECT id FROM crawl_run WHERE source = $1 AND "
                   "source_crawl = $2 ORDER BY id LIMIT 1",
                   PgParams().Text(FetchSourceName(source)).Text(source_crawl),
                   "find run", &r);
        !s.ok()) {
      return s;
    }
    if (PQntuples(r.get()) == 0) return std::optional<std::int64_t>();
    return std::optional<std::int64_t>(PgInt(r.get(), 0, 0));
  }

  Result<std::int64_t> FindOrBeginImportRun(const RunInfo& info) override {
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    // Importers starting together wait here for each other: one creates
    // the run, the others find it.
    if (Status s =
            ExecPg(conn(), "SELECT pg_advisory_xact_lock(hashtext($1)::int8)",
                   PgParams().Text("robotscan import " +
                                   std::string(FetchSourceName(info.source)) +
                                   " " + info.source_crawl),
                   "lock the import run");
        !s.ok()) {
      return s;
    }
    Result<std::optional<std::int64_t>> found =
        FindImportRun(info.source, info.source_crawl);
    if (!found.ok()) return found.status();
    std::int64_t run = 0;
    if (*found) {
      run = **found;
    } else {
      Result<std::int64_t> begun = BeginRun(info);
      if (!begun.ok()) return begun.status();
      run = *begun;
    }
    if (Status s = txn.Commit(); !s.ok()) return s;
    return run;
  }

  Result<HistoryFile> OpenHistoryFile(std::int64_t run_id,
                                      std::string_view name,
                                      std::string_view location,
                                      std::string_view holder,
                                      std::string_view now,
                                      std::string_view lease_until) override {
    // Taken when new, done (nothing to take), free, ours, or leased by a
    // holder whose lease ran out (it died or stalled: its next commit will
    // find the file gone and write nothing).
    PgResult r;
    if (Status s = ExecPg(
            conn(),
            "INSERT INTO history_file (run_id, name, location, holder, "
            "started_at, lease_until, state) VALUES ($1, $2, $3, $4, $5, $6, "
            "'leased') ON CONFLICT (run_id, name) DO UPDATE SET location = "
            "excluded.location, holder = excluded.holder, lease_until = "
            "excluded.lease_until, state = 'leased' WHERE history_file.state "
            "<> 'done' AND (history_file.holder IS NULL OR "
            "history_file.holder = excluded.holder OR "
            "history_file.lease_until IS NULL OR history_file.lease_until < "
            "$5) RETURNING id, state, resume_offset, resume_skip, records, "
            "fetches, duplicates, skipped, errors, holder, lease_until",
            PgParams()
                .Int(run_id)
                .Text(name)
                .TextOrNull(location)
                .TextOrNull(holder)
                .Text(now)
                .TextOrNull(lease_until),
            "open history_file", &r);
        !s.ok()) {
      return s;
    }
    if (PQntuples(r.get()) == 0) {
      // Done, or another holder's: read it as it is.
      if (Status s = ExecPg(
              conn(),
              "SELECT id, state, resume_offset, resume_skip, records, "
              "fetches, duplicates, skipped, errors, holder, lease_until "
              "FROM history_file WHERE run_id = $1 AND name = $2",
              PgParams().Int(run_id).Text(name), "read history_file", &r);
          !s.ok()) {
        return s;
      }
      if (PQntuples(r.get()) == 0) {
        return Status(Status::Code::kInternal,
                      "history_file " + std::string(name) + " vanished");
      }
    }
    const PGresult* row = r.get();
    HistoryFile file;
    file.id = PgInt(row, 0, 0);
    file.done = PgText(row, 0, 1) == "done";
    file.resume_offset = PgInt(row, 0, 2);
    file.resume_skip = PgInt(row, 0, 3);
    file.counts.records = PgInt(row, 0, 4);
    file.counts.fetches = PgInt(row, 0, 5);
    file.counts.duplicates = PgInt(row, 0, 6);
    file.counts.skipped = PgInt(row, 0, 7);
    file.counts.errors = PgInt(row, 0, 8);
    const std::string held = PgText(row, 0, 9);
    file.lease_until = PgText(row, 0, 10);
    if (!file.done && held != holder) file.held_by = held;
    return file;
  }

  Result<HistoryCounts> AppendImportedFetches(
      std::int64_t run_id, std::span<const FetchRecord> records,
      const HistoryProgress& progress) override {
    Result<HistoryCounts> result = HistoryCounts();
    for (int attempt = 0; attempt <= kBusyRetries; ++attempt) {
      result = ImportOnce(run_id, records, progress);
      if (result.ok() || result.status().code() != Status::Code::kBusy) break;
    }
    return result;
  }

  Result<LockAttempt> LockForImport(const CrawlHolder& me) override {
    if (options_.read_only) {
      return Status(Status::Code::kInvalidArgument,
                    "a read-only store cannot import");
    }
    return AcquirePgCrawlLock(uri_, me, CrawlLockMode::kShared);
  }

  Result<LockAttempt> LockForCrawl(const CrawlHolder& me) override {
    if (options_.read_only) {
      return Status(Status::Code::kInvalidArgument,
                    "a read-only store cannot hold a crawl");
    }
    return AcquirePgCrawlLock(uri_, me, CrawlLockMode::kExclusive);
  }

 private:
  PGconn* conn() { return db_.conn.get(); }
  // One batch of an import in one transaction (AppendImportedFetches).
  Result<HistoryCounts> ImportOnce(std::int64_t run_id,
                                   std::span<const FetchRecord> records,
                                   const HistoryProgress& progress) {
    PgTransaction txn(conn());
    if (Status s = txn.Begin(); !s.ok()) return s;
    if (Status s = ExecPg(conn(),
                          "SELECT pg_advisory_xact_lock(hashtext('robotscan "
                          "import batch'), $1::int4)",
                          PgParams().Int(run_id % 2147483647),
                          "serialize the run's batches");
        !s.ok()) {
      return s;
    }
    HistoryCounts decided;
    // The run keeps each domain's earliest capture: first within the batch,
    // then against what the run already has.
    auto earlier = [](const FetchRecord& a, const FetchRecord& b) {
      return std::tie(a.fetched_at, a.source_file, a.source_offset) <
             std::tie(b.fetched_at, b.source_file, b.source_offset);
    };
    std::unordered_map<std::string, std::size_t> best;
    for (std::size_t i = 0; i < records.size(); ++i) {
      auto [it, fresh] = best.emplace(records[i].domain, i);
      if (!fresh) {
        ++decided.duplicates;
        if (earlier(records[i], records[it->second])) it->second = i;
      }
    }
    std::vector<FetchRecord> kept;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const FetchRecord& r = records[i];
      if (best[r.domain] != i) continue;
      PgResult existing;
      if (Status s = ExecPg(
              conn(),
              "SELECT f.id, f.fetched_at, coalesce(f.source_file, ''), "
              "coalesce(f.source_offset, -1) FROM \"fetch\" f JOIN domain d "
              "ON d.id = f.domain_id WHERE f.run_id = $1 AND d.name = $2",
              PgParams().Int(run_id).Text(r.domain), "find the run's fetch",
              &existing);
          !s.ok()) {
        return s;
      }
      if (PQntuples(existing.get()) > 0) {
        ++decided.duplicates;
        FetchRecord had;
        had.fetched_at = PgText(existing.get(), 0, 1);
        had.source_file = PgText(existing.get(), 0, 2);
        had.source_offset = PgInt(existing.get(), 0, 3);
        if (!earlier(r, had)) continue;
        const std::int64_t replaced = PgInt(existing.get(), 0, 0);
        for (const char* sql : {"DELETE FROM signal_fetch WHERE fetch_id = $1",
                                "DELETE FROM fetch_step WHERE fetch_id = $1",
                                "DELETE FROM \"fetch\" WHERE id = $1"}) {
          if (Status s = ExecPg(conn(), sql, PgParams().Int(replaced),
                                "replace a later capture");
              !s.ok()) {
            return s;
          }
        }
      } else {
        ++decided.fetches;
      }
      kept.push_back(r);
    }
    std::int64_t inserted = 0;
    Status s = writer_.Stage(conn(), kept, {});
    if (s.ok()) s = writer_.InsertStaged(conn(), run_id, false, &inserted);
    // A domain's newest fetch is by capture time: an import may add an
    // older capture after a newer fetch.
    if (s.ok() && !kept.empty()) {
      s = ExecPg(conn(),
                 "UPDATE domain d SET latest_fetch_id = (SELECT g.id FROM "
                 "\"fetch\" g WHERE g.domain_id = d.id ORDER BY g.fetched_at "
                 "DESC, g.id DESC LIMIT 1) WHERE d.id IN (SELECT domain_id "
                 "FROM staged_fetch)",
                 {}, "point the domains at their newest");
    }
    if (s.ok()) {
      PgResult updated;
      s = ExecPg(
          conn(),
          "UPDATE history_file SET resume_offset = $2, resume_skip = $3, "
          "records = records + $4, fetches = fetches + $5, duplicates = "
          "duplicates + $6, skipped = skipped + $7, errors = errors + $8, "
          "last_error = coalesce($9, last_error), state = CASE WHEN $10 THEN "
          "'done' ELSE state END, finished_at = CASE WHEN $10 THEN $11 ELSE "
          "finished_at END, lease_until = coalesce($13, lease_until) WHERE "
          "id = $1 AND ($12::text IS NULL OR holder = $12) RETURNING id",
          PgParams()
              .Int(progress.file_id)
              .Int(progress.resume_offset)
              .Int(progress.resume_skip)
              .Int(progress.counts.records)
              .Int(decided.fetches)
              .Int(decided.duplicates)
              .Int(progress.counts.skipped)
              .Int(progress.counts.errors)
              .TextOrNull(progress.last_error)
              .Text(progress.done ? "true" : "false")
              .TextOrNull(progress.finished_at)
              .TextOrNull(progress.holder)
              .TextOrNull(progress.lease_until),
          "history_file progress", &updated);
      if (s.ok() && PQntuples(updated.get()) == 0) {
        // Our lease ran out and another importer took the file over: it
        // reads these records again, so none of this batch may stay.
        s = Status(Status::Code::kLocked, "lost the lease on history_file " +
                                              std::to_string(progress.file_id) +
                                              " to another import");
      }
    }
    if (s.ok()) s = txn.Commit();
    if (s.ok()) {
      writer_.Committed();
      return decided;
    }
    writer_.RolledBack();
    return s;
  }

  Status AppendOnce(std::int64_t run_id, std::span<const FetchRecord> records) {
    PgTransaction txn(conn());
    Status s = txn.Begin();
    std::int64_t inserted = 0;
    if (s.ok()) s = writer_.Stage(conn(), records, {});
    if (s.ok()) s = writer_.InsertStaged(conn(), run_id, false, &inserted);
    if (s.ok()) s = txn.Commit();
    if (s.ok()) {
      writer_.Committed();
    } else {
      writer_.RolledBack();
    }
    return s;
  }

  PgDatabase db_;
  std::string uri_;
  StoreOptions options_;
  PgFetchWriter writer_;
};

}  // namespace

Result<std::unique_ptr<CrawlStore>> OpenPgCrawlStore(
    std::string_view uri, const StoreOptions& options) {
  PgDatabase db;
  if (Status s = OpenPgDatabase(uri, !options.read_only, &db); !s.ok()) {
    return s;
  }
  return std::unique_ptr<CrawlStore>(
      std::make_unique<PgCrawlStore>(std::move(db), std::string(uri), options));
}

}  // namespace robotscan::storage
