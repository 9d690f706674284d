// `robotscan toplist`: flags -> crawler::TopListRequest, the file written
// and a one-line summary. The download and checks are
// robotscan::crawler::DownloadTopList (top_list_download.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/top_list_download.h"

namespace robotscan::cli {
namespace {

struct TopListFlags {
  std::string source = "tranco";
  std::string list_id;
  std::string output;
  std::string base_url;
  bool quiet = false;
};

// tranco-X5Y7N.csv, tranco-2026-12-01.csv, umbrella-2026-12-01.csv, ...
std::string DefaultOutput(const storage::ListProvenance& p) {
  return p.source + "-" + (p.list_id.empty() ? p.date : p.list_id) + ".csv";
}

int RunTopListCommand(const TopListFlags& flags) {
  crawler::TopListRequest request;
  const auto source = crawler::ParseTopListSource(flags.source);
  if (!source) {
    std::fprintf(stderr,
                 "robotscan toplist: --source must be tranco, umbrella or "
                 "majestic, not '%s'\n",
                 flags.source.c_str());
    return kExitUsage;
  }
  request.source = *source;
  request.list_id = flags.list_id;
  request.base_url = flags.base_url;
  request.user_agent = crawler::DefaultUserAgent();

  crawler::NetworkLibraries libraries;
  if (!libraries.ok()) {
    std::fprintf(stderr, "robotscan toplist: cannot initialize libcurl\n");
    return kExitNetworkSetup;
  }
  crawler::TopListDownload list;
  if (const Status s = crawler::DownloadTopList(request, &list); !s.ok()) {
    std::fprintf(stderr, "robotscan toplist: %s\n", s.message().c_str());
    // A bad --list-id is the user's (2); the rest is the network's or the
    // server's (3), or libcurl's setup (7).
    return ExitCodeFor(s);
  }
  const std::string output =
      flags.output.empty() ? DefaultOutput(list.provenance) : flags.output;
  if (const Status s = crawler::WriteTopListFile(output, list); !s.ok()) {
    std::fprintf(stderr, "robotscan toplist: %s\n", s.message().c_str());
    return ExitCodeFor(s);
  }
  if (!flags.quiet) {
    for (const crawler::MalformedLine& bad : list.first_malformed) {
      std::fprintf(stderr, "robotscan toplist: line %lld skipped: %s\n",
                   static_cast<long long>(bad.line), bad.reason.c_str());
    }
  }
  const storage::ListProvenance& p = list.provenance;
  std::printf(
      "%s: %s list%s%s of %s, %lld entries, %lld malformed lines, sha256 %s "
      "(from %s)\n",
      output.c_str(), p.source.c_str(), p.list_id.empty() ? "" : " ",
      p.list_id.c_str(), p.date.c_str(), static_cast<long long>(p.entries),
      static_cast<long long>(list.malformed_lines), p.sha256.c_str(),
      p.url.c_str());
  return kExitOk;
}

}  // namespace

void AddTopListCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<TopListFlags>();
  CLI::App* cmd = app.add_subcommand(
      "toplist",
      "Download a top-sites list (Tranco, Umbrella, Majestic) for `robotscan "
      "crawl`, with its provenance");
  cmd->add_option("--source", flags->source, "tranco, umbrella or majestic")
      ->capture_default_str();
  cmd->add_option("--list-id", flags->list_id,
                  "A published Tranco list ID (reproducible); default: the "
                  "current list");
  cmd->add_option("--output,-o", flags->output,
                  "File to write (default SOURCE-ID.csv or SOURCE-DATE.csv)");
  cmd->add_option("--toplist-url", flags->base_url,
                  "Download from this site instead of the source's own (a "
                  "mirror; paths as on the source's site)");
  cmd->add_flag("--quiet,-q", flags->quiet, "No warnings about bad lines");
  cmd->callback([flags, exit_code] { *exit_code = RunTopListCommand(*flags); });
}

}  // namespace robotscan::cli
