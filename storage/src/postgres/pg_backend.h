// Entry points of the PostgreSQL backend, called by the location opener
// (location/open_location.cc) for postgresql:// URIs. Private to storage.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_BACKEND_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_BACKEND_H_

#include <memory>
#include <string_view>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/shared_frontier.h"

namespace robotscan::storage {

Result<std::unique_ptr<CrawlStore>> OpenPgCrawlStore(
    std::string_view uri, const StoreOptions& options);

Result<std::unique_ptr<LatestFetchReader>> OpenPgLatestFetchReader(
    std::string_view uri, const LatestFetchQuery& query);

Result<std::unique_ptr<SharedFrontier>> OpenPgSharedFrontier(
    std::string_view uri, const StoreOptions& options);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_BACKEND_H_
