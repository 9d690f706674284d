// A table of the crawl database, described once for both backends. A
// Table lists its Columns; a column gives its type in neutral terms, its
// constraints (SQL both dialects accept as written), the schema step that
// added it (schema_steps.h), and, when a record fills it, the member it is
// written from and the codec that writes and reads it (codecs.h). From
// this one description come:
//   * both dialects' CREATE TABLE, ALTER TABLE ... ADD COLUMN and CREATE
//     INDEX, step by step (schema_sql.h, migrations.h);
//   * SQLite's INSERT statement and its binds (sqlite/sqlite_table_rows.h);
//   * PostgreSQL's COPY column list and rows (postgres/pg_table_rows.h);
//   * the copy of an SQLite crawl into PostgreSQL (copy_crawl.cc).
//
// Adding a table is one definition. For history sources, say:
//
//   struct HistorySource {
//     std::string name;
//     std::string url;
//     bool active = true;
//   };
//   inline constexpr Column kHistorySourceColumns[] = {
//       Key("id"),
//       Field<&HistorySource::name, Text>("name", SqlType::kText,
//                                         "NOT NULL UNIQUE"),
//       Field<&HistorySource::url, TextOrNull>("url", SqlType::kText),
//       Field<&HistorySource::active, Flag>("active", SqlType::kInt32,
//                                           "NOT NULL DEFAULT 1"),
//       Filled("run_id", SqlType::kInt64).References("crawl_run"),
//   };
//   inline constexpr Table kHistorySourceTable{
//       .name = "history_source",
//       .columns = kHistorySourceColumns,
//       .since = Step::kHistorySources,
//       .record = RecordTag<HistorySource>()};
//
// then Step::kHistorySources appended to schema_steps.h's kSteps and
// &kHistorySourceTable to crawl_tables.h's kCrawlTables. Both backends
// create the table on their next migration; SqliteInsertSql + BindRecord
// write a HistorySource on SQLite, PgCopySql + CopyRecord on PostgreSQL
// (the store binds run_id, which no member fills). A column added to an
// existing table later is one line with .Since(the new step): the
// migration adds it with ALTER TABLE.
//
// Private to storage. Thread-safety: constant data.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_TABLE_H_
#define ROBOTSCAN_STORAGE_SCHEMA_TABLE_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "robotscan/storage/status.h"
#include "schema/cell.h"
#include "schema/codecs.h"
#include "schema/schema_steps.h"

namespace robotscan::storage::schema {

// Column types, neutral; schema_sql.h names them per dialect.
enum class SqlType : std::uint8_t {
  kKey,    // The row id: INTEGER PRIMARY KEY / bigserial PRIMARY KEY.
  kInt32,  // INTEGER / integer.
  kInt64,  // INTEGER / bigint.
  kReal,   // REAL / double precision.
  kText,   // TEXT / text.
  kBlob,   // BLOB / bytea.
};

// Identifies the C++ record type a table's columns are written from, so
// that a table is never written from another type's members (checked by
// WrittenFrom at compile time and by the writers at run time).
template <class Record>
inline constexpr char kRecordTagOf = 0;
template <class Record>
constexpr const void* RecordTag() {
  return &kRecordTagOf<Record>;
}

struct Column {
  const char* name = "";
  SqlType type = SqlType::kText;
  // NOT NULL, DEFAULT, UNIQUE, CHECK: text both dialects accept as it is.
  const char* constraints = "";
  // The table whose id this column holds (REFERENCES table(id)), or "".
  const char* references = "";
  // A remark kept in the migration's SQL (SQLite's .schema shows it).
  const char* comment = "";
  Step since = Step::kCrawlTables;
  // Set for a column a record fills: RecordTag of the record, and the
  // member's value as a Cell (and an objection to it, "" for none).
  // Columns without (ids, keys, positions) are filled by the store.
  const void* record = nullptr;
  Cell (*write)(const void* record) = nullptr;
  std::string (*complain)(const void* record) = nullptr;

