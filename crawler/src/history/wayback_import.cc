// ImportWayback (history.h): per domain, one CDX query (paged), then the
// first capture of each period fetched as it was archived. Workers are
// threads, `concurrency` of them, each with one request in flight at a
// time; the store is used by one of them at a time. A unit (a domain in
// a period) is one history_file row of the period's run, committed done
// together with its fetch, so that a rerun skips it.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "history/archive_client.h"
#include "history/wayback_cdx.h"
#include "history/wayback_snapshot.h"
#include "robotscan/base/ascii.h"
#include "robotscan/crawler/history.h"
#include "robotscan/crawler/top_list.h"
#include "robotscan/crawler/top_list_download.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "time_format.h"

namespace robotscan::crawler {
namespace {

using history::ArchiveClient;
using history::ArchiveResponse;
using history::CdxCapture;
using history::RequestPace;
using history::SnapshotOutcome;
using history::WaybackPeriods;
using storage::FetchRecord;

constexpr std::size_t kMaxFirstErrors = 10;
// A CDX answer larger than this is refused: a page of 1,000 rows is
// about 150 KB.
constexpr std::size_t kMaxCdxAnswerBytes = 64u << 20;
// Pages of one domain's CDX answer, at most (a loop guard: a server that
// hands back resume keys forever).
constexpr int kMaxCdxPages = 10000;

struct ListedDomain {
  std::string name;
  std::int64_t rank = 0;
};

// The list's domains in its order (the first `top`; all for 0), each once.
Status ReadListInOrder(const std::string& path, std::int64_t top,
                       std::vector<ListedDomain>* domains) {
  Result<std::unique_ptr<TopListReader>> reader = TopListReader::Open(path);
  if (!reader.ok()) return reader.status();
  std::unordered_set<std::string> seen;
  TopListEntry entry;
  MalformedLine malformed;
  for (;;) {
    if (top > 0 && static_cast<std::int64_t>(domains->size()) >= top) break;
    const ReadOutcome outcome = reader.value()->Next(&entry, &malformed);
    if (outcome == ReadOutcome::kEnd) break;
    if (outcome == ReadOutcome::kError) {
      return Status(StatusCode::kIoError, reader.value()->error());
    }
    if (outcome != ReadOutcome::kEntry) continue;
    if (seen.insert(entry.domain).second) {
      domains->push_back({entry.domain, entry.rank});
    }
  }
  return Status::Ok();
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

std::string Now() { return FormatIso8601(std::chrono::system_clock::now()); }

class WaybackImporter {
 public:
  WaybackImporter(const WaybackImport& options,
                  const WaybackCallbacks& callbacks, CrawlHandle* handle,
                  const WaybackPeriods& periods, std::vector<std::int64_t> runs,
                  storage::CrawlStore* store, WaybackSummary* summary)
      : options_(options),
        callbacks_(callbacks),
        handle_(handle),
        periods_(periods),
        runs_(std::move(runs)),
        store_(store),
        summary_(summary),
        base_(TrimmedBase(options.wayback_url)),
        holder_(HostName() + ":" + std::to_string(getpid())),
        cdx_pace_(options.cdx_per_minute / 60.0),
        snapshot_pace_(options.snapshots_per_second),
        client_(ClientOptions(options, handle)) {}

  void Run(const std::vector<ListedDomain>& domains) {
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= domains.size() || cancelled() || stopped_.load()) return;
        ImportDomain(domains[i]);
      }
    };
    // One request in flight per worker: `concurrency` workers never have
    // more than `concurrency` requests at the archive.
    std::vector<std::thread> threads;
    for (int j = 1; j < options_.concurrency; ++j) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
  }

  Status status() {
    std::lock_guard lock(mutex_);
    return storage_status_;
  }

 private:
  static std::string TrimmedBase(std::string base) {
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
  }

