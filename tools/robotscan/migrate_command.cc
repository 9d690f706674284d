// `robotscan migrate --from crawl.sqlite --db postgresql://...`: copies an
// SQLite crawl database, history included, into an empty PostgreSQL one
// (storage::CopyCrawlDatabase).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/storage/copy_crawl.h"
#include "robotscan/storage/database_location.h"

namespace robotscan::cli {
namespace {

struct MigrateFlags {
  std::string from;
  std::string db;
  bool quiet = false;
};

int RunMigrateCommand(const MigrateFlags& flags) {
  const storage::Result<storage::CopySummary> copy = storage::CopyCrawlDatabase(
      flags.from, flags.db, [&](std::string_view table, std::int64_t rows) {
        if (flags.quiet) return;
        std::fprintf(stderr, "robotscan migrate: %.*s: %lld rows\n",
                     static_cast<int>(table.size()), table.data(),
                     static_cast<long long>(rows));
      });
  if (!copy.ok()) {
    std::fprintf(stderr, "robotscan migrate: %s\n",
                 copy.status().message().c_str());
    return ExitCodeFor(copy.status());
  }
  const storage::CopySummary& copied = *copy;
  std::printf(
      "migrated %s into %s: %lld runs, %lld domains, %lld fetches, %lld "
      "steps, %lld bodies\n",
      flags.from.c_str(), storage::RedactDatabaseUri(flags.db).c_str(),
      static_cast<long long>(copied.runs),
      static_cast<long long>(copied.domains),
      static_cast<long long>(copied.fetches),
      static_cast<long long>(copied.steps),
      static_cast<long long>(copied.bodies));
  return kExitOk;
}

}  // namespace

void AddMigrateCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<MigrateFlags>();
  CLI::App* cmd = app.add_subcommand(
      "migrate",
      "Copy an SQLite crawl database, history included, into an empty "
      "PostgreSQL database");
  cmd->add_option("--from", flags->from, "SQLite crawl database to copy")
      ->required();
  cmd->add_option("--db", flags->db,
                  "postgresql:// URI of an empty database (PG* environment "
                  "variables apply)")
      ->required();
  cmd->add_flag("--quiet,-q", flags->quiet, "No per-table lines");
  cmd->callback([flags, exit_code] { *exit_code = RunMigrateCommand(*flags); });
}

}  // namespace robotscan::cli
