// The crawl database's schema history, shared by both backends: one entry
// per migration step, in the order the steps were made, each saying which
// dialects it applies to. A dialect's schema version (SQLite's PRAGMA
// user_version, PostgreSQL's robotscan_schema.version) is the number of its
// steps applied: SQLite's version 2 is kCrawlTables then kRunProvenance;
// PostgreSQL's version 4 adds its two frontier steps; kHistorySources is
// SQLite's version 3 and PostgreSQL's version 5, kSignals SQLite's 4 and
// PostgreSQL's 6.
//
// Append, never edit or reorder: files and databases in the field were
// created by the old steps, and every table, column, index and view names
// the step that created it (table.h), so a step's SQL stays what it was.
// A new step applying to both dialects is SQLite's version 5 and
// PostgreSQL's version 7.
//
// Private to storage. Thread-safety: constants and pure functions.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_STEPS_H_
#define ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_STEPS_H_

#include <cstdint>

namespace robotscan::storage::schema {

enum class Dialect : std::uint8_t { kSqlite, kPostgres };

enum class Step : std::uint8_t {
  kCrawlTables,     // crawl_run, domain, body, fetch, fetch_step, the view.
  kRunProvenance,   // crawl_run: who ran a crawl, which top list it read.
  kSharedFrontier,  // PostgreSQL: the shared frontier (docs/scale-out.md).
  kFrontierScans,   // PostgreSQL: frontier indexes by state.
  kHistorySources,  // Fetches imported from archives (docs/history.md).
  kSignals,         // crawl --signals: signal_fetch (docs/crawler.md).
};

struct StepInfo {
  Step step;
  bool sqlite;
  bool postgres;
};

inline constexpr StepInfo kSteps[] = {
    {Step::kCrawlTables, true, true},     {Step::kRunProvenance, true, true},
    {Step::kSharedFrontier, false, true}, {Step::kFrontierScans, false, true},
    {Step::kHistorySources, true, true},  {Step::kSignals, true, true},
};

constexpr bool AppliesTo(const StepInfo& info, Dialect dialect) {
  return dialect == Dialect::kSqlite ? info.sqlite : info.postgres;
}

// The version a database of `dialect` has once `step` is applied (1 for
// the first step); 0 when the step is not the dialect's.
constexpr int VersionAfter(Step step, Dialect dialect) {
  int version = 0;
  for (const StepInfo& info : kSteps) {
    if (AppliesTo(info, dialect)) ++version;
    if (info.step == step) return AppliesTo(info, dialect) ? version : 0;
  }
  return 0;
}

// The newest version of `dialect`: the number of its steps.
constexpr int CurrentVersion(Dialect dialect) {
  int version = 0;
  for (const StepInfo& info : kSteps) {
    if (AppliesTo(info, dialect)) ++version;
  }
  return version;
}

// Whether a database of `dialect` at `version` has been through `step`.
constexpr bool HasStep(Dialect dialect, int version, Step step) {
  const int after = VersionAfter(step, dialect);
  return after != 0 && after <= version;
}

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_SCHEMA_STEPS_H_
