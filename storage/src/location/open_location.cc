// Where a crawl database lives decides its backend (database_location.h):
// a postgresql:// URI opens the PostgreSQL backend, anything else is an
// SQLite file. The one place that knows both; neither backend includes
// the other.
#include <memory>
#include <string_view>

#include "location/backends.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/shared_frontier.h"

namespace robotscan::storage {

Result<std::unique_ptr<CrawlStore>> CrawlStore::Open(
    std::string_view location, const StoreOptions& options) {
  if (IsPostgresUri(location)) return OpenPgCrawlStore(location, options);
  return OpenSqliteCrawlStore(location, options);
}

Result<std::unique_ptr<LatestFetchReader>> LatestFetchReader::Open(
    std::string_view location, const LatestFetchQuery& query) {
  if (IsPostgresUri(location)) return OpenPgLatestFetchReader(location, query);
  return OpenSqliteLatestFetchReader(location, query);
}

Result<std::unique_ptr<SharedFrontier>> SharedFrontier::Open(
    std::string_view location, const StoreOptions& options) {
  if (!IsPostgresUri(location)) {
    return Status(Status::Code::kInvalidArgument,
                  "a shared frontier needs PostgreSQL (--db postgresql://...); "
                  "an SQLite file has one writer: use robotscan crawl LIST "
                  "--db FILE");
  }
  return OpenPgSharedFrontier(location, options);
}

}  // namespace robotscan::storage
