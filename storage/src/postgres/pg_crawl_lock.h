// The one-live-crawl hold on PostgreSQL (crawl_lock.h's concept): a
// session-level advisory lock on a connection of its own, held for as long
// as the CrawlLock lives. `robotscan crawl` into PostgreSQL takes it
// exclusively; each `crawl --worker` takes it shared, so any number of
// workers share a database while a single-process crawl is refused (and
// the other way round). The server drops the lock when the session ends:
// at once when the process dies (its socket closes), and within about 25 s
// when its host is lost (TCP keepalives: idle 10 s, then 3 probes 5 s
// apart). crawl_holder names the holders; a row whose session no longer
// holds the lock is what a dead holder left (reported as stale).
// Private to storage.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_CRAWL_LOCK_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_CRAWL_LOCK_H_

#include <cstdint>
#include <string_view>

#include "robotscan/storage/crawl_lock.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

enum class CrawlLockMode : std::uint8_t { kExclusive, kShared };

Result<LockAttempt> AcquirePgCrawlLock(std::string_view uri,
                                       const CrawlHolder& me,
                                       CrawlLockMode mode);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_CRAWL_LOCK_H_
