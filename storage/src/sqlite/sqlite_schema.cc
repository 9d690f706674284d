#include "sqlite/sqlite_schema.h"

#include "schema/migrations.h"

namespace robotscan::storage {

const std::vector<std::string>& SqliteMigrations() {
  static const std::vector<std::string> migrations = [] {
    std::vector<std::string> steps;
    for (const schema::StepInfo& info : schema::kSteps) {
      if (info.sqlite) {
        steps.push_back(
            schema::DefinedMigrationSql(info.step, schema::Dialect::kSqlite));
      }
    }
    return steps;
  }();
  return migrations;
}

}  // namespace robotscan::storage
