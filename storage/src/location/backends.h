// The backends' entry points, one pair of implementations per location
// kind: sqlite/ defines the Sqlite ones (a file path), postgres/ the Pg
// ones (a postgresql:// URI). Only the location opener (open_location.cc)
// calls them, so neither backend knows the other. Private to storage.
#ifndef ROBOTSCAN_STORAGE_LOCATION_BACKENDS_H_
#define ROBOTSCAN_STORAGE_LOCATION_BACKENDS_H_

#include <memory>
#include <string_view>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/shared_frontier.h"

namespace robotscan::storage {

// sqlite/sqlite_crawl_store.cc, sqlite/sqlite_latest_fetch_reader.cc.
Result<std::unique_ptr<CrawlStore>> OpenSqliteCrawlStore(
    std::string_view path, const StoreOptions& options);
Result<std::unique_ptr<LatestFetchReader>> OpenSqliteLatestFetchReader(
    std::string_view path, const LatestFetchQuery& query);

// postgres/pg_crawl_store.cc, pg_latest_fetch_reader.cc,
// pg_shared_frontier.cc (the shared frontier is PostgreSQL's only).
Result<std::unique_ptr<CrawlStore>> OpenPgCrawlStore(
    std::string_view uri, const StoreOptions& options);
Result<std::unique_ptr<LatestFetchReader>> OpenPgLatestFetchReader(
    std::string_view uri, const LatestFetchQuery& query);
Result<std::unique_ptr<SharedFrontier>> OpenPgSharedFrontier(
    std::string_view uri, const StoreOptions& options);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_LOCATION_BACKENDS_H_
