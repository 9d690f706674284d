#include "robotscan/storage/latest_fetch_reader.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <utility>

#include "body_codec.h"
#include "location/backends.h"
#include "schema/latest_fetch_columns.h"
#include "schema/latest_fetch_view.h"
#include "sqlite/sqlite_handles.h"
#include "sqlite/sqlite_run_rows.h"
#include "sqlite/sqlite_schema_version.h"

namespace robotscan::storage {
namespace {

// The example is the best-ranked domain, ties broken by name in byte
// order (packed into one min() so that the PostgreSQL reader, which has no
// bare columns, picks the same one).
constexpr char kSelectSharedBodies[] = R"sql(
SELECT body_sha256, count(*) AS n, max(bytes),
       min(CASE WHEN rank > 0 THEN rank ELSE 9223372036854775807 END) AS best,
       min(printf('%019d', CASE WHEN rank > 0 THEN rank
                          ELSE 9223372036854775807 END) || '|' || domain)
FROM latest_fetch
WHERE (http_status BETWEEN 200 AND 299 OR not_modified = 1)
  AND body_sha256 IS NOT NULL
GROUP BY body_sha256
HAVING n >= ?1
ORDER BY n DESC, best ASC, body_sha256 ASC
LIMIT ?2
)sql";

constexpr std::size_t kExcerptBytes = 512;

class SqliteLatestFetchReader final : public LatestFetchReader {
 public:
  explicit SqliteLatestFetchReader(DatabaseHandle db) : db_(std::move(db)) {}

  Result<std::vector<RunRecord>> ReadRuns() override {
    return ReadRunRows(db_.get());
  }

  Result<CaptureSpan> ReadCaptureSpan() override {
    Statement span;
    Status status = Statement::Prepare(
        db_.get(), "SELECT min(fetched_at), max(fetched_at) FROM fetch", &span);
    if (!status.ok()) return status;
    const int rc = span.Step();
    if (rc != SQLITE_ROW) {
      return StatusFromSqlite(db_.get(), rc, "read capture span");
    }
    return CaptureSpan{span.ColumnText(0), span.ColumnText(1)};
  }

  Result<std::int64_t> CountRows() override {
    Statement count;
    Status status = Statement::Prepare(
        db_.get(), "SELECT count(*) FROM latest_fetch", &count);
    if (!status.ok()) return status;
    const int rc = count.Step();
    if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "count rows");
    return count.ColumnInt(0);
  }

