// Copies a crawl database, history included, from an SQLite file into an
// empty PostgreSQL database (`robotscan migrate --from crawl.sqlite --db
// postgresql://...`): every crawl_run, domain, fetch, fetch_step and body
// row with its id, so that run ids, fetch ids and `latest_fetch` are the
// same on both sides and `robotscan report` prints the same figures.
// One transaction: a failed copy leaves the destination as it was. Text
// that is not valid UTF-8 is stored as PgSafeText describes
// (docs/scale-out.md).
//
// Thread-safety: a pure function of its arguments (opens its own
// connections).
//
// Usage:
//   Result<CopySummary> copied =
//       CopyCrawlDatabase("crawl.sqlite", "postgresql://h/db", {});
#ifndef ROBOTSCAN_STORAGE_COPY_CRAWL_H_
#define ROBOTSCAN_STORAGE_COPY_CRAWL_H_

#include <cstdint>
#include <functional>
#include <string_view>

#include "robotscan/storage/status.h"

namespace robotscan::storage {

struct CopySummary {
  std::int64_t runs = 0, domains = 0, fetches = 0, steps = 0, bodies = 0,
               history_files = 0, signals = 0;
};

// Rows copied per table. `progress`, if set, is called after each table
// with its name and rows. Fails with kInvalidArgument when `from` is not an
// SQLite crawl database, `to` not a postgresql:// URI, or the destination
// already has crawls.
Result<CopySummary> CopyCrawlDatabase(
    std::string_view from, std::string_view to,
    const std::function<void(std::string_view table, std::int64_t rows)>&
        progress);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_COPY_CRAWL_H_
