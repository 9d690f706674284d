#include "postgres/pg_crawl_lock.h"

#include <string>
#include <utility>

#include "postgres/pg_database.h"
#include "postgres/pg_handles.h"
#include "robotscan/storage/database_location.h"

namespace robotscan::storage {
namespace {

// pg_advisory_lock(int4, int4): one key pair per database for the hold.
constexpr int kLockClass = 0x726f6273;  // "robs"
constexpr int kLockObject = 1;

// A connection with TCP keepalives, so that a lost host's session (and
// its lock) ends within about 25 s; the URI's own settings come first and
// these override them.
Status ConnectWithKeepalives(std::string_view uri, PgConnection* out) {
  const std::string dbname(uri);
  const char* keywords[] = {"dbname",           "keepalives",
                            "keepalives_idle",  "keepalives_interval",
                            "keepalives_count", nullptr};
  const char* values[] = {dbname.c_str(), "1", "10", "5", "3", nullptr};
  PgConnection conn(PQconnectdbParams(keywords, values, 1));
  if (conn == nullptr || PQstatus(conn.get()) != CONNECTION_OK) {
    std::string message =
        conn != nullptr ? PQerrorMessage(conn.get()) : "out of memory";
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return Status(
        Status::Code::kIoError,
        "cannot connect to " + RedactDatabaseUri(uri) + ": " + message);
  }
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  *out = std::move(conn);
  return Status::Ok();
}

CrawlHolder HolderFromRow(const PGresult* r, int row) {
  CrawlHolder h;
  h.pid = PgInt(r, row, 0);
  h.host = PgText(r, row, 1);
  h.started_at = PgText(r, row, 2);
  h.run_id = PgInt(r, row, 3);
  return h;
}

// Holder rows whose session still holds the lock (live) or not (stale).
constexpr char kSelectHolders[] = R"sql(
SELECT h.pid, h.host, h.started_at, coalesce(h.run_id, 0)::int8, h.mode,
       EXISTS (SELECT 1 FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.granted
                 AND l.pid = h.backend_pid AND l.classid = $1::oid
                 AND l.objid = $2::oid AND l.objsubid = 2)::int
FROM crawl_holder h ORDER BY h.mode, h.started_at
)sql";

class PgCrawlLock final : public CrawlLock {
 public:
  PgCrawlLock(PgConnection conn, CrawlHolder holder)
      : conn_(std::move(conn)), holder_(std::move(holder)) {}
  // A clean release removes our row; closing the session drops the lock.
  ~PgCrawlLock() override {
    PgResult r(PQexec(conn_.get(),
                      "DELETE FROM crawl_holder WHERE backend_pid = "
                      "pg_backend_pid()"));
  }
  const CrawlHolder& holder() const override { return holder_; }
  Status SetRunId(std::int64_t run_id) override {
    holder_.run_id = run_id;
    return ExecPg(conn_.get(),
                  "UPDATE crawl_holder SET run_id = $1 WHERE backend_pid = "
                  "pg_backend_pid()",
                  PgParams().Int(run_id), "record the run in crawl_holder");
  }

 private:
  PgConnection conn_;
  CrawlHolder holder_;
};

}  // namespace

Result<LockAttempt> AcquirePgCrawlLock(std::string_view uri,
                                       const CrawlHolder& me,
                                       CrawlLockMode mode) {
  LockAttempt attempt;
  // The schema (crawl_holder) exists once a store or frontier opened it.
  PgDatabase db;
  if (Status s = OpenPgDatabase(uri, true, &db); !s.ok()) return s;
  db.conn.reset();
  PgConnection conn;
  if (Status s = ConnectWithKeepalives(uri, &conn); !s.ok()) return s;
  const bool exclusive = mode == CrawlLockMode::kExclusive;
  PgResult r;
  if (Status s = ExecPg(conn.get(),
                        exclusive ? "SELECT pg_try_advisory_lock($1, $2)::int"
                                  : "SELECT pg_try_advisory_lock_shared($1, "
                                    "$2)::int",
                        PgParams().Int(kLockClass).Int(kLockObject),
                        "take the crawl lock", &r);
      !s.ok()) {
    return s;
  }
  const bool taken = PgInt(r.get(), 0, 0) != 0;
  if (Status s = ExecPg(conn.get(), kSelectHolders,
                        PgParams().Int(kLockClass).Int(kLockObject),
                        "read crawl_holder", &r);
      !s.ok()) {
    return s;
  }
  const PGresult* rows = r.get();
  if (!taken) {
    // Name a live holder of the other kind (the one that refuses us).
    for (int i = 0; i < PQntuples(rows); ++i) {
      if (PgInt(rows, i, 5) != 0) {
        attempt.held_by = HolderFromRow(rows, i);
        return attempt;
      }
    }
    attempt.held_by = CrawlHolder();
    return attempt;
  }
  // Ours. Rows of sessions that no longer hold the lock were left by
  // holders that died: report the first (of our kind's rival first).
  for (int i = 0; i < PQntuples(rows); ++i) {
    if (PgInt(rows, i, 5) == 0) {
      attempt.stale = HolderFromRow(rows, i);
      break;
    }
  }
  if (Status s = ExecPg(
          conn.get(),
          "DELETE FROM crawl_holder h WHERE NOT EXISTS (SELECT 1 FROM "
          "pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.pid = "
          "h.backend_pid AND l.classid = $1::oid AND l.objid = $2::oid AND "
          "l.objsubid = 2)",
          PgParams().Int(kLockClass).Int(kLockObject), "clear stale holders");
      !s.ok()) {
    return s;
  }
  if (Status s = ExecPg(
          conn.get(),
          "INSERT INTO crawl_holder(backend_pid, mode, pid, host, started_at, "
          "run_id) VALUES (pg_backend_pid(), $1, $2, $3, $4, $5) ON CONFLICT "
          "(backend_pid) DO UPDATE SET mode = excluded.mode, pid = "
          "excluded.pid, host = excluded.host, started_at = "
          "excluded.started_at, run_id = excluded.run_id",
          PgParams()
              .Text(exclusive ? "exclusive" : "shared")
              .Int(me.pid)
              .Text(me.host)
              .Text(me.started_at)
              .Int(me.run_id),
          "record crawl_holder");
      !s.ok()) {
    return s;
  }
  attempt.lock = std::make_unique<PgCrawlLock>(std::move(conn), me);
  return attempt;
}

}  // namespace robotscan::storage
