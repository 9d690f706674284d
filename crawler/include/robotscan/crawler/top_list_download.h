// Downloading the top-sites lists research crawls start from, with the
// provenance a paper cites:
//   * Tranco (tranco-list.eu): the current list (zip) and its list ID, or a
//     published list by ID (csv), the reproducible form;
//   * Cisco Umbrella's top 1M (zip);
//   * the Majestic Million (csv).
// A zip is extracted with libarchive; the list is then checked with the
// list parser (top_list.h): an HTML page, an error status, a damaged zip or
// a list without a single valid entry is an error, and nothing is written.
//
// The file written is the list as published, after one first line
//   # robotscan-toplist source=tranco list_id=X5Y7N date=2026-12-01 url=...
//   sha256=...
// that the list reader skips as a comment and ReadListProvenance reads
// back, so that the file carries its own provenance to every crawl of it
// (crawl_run.list_*; `robotscan report` prints it). sha256 is of the bytes
// as served (the zip itself for a zip), so that anyone can check them
// against the source.
//
// Thread-safety: functions, no shared state (libcurl must be initialized,
// see NetworkLibraries).
//
// Usage:
//   TopListRequest request;                 // today's Tranco list
//   TopListDownload list;
//   Status s = DownloadTopList(request, &list);
//   if (s.ok()) s = WriteTopListFile("tranco.csv", list);
#ifndef ROBOTSCAN_CRAWLER_TOP_LIST_DOWNLOAD_H_
#define ROBOTSCAN_CRAWLER_TOP_LIST_DOWNLOAD_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/top_list.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::crawler {

enum class TopListSource : std::uint8_t { kTranco, kUmbrella, kMajestic };

// "tranco", "umbrella", "majestic".
std::string_view TopListSourceName(TopListSource source);
std::optional<TopListSource> ParseTopListSource(std::string_view name);

struct TopListRequest {
  TopListSource source = TopListSource::kTranco;
  // Tranco only: a published list ID (letters and digits); empty: the
  // current list.
  std::string list_id;
  // Replaces the source's site (a mirror, a test server), e.g.
  // "http://127.0.0.1:8080"; the paths stay: /top-1m.csv.zip and
  // /top-1m-id (Tranco current), /download/ID/1000000 (Tranco by ID),
  // /top-1m.csv.zip (Umbrella), /majestic_million.csv (Majestic).
  std::string base_url;
  std::chrono::seconds timeout{600};
  std::size_t max_bytes = 256u << 20;  // Download and extracted size cap.
  std::string user_agent;              // Empty: DefaultUserAgent().
};

struct TopListDownload {
  std::string csv;  // The list as published (extracted from its zip).
  storage::ListProvenance provenance;  // entries: valid entries in `csv`.
  std::int64_t malformed_lines = 0;
  std::vector<MalformedLine> first_malformed;  // Up to 10.
};

// Blocking download; a failure says what was wrong and with which URL:
// kInvalidArgument (a list ID that cannot be), kIoError (the transfer
// failed, an error status), kInvalidInput (an HTML page, a damaged zip, no
// entries), kNetwork (libcurl could not be set up).
Status DownloadTopList(const TopListRequest& request, TopListDownload* list);

// The checks and extraction of DownloadTopList on bytes already fetched
// from `url` (also the fuzz target's entry): an HTML page is refused, a
// zip is extracted (at most max_bytes), the entries are counted and a list
// without any is refused. Fills csv, the counts and provenance.url, sha256
// and entries.
Status ReadDownloadedList(const std::string& url, std::string bytes,
                          std::string_view content_type, std::size_t max_bytes,
                          TopListDownload* list);

// Writes the provenance line and the list to `path` (through a temporary
// file renamed into place: a failure leaves no half-written list).
Status WriteTopListFile(const std::string& path, const TopListDownload& list);

// The provenance of a list file: its robotscan-toplist line when it has
// one, else source "file" and the SHA-256 of the file's bytes. `entries`
// is left 0 (the crawl sets what it selected).
Status ReadListProvenance(const std::string& path,
                          storage::ListProvenance* provenance);

// The provenance line (without its line end) and its parser; exposed for
// tests and the fuzz target.
std::string FormatProvenanceLine(const storage::ListProvenance& provenance);
std::optional<storage::ListProvenance> ParseProvenanceLine(
    std::string_view line);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_TOP_LIST_DOWNLOAD_H_