  Result<bool> Next(LatestFetchRow* row) override {
    if (finished_) return false;
    const int rc = rows_.Step();
    if (rc == SQLITE_DONE) {
      finished_ = true;
      rows_.Reset();
      return false;
    }
    if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "read row");
    return latest_fetch_columns::DecodeNextRow(StatementCells(rows_), row);
  }

  Result<std::vector<SharedBody>> FindSharedBodies(
      std::int64_t min_domains, std::int64_t limit) override {
    std::vector<SharedBody> bodies;
    Statement query;
    Status status = Statement::Prepare(db_.get(), kSelectSharedBodies, &query);
    if (!status.ok()) return status;
    query.BindInt(1, min_domains);
    query.BindInt(2, limit);
    while (true) {
      const int rc = query.Step();
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) {
        return StatusFromSqlite(db_.get(), rc, "find shared bodies");
      }
      SharedBody body;
      latest_fetch_columns::DecodeSharedBody(StatementCells(query), &body);
      // Excerpts are read afterwards, for the few bodies listed: asking the
      // GROUP BY for one would read every body of the view a second time.
      bodies.push_back(std::move(body));
    }
    for (SharedBody& body : bodies) {
      Status read = ReadExcerpt(body.sha256, &body.excerpt);
      if (!read.ok()) return read;
    }
    return bodies;
  }

  // The first kExcerptBytes of a body (decompressed), by hex SHA-256.
  Status ReadExcerpt(const std::string& sha256_hex, std::string* excerpt) {
    std::string digest;
    for (std::size_t i = 0; i + 1 < sha256_hex.size(); i += 2) {
      digest +=
          static_cast<char>(std::stoi(sha256_hex.substr(i, 2), nullptr, 16));
    }
    Statement query;
    Status status = Statement::Prepare(
        db_.get(), "SELECT data, compression FROM body WHERE sha256 = ?1",
        &query);
    if (!status.ok()) return status;
    query.BindBlob(1, digest);
    const int rc = query.Step();
    if (rc == SQLITE_DONE) return Status::Ok();
    if (rc != SQLITE_ROW) return StatusFromSqlite(db_.get(), rc, "read body");
    std::string data = query.ColumnText(0);
    if (query.ColumnText(1) == "zstd") {
      std::string plain;
      status = DecompressBody(data, 0, &plain);
      if (!status.ok()) return status;
      data = std::move(plain);
    }
    excerpt->assign(data.substr(0, kExcerptBytes));
    return Status::Ok();
  }

  // Prepared here, not by Statement::Prepare: SQLITE_PREPARE_PERSISTENT
  // (a statement stepped through the whole view). Next reads its columns
  // straight into the row's existing string buffers (StatementCells).
  Status PrepareRowQuery(const LatestFetchQuery& query, std::int64_t version) {
    const schema::RowSource source = schema::RowSourceOf(query);
    std::string sql = schema::LatestFetchRowsSql(
        schema::Dialect::kSqlite, source,
        schema::HasStep(schema::Dialect::kSqlite, static_cast<int>(version),
                        schema::Step::kSignals));
    if (query.by_domain) {
      sql += source == schema::RowSource::kView ? "ORDER BY lf.domain"
                                                : "ORDER BY d.name";
    }
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v3(
        db_.get(), sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return StatusFromSqlite(db_.get(), rc, "prepare latest_fetch query");
    }
    rows_ = Statement(db_.get(), stmt);
    if (source == schema::RowSource::kUpToRun) {
      rows_.BindInt(1, query.as_of_run);
    } else if (source == schema::RowSource::kCaptureWindow) {
      rows_.BindTextOrNull(1, query.captured_from);
      rows_.BindTextOrNull(2, query.captured_before);
    }
    return Status::Ok();
  }

 private:
  DatabaseHandle db_;
  Statement rows_;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<LatestFetchReader>> OpenSqliteLatestFetchReader(
    std::string_view path, const LatestFetchQuery& query) {
  const std::string path_string(path);
  DatabaseHandle db;
  std::string uri;
  if (Status s = OpenDatabaseForReading(path_string, 0, &db, &uri); !s.ok()) {
    return s;
  }
  sqlite3_busy_timeout(db.get(), kBusyTimeoutMilliseconds);
  std::int64_t version = 0;
  {
    Status status = CheckSchemaVersion(db.get(), path_string, &version);
    if (!status.ok()) return status;
    Statement view;
    status = Statement::Prepare(
        db.get(),
        "SELECT 1 FROM sqlite_schema WHERE type = 'view' AND "
        "name = 'latest_fetch'",
        &view);
    if (!status.ok()) return status;
    if (view.Step() != SQLITE_ROW) {
      return Status(Status::Code::kInvalidArgument,
                    path_string +
                        " is not a robotscan crawl database "
                        "(no latest_fetch view)");
    }
    if (query.as_of_run > 0) {
      Statement run;
      status = Statement::Prepare(
          db.get(), "SELECT 1 FROM crawl_run WHERE id = ?1", &run);
      if (!status.ok()) return status;
      run.BindInt(1, query.as_of_run);
      if (run.Step() != SQLITE_ROW) {
        return Status(Status::Code::kInvalidArgument,
                      path_string + " has no crawl run " +
                          std::to_string(query.as_of_run));
      }
    }
  }
  auto reader = std::make_unique<SqliteLatestFetchReader>(std::move(db));
  Status status = reader->PrepareRowQuery(query, version);
  if (!status.ok()) return status;
  return std::unique_ptr<LatestFetchReader>(std::move(reader));
}

}  // namespace robotscan::storage