  static history::ArchiveClientOptions ClientOptions(
      const WaybackImport& options, CrawlHandle* handle) {
    history::ArchiveClientOptions o;
    o.user_agent =
        options.user_agent.empty() ? DefaultUserAgent() : options.user_agent;
    o.timeout = options.timeout;
    o.max_tries = options.max_tries;
    o.cancelled = [handle] { return handle != nullptr && handle->cancelled(); };
    return o;
  }

  bool cancelled() const { return handle_ != nullptr && handle_->cancelled(); }

  void NoteError(const std::string& domain, const std::string& reason) {
    if (summary_->first_errors.size() < kMaxFirstErrors) {
      summary_->first_errors.push_back(domain + ": " + reason);
    }
  }

  void StopOnStorageError(const Status& s) {
    if (storage_status_.ok()) storage_status_ = s;
    stopped_ = true;
  }

  // The captures of `domain` in the range, every page of them; an error
  // when an answer (after every try) is not 200 or cannot be read.
  Result<std::vector<CdxCapture>> QueryCdx(const std::string& domain) {
    std::vector<CdxCapture> captures;
    std::string resume_key;
    std::int64_t retries = 0, answers = 0, malformed = 0;
    Status failed;
    for (int page = 0; page < kMaxCdxPages; ++page) {
      const std::string url =
          history::CdxQueryUrl(base_, domain, periods_, options_.cdx_page_rows,
                               options_.cdx_plain_text, resume_key);
      Result<ArchiveResponse> answer =
          client_.Get(url, &cdx_pace_, kMaxCdxAnswerBytes, false, &retries);
      if (!answer.ok()) {
        failed = answer.status();
        break;
      }
      ++answers;
      if (answer->status == 403) {
        // The archive's answer for a site excluded from it (by its owner's
        // request or the archive's policy): as final as an empty answer.
        failed = Status(StatusCode::kNotFound,
                        "the CDX API refuses the domain (HTTP 403, an "
                        "excluded site): " +
                            answer->body.substr(0, 200));
        break;
      }
      if (answer->status != 200) {
        failed = Status(StatusCode::kIoError,
                        "the CDX API answered HTTP " +
                            std::to_string(answer->status) + " to " + url);
        break;
      }
      Result<history::CdxPage> read = history::ReadCdxAnswer(answer->body);
      if (!read.ok()) {
        failed = read.status();
        break;
      }
      malformed += read->malformed;
      for (CdxCapture& c : read->captures) captures.push_back(std::move(c));
      if (read->resume_key.empty()) break;
      if (read->resume_key == resume_key) {
        failed = Status(StatusCode::kInvalidInput,
                        "the CDX API handed back the same resumeKey");
        break;
      }
      resume_key = std::move(read->resume_key);
    }
    std::lock_guard lock(mutex_);
    summary_->cdx_requests += answers;
    summary_->retries += retries;
    summary_->captures += static_cast<std::int64_t>(captures.size());
    summary_->malformed_captures += malformed;
    if (!failed.ok()) return failed;
    return captures;
  }

  // Commits a unit as done, with its fetch if any; false once storage has
  // failed.
  bool CommitUnit(int period, const storage::HistoryFile& unit,
                  std::vector<FetchRecord> fetches, std::int64_t captures,
                  const std::string& error) {
    storage::HistoryProgress progress;
    progress.file_id = unit.id;
    progress.counts.records = captures;
    progress.counts.errors = error.empty() ? 0 : 1;
    progress.last_error = error;
    progress.done = true;
    progress.finished_at = Now();
    std::lock_guard lock(mutex_);
    if (!storage_status_.ok()) return false;
    storage::Result<storage::HistoryCounts> decided =
        store_->AppendImportedFetches(runs_[static_cast<std::size_t>(period)],
                                      fetches, progress);
    if (!decided.ok()) {
      StopOnStorageError(decided.status());
      return false;
    }
    summary_->fetches += decided->fetches;
    return true;
  }

