// `robotscan import commoncrawl --db DB [--list TOP] [--crawl-id ID]
// [--jobs N] [--paths FILE --base-url URL] WARC...`: Common Crawl's
// robots.txt captures into the crawl database (crawler::ImportCommonCrawl),
// and `robotscan import wayback --db DB --list TOP --from YYYY[MM] --to
// YYYY[MM] [--every month|quarter|year]`: the Wayback Machine's snapshots
// (crawler::ImportWayback). docs/history.md; usage and exit codes:
// docs/cli.md.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "robotscan/base/exit_codes.h"
#include "robotscan/base/version.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/history.h"
#include "stop_on_signals.h"

namespace robotscan::cli {
namespace {

struct ImportFlags {
  crawler::CommonCrawlImport import;
  bool json = false;
  bool quiet = false;
};

nlohmann::json SummaryJson(const crawler::ImportSummary& s) {
  nlohmann::json j;
  j["run_id"] = s.run_id;
  j["crawl_id"] = s.crawl_id;
  j["files"] = s.files;
  j["files_imported"] = s.files_imported;
  j["files_already_done"] = s.files_already_done;
  j["files_resumed"] = s.files_resumed;
  j["files_failed"] = s.files_failed;
  j["files_waited_for"] = s.files_waited_for;
  j["leases_lost"] = s.leases_lost;
  j["records"] = s.records;
  j["fetches"] = s.fetches;
  j["duplicates"] = s.duplicates;
  j["redirect_hops"] = s.redirect_hops;
  j["skipped"] = nlohmann::json::object();
  for (const auto& [reason, n] : s.skipped) j["skipped"][reason] = n;
  j["errors"] = s.errors;
  j["first_errors"] = s.first_errors;
  j["cancelled"] = s.cancelled;
  return j;
}

void PrintSummary(const crawler::ImportSummary& s) {
  std::printf(
      "imported %s into run %lld: %lld of %lld files (%lld done before, %lld "
      "resumed, %lld failed); %lld records, %lld fetches, %lld duplicates, "
      "%lld redirect hops linked, %lld errors\n",
      s.crawl_id.c_str(), static_cast<long long>(s.run_id),
      static_cast<long long>(s.files_imported), static_cast<long long>(s.files),
      static_cast<long long>(s.files_already_done),
      static_cast<long long>(s.files_resumed),
      static_cast<long long>(s.files_failed), static_cast<long long>(s.records),
      static_cast<long long>(s.fetches), static_cast<long long>(s.duplicates),
      static_cast<long long>(s.redirect_hops),
      static_cast<long long>(s.errors));
  for (const auto& [reason, n] : s.skipped) {
    std::printf("  skipped %s: %lld\n", reason.c_str(),
                static_cast<long long>(n));
  }
  for (const std::string& e : s.first_errors) {
    std::printf("  error: %s\n", e.c_str());
  }
}

int RunImportCommonCrawl(ImportFlags flags) {
  flags.import.tool_version = std::string(kVersion);
  crawler::NetworkLibraries libraries;
  crawler::CrawlHandle handle;
  crawler::ImportSummary summary;
  crawler::ImportCallbacks callbacks;
  if (!flags.quiet) {
    callbacks.on_file = [](std::string_view file,
                           const crawler::ImportSummary& s) {
      std::fprintf(
          stderr, "robotscan import: %.*s done (%lld files, %lld fetches)\n",
          static_cast<int>(file.size()), file.data(),
          static_cast<long long>(s.files_imported + s.files_already_done),
          static_cast<long long>(s.fetches));
    };
  }
  Status status;
  int signal = 0;
  {
    StopOnSignals stop_on_signals(&handle);
    status =
        crawler::ImportCommonCrawl(flags.import, callbacks, &handle, &summary);
    signal = stop_on_signals.received();
  }
  if (!status.ok()) {
    std::fprintf(stderr, "robotscan import: %s\n", status.message().c_str());
    if (signal != 0) return kExitSignalBase + signal;
    return ExitCodeFor(status);
  }
  if (flags.json) {
    std::printf("%s\n", SummaryJson(summary).dump(2).c_str());
  } else {
    PrintSummary(summary);
  }
  if (signal != 0) {
    std::fprintf(stderr,
                 "robotscan import: stopped; run the same command again to "
                 "go on where it stopped\n");
    return kExitSignalBase + signal;
  }
  if (summary.files_failed > 0) {
    std::fprintf(stderr,
                 "robotscan import: %lld files could not be read; run the "
                 "same command again to retry them\n",
                 static_cast<long long>(summary.files_failed));
    return kExitInput;
  }
  return kExitOk;
}

struct WaybackFlags {
  crawler::WaybackImport import;
  std::string every = "month";  // Checked against WaybackPeriodName's.
  bool json = false;
  bool quiet = false;
};

nlohmann::json WaybackSummaryJson(const crawler::WaybackSummary& s) {
  nlohmann::json j;
  j["periods"] = s.periods;
  j["run_ids"] = s.run_ids;
  j["domains"] = s.domains;
  j["domains_done_before"] = s.domains_done_before;
  j["domains_failed"] = s.domains_failed;
  j["units_done_before"] = s.units_done_before;
  j["cdx_requests"] = s.cdx_requests;
  j["snapshot_requests"] = s.snapshot_requests;
  j["retries"] = s.retries;
  j["captures"] = s.captures;
  j["fetches"] = s.fetches;
  j["no_capture"] = s.no_capture;
  j["html"] = s.html;
  j["archive_errors"] = s.archive_errors;
  j["malformed_captures"] = s.malformed_captures;
  j["units_failed"] = s.units_failed;
  j["first_errors"] = s.first_errors;
  j["cancelled"] = s.cancelled;
  return j;
}

void PrintWaybackSummary(const crawler::WaybackSummary& s) {
  const std::string range =
      s.periods.empty() ? "" : s.periods.front() + " to " + s.periods.back();
  std::printf(
      "imported the Wayback Machine's snapshots, %s (%zu periods, one run "
      "each): %lld domains (%lld done before, %lld failed); %lld CDX "
      "answers, %lld captures listed, %lld snapshots fetched, %lld retries; "
      "%lld fetches written, %lld periods without a capture, %lld HTML "
      "pages, %lld archive error pages, %lld malformed captures\n",
      range.c_str(), s.periods.size(), static_cast<long long>(s.domains),
      static_cast<long long>(s.domains_done_before),
      static_cast<long long>(s.domains_failed),
      static_cast<long long>(s.cdx_requests),
      static_cast<long long>(s.captures),
      static_cast<long long>(s.snapshot_requests),
      static_cast<long long>(s.retries), static_cast<long long>(s.fetches),
      static_cast<long long>(s.no_capture), static_cast<long long>(s.html),
      static_cast<long long>(s.archive_errors),
      static_cast<long long>(s.malformed_captures));
  for (const std::string& e : s.first_errors) {
    std::printf("  error: %s\n", e.c_str());
  }
}

int RunImportWayback(WaybackFlags flags) {
  flags.import.tool_version = std::string(kVersion);
  // CLI11 has checked the name against the same table.
  flags.import.every =
      crawler::ParseWaybackPeriod(flags.every).value_or(flags.import.every);
  crawler::NetworkLibraries libraries;
  crawler::CrawlHandle handle;
  crawler::WaybackSummary summary;
  crawler::WaybackCallbacks callbacks;
  if (!flags.quiet) {
    callbacks.on_domain = [](std::string_view domain,
                             const crawler::WaybackSummary& s) {
      std::fprintf(stderr,
                   "robotscan import: %.*s done (%lld fetches, %lld "
                   "snapshots)\n",
                   static_cast<int>(domain.size()), domain.data(),
                   static_cast<long long>(s.fetches),
                   static_cast<long long>(s.snapshot_requests));
    };
  }
  Status status;
  int signal = 0;
  {
    StopOnSignals stop_on_signals(&handle);
    status = crawler::ImportWayback(flags.import, callbacks, &handle, &summary);
    signal = stop_on_signals.received();
  }
  if (!status.ok()) {
    std::fprintf(stderr, "robotscan import: %s\n", status.message().c_str());
    if (signal != 0) return kExitSignalBase + signal;
    return ExitCodeFor(status);
  }
  if (flags.json) {
    std::printf("%s\n", WaybackSummaryJson(summary).dump(2).c_str());
  } else {
    PrintWaybackSummary(summary);
  }
  if (signal != 0) {
    std::fprintf(stderr,
                 "robotscan import: stopped; run the same command again to "
                 "go on where it stopped\n");
    return kExitSignalBase + signal;
  }
  if (summary.units_failed > 0) {
    std::fprintf(stderr,
                 "robotscan import: %lld domain-periods could not be "
                 "fetched; run the same command again to retry them\n",
                 static_cast<long long>(summary.units_failed));
    return kExitInput;
  }
  return kExitOk;
}

void AddWaybackCommand(CLI::App* cmd, int* exit_code) {
  auto flags = std::make_shared<WaybackFlags>();
  CLI::App* wb = cmd->add_subcommand(
      "wayback",
      "The Wayback Machine's robots.txt snapshots: the first capture of each "
      "period, one run per period, resumable (docs/history.md)");
  crawler::WaybackImport& o = flags->import;
  wb->add_option("--db", o.db_path, "SQLite crawl database (created if new)")
      ->required();
  wb->add_option("--list", o.list_path, "Top list: the domains asked for")
      ->required();
  wb->add_option("--top", o.top, "Only the list's first N entries (0: all)");
  wb->add_option("--from", o.from, "First period: YYYY or YYYYMM")->required();
  wb->add_option("--to", o.to, "Last period, included: YYYY or YYYYMM")
      ->required();
  std::vector<std::string> periods;
  for (crawler::WaybackPeriod every : crawler::kWaybackPeriods) {
    periods.emplace_back(crawler::WaybackPeriodName(every));
  }
  wb->add_option("--every", flags->every,
                 "The period of which the first capture is taken")
      ->check(CLI::IsMember(periods))
      ->capture_default_str();
  wb->add_option("--wayback-url", o.wayback_url,
                 "The archive's root, for /cdx/search/cdx and /web/")
      ->capture_default_str();
  wb->add_option("--concurrency,--jobs,-j", o.concurrency,
                 "Requests to the archive at once, at most (1-16)")
      ->capture_default_str();
  wb->add_option("--cdx-per-minute", o.cdx_per_minute,
                 "CDX queries started a minute, at most (0: unpaced)")
      ->capture_default_str();
  wb->add_option("--snapshots-per-second", o.snapshots_per_second,
                 "Snapshots started a second, at most (0: unpaced)")
      ->capture_default_str();
  wb->add_option("--cdx-page", o.cdx_page_rows,
                 "Captures per CDX answer; more pages follow its resumeKey")
      ->capture_default_str();
  wb->add_flag("--cdx-plain", o.cdx_plain_text,
               "Ask the CDX API for plain text, not JSON");
  wb->add_option("--tries", o.max_tries,
                 "Tries of a request answered 429, 5xx or not at all")
      ->capture_default_str();
  wb->add_option("--max-body", o.max_body_bytes,
                 "Bytes of a body kept (at least 512000)");
  wb->add_option("--user-agent", o.user_agent,
                 "User-Agent sent to the archive (default: robotscan's)");
  wb->add_flag("--compress", o.compress_bodies, "Store bodies zstd-compressed");
  wb->add_flag("--json", flags->json, "Summary as JSON");
  wb->add_flag("--quiet,-q", flags->quiet, "No per-domain lines");
  wb->callback([flags, exit_code] { *exit_code = RunImportWayback(*flags); });
}

}  // namespace

void AddImportCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "import", "Import archived robots.txt captures into a crawl database");
  cmd->require_subcommand(1);
  auto flags = std::make_shared<ImportFlags>();
  CLI::App* cc = cmd->add_subcommand(
      "commoncrawl",
      "Common Crawl's robots.txt WARC files: one run per crawl ID, resumable "
      "(docs/history.md)");
  crawler::CommonCrawlImport& o = flags->import;
  cc->add_option("--db", o.db_path,
                 "Crawl database: an SQLite file (created if new) or a "
                 "postgresql:// URI (importers on several hosts share the "
                 "files)")
      ->required();
  cc->add_option("--list", o.list_path,
                 "Top list: only its domains (and www. of them); default: "
                 "every host");
  cc->add_option("--lease", o.lease_seconds,
                 "PostgreSQL: seconds a file stays leased after a commit; "
                 "another importer takes over a file whose lease ran out")
      ->capture_default_str();
  cc->add_option("--top", o.top, "Only the list's first N entries (0: all)");
  cc->add_option("--crawl-id", o.crawl_id,
                 "CC-MAIN-YYYY-WW; default: from the files' paths or their "
                 "warcinfo record");
  cc->add_option("--jobs,-j", o.jobs, "Files read at once (default 1)");
  cc->add_option("--paths", o.paths_file,
                 "A robotstxt.paths(.gz) list; each path is fetched from "
                 "--base-url");
  cc->add_option("--base-url", o.base_url,
                 "Where --paths entries are fetched from")
      ->capture_default_str();
  cc->add_option("--max-body", o.max_body_bytes,
                 "Bytes of a body kept (at least 512000)");
  cc->add_option("--batch", o.batch_size, "Fetches per transaction");
  cc->add_flag("--compress", o.compress_bodies, "Store bodies zstd-compressed");
  cc->add_option("--download-dir", o.download_dir,
                 "Where URLs are downloaded before they are read");
  cc->add_flag("--json", flags->json, "Summary as JSON");
  cc->add_flag("--quiet,-q", flags->quiet, "No per-file lines");
  cc->add_option("warc", o.files, "WARC files: paths or http(s) URLs");
  cc->callback(
      [flags, exit_code] { *exit_code = RunImportCommonCrawl(*flags); });
  AddWaybackCommand(cmd, exit_code);
}

}  // namespace robotscan::cli
