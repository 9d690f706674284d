// LatestFetchReader on PostgreSQL: the same rows as the SQLite reader,
// streamed through a binary cursor in one REPEATABLE READ, READ ONLY
// transaction (every call sees one snapshot, as a report must, while
// workers go on writing). Memory: one FETCH of kRowsPerFetch rows.
#include <string>
#include <utility>

#include "body_codec.h"
#include "location/backends.h"
#include "postgres/pg_database.h"
#include "postgres/pg_handles.h"
#include "schema/latest_fetch_columns.h"
#include "schema/latest_fetch_view.h"

namespace robotscan::storage {
namespace {

// Rows per FETCH: bounds memory at kRowsPerFetch bodies (500 KiB each at
// most) while keeping round trips rare.
constexpr int kRowsPerFetch = 128;
constexpr std::size_t kExcerptBytes = 512;

// The SQLite reader's GROUP BY, in SQL here too (PostgreSQL hashes or sorts
// the groups on disk): the example is the best-ranked domain, ties broken
// by name in byte order, packed into one min() so both backends pick the
// same one.
constexpr char kSelectSharedBodies[] = R"sql(
SELECT body_sha256, count(*)::int8 AS n, max(bytes)::int8,
       min(CASE WHEN rank > 0 THEN rank ELSE 9223372036854775807 END)::int8
         AS best,
       min(lpad((CASE WHEN rank > 0 THEN rank
                 ELSE 9223372036854775807 END)::text, 19, '0')
           || '|' || domain COLLATE "C")
FROM latest_fetch
WHERE (http_status BETWEEN 200 AND 299 OR not_modified = 1)
  AND body_sha256 IS NOT NULL
GROUP BY body_sha256
HAVING count(*) >= $1
ORDER BY n DESC, best ASC, body_sha256 ASC
LIMIT $2
)sql";

class PgLatestFetchReader final : public LatestFetchReader {
 public:
  explicit PgLatestFetchReader(PgDatabase db)
      : db_(std::move(db)), txn_(db_.conn.get()) {}

  Status Start(const LatestFetchQuery& query) {
    if (Status s =
            txn_.Begin("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        !s.ok()) {
      return s;
    }
    if (query.as_of_run > 0) {
      PgResult r;
      if (Status s = ExecPg(conn(), "SELECT 1 FROM crawl_run WHERE id = $1",
                            PgParams().Int(query.as_of_run), "find run", &r);
          !s.ok()) {
        return s;
      }
      if (PQntuples(r.get()) == 0) {
        return Status(
            Status::Code::kInvalidArgument,
            "the database has no crawl run " + std::to_string(query.as_of_run));
      }
    }
    const schema::RowSource source = schema::RowSourceOf(query);
    std::string sql = "DECLARE latest_rows BINARY NO SCROLL CURSOR FOR ";
    sql += schema::LatestFetchRowsSql(
        schema::Dialect::kPostgres, source,
        schema::HasStep(schema::Dialect::kPostgres, db_.version,
                        schema::Step::kSignals));
    if (query.by_domain) {
      // Byte order, as SQLite's BINARY collation.
      sql += source == schema::RowSource::kView
                 ? "ORDER BY lf.domain COLLATE \"C\""
                 : "ORDER BY d.name COLLATE \"C\"";
    }
    PgParams params;
    if (source == schema::RowSource::kUpToRun) {
      params.Int(query.as_of_run);
    } else if (source == schema::RowSource::kCaptureWindow) {
      params.TextOrNull(query.captured_from).TextOrNull(query.captured_before);
    }
    return ExecPg(conn(), sql, params, "open latest_fetch cursor");
  }

  Result<std::vector<RunRecord>> ReadRuns() override {
    return ReadPgRuns(conn(), db_.version);
  }

  Result<CaptureSpan> ReadCaptureSpan() override {
    PgResult r;
    if (Status s = ExecPg(
            conn(), "SELECT min(fetched_at), max(fetched_at) FROM \"fetch\"",
            {}, "read capture span", &r);
        !s.ok()) {
      return s;
    }
    return CaptureSpan{PgText(r.get(), 0, 0), PgText(r.get(), 0, 1)};
  }

  Result<std::int64_t> CountRows() override {
    PgResult r;
    if (Status s = ExecPg(conn(), "SELECT count(*)::int8 FROM latest_fetch", {},
                          "count rows", &r);
        !s.ok()) {
      return s;
    }
    return PgInt(r.get(), 0, 0);
  }

  Result<bool> Next(LatestFetchRow* row) override {
    if (next_ >= PQntuples(page_.get())) {
      if (finished_) return false;
      page_.reset();
      next_ = 0;
      if (Status s = ExecPg(
              conn(),
              "FETCH " + std::to_string(kRowsPerFetch) + " FROM latest_rows",
              {}, "read rows", &page_);
          !s.ok()) {
        return s;
      }
      if (PQntuples(page_.get()) < kRowsPerFetch) finished_ = true;
      if (PQntuples(page_.get()) == 0) return false;
    }
    return latest_fetch_columns::DecodeNextRow(PgCells(page_.get(), next_++),
                                               row);
  }

  Result<std::vector<SharedBody>> FindSharedBodies(
      std::int64_t min_domains, std::int64_t limit) override {
    std::vector<SharedBody> bodies;
    PgResult r;
    if (Status s = ExecPg(conn(), kSelectSharedBodies,
                          PgParams().Int(min_domains).Int(limit),
                          "find shared bodies", &r);
        !s.ok()) {
      return s;
    }
    const PGresult* res = r.get();
    for (int i = 0; i < PQntuples(res); ++i) {
      SharedBody body;
      latest_fetch_columns::DecodeSharedBody(PgCells(res, i), &body);
      bodies.push_back(std::move(body));
    }
    // Excerpts for the few listed: the first bytes straight from the
    // server for stored bodies, decompressed here for zstd ones.
    for (SharedBody& body : bodies) {
      PgResult e;
      if (Status s = ExecPg(
              conn(),
              "SELECT compression, CASE WHEN compression = 'none' THEN "
              "substring(data FROM 1 FOR $2) ELSE data END FROM body WHERE "
              "sha256 = decode($1, 'hex')",
              PgParams().Text(body.sha256).Int(kExcerptBytes), "read excerpt",
              &e);
          !s.ok()) {
        return s;
      }
      if (PQntuples(e.get()) == 0) continue;
      std::string data(PgBytes(e.get(), 0, 1));
      if (PgBytes(e.get(), 0, 0) == "zstd") {
        std::string plain;
        if (Status s = DecompressBody(data, 0, &plain); !s.ok()) return s;
        data = std::move(plain);
      }
      body.excerpt = data.substr(0, kExcerptBytes);
    }
    return bodies;
  }

 private:
  PGconn* conn() { return db_.conn.get(); }

  PgDatabase db_;
  PgTransaction txn_;  // After db_: rolled back before it closes.
  PgResult page_;
  int next_ = 0;
  bool finished_ = false;
};

}  // namespace

Result<std::unique_ptr<LatestFetchReader>> OpenPgLatestFetchReader(
    std::string_view uri, const LatestFetchQuery& query) {
  PgDatabase db;
  if (Status s = OpenPgDatabase(uri, false, &db); !s.ok()) return s;
  auto reader = std::make_unique<PgLatestFetchReader>(std::move(db));
  if (Status s = reader->Start(query); !s.ok()) return s;
  return std::unique_ptr<LatestFetchReader>(std::move(reader));
}

}  // namespace robotscan::storage