  void ImportDomain(const ListedDomain& domain) {
    const int count = periods_.size();
    std::vector<storage::HistoryFile> units(static_cast<std::size_t>(count));
    int open = 0;
    {
      std::lock_guard lock(mutex_);
      if (!storage_status_.ok()) return;
      const std::string now = Now();
      for (int p = 0; p < count; ++p) {
        storage::Result<storage::HistoryFile> unit = store_->OpenHistoryFile(
            runs_[static_cast<std::size_t>(p)], domain.name,
            base_ + "/cdx/search/cdx", holder_, now, "");
        if (!unit.ok()) {
          StopOnStorageError(unit.status());
          return;
        }
        units[static_cast<std::size_t>(p)] = *unit;
        if (unit->done) {
          ++summary_->units_done_before;
        } else {
          ++open;
        }
      }
      if (open == 0) {
        ++summary_->domains_done_before;
        if (callbacks_.on_domain) callbacks_.on_domain(domain.name, *summary_);
        return;
      }
    }
    Result<std::vector<CdxCapture>> captures = QueryCdx(domain.name);
    if (!captures.ok() && captures.status().code() == StatusCode::kNotFound) {
      // Excluded: each open unit is done, with why and no fetch.
      for (int p = 0; p < count; ++p) {
        const auto i = static_cast<std::size_t>(p);
        if (units[i].done) continue;
        if (!CommitUnit(p, units[i], {}, 0, captures.status().message())) {
          return;
        }
        std::lock_guard lock(mutex_);
        ++summary_->archive_errors;
      }
      std::lock_guard lock(mutex_);
      NoteError(domain.name, captures.status().message());
      if (callbacks_.on_domain) callbacks_.on_domain(domain.name, *summary_);
      return;
    }
    if (!captures.ok()) {
      Fail(domain.name, open, captures.status().message());
      return;
    }
    // The first capture of each period (the rows come in time order; the
    // minimum is taken anyway) and how many the period had.
    std::vector<std::optional<CdxCapture>> first(
        static_cast<std::size_t>(count));
    std::vector<std::int64_t> in_period(static_cast<std::size_t>(count), 0);
    for (CdxCapture& c : *captures) {
      const int p = periods_.PeriodOf(c.timestamp);
      if (p < 0) continue;
      auto& chosen = first[static_cast<std::size_t>(p)];
      ++in_period[static_cast<std::size_t>(p)];
      if (!chosen || c.timestamp < chosen->timestamp) chosen = std::move(c);
    }
    int failed = 0;
    for (int p = 0; p < count; ++p) {
      const auto i = static_cast<std::size_t>(p);
      if (units[i].done) continue;
      if (cancelled() || stopped_.load()) return;  // Pending: a rerun does it.
      if (!first[i]) {
        if (!CommitUnit(p, units[i], {}, 0, "")) return;
        std::lock_guard lock(mutex_);
        ++summary_->no_capture;
        continue;
      }
      std::string why;
      FetchRecord record;
      const SnapshotOutcome outcome =
          FetchSnapshot(*first[i], p, &record, &why);
      if (cancelled()) return;
      if (outcome == SnapshotOutcome::kFailed) {
        ++failed;
        std::lock_guard lock(mutex_);
        NoteError(domain.name, why);
        continue;
      }
      std::vector<FetchRecord> fetches;
      if (outcome == SnapshotOutcome::kFetch) {
        record.domain = domain.name;
        record.rank = domain.rank;
        fetches.push_back(std::move(record));
      }
      const bool html =
          outcome == SnapshotOutcome::kFetch &&
          fetches.front().http_status >= 200 &&
          fetches.front().http_status <= 299 &&
          ToAsciiLower(fetches.front().content_type).find("text/html") !=
              std::string::npos;
      if (!CommitUnit(p, units[i], std::move(fetches), in_period[i], why)) {
        return;
      }
      std::lock_guard lock(mutex_);
      if (outcome == SnapshotOutcome::kArchiveError) {
        ++summary_->archive_errors;
        NoteError(domain.name, why);
      }
      if (html) ++summary_->html;
    }
    std::lock_guard lock(mutex_);
    if (failed > 0) {
      ++summary_->domains_failed;
      summary_->units_failed += failed;
    }
    if (callbacks_.on_domain) callbacks_.on_domain(domain.name, *summary_);
  }

