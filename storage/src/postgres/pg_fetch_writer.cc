#include "postgres/pg_fetch_writer.h"

#include <string>

#include "body_codec.h"
#include "robotscan/storage/fetch_classes.h"

namespace robotscan::storage {
namespace {

// ON COMMIT DELETE ROWS: each transaction starts with empty staging tables.
constexpr char kCreateStaging[] = R"sql(
CREATE TEMP TABLE IF NOT EXISTS staged_fetch (
  ord integer PRIMARY KEY, domain text NOT NULL, rank bigint, url text,
  final_url text, strategy text, http_status integer, access text,
  error_class text, error_message text, redirects integer, attempts integer,
  bytes bigint, truncated integer, not_modified integer,
  body_sha256 bytea, body_size bigint, body_compression text, body_data bytea,
  body_from_fetch_id bigint,
  content_type text, content_encoding text, content_length text,
  cache_control text, expires text, last_modified text, etag text,
  retry_after text, ip text,
  dns_ms double precision, connect_ms double precision,
  tls_ms double precision, first_byte_ms double precision,
  total_ms double precision, fetched_at text,
  batch_id bigint, generation bigint, domain_id bigint
) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS staged_step (
  ord integer NOT NULL, seq integer NOT NULL, url text, http_status integer,
  location text, error_class text, error_message text, ip text,
  total_ms double precision
) ON COMMIT DELETE ROWS;
)sql";

constexpr char kCopyFetch[] =
    "COPY staged_fetch (ord, domain, rank, url, final_url, strategy, "
    "http_status, access, error_class, error_message, redirects, attempts, "
    "bytes, truncated, not_modified, body_sha256, body_size, "
    "body_compression, body_data, body_from_fetch_id, content_type, "
    "content_encoding, content_length, cache_control, expires, "
    "last_modified, etag, retry_after, ip, dns_ms, connect_ms, tls_ms, "
    "first_byte_ms, total_ms, fetched_at, batch_id, generation) FROM STDIN";

constexpr char kCopyStep[] =
    "COPY staged_step (ord, seq, url, http_status, location, error_class, "
    "error_message, ip, total_ms) FROM STDIN";

constexpr char kInsertBodies[] = R"sql(
INSERT INTO body (sha256, size, compression, data)
SELECT DISTINCT ON (body_sha256) body_sha256, body_size, body_compression,
       body_data
FROM staged_fetch WHERE body_data IS NOT NULL
ORDER BY body_sha256
ON CONFLICT (sha256) DO NOTHING
)sql";

constexpr char kInsertDomains[] = R"sql(
INSERT INTO domain (name)
SELECT DISTINCT domain FROM staged_fetch ORDER BY domain
ON CONFLICT (name) DO NOTHING
)sql";

// Each staged record's domain id, looked up once (by the unique index on
// domain.name) for the statements that follow.
constexpr char kResolveDomains[] = R"sql(
UPDATE staged_fetch s SET domain_id = d.id FROM domain d WHERE d.name = s.domain
)sql";

