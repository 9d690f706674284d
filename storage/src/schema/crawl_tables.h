// The crawl database's tables (crawl_store.h describes what each holds),
// one definition each for both backends (table.h): crawl_run, domain,
// body, fetch, fetch_step, history_file and signal_fetch. The fetch row and its
// steps are written from FetchRecord and FetchStep through their columns'
// codecs, by the SQLite store's INSERTs and the PostgreSQL writer's COPY alike;
// the store fills the ids (id, run_id, domain_id, body_id, fetch_id, seq).
// crawl_run, domain and body are written by hand-made SQL of each backend
// (an upsert, a hash lookup), their columns described here for the DDL
// and the copy into PostgreSQL. The PostgreSQL-only frontier tables stay in
// postgres/pg_schema.h.
//
// Private to storage. Thread-safety: constant data.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_CRAWL_TABLES_H_
#define ROBOTSCAN_STORAGE_SCHEMA_CRAWL_TABLES_H_

#include <string>
#include <string_view>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/fetch_classes.h"
#include "schema/codecs.h"
#include "schema/table.h"

namespace robotscan::storage::schema {

// How fetch.access and fetch.error_class (and fetch_step.error_class,
// latest_fetch's access and error, PreviousFetch::access) are stored and
// read: each enum as its name in the one name table (fetch_classes.h),
// which is the only place where the classes become text. A value outside
// the table is refused before anything is written.
inline std::string NoAccessClass(robots::AccessClass) {
  return "has no access class";
}
inline std::string UnknownErrorClass(ErrorClass error) {
  return "has an unknown error class (" +
         std::to_string(static_cast<int>(error)) + ")";
}
inline std::string UnknownFetchSource(FetchSource source) {
  return "has an unknown source (" + std::to_string(static_cast<int>(source)) +
         ")";
}
using SourceCodec =
    Name<FetchSource, FetchSourceName, ParseFetchSource, UnknownFetchSource>;
using AccessCodec = Name<robots::AccessClass, robots::AccessClassName,
                         ParseAccessClass, NoAccessClass>;
using ErrorClassCodec = Name<ErrorClass, ErrorClassName, ParseErrorClass,
                             UnknownErrorClass, EmptyName::kIsNull>;

inline constexpr Column kCrawlRunColumns[] = {
    Key("id"),
    Filled("started_at", SqlType::kText, "NOT NULL"),
    Filled("finished_at", SqlType::kText),
    Filled("status", SqlType::kText, "NOT NULL DEFAULT 'running'")
        .Comment("running|finished|interrupted|failed"),
    Filled("tool_version", SqlType::kText),
    Filled("input", SqlType::kText),
    Filled("options", SqlType::kText).Comment("JSON"),
    // Who ran a crawl, and which top list it read (provenance a paper
    // cites: the list's source, its ID or date, its SHA-256 and how many
    // of its entries were used).
    Filled("host", SqlType::kText).Since(Step::kRunProvenance),
    Filled("pid", SqlType::kInt64).Since(Step::kRunProvenance),
    Filled("list_source", SqlType::kText)
        .Since(Step::kRunProvenance)
        .Comment("tranco|umbrella|majestic|file"),
    Filled("list_id", SqlType::kText)
        .Since(Step::kRunProvenance)
        .Comment("e.g. Tranco's list ID"),
    Filled("list_date", SqlType::kText)
        .Since(Step::kRunProvenance)
        .Comment("YYYY-MM-DD of the list"),
    Filled("list_url", SqlType::kText)
        .Since(Step::kRunProvenance)
        .Comment("where it was downloaded"),
    Filled("list_sha256", SqlType::kText)
        .Since(Step::kRunProvenance)
        .Comment("of the file read (hex)"),
    Filled("list_entries", SqlType::kInt64)
        .Since(Step::kRunProvenance)
        .Comment("entries selected"),
    // What a run is: a crawl, or one crawl ID's (or period's) captures
    // imported from an archive (docs/history.md).
    Filled("source", SqlType::kText,
           "NOT NULL DEFAULT 'crawl' "
           "CHECK (source IN ('crawl','commoncrawl','wayback'))")
        .Since(Step::kHistorySources),
    Filled("source_crawl", SqlType::kText)
        .Since(Step::kHistorySources)
        .Comment("Common Crawl's crawl ID, e.g. CC-MAIN-2024-10"),
};
inline constexpr Table kCrawlRunTable{.name = "crawl_run",
                                      .columns = kCrawlRunColumns};

inline constexpr Column kDomainColumns[] = {
    Key("id"),
    Filled("name", SqlType::kText, "NOT NULL UNIQUE"),
    Filled("latest_fetch_id", SqlType::kInt64),
};
inline constexpr Table kDomainTable{.name = "domain",
                                    .columns = kDomainColumns};

inline constexpr Column kBodyColumns[] = {
    Key("id"),
    Filled("sha256", SqlType::kBlob, "NOT NULL UNIQUE"),
    Filled("size", SqlType::kInt64, "NOT NULL").Comment("decoded bytes"),
    Filled("compression", SqlType::kText, "NOT NULL DEFAULT 'none'")
        .Comment("none|zstd"),
    Filled("data", SqlType::kBlob, "NOT NULL"),
};
inline constexpr Table kBodyTable{.name = "body", .columns = kBodyColumns};

inline constexpr Column kFetchColumns[] = {
    Key("id"),
    Filled("run_id", SqlType::kInt64, "NOT NULL").References("crawl_run"),
    Filled("domain_id", SqlType::kInt64, "NOT NULL").References("domain"),
    Field<&FetchRecord::rank, Integer>("rank", SqlType::kInt64),
    Field<&FetchRecord::url, Text>("url", SqlType::kText, "NOT NULL"),
    Field<&FetchRecord::final_url, TextOrNull>("final_url", SqlType::kText),
    Field<&FetchRecord::strategy, TextOrNull>("strategy", SqlType::kText),
    Field<&FetchRecord::http_status, PositiveOrNull>("http_status",
                                                     SqlType::kInt32),
    Field<&FetchRecord::access, AccessCodec>(
        "access", SqlType::kText,
        "NOT NULL CHECK (access IN ('success','unavailable','unreachable'))"),
    Field<&FetchRecord::error_class, ErrorClassCodec>("error_class",
                                                      SqlType::kText),
    Field<&FetchRecord::error_message, TextOrNull>("error_message",
                                                   SqlType::kText),
    Field<&FetchRecord::redirects, Integer>("redirects", SqlType::kInt32,
                                            "NOT NULL DEFAULT 0"),
    Field<&FetchRecord::attempts, Integer>("attempts", SqlType::kInt32,
                                           "NOT NULL DEFAULT 1"),
    Field<&FetchRecord::body, SizeOf>("bytes", SqlType::kInt64,
                                      "NOT NULL DEFAULT 0"),
    Field<&FetchRecord::truncated, Flag>("truncated", SqlType::kInt32,
                                         "NOT NULL DEFAULT 0"),
    Field<&FetchRecord::not_modified, Flag>("not_modified", SqlType::kInt32,
                                            "NOT NULL DEFAULT 0"),
    Filled("body_id", SqlType::kInt64).References("body"),
    Field<&FetchRecord::content_type, TextOrNull>("content_type",
                                                  SqlType::kText),
    Field<&FetchRecord::content_encoding, TextOrNull>("content_encoding",
                                                      SqlType::kText),
    Field<&FetchRecord::content_length, TextOrNull>("content_length",
                                                    SqlType::kText),
    Field<&FetchRecord::cache_control, TextOrNull>("cache_control",
                                                   SqlType::kText),
    Field<&FetchRecord::expires, TextOrNull>("expires", SqlType::kText),
    Field<&FetchRecord::last_modified, TextOrNull>("last_modified",
                                                   SqlType::kText),
    Field<&FetchRecord::etag, TextOrNull>("etag", SqlType::kText),
    Field<&FetchRecord::retry_after, TextOrNull>("retry_after", SqlType::kText),
    Field<&FetchRecord::ip, TextOrNull>("ip", SqlType::kText),
    Field<&FetchRecord::dns_ms, MillisOrNull>("dns_ms", SqlType::kReal),
    Field<&FetchRecord::connect_ms, MillisOrNull>("connect_ms", SqlType::kReal),
    Field<&FetchRecord::tls_ms, MillisOrNull>("tls_ms", SqlType::kReal),
    Field<&FetchRecord::first_byte_ms, MillisOrNull>("first_byte_ms",
                                                     SqlType::kReal),
    Field<&FetchRecord::total_ms, MillisOrNull>("total_ms", SqlType::kReal),
    Field<&FetchRecord::fetched_at, Text>("fetched_at", SqlType::kText,
                                          "NOT NULL"),
    // Provenance of an imported capture (docs/history.md); a crawl's own
    // fetches are source 'crawl' with the rest NULL. fetched_at is then
    // the capture time.
    Field<&FetchRecord::source, SourceCodec>(
        "source", SqlType::kText,
        "NOT NULL DEFAULT 'crawl' "
        "CHECK (source IN ('crawl','commoncrawl','wayback'))")
        .Since(Step::kHistorySources),
    Field<&FetchRecord::source_file, TextOrNull>("source_file", SqlType::kText)
        .Since(Step::kHistorySources)
        .Comment("the WARC file's name"),
    Field<&FetchRecord::source_offset, NonNegativeOrNull>("source_offset",
                                                          SqlType::kInt64)
        .Since(Step::kHistorySources)
        .Comment("the record's byte offset in it"),
    Field<&FetchRecord::source_timestamp, TextOrNull>("source_timestamp",
                                                      SqlType::kText)
        .Since(Step::kHistorySources)
        .Comment("the capture time as the archive wrote it"),
};
inline constexpr Index kFetchIndexes[] = {{"fetch_by_domain", "domain_id"}};
inline constexpr Table kFetchTable{.name = "fetch",
                                   .columns = kFetchColumns,
                                   .constraints = "UNIQUE (run_id, domain_id)",
                                   .indexes = kFetchIndexes,
                                   .record = RecordTag<FetchRecord>()};

inline constexpr Column kFetchStepColumns[] = {
    Filled("fetch_id", SqlType::kInt64, "NOT NULL").References("fetch"),
    Filled("seq", SqlType::kInt32, "NOT NULL"),
    Field<&FetchStep::url, Text>("url", SqlType::kText, "NOT NULL"),
    Field<&FetchStep::http_status, PositiveOrNull>("http_status",
                                                   SqlType::kInt32),
    Field<&FetchStep::location, TextOrNull>("location", SqlType::kText),
    Field<&FetchStep::error_class, ErrorClassCodec>("error_class",
                                                    SqlType::kText),
    Field<&FetchStep::error_message, TextOrNull>("error_message",
                                                 SqlType::kText),
    Field<&FetchStep::ip, TextOrNull>("ip", SqlType::kText),
    Field<&FetchStep::total_ms, MillisOrNull>("total_ms", SqlType::kReal),
};
inline constexpr Table kFetchStepTable{
    .name = "fetch_step",
    .columns = kFetchStepColumns,
    .constraints = "PRIMARY KEY (fetch_id, seq)",
    .sqlite_without_rowid = true,
    .record = RecordTag<FetchStep>()};

// Each archive file an import read, per run: how far it got, so that an
// import stopped anywhere (kill -9 included) resumes where its last batch
// committed and imports each record once. A file is known by its name
// (the last part of its path or URL): the same file read from another
// path, host or mirror is the same file. The counts are of the records
// read (docs/history.md says what each means). holder and lease_until
// let workers on several hosts share a run's files (PostgreSQL).
// Every column of history_file came with the table (kHistorySources).
constexpr Column WithHistoryFile(Column column) {
  return column.Since(Step::kHistorySources);
}
inline constexpr Column kHistoryFileColumns[] = {
    WithHistoryFile(Key("id")),
    WithHistoryFile(
        Filled("run_id", SqlType::kInt64, "NOT NULL").References("crawl_run")),
    WithHistoryFile(Filled("name", SqlType::kText, "NOT NULL")),
    WithHistoryFile(
        Filled("location", SqlType::kText).Comment("path or URL last read")),
    WithHistoryFile(
        Filled("state", SqlType::kText,
               "NOT NULL DEFAULT 'pending' "
               "CHECK (state IN ('pending','leased','done','failed'))")),
    WithHistoryFile(
        Filled("resume_offset", SqlType::kInt64, "NOT NULL DEFAULT 0")
            .Comment("byte offset of the gzip member to go on from")),
    WithHistoryFile(Filled("resume_skip", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("records of that member already imported")),
    WithHistoryFile(Filled("records", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("WARC records read")),
    WithHistoryFile(Filled("fetches", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("fetches written")),
    WithHistoryFile(Filled("duplicates", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("captures of a domain the run already had")),
    WithHistoryFile(Filled("skipped", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("records that are no robots.txt response")),
    WithHistoryFile(Filled("errors", SqlType::kInt64, "NOT NULL DEFAULT 0")
                        .Comment("malformed records")),
    WithHistoryFile(Filled("last_error", SqlType::kText)),
    WithHistoryFile(
        Filled("holder", SqlType::kText).Comment("host:pid reading it")),
    WithHistoryFile(
        Filled("lease_until", SqlType::kText).Comment("ISO 8601 UTC")),
    WithHistoryFile(Filled("started_at", SqlType::kText)),
    WithHistoryFile(Filled("finished_at", SqlType::kText)),
};
inline constexpr Table kHistoryFileTable{
    .name = "history_file",
    .columns = kHistoryFileColumns,
    .since = Step::kHistorySources,
    .constraints = "UNIQUE (run_id, name)"};
static_assert([] {
  for (const Column& c : kHistoryFileColumns) {
    if (c.since != kHistoryFileTable.since) return false;
  }
  return true;
}());

// The signals of a fetch (`crawl --signals`), written with it like its
// steps. Every column came with the table (kSignals).
constexpr Column WithSignals(Column column) {
  return column.Since(Step::kSignals);
}
inline constexpr Column kSignalColumns[] = {
    WithSignals(
        Filled("fetch_id", SqlType::kInt64, "NOT NULL").References("fetch")),
    WithSignals(
        Field<&SignalRecord::kind, Text>("kind", SqlType::kText, "NOT NULL")
            .Comment("llms.txt|tdmrep.json|homepage")),
    WithSignals(Field<&SignalRecord::url, TextOrNull>("url", SqlType::kText)),
    WithSignals(Field<&SignalRecord::final_url, TextOrNull>("final_url",
                                                            SqlType::kText)),
    WithSignals(Field<&SignalRecord::http_status, PositiveOrNull>(
        "http_status", SqlType::kInt32)),
    WithSignals(Field<&SignalRecord::error_class, ErrorClassCodec>(
        "error_class", SqlType::kText)),
    WithSignals(Field<&SignalRecord::error_message, TextOrNull>(
        "error_message", SqlType::kText)),
    WithSignals(Field<&SignalRecord::redirects, Integer>(
        "redirects", SqlType::kInt32, "NOT NULL DEFAULT 0")),
    WithSignals(Field<&SignalRecord::content_type, TextOrNull>("content_type",
                                                               SqlType::kText)),
    WithSignals(Field<&SignalRecord::bytes, Integer>("bytes", SqlType::kInt64,
                                                     "NOT NULL DEFAULT 0")),
    WithSignals(Field<&SignalRecord::truncated, Flag>(
        "truncated", SqlType::kInt32, "NOT NULL DEFAULT 0")),
    WithSignals(Field<&SignalRecord::present, Flag>("present", SqlType::kInt32,
                                                    "NOT NULL DEFAULT 0")),
    WithSignals(Field<&SignalRecord::absent_reason, TextOrNull>("absent_reason",
                                                                SqlType::kText)
                    .Comment("status|html|soft-404|empty|no-response|"
                             "not-fetched")),
    WithSignals(
        Field<&SignalRecord::valid, NonNegativeOrNull>("valid", SqlType::kInt32)
            .Comment("tdmrep.json: 1 valid TDMRep, 0 not")),
    WithSignals(Field<&SignalRecord::validation_error, TextOrNull>(
        "validation_error", SqlType::kText)),
    WithSignals(Field<&SignalRecord::x_robots_tag, TextOrNull>("x_robots_tag",
                                                               SqlType::kText)),
    WithSignals(Field<&SignalRecord::content_usage, TextOrNull>(
        "content_usage", SqlType::kText)),
    WithSignals(Field<&SignalRecord::tdm_reservation, TextOrNull>(
        "tdm_reservation", SqlType::kText)),
    WithSignals(Field<&SignalRecord::tdm_policy, TextOrNull>("tdm_policy",
                                                             SqlType::kText)),
    WithSignals(Field<&SignalRecord::body, Bytes>("body", SqlType::kBlob)),
};
inline constexpr Table kSignalTable{
    .name = "signal_fetch",
    .columns = kSignalColumns,
    .since = Step::kSignals,
    .constraints = "PRIMARY KEY (fetch_id, kind)",
    .sqlite_without_rowid = true,
    .record = RecordTag<SignalRecord>()};
static_assert([] {
  for (const Column& c : kSignalColumns) {
    if (c.since != kSignalTable.since) return false;
  }
  return true;
}());

static_assert(WrittenFrom(kFetchTable) && WrittenFrom(kFetchStepTable) &&
              WrittenFrom(kSignalTable));

// The objections of fetch's and fetch_step's codecs to `record` (an
// access or error class outside its name table), as both backends refuse
// it before writing.
inline Status CheckFetchRecord(const FetchRecord& record) {
  Status s = CheckRecord(kFetchTable, record,
                         [&] { return "fetch of " + record.domain; });
  for (std::size_t i = 0; s.ok() && i < record.steps.size(); ++i) {
    s = CheckRecord(kFetchStepTable, record.steps[i], [&] {
      return "step " + std::to_string(i + 1) + " of the fetch of " +
             record.domain;
    });
  }
  for (std::size_t i = 0; s.ok() && i < record.signals.size(); ++i) {
    s = CheckRecord(kSignalTable, record.signals[i], [&] {
      return "signal " + record.signals[i].kind + " of " + record.domain;
    });
  }
  return s;
}

// Every table of both dialects, in the order the migrations create them
// (each after the tables it references).
inline constexpr const Table* kCrawlTables[] = {
    &kCrawlRunTable,  &kDomainTable,      &kBodyTable,  &kFetchTable,
    &kFetchStepTable, &kHistoryFileTable, &kSignalTable};

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_CRAWL_TABLES_H_