  void Fail(const std::string& domain, int units, const std::string& why) {
    std::lock_guard lock(mutex_);
    if (cancelled()) return;  // Not a failure: stopped on purpose.
    ++summary_->domains_failed;
    summary_->units_failed += units;
    NoteError(domain, why);
  }

  // The capture of `period`, and the targets of its captured redirects,
  // asked for one request at a time.
  SnapshotOutcome FetchSnapshot(const CdxCapture& capture, int period,
                                FetchRecord* record, std::string* why) {
    history::SnapshotChain chain(
        capture, base_,
        [this, period](std::string_view timestamp) {
          return periods_.PeriodOf(timestamp) == period;
        },
        max_body_);
    while (!chain.next_url().empty()) {
      std::int64_t retries = 0;
      Result<ArchiveResponse> response = client_.Get(
          chain.next_url(), &snapshot_pace_, max_body_, true, &retries);
      {
        std::lock_guard lock(mutex_);
        summary_->retries += retries;
        if (response.ok()) ++summary_->snapshot_requests;
      }
      if (!response.ok()) {
        *why = response.status().message();
        return SnapshotOutcome::kFailed;
      }
      chain.Answer(*response);
    }
    return chain.Finish(record, why);
  }

  const WaybackImport& options_;
  const WaybackCallbacks& callbacks_;
  CrawlHandle* handle_;
  const WaybackPeriods& periods_;
  const std::vector<std::int64_t> runs_;
  storage::CrawlStore* store_;
  WaybackSummary* summary_;
  const std::string base_;
  const std::string holder_;
  const std::size_t max_body_ =
      std::max(options_.max_body_bytes, kMinBodyLimitBytes);
  RequestPace cdx_pace_;
  RequestPace snapshot_pace_;
  ArchiveClient client_;
  std::mutex mutex_;  // Guards store_, summary_, storage_status_.
  Status storage_status_;
  std::atomic<bool> stopped_{false};  // Storage failed: every worker stops.
};

Status CheckWaybackOptions(const WaybackImport& options) {
  if (storage::IsPostgresUri(options.db_path)) {
    return Status(StatusCode::kInvalidArgument,
                  "imports into PostgreSQL are not supported yet: import "
                  "into an SQLite file and copy it with robotscan migrate");
  }
  if (options.list_path.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "--list is required: the Wayback Machine is asked per "
                  "domain");
  }
  if (options.top < 0) {
    return Status(StatusCode::kInvalidArgument, "--top must not be negative");
  }
  if (options.concurrency < 1 || options.concurrency > 16) {
    return Status(StatusCode::kInvalidArgument,
                  "--concurrency must be 1 to 16 (requests to the archive at "
                  "once)");
  }
  if (options.cdx_page_rows < 1 || options.cdx_page_rows > 150000) {
    return Status(StatusCode::kInvalidArgument,
                  "--cdx-page must be 1 to 150000 captures");
  }
  if (options.cdx_per_minute < 0 || options.snapshots_per_second < 0) {
    return Status(StatusCode::kInvalidArgument,
                  "request rates must not be negative (0: unpaced)");
  }
  if (options.max_tries < 1 || options.max_tries > 100) {
    return Status(StatusCode::kInvalidArgument, "--tries must be 1 to 100");
  }
  const std::string& url = options.wayback_url;
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    return Status(StatusCode::kInvalidArgument,
                  "--wayback-url must be an http(s) URL, not '" + url + "'");
  }
  if (Status s = CheckHeaderValue("--user-agent", options.user_agent);
      !s.ok()) {
    return s;
  }
  return Status::Ok();
}

}  // namespace