// One statement for the fetches, their steps and the domains' newest
// fetch. A 304 (body_from_fetch_id) keeps the earlier fetch's body, as the
// SQLite store does (a subquery, so that it is an index lookup for the
// few 304s instead of a join with the whole fetch table); only 2xx bodies
// were staged with a hash.
constexpr char kInsertFetches[] = R"sql(
WITH ins AS (
  INSERT INTO "fetch" (run_id, domain_id, rank, url, final_url, strategy,
    http_status, access, error_class, error_message, redirects, attempts,
    bytes, truncated, not_modified, body_id, content_type, content_encoding,
    content_length, cache_control, expires, last_modified, etag,
    retry_after, ip, dns_ms, connect_ms, tls_ms, first_byte_ms, total_ms,
    fetched_at)
  SELECT $1::int8, s.domain_id, s.rank, s.url, s.final_url, s.strategy,
    s.http_status, s.access, s.error_class, s.error_message, s.redirects,
    s.attempts, s.bytes, s.truncated, s.not_modified,
    CASE WHEN s.body_from_fetch_id IS NOT NULL
         THEN (SELECT pf.body_id FROM "fetch" pf
               WHERE pf.id = s.body_from_fetch_id)
         ELSE b.id END,
    s.content_type, s.content_encoding, s.content_length, s.cache_control,
    s.expires, s.last_modified, s.etag, s.retry_after, s.ip, s.dns_ms,
    s.connect_ms, s.tls_ms, s.first_byte_ms, s.total_ms, s.fetched_at
  FROM staged_fetch s
  LEFT JOIN body b ON b.sha256 = s.body_sha256
  ORDER BY s.ord
  RETURNING id, domain_id
), steps AS (
  INSERT INTO fetch_step (fetch_id, seq, url, http_status, location,
    error_class, error_message, ip, total_ms)
  SELECT ins.id, st.seq, st.url, st.http_status, st.location,
    st.error_class, st.error_message, st.ip, st.total_ms
  FROM staged_step st
  JOIN staged_fetch s ON s.ord = st.ord
  JOIN ins ON ins.domain_id = s.domain_id
), latest AS (
  UPDATE domain d SET latest_fetch_id = ins.id
  FROM ins
  WHERE d.id = ins.domain_id
    AND (d.latest_fetch_id IS NULL OR d.latest_fetch_id < ins.id)
)
)sql";

constexpr char kCountInserted[] = "SELECT count(*)::int8 FROM ins";

// Frontier mode: the same statement also marks the records' frontier rows
// done with their fetch ids, straight from what it inserted (a statement of
// its own had to find each new fetch again, and the planner, with no
// statistics for the staging table, scanned the frontier to do it).
constexpr char kMarkFrontierDone[] = R"sql(
, done AS (
  UPDATE crawl_frontier f SET state = 'done', fetch_id = ins.id
  FROM ins JOIN staged_fetch s ON s.domain_id = ins.domain_id
  WHERE f.run_id = $1::int8 AND f.domain = s.domain AND f.state = 'leased'
    AND f.batch_id = s.batch_id
)
)sql";

}  // namespace

Status PgFetchWriter::EnsureStagingTables(PGconn* conn) {
  if (staging_ready_) return Status::Ok();
  if (Status s = ExecPgSimple(conn, kCreateStaging, "create staging tables");
      !s.ok()) {
    return s;
  }
  staging_ready_ = true;
  return Status::Ok();
}

