// The one place a SQLite crawl database's schema version is read and
// checked, and how long a connection waits for another's lock: the writer
// (CrawlStore), the readers (LatestFetchReader, run rows) and the migration
// all go through here, so that they agree. Private to storage.
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_VERSION_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_VERSION_H_

#include <sqlite3.h>

#include <cstdint>
#include <string_view>

#include "robotscan/storage/status.h"

namespace robotscan::storage {

// How long any robotscan connection waits for a lock another holds (a
// reader's snapshot, a WAL checkpoint, the crawl's commit) before failing
// with kBusy. One value: a report run beside a crawl must not give up
// sooner than the crawl's own lookups do.
inline constexpr int kBusyTimeoutMilliseconds = 10000;

// PRAGMA user_version of `db` (0 for a new, empty file).
Status ReadSchemaVersion(sqlite3* db, std::int64_t* version);

// ReadSchemaVersion, refusing (kSchemaTooNew, naming `path`) a file written
// by a newer robotscan: it is never read with an older schema's queries nor
// downgraded.
Status CheckSchemaVersion(sqlite3* db, std::string_view path,
                          std::int64_t* version);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_SCHEMA_VERSION_H_
