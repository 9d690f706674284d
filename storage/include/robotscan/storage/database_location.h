// Where a crawl database lives: `--db` takes a file path (SQLite, the
// default) or a PostgreSQL connection URI (postgresql://USER@HOST:PORT/DB
// or postgres://...; libpq fills what the URI leaves out from the PG*
// environment variables and ~/.pgpass). CrawlStore::Open,
// LatestFetchReader::Open and SharedFrontier::Open dispatch on it.
//
// A URI may carry a password (postgresql://u:secret@h/db or
// ?password=secret). It is never printed and never stored:
// RedactDatabaseUri is what messages, logs and crawl_run rows show.
// PGPASSWORD or ~/.pgpass keep it off the command line altogether.
//
// Thread-safety: pure functions.
//
// Usage:
//   if (IsPostgresUri(db)) Say("crawling into " + RedactDatabaseUri(db));
#ifndef ROBOTSCAN_STORAGE_DATABASE_LOCATION_H_
#define ROBOTSCAN_STORAGE_DATABASE_LOCATION_H_

#include <string>
#include <string_view>

#include "robotscan/storage/status.h"

namespace robotscan::storage {

// True for "postgresql://..." and "postgres://..." (case-insensitive
// scheme); anything else is a file path.
bool IsPostgresUri(std::string_view location);

// The location with any password replaced by "***" (the user-info part
// and a `password=` query parameter); file paths unchanged.
std::string RedactDatabaseUri(std::string_view location);

// The SQLite URI that reads the crawl database file at `path` without
// writing anything, as robotscan's own readers (LatestFetchReader,
// a read-only CrawlStore) open it: "file:PATH?mode=ro", or
// "file:PATH?immutable=1" where SQLite cannot create the -shm index a
// WAL-mode database is read through (a read-only directory or mount, a
// reader without write permission) and no -wal or journal holds
// transactions that immutable reading would miss. For other SQLite clients
// (Python's sqlite3.connect(uri, uri=True)). The file is opened and read
// once to decide. Errors: kIoError (the file cannot be read without write
// access; the message says why), or whatever opening the file returns.
Result<std::string> SqliteUriForReading(std::string_view path);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_DATABASE_LOCATION_H_