Status PgFetchWriter::Stage(PGconn* conn, std::span<const FetchRecord> records,
                            std::span<const StagedLease> leases) {
  for (const FetchRecord& r : records) {
    if (!ParseAccessClass(r.access)) {
      return Status(Status::Code::kInvalidArgument,
                    "fetch of " + r.domain + " has no access class");
    }
    if (!ParseErrorClass(r.error_class)) {
      return Status(Status::Code::kInvalidArgument,
                    "fetch of " + r.domain + " has an unknown error class '" +
                        r.error_class + "'");
    }
  }
  if (Status s = EnsureStagingTables(conn); !s.ok()) return s;
  CopyRows fetch_rows(utf8_);
  CopyRows step_rows(utf8_);
  std::unordered_set<std::string> sent_in_batch;
  std::string compressed;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const FetchRecord& r = records[i];
    const auto ord = static_cast<std::int64_t>(i);
    const bool reuses_body = r.body_from_fetch_id != 0;
    // Only 2xx bodies are robots.txt files; error pages are not kept.
    const bool has_body =
        !reuses_body && r.http_status >= 200 && r.http_status < 300;
    std::string digest;
    bool send_data = false;
    if (has_body) {
      digest = Sha256Of(r.body);
      send_data = known_bodies_.count(digest) == 0 &&
                  sent_in_batch.insert(digest).second;
    }
    fetch_rows.Int(ord)
        .Text(r.domain)
        .Int(r.rank)
        .Text(r.url)
        .TextOrNull(r.final_url)
        .TextOrNull(r.strategy)
        .IntOrNull(r.http_status, r.http_status <= 0)
        .Text(r.access)
        .TextOrNull(r.error_class)
        .TextOrNull(r.error_message)
        .Int(r.redirects)
        .Int(r.attempts)
        .Int(static_cast<std::int64_t>(r.body.size()))
        .Int(r.truncated ? 1 : 0)
        .Int(r.not_modified ? 1 : 0)
        .BytesOrNull(digest, !has_body)
        .IntOrNull(static_cast<std::int64_t>(r.body.size()), !has_body);
    if (send_data) {
      if (compress_) {
        if (Status s = CompressBody(r.body, &compressed); !s.ok()) return s;
        fetch_rows.Text("zstd").Bytes(compressed);
      } else {
        fetch_rows.Text("none").Bytes(r.body);
      }
      pending_bodies_.insert(digest);
    } else {
      fetch_rows.Null().Null();
    }
    fetch_rows.IntOrNull(r.body_from_fetch_id, !reuses_body)
        .TextOrNull(r.content_type)
        .TextOrNull(r.content_encoding)
        .TextOrNull(r.content_length)
        .TextOrNull(r.cache_control)
        .TextOrNull(r.expires)
        .TextOrNull(r.last_modified)
        .TextOrNull(r.etag)
        .TextOrNull(r.retry_after)
        .TextOrNull(r.ip)
        .MillisOrNull(r.dns_ms)
        .MillisOrNull(r.connect_ms)
        .MillisOrNull(r.tls_ms)
        .MillisOrNull(r.first_byte_ms)
        .MillisOrNull(r.total_ms)
        .Text(r.fetched_at);
    if (leases.empty()) {
      fetch_rows.Null().Null();
    } else {
      fetch_rows.Int(leases[i].batch_id).Int(leases[i].generation);
    }
    fetch_rows.EndRow();
    int seq = 0;
    for (const FetchStep& step : r.steps) {
      step_rows.Int(ord)
          .Int(seq++)
          .Text(step.url)
          .IntOrNull(step.http_status, step.http_status <= 0)
          .TextOrNull(step.location)
          .TextOrNull(step.error_class)
          .TextOrNull(step.error_message)
          .TextOrNull(step.ip)
          .MillisOrNull(step.total_ms);
      step_rows.EndRow();
    }
  }
  if (Status s = CopyIntoTable(conn, kCopyFetch, fetch_rows, "stage fetches");
      !s.ok()) {
    return s;
  }
  if (!step_rows.empty()) {
    if (Status s = CopyIntoTable(conn, kCopyStep, step_rows, "stage steps");
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

Status PgFetchWriter::InsertStaged(PGconn* conn, std::int64_t run_id,
                                   bool mark_frontier, std::int64_t* inserted) {
  if (Status s = ExecPgSimple(conn, kInsertBodies, "insert bodies"); !s.ok()) {
    return s;
  }
  if (Status s = ExecPgSimple(conn, kInsertDomains, "insert domains");
      !s.ok()) {
    return s;
  }
  if (Status s = ExecPgSimple(conn, kResolveDomains, "look up domains");
      !s.ok()) {
    return s;
  }
  std::string statement = kInsertFetches;
  if (mark_frontier) statement += kMarkFrontierDone;
  statement += kCountInserted;
  PgResult r;
  if (Status s =
          ExecPg(conn, statement, PgParams().Int(run_id), "insert fetches", &r);
      !s.ok()) {
    return s;
  }
  *inserted = PgInt(r.get(), 0, 0);
  return Status::Ok();
}

void PgFetchWriter::Committed() {
  if (known_bodies_.size() + pending_bodies_.size() > kMaxKnownBodies) {
    known_bodies_.clear();
  }
  known_bodies_.merge(pending_bodies_);
  pending_bodies_.clear();
}

// A rollback also drops the staging tables if this transaction created
// them: they are created again (IF NOT EXISTS) by the next Stage.
void PgFetchWriter::RolledBack() {
  pending_bodies_.clear();
  staging_ready_ = false;
}

}  // namespace robotscan::storage