Status ImportWayback(const WaybackImport& options,
                     const WaybackCallbacks& callbacks, CrawlHandle* handle,
                     WaybackSummary* summary) {
  *summary = WaybackSummary();
  if (Status s = CheckWaybackOptions(options); !s.ok()) return s;
  Result<WaybackPeriods> periods =
      WaybackPeriods::Make(options.from, options.to, options.every);
  if (!periods.ok()) return periods.status();

  std::vector<ListedDomain> domains;
  if (Status s = ReadListInOrder(options.list_path, options.top, &domains);
      !s.ok()) {
    return s;
  }
  storage::ListProvenance list;
  if (Status s = ReadListProvenance(options.list_path, &list); !s.ok()) {
    return s;
  }
  list.entries = static_cast<std::int64_t>(domains.size());
  summary->domains = list.entries;

  storage::StoreOptions store_options;
  store_options.compress_bodies = options.compress_bodies;
  auto store = storage::CrawlStore::Open(options.db_path, store_options);
  if (!store.ok()) return store.status();
  storage::CrawlHolder me;
  me.pid = getpid();
  me.host = HostName();
  me.started_at = Now();
  storage::Result<storage::LockAttempt> locked =
      store.value()->LockForImport(me);
  if (!locked.ok()) return locked.status();
  storage::LockAttempt hold = std::move(locked).value();
  if (!hold.lock) {
    return Status(StatusCode::kLocked,
                  "the database is being written by another crawl or import "
                  "(pid " +
                      std::to_string(hold.held_by->pid) + " on " +
                      hold.held_by->host + ")");
  }

  // One run per period: a run keeps one fetch per domain, and a period's
  // snapshots are what a crawl in that period would have fetched.
  std::vector<std::int64_t> runs;
  for (int p = 0; p < periods->size(); ++p) {
    const std::string label = periods->Label(p);
    storage::Result<std::optional<std::int64_t>> found =
        store.value()->FindImportRun(storage::FetchSource::kWayback, label);
    if (!found.ok()) return found.status();
    if (*found) {
      runs.push_back(**found);
    } else {
      storage::RunInfo info;
      info.started_at = me.started_at;
      info.tool_version = options.tool_version;
      info.input = options.list_path;
      info.options_json =
          nlohmann::json{{"import", "wayback"},
                         {"period", label},
                         {"every", WaybackPeriodName(options.every)},
                         {"from", options.from},
                         {"to", options.to},
                         {"wayback_url", options.wayback_url},
                         {"list", options.list_path},
                         {"top", options.top},
                         {"max_body_bytes",
                          std::max(options.max_body_bytes, kMinBodyLimitBytes)}}
              .dump();
      info.host = me.host;
      info.pid = me.pid;
      info.list = list;
      info.source = storage::FetchSource::kWayback;
      info.source_crawl = label;
      storage::Result<std::int64_t> begun = store.value()->BeginRun(info);
      if (!begun.ok()) return begun.status();
      runs.push_back(*begun);
    }
    summary->periods.push_back(label);
  }
  summary->run_ids = runs;

  WaybackImporter importer(options, callbacks, handle, *periods, runs,
                           store.value().get(), summary);
  importer.Run(domains);
  const std::string now = Now();
  if (Status s = importer.status(); !s.ok()) {
    for (std::int64_t run : runs) {
      (void)store.value()->FinishRun(run, "failed", now);
    }
    return s;
  }
  summary->cancelled = handle != nullptr && handle->cancelled();
  const bool complete = !summary->cancelled && summary->units_failed == 0;
  for (std::int64_t run : runs) {
    if (Status s = store.value()->FinishRun(
            run, complete ? "finished" : "interrupted", now);
        !s.ok()) {
      return s;
    }
  }
  return Status::Ok();
}

}  // namespace robotscan::crawler
