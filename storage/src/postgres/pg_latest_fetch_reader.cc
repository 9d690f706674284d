// LatestFetchReader on PostgreSQL: the same rows as the SQLite reader,
// streamed through a binary cursor in one REPEATABLE READ, READ ONLY
// transaction (every call sees one snapshot, as a report must, while
// workers go on writing). Memory: one FETCH of kRowsPerFetch rows.
#include <string>
#include <utility>

#include "body_codec.h"
#include "postgres/pg_backend.h"
#include "postgres/pg_database.h"
#include "postgres/pg_handles.h"
#include "schema/latest_fetch_columns.h"

namespace robotscan::storage {
namespace {

// Rows per FETCH: bounds memory at kRowsPerFetch bodies (500 KiB each at
// most) while keeping round trips rare.
constexpr int kRowsPerFetch = 128;
constexpr std::size_t kExcerptBytes = 512;

// The current row of a FETCH page, for DecodeLatestFetchRow.
class PgCells {
 public:
  PgCells(const PGresult* page, int row) : page_(page), row_(row) {}
  std::string_view Bytes(int column) const {
    return PgBytes(page_, row_, column);
  }
  std::int64_t Int(int column) const { return PgInt(page_, row_, column); }
  bool IsNull(int column) const { return PgIsNull(page_, row_, column); }

 private:
  const PGresult* page_;
  int row_;
};

// Columns in latest_fetch_columns.h order, as the SQLite reader's.
constexpr char kSelectRows[] = R"sql(
SELECT lf.domain, lf.rank::int8, lf.url, lf.final_url, lf.http_status::int8,
       lf.access, lf.error, lf.redirects::int8, lf.bytes::int8,
       lf.truncated::int8, lf.content_type, lf.body, lf.body_sha256,
       lf.fetched_at, lf.body_compression,
       CASE WHEN lf.body IS NULL AND lf.body_compression = 'zstd' THEN
         (SELECT b.data FROM "fetch" f JOIN body b ON b.id = f.body_id
          WHERE f.id = lf.fetch_id) END,
       lf.not_modified::int8
FROM latest_fetch lf
)sql";

constexpr char kSelectRowsAsOfRun[] = R"sql(
SELECT d.name, f.rank::int8, f.url, f.final_url, f.http_status::int8,
       f.access, f.error_class, f.redirects::int8, f.bytes::int8,
       f.truncated::int8, f.content_type,
       CASE WHEN b.compression = 'none' THEN b.data END,
       encode(b.sha256, 'hex'), f.fetched_at, b.compression,
       CASE WHEN b.compression = 'zstd' THEN b.data END,
       f.not_modified::int8
FROM domain d
JOIN "fetch" f ON f.id = (SELECT max(g.id) FROM "fetch" g
                        WHERE g.domain_id = d.id AND g.run_id <= $1)
LEFT JOIN body b ON b.id = f.body_id
)sql";

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
    std::string sql = "DECLARE latest_rows BINARY NO SCROLL CURSOR FOR ";
    sql += query.as_of_run > 0 ? kSelectRowsAsOfRun : kSelectRows;
    if (query.by_domain) {
      // Byte order, as SQLite's BINARY collation.
      sql += query.as_of_run > 0 ? "ORDER BY d.name COLLATE \"C\""
                                 : "ORDER BY lf.domain COLLATE \"C\"";
    }
    PgParams params;
    if (query.as_of_run > 0) params.Int(query.as_of_run);
    return ExecPg(conn(), sql, params, "open latest_fetch cursor");
  }

  Status ReadRuns(std::vector<RunRecord>* runs) override {
    return ReadPgRuns(conn(), runs);
  }

  Status CountRows(std::int64_t* rows) override {
    PgResult r;
    if (Status s = ExecPg(conn(), "SELECT count(*)::int8 FROM latest_fetch", {},
                          "count rows", &r);
        !s.ok()) {
      return s;
    }
    *rows = PgInt(r.get(), 0, 0);
    return Status::Ok();
  }

  Status Next(LatestFetchRow* row, bool* has_row) override {
    *has_row = false;
    if (next_ >= PQntuples(page_.get())) {
      if (finished_) return Status::Ok();
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
      if (PQntuples(page_.get()) == 0) return Status::Ok();
    }
    if (Status s = latest_fetch_columns::DecodeLatestFetchRow(
            PgCells(page_.get(), next_++), row);
        !s.ok()) {
      return s;
    }
    *has_row = true;
    return Status::Ok();
  }

  Status FindSharedBodies(std::int64_t min_domains, std::int64_t limit,
                          std::vector<SharedBody>* bodies) override {
    bodies->clear();
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
      body.sha256 = PgText(res, i, 0);
      body.domains = PgInt(res, i, 1);
      body.bytes = PgInt(res, i, 2);
      const std::int64_t best = PgInt(res, i, 3);
      body.example_rank = best == INT64_MAX ? 0 : best;
      const std::string packed = PgText(res, i, 4);
      const std::size_t bar = packed.find('|');
      body.example_domain =
          bar == std::string::npos ? packed : packed.substr(bar + 1);
      bodies->push_back(std::move(body));
    }
    // Excerpts for the few listed: the first bytes straight from the
    // server for stored bodies, decompressed here for zstd ones.
    for (SharedBody& body : *bodies) {
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
    return Status::Ok();
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
