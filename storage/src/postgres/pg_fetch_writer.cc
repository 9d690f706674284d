#include "postgres/pg_fetch_writer.h"

#include <string>

#include "body_codec.h"
#include "postgres/pg_table_rows.h"
#include "schema/crawl_tables.h"

namespace robotscan::storage {
namespace {

// The staging tables: the columns of fetch and fetch_step a record fills
// (schema/crawl_tables.h), plus what the INSERTs below need to find the
// body, the domain and the lease. ON COMMIT DELETE ROWS: each transaction
// starts with them empty.
constexpr char kStagedFetchExtras[] =
    "body_sha256 bytea, body_size bigint, body_compression text, "
    "body_data bytea, body_from_fetch_id bigint, batch_id bigint, "
    "generation bigint, domain_id bigint";
constexpr char kCopiedFetchExtras[] =
    "body_sha256, body_size, body_compression, body_data, "
    "body_from_fetch_id, batch_id, generation";

// What the writer fills in fetch and fetch_step, from the staged rows `s`
// and `st` and the fetches `ins` just inserted. A 304 (body_from_fetch_id)
// keeps the earlier fetch's body, as the SQLite store does (a subquery, so
// that it is an index lookup for the few 304s instead of a join with the
// whole fetch table); only 2xx bodies were staged with a hash.
constexpr FilledBy kFetchFilledBy[] = {
    {"run_id", "$1::int8"},
    {"domain_id", "s.domain_id"},
    {"body_id",
     "CASE WHEN s.body_from_fetch_id IS NOT NULL\n"
     "         THEN (SELECT pf.body_id FROM \"fetch\" pf\n"
     "               WHERE pf.id = s.body_from_fetch_id)\n"
     "         ELSE b.id END"},
};
static_assert(schema::FillsTheRest(schema::kFetchTable, kFetchFilledBy, false));
constexpr FilledBy kStepFilledBy[] = {{"fetch_id", "ins.id"},
                                      {"seq", "st.seq"}};
static_assert(schema::FillsTheRest(schema::kFetchStepTable, kStepFilledBy,
                                   false));
constexpr FilledBy kSignalFilledBy[] = {{"fetch_id", "ins.id"}};
static_assert(schema::FillsTheRest(schema::kSignalTable, kSignalFilledBy,
                                   false));

// The writer's statements, made once from the table definitions.
struct Statements {
  std::string create_staging;
  std::string copy_fetch;
  std::string copy_step;
  std::string copy_signal;
  // One statement for the fetches, their steps and the domains' newest
  // fetch (kMarkFrontierDone may follow, then kCountInserted).
  std::string insert_fetches;
};

const Statements& WriterStatements() {
  static const Statements statements = [] {
    Statements s;
    s.create_staging =
        "CREATE TEMP TABLE IF NOT EXISTS staged_fetch (\n"
        "  ord integer PRIMARY KEY, domain text NOT NULL, " +
        PgStagedColumns(schema::kFetchTable) + ",\n  " + kStagedFetchExtras +
        "\n) ON COMMIT DELETE ROWS;\n"
        "CREATE TEMP TABLE IF NOT EXISTS staged_step (\n"
        "  ord integer NOT NULL, seq integer NOT NULL, " +
        PgStagedColumns(schema::kFetchStepTable) +
        "\n) ON COMMIT DELETE ROWS;\n"
        "CREATE TEMP TABLE IF NOT EXISTS staged_signal (\n"
        "  ord integer NOT NULL, " +
        PgStagedColumns(schema::kSignalTable) + "\n) ON COMMIT DELETE ROWS;\n";
    s.copy_fetch = "COPY staged_fetch (ord, domain, " +
                   PgStagedColumnNames(schema::kFetchTable) + ", " +
                   kCopiedFetchExtras + ") FROM STDIN";
    s.copy_step = "COPY staged_step (ord, seq, " +
                  PgStagedColumnNames(schema::kFetchStepTable) + ") FROM STDIN";
    s.copy_signal = "COPY staged_signal (ord, " +
                    PgStagedColumnNames(schema::kSignalTable) + ") FROM STDIN";
    s.insert_fetches =
        "WITH ins AS (\n  " +
        PgInsertFromStaged(schema::kFetchTable, "s", kFetchFilledBy) +
        "\n  FROM staged_fetch s\n"
        "  LEFT JOIN body b ON b.sha256 = s.body_sha256\n"
        "  ORDER BY s.ord\n"
        "  RETURNING id, domain_id\n"
        "), steps AS (\n  " +
        PgInsertFromStaged(schema::kFetchStepTable, "st", kStepFilledBy) +
        "\n  FROM staged_step st\n"
        "  JOIN staged_fetch s ON s.ord = st.ord\n"
        "  JOIN ins ON ins.domain_id = s.domain_id\n"
        "), signals AS (\n  " +
        PgInsertFromStaged(schema::kSignalTable, "sg", kSignalFilledBy) +
        "\n  FROM staged_signal sg\n"
        "  JOIN staged_fetch s ON s.ord = sg.ord\n"
        "  JOIN ins ON ins.domain_id = s.domain_id\n"
        "), latest AS (\n"
        "  UPDATE domain d SET latest_fetch_id = ins.id\n"
        "  FROM ins\n"
        "  WHERE d.id = ins.domain_id\n"
        "    AND (d.latest_fetch_id IS NULL OR d.latest_fetch_id < ins.id)\n"
        ")\n";
    return s;
  }();
  return statements;
}

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
  if (Status s = ExecPgSimple(conn, WriterStatements().create_staging.c_str(),
                              "create staging tables");
      !s.ok()) {
    return s;
  }
  staging_ready_ = true;
  return Status::Ok();
}

Status PgFetchWriter::Stage(PGconn* conn, std::span<const FetchRecord> records,
                            std::span<const StagedLease> leases) {
  for (const FetchRecord& r : records) {
    if (Status s = schema::CheckFetchRecord(r); !s.ok()) return s;
  }
  if (Status s = EnsureStagingTables(conn); !s.ok()) return s;
  CopyRows fetch_rows(utf8_);
  CopyRows step_rows(utf8_);
  CopyRows signal_rows(utf8_);
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
    fetch_rows.Int(ord).Text(r.domain);
    CopyRecord(fetch_rows, schema::kFetchTable, r);
    fetch_rows.BytesOrNull(digest, !has_body)
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
    fetch_rows.IntOrNull(r.body_from_fetch_id, !reuses_body);
    if (leases.empty()) {
      fetch_rows.Null().Null();
    } else {
      fetch_rows.Int(leases[i].batch_id).Int(leases[i].generation);
    }
    fetch_rows.EndRow();
    int seq = 0;
    for (const FetchStep& step : r.steps) {
      step_rows.Int(ord).Int(seq++);
      CopyRecord(step_rows, schema::kFetchStepTable, step);
      step_rows.EndRow();
    }
    for (const SignalRecord& signal : r.signals) {
      signal_rows.Int(ord);
      CopyRecord(signal_rows, schema::kSignalTable, signal);
      signal_rows.EndRow();
    }
  }
  if (Status s = CopyIntoTable(conn, WriterStatements().copy_fetch.c_str(),
                               fetch_rows, "stage fetches");
      !s.ok()) {
    return s;
  }
  if (!step_rows.empty()) {
    if (Status s = CopyIntoTable(conn, WriterStatements().copy_step.c_str(),
                                 step_rows, "stage steps");
        !s.ok()) {
      return s;
    }
  }
  if (!signal_rows.empty()) {
    if (Status s = CopyIntoTable(conn, WriterStatements().copy_signal.c_str(),
                                 signal_rows, "stage signals");
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
  std::string statement = WriterStatements().insert_fetches;
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
