// The PostgreSQL backend of CrawlStore (crawl_store.h): the same schema
// and semantics as the SQLite file, with fetches written set-wise
// (pg_fetch_writer.h) and the one-live-crawl hold as a session advisory
// lock (pg_crawl_lock.h).
#include "location/backends.h"

#include <string>
#include <utility>

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
  // fetch, a fetch of that domain.
  Result<IntegrityReport> CheckIntegrity() override {
    PgResult r;
    if (Status s =
            ExecPg(conn(),
                   "SELECT count(*)::int8 FROM domain d LEFT JOIN \"fetch\" f "
                   "ON f.id = "
                   "d.latest_fetch_id WHERE d.latest_fetch_id IS NOT NULL AND "
                   "(f.id IS NULL OR f.domain_id <> d.id OR f.id <> (SELECT "
                   "max(g.id) FROM \"fetch\" g WHERE g.domain_id = d.id))",
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

  // Imports write to SQLite only so far (docs/history.md): PostgreSQL's
  // history_file is there for workers sharing a run's files, which is not
  // built yet.
  Result<std::optional<std::int64_t>> FindImportRun(FetchSource,
                                                    std::string_view) override {
    return ImportsUnsupported();
  }
  Result<HistoryFile> OpenHistoryFile(std::int64_t, std::string_view,
                                      std::string_view, std::string_view,
                                      std::string_view) override {
    return ImportsUnsupported();
  }
  Result<HistoryCounts> AppendImportedFetches(std::int64_t,
                                              std::span<const FetchRecord>,
                                              const HistoryProgress&) override {
    return ImportsUnsupported();
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
  static Status ImportsUnsupported() {
    return Status(Status::Code::kUnsupported,
                  "imports into PostgreSQL are not supported yet; import into "
                  "an SQLite file and copy it with robotscan migrate");
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
