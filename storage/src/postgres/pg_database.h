// Opening a PostgreSQL crawl database: connect, bring the schema forward
// (writers) or check it (readers). Shared by the PostgreSQL store, reader
// and frontier. Private to storage.
#ifndef ROBOTSCAN_STORAGE_POSTGRES_PG_DATABASE_H_
#define ROBOTSCAN_STORAGE_POSTGRES_PG_DATABASE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "postgres/pg_handles.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

struct PgDatabase {
  PgConnection conn;
  bool utf8 = true;  // Server encoding UTF8 (text is made valid for it).
  int version = 0;   // Schema version after opening.
};

// Connects to `uri`. With `migrate`, creates or migrates the schema (under
// an advisory lock: any number of processes may do this at once); else
// fails with kInvalidArgument when there is no crawl schema, kSchemaTooNew
// when it is newer than this robotscan's.
Status OpenPgDatabase(std::string_view uri, bool migrate, PgDatabase* out);

// Every crawl_run row, oldest first, of a database at schema `version`.
Result<std::vector<RunRecord>> ReadPgRuns(PGconn* conn, int version);

// Inserts the crawl_run row of a new crawl (a single-process crawl's
// BeginRun, or enqueue), text made valid for the server (`utf8`); its id.
Result<std::int64_t> InsertPgCrawlRun(PGconn* conn, bool utf8,
                                      const RunInfo& info);

// A PostgreSQL array literal ({"a","b"}) of text values, and of integers.
std::string PgTextArray(const std::vector<std::string>& values);
std::string PgIntArray(const std::vector<std::int64_t>& values);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_POSTGRES_PG_DATABASE_H_
