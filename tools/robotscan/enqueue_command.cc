// `robotscan enqueue LIST --db postgresql://...`: loads a top list (with
// its provenance) as a crawl whose workers (`robotscan crawl --worker`)
// share the work; the crawl-wide politeness settings are fixed here
// (docs/scale-out.md). The enqueue itself is crawler::EnqueueCrawl.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/base/version.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/storage/database_location.h"

namespace robotscan::cli {
namespace {

struct EnqueueFlags {
  crawler::EnqueueOptions options;
  double lease_seconds = 60;
  bool quiet = false;
};

int RunEnqueueCommand(EnqueueFlags& flags) {
  crawler::EnqueueOptions& o = flags.options;
  if (!storage::IsPostgresUri(o.db_path)) {
    std::fprintf(stderr,
                 "robotscan enqueue: --db must be a postgresql:// URI (an "
                 "SQLite file is crawled by one process: robotscan crawl "
                 "LIST --db FILE)\n");
    return kExitUsage;
  }
  o.settings.lease = std::chrono::milliseconds(
      static_cast<std::int64_t>(flags.lease_seconds * 1000));
  o.tool_version = ROBOTSCAN_VERSION_STRING;
  int shown = 0;
  storage::EnqueueSummary summary;
  const Status status = crawler::EnqueueCrawl(
      o,
      [&](const crawler::MalformedLine& bad) {
        if (flags.quiet || ++shown > 10) return;
        std::fprintf(stderr, "robotscan enqueue: %s:%lld: skipped: %s\n",
                     o.list_path.c_str(), static_cast<long long>(bad.line),
                     bad.reason.c_str());
      },
      &summary);
  if (!status.ok()) {
    std::fprintf(stderr, "robotscan enqueue: %s\n", status.message().c_str());
    return ExitCodeFor(status);
  }
  std::printf(
      "enqueued crawl %lld into %s: %lld domains (%lld duplicates dropped); "
      "start workers with: robotscan crawl --worker --db URI\n",
      static_cast<long long>(summary.run_id),
      storage::RedactDatabaseUri(o.db_path).c_str(),
      static_cast<long long>(summary.entries),
      static_cast<long long>(summary.duplicates));
  return kExitOk;
}

}  // namespace

void AddEnqueueCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<EnqueueFlags>();
  crawler::EnqueueOptions& o = flags->options;
  CLI::App* cmd = app.add_subcommand(
      "enqueue",
      "Load a top-sites list into a PostgreSQL crawl database as a crawl for "
      "any number of `robotscan crawl --worker` processes");
  cmd->add_option("list", o.list_path,
                  "Top-sites list (as for robotscan crawl)")
      ->required();
  cmd->add_option("--db", o.db_path,
                  "postgresql:// URI (PG* environment variables apply)")
      ->required();
  cmd->add_option("--top", o.top, "Only the first N list entries");
  cmd->add_option("--skip", o.skip, "Skip the first N list entries");
  cmd->add_option("--per-ip-limit", o.settings.per_ip_limit,
                  "Concurrent requests per server IP, all workers together "
                  "(0: no limit)")
      ->capture_default_str();
  cmd->add_option("--rate", o.settings.rate_limit,
                  "New domains per second, all workers together (0: no limit)")
      ->capture_default_str();
  cmd->add_option("--lease", flags->lease_seconds,
                  "Seconds a batch stays leased without a heartbeat: how long "
                  "a dead worker's domains wait before another worker takes "
                  "them over")
      ->capture_default_str();
  cmd->add_option("--batch-size", o.settings.batch_size, "Domains per lease")
      ->capture_default_str();
  cmd->add_flag("--quiet,-q", flags->quiet, "No warnings about list lines");
  cmd->callback([flags, exit_code] { *exit_code = RunEnqueueCommand(*flags); });
}

}  // namespace robotscan::cli
