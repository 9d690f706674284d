#include "postgres/pg_schema.h"

#include "schema/migrations.h"

namespace robotscan::storage {
namespace {

// PostgreSQL's own SQL of a step, run after what the table and view
// definitions make of it.
const char* OwnSqlOf(schema::Step step) {
  switch (step) {
    case schema::Step::kSharedFrontier:
      return kPgSharedFrontierSql;
    case schema::Step::kFrontierScans:
      return kPgFrontierScansSql;
    case schema::Step::kCrawlTables:
    case schema::Step::kRunProvenance:
    case schema::Step::kHistorySources:
    case schema::Step::kSignals:
      break;
  }
  return "";
}

}  // namespace

const std::vector<std::string>& PgMigrations() {
  static const std::vector<std::string> migrations = [] {
    std::vector<std::string> steps;
    for (const schema::StepInfo& info : schema::kSteps) {
      if (!info.postgres) continue;
      steps.push_back(
          schema::DefinedMigrationSql(info.step, schema::Dialect::kPostgres) +
          OwnSqlOf(info.step));
    }
    return steps;
  }();
  return migrations;
}

}  // namespace robotscan::storage
