// Uses one entry point of every installed library, each of which reaches
// that library's own third-party dependencies (libidn2 for the crawler,
// SQLite for storage, PCRE2/RE2 for regexguard), so that a dependency the
// CMake package or a .pc file failed to recreate fails the link or the run.
// Exits 0 only if every answer is right.
#include <robotscan/crawler/top_list.h>
#include <robotscan/regexguard/analyzer.h>
#include <robotscan/report/render.h>
#include <robotscan/robots/robots.h>
#include <robotscan/storage/crawl_store.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace {

int failures = 0;

void Expect(bool ok, const char* what) {
  std::printf("%s: %s\n", what, ok ? "ok" : "WRONG");
  if (!ok) ++failures;
}

}  // namespace

// usage: consumer_all DIRECTORY (for a scratch database)
int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const auto robots = robotscan::robots::RobotsTxt::Parse(
      "User-agent: *\nDisallow: /private\n");
  Expect(!robots.IsAllowedFor("AllBot", "/private/x"), "robots");

  const std::filesystem::path db =
      std::filesystem::path(argv[1]) / "consumer.sqlite";
  {
    auto store = robotscan::storage::CrawlStore::Open(db.string(), {});
    const robotscan::storage::Result<bool> any =
        store.ok() ? store.value()->HasFetches() : store.status();
    Expect(any.ok() && !*any, "storage");
  }
  std::filesystem::remove(db);

  std::string domain;
  std::string reason;
  Expect(robotscan::crawler::NormalizeDomainName("B\xC3\x9C"
                                                 "CHER.example.",
                                                 &domain, &reason) &&
             domain == "xn--bcher-kva.example",
         "crawler");

  robotscan::report::Format format;
  Expect(robotscan::report::ParseFormatName("json", &format) &&
             format == robotscan::report::Format::kJson &&
             robotscan::report::EscapeHtml("<a>") == "&lt;a&gt;",
         "report");

  const auto analysis = robotscan::regexguard::AnalyzePattern("^(a+)+$", {});
  Expect(analysis.verdict == robotscan::regexguard::Verdict::kExponential,
         "regexguard");
  return failures == 0 ? 0 : 1;
}
