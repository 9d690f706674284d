// Writes fetch records into a PostgreSQL crawl database set-wise: a batch
// is COPYed into session-local staging tables, then moved into body,
// domain, fetch and fetch_step by a handful of INSERT ... SELECT
// statements, whatever the batch size (a statement per record would cost a
// round trip each). Used inside a caller's transaction by the store
// (AppendFetches) and by the frontier (CommitFetches, which also checks the
// leases and marks the frontier rows done). Private to storage.
//
// Bodies are stored once by SHA-256: INSERT ... ON CONFLICT DO NOTHING in
// hash order (two writers inserting the same new bodies take the unique
// index's locks in the same order, so they wait instead of deadlocking);
// bodies this writer has seen committed are not sent again.
//
// Thread-safety: one writer per connection, one thread.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_FETCH_WRITER_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_FETCH_WRITER_H_

#include <cstdint>
#include <span>
#include <string>
#include <unordered_set>

#include "postgres/pg_handles.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

// The lease a record was fetched under (frontier mode); 0/0 otherwise.
struct StagedLease {
  std::int64_t batch_id = 0;
  std::int64_t generation = 0;
};

class PgFetchWriter {
 public:
  PgFetchWriter(bool utf8_server, bool compress_bodies)
      : utf8_(utf8_server), compress_(compress_bodies) {}

  // COPYs `records` (and their steps) into staged_fetch / staged_step,
  // creating those temporary tables on first use. `leases`, when not
  // empty, has one entry per record. Validates the access and error class
  // names first (kInvalidArgument, like the SQLite store).
  Status Stage(PGconn* conn, std::span<const FetchRecord> records,
               std::span<const StagedLease> leases);

  // Moves the staged rows into the crawl tables for run `run_id` and
  // points each domain at its new fetch. With `mark_frontier`, also sets
  // the run's crawl_frontier rows of these domains to done with their
  // fetch id. *inserted: records written.
  Status InsertStaged(PGconn* conn, std::int64_t run_id, bool mark_frontier,
                      std::int64_t* inserted);

  // After the caller's COMMIT: this batch's new bodies are known. After a
  // ROLLBACK: they are not.
  void Committed();
  void RolledBack();

 private:
  Status EnsureStagingTables(PGconn* conn);

  const bool utf8_;
  const bool compress_;
  bool staging_ready_ = false;
  // SHA-256 of bodies committed by this writer (bodies are never deleted,
  // so they stay valid), bounded like the SQLite store's cache.
  static constexpr std::size_t kMaxKnownBodies = 4096;
  std::unordered_set<std::string> known_bodies_;
  std::unordered_set<std::string> pending_bodies_;
};

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_FETCH_WRITER_H_
