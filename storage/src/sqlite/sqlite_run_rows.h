// Reading crawl_run rows, shared by CrawlStore and LatestFetchReader.
// Private to storage.
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_RUN_ROWS_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_RUN_ROWS_H_

#include <sqlite3.h>

#include <vector>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

// Every crawl_run row, oldest first. A read-only reader may meet a
// version-1 file (never migrated): its rows come without host, pid and list
// provenance.
Result<std::vector<RunRecord>> ReadRunRows(sqlite3* db);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_RUN_ROWS_H_