  constexpr Column Since(Step step) const {
    Column c = *this;
    c.since = step;
    return c;
  }
  constexpr Column Comment(const char* text) const {
    Column c = *this;
    c.comment = text;
    return c;
  }
  constexpr Column References(const char* table) const {
    Column c = *this;
    c.references = table;
    return c;
  }
  constexpr bool written() const { return write != nullptr; }
};

struct Index {
  const char* name;
  const char* columns;  // "domain_id", "run_id, position".
  Step since = Step::kCrawlTables;
};

struct Table {
  const char* name;
  std::span<const Column> columns;
  Step since = Step::kCrawlTables;
  // Table constraints after the columns: "UNIQUE (run_id, domain_id)".
  const char* constraints = "";
  std::span<const Index> indexes = {};
  // SQLite only: a WITHOUT ROWID table (clustered on its primary key).
  bool sqlite_without_rowid = false;
  // RecordTag of the record its written columns come from (or nullptr).
  const void* record = nullptr;
};

namespace internal {

template <auto kMember>
struct MemberOf;
template <class R, class V, V R::*kMember>
struct MemberOf<kMember> {
  using Record = R;
  using Value = V;
};

template <auto kMember, class Codec>
Cell StoreMember(const void* record) {
  using Record = typename MemberOf<kMember>::Record;
  return Codec::Store(static_cast<const Record*>(record)->*kMember);
}

template <auto kMember, class Codec>
std::string ComplainOfMember(const void* record) {
  using Record = typename MemberOf<kMember>::Record;
  return Codec::Complaint(static_cast<const Record*>(record)->*kMember);
}

}  // namespace internal

// The row id.
constexpr Column Key(const char* name) {
  Column c;
  c.name = name;
  c.type = SqlType::kKey;
  return c;
}

// A column the store fills itself (the ids of other rows, a position), or
// that only SQL writes (defaults, UPDATEs).
constexpr Column Filled(const char* name, SqlType type,
                        const char* constraints = "") {
  Column c;
  c.name = name;
  c.type = type;
  c.constraints = constraints;
  return c;
}

// A column written from `kMember` (a pointer to a data member of the
// record) through `Codec`.
template <auto kMember, class Codec>
constexpr Column Field(const char* name, SqlType type,
                       const char* constraints = "") {
  using Member = internal::MemberOf<kMember>;
  Column c = Filled(name, type, constraints);
  c.record = RecordTag<typename Member::Record>();
  c.write = &internal::StoreMember<kMember, Codec>;
  if constexpr (requires(const typename Member::Value& v) {
                  Codec::Complaint(v);
                }) {
    c.complain = &internal::ComplainOfMember<kMember, Codec>;
  }
  return c;
}

// Whether every written column of `table` is written from its record.
constexpr bool WrittenFrom(const Table& table) {
  for (const Column& c : table.columns) {
    if (c.written() && c.record != table.record) return false;
  }
  return true;
}

// The position of column `name` in `table`, -1 if it has none. In
// constant expressions: `static_assert(ColumnIndex(kFetchTable, "id") >= 0)`.
constexpr int ColumnIndex(const Table& table, std::string_view name) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (std::string_view(table.columns[i].name) == name) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// Whether `fillers` name exactly the columns of `table` that no member
// fills (with `with_key`, the row id among them; else its sequence or
// rowid fills it). A filler is a column name, or anything FillerName
// (found by ADL) takes to one. A writer states the columns it fills
// itself, so that a column added without a member or a filler fails its
// static_assert.
constexpr std::string_view FillerName(std::string_view name) { return name; }
template <class Fillers>
constexpr bool FillsTheRest(const Table& table, const Fillers& fillers,
                            bool with_key) {
  std::size_t unfilled = 0;
  std::size_t given = 0;
  for (const auto& filler : fillers) {
    (void)filler;
    ++given;
  }
  for (const Column& c : table.columns) {
    if (c.written() || (c.type == SqlType::kKey && !with_key)) continue;
    ++unfilled;
    bool named = false;
    for (const auto& filler : fillers) {
      named = named || FillerName(filler) == c.name;
    }
    if (!named) return false;
  }
  return unfilled == given;
}

// Refuses a record that a column's codec objects to (kInvalidArgument,
// "<describe()> <the objection>"), before anything is written. describe()
// is called only then.
template <class Record, class Describe>
Status CheckRecord(const Table& table, const Record& record,
                   Describe describe) {
  for (const Column& c : table.columns) {
    if (c.complain == nullptr) continue;
    std::string complaint = c.complain(&record);
    if (!complaint.empty()) {
      std::string message = describe();
      message += ' ';
      message += complaint;
      return Status(Status::Code::kInvalidArgument, std::move(message));
    }
  }
  return Status::Ok();
}

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_TABLE_H_
