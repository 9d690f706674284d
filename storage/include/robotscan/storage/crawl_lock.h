// The one-live-crawl rule: at most one crawl writes a crawl database at a
// time. Two crawls on one database would each fetch every domain again (four
// forgotten processes once made four times the traffic to every site), so
// the second is refused and told who holds the database.
//
// The concept is backend-neutral: a crawl *holds* the database for as long
// as it runs; the holder is described by a CrawlHolder (pid, host, start,
// run id) that a refused crawl can name; a holder that died is detected and
// its hold is taken over, never waited for. CrawlStore::LockForCrawl
// implements it per backend:
//   * SQLite (this file's AcquireSqliteCrawlLock): an exclusive flock(2) on
//     the file DB-lock next to the database (like SQLite's own -wal and
//     -shm), holding the holder's description as text. The kernel drops
//     the lock when the process ends in any way, SIGKILL included, so a
//     dead crawl never blocks the next one; finding the lock free but the
//     file still naming a holder is how a stale hold is recognised. The
//     file is emptied on release, never deleted (deleting it would let two
//     processes lock two different inodes). Local file systems only: flock
//     on network file systems is not dependable (docs/crawler.md).
//   * PostgreSQL (storage/src/postgres/pg_crawl_lock.h): a session
//     advisory lock on a connection of its own (TCP keepalives, so a lost
//     host's session ends within about 25 s), taken exclusively by a
//     single-process crawl and shared by the workers of a scaled-out crawl
//     (SharedFrontier::LockForWorker); the crawl_holder table names the
//     holders, and a row whose session no longer holds the lock is a dead
//     holder's. Workers additionally lease batches of the frontier with
//     expiring leases (shared_frontier.h, docs/scale-out.md).
//
// Thread-safety: a CrawlLock is used by one thread at a time.
//
// Usage:
//   Result<LockAttempt> attempt = store->LockForCrawl(me);
//   if (!attempt.ok()) return attempt.status();
//   if (!attempt->lock) Refuse(*attempt->held_by);  // Another live crawl.
//   if (attempt->stale) Note(*attempt->stale);      // Took over a dead one's.
#ifndef ROBOTSCAN_STORAGE_CRAWL_LOCK_H_
#define ROBOTSCAN_STORAGE_CRAWL_LOCK_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "robotscan/storage/status.h"

namespace robotscan::storage {

// Who runs (or ran) a crawl on a database.
struct CrawlHolder {
  std::int64_t pid = 0;
  std::string host;         // gethostname().
  std::string started_at;   // ISO 8601 UTC.
  std::int64_t run_id = 0;  // crawl_run.id; 0 until the run is recorded.
};

// The describing text of a holder, one "key=value" per line, and back.
// ParseCrawlHolder returns nullopt for text that names no pid (an empty or
// foreign file).
std::string FormatCrawlHolder(const CrawlHolder& holder);
std::optional<CrawlHolder> ParseCrawlHolder(std::string_view text);

// A held database. Destroying it releases the hold.
class CrawlLock {
 public:
  virtual ~CrawlLock() = default;
  virtual const CrawlHolder& holder() const = 0;
  // Records the run id once the run exists, so that a refused crawl can
  // name it.
  virtual Status SetRunId(std::int64_t run_id) = 0;
};

struct LockAttempt {
  std::unique_ptr<CrawlLock> lock;     // Set when the hold was acquired.
  std::optional<CrawlHolder> held_by;  // Set when refused: the live holder.
  // Set when acquired over the hold of a crawl that died without releasing
  // it (kill -9, a crash, a lost machine): what it said about itself.
  std::optional<CrawlHolder> stale;
};

// The SQLite backend's lock (see above) for the database at `db_path`.
// A refusal is not an error: the attempt's lock is null and held_by names
// the holder. Errors (the lock file cannot be created) are kIoError.
Result<LockAttempt> AcquireSqliteCrawlLock(std::string_view db_path,
                                           const CrawlHolder& me);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_CRAWL_LOCK_H_
