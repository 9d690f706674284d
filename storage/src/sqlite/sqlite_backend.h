// Entry points of the SQLite backend, called by the location opener
// (location/open_location.cc) for file paths. Private to storage.
#ifndef ROBOTSCAN_STORAGE_SQLITE_SQLITE_BACKEND_H_
#define ROBOTSCAN_STORAGE_SQLITE_SQLITE_BACKEND_H_

#include <memory>
#include <string_view>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::storage {

Result<std::unique_ptr<CrawlStore>> OpenSqliteCrawlStore(
    std::string_view path, const StoreOptions& options);

Result<std::unique_ptr<LatestFetchReader>> OpenSqliteLatestFetchReader(
    std::string_view path, const LatestFetchQuery& query);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_SQLITE_SQLITE_BACKEND_H_
