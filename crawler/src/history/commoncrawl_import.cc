// ImportCommonCrawl (history.h): WARC files → fetches, one thread per file
// being read, one writer at a time (the store behind a mutex), each batch
// committed with its file's progress (CrawlStore::AppendImportedFetches).
#include <curl/curl.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "history/capture_chains.h"
#include "history/http_capture.h"
#include "history/warc_reader.h"
#include "robotscan/crawler/history.h"
#include "robotscan/crawler/top_list.h"
#include "robotscan/crawler/top_list_download.h"
#include "robotscan/robots/access_policy.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "time_format.h"

namespace robotscan::crawler {
namespace {

using history::Capture;
using history::CaptureChain;
using history::CaptureChains;
using history::WarcNext;
using history::WarcReader;
using history::WarcRecord;
using storage::FetchRecord;

constexpr std::size_t kMaxFirstErrors = 10;
// A batch is committed when it has this many fetches and no chain is open;
// with chains open for this many times more, they are ended (a file of
// nothing but redirects still commits).
constexpr int kForcedCommitFactor = 4;
// Records read without a commit (skips only) before one is made anyway,
// so that the resume point keeps up in files of other hosts.
constexpr std::int64_t kRecordsPerCommit = 20000;
// Bodies a batch holds before it is committed. With at most kMaxQueued
// batches waiting for the writer, one being read and one being written,
// an import holds about 6 x 16 MiB of bodies whatever the file's size.
constexpr std::size_t kMaxBatchBodyBytes = 16u << 20;

// A file descriptor, closed once.
class FileSource final : public history::ByteSource {
 public:
  ~FileSource() override {
    if (fd_ >= 0) close(fd_);
  }
  bool Open(const std::string& path, std::int64_t offset, std::string* error) {
    fd_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
      *error = "cannot open " + path + ": " + std::strerror(errno);
      return false;
    }
    if (offset > 0 && lseek(fd_, offset, SEEK_SET) != offset) {
      *error = "cannot seek in " + path;
      return false;
    }
    return true;
  }
  std::ptrdiff_t Read(char* out, std::size_t size) override {
    for (;;) {
      const ssize_t n = read(fd_, out, size);
      if (n >= 0 || errno != EINTR) return n;
    }
  }
  std::string error() const override { return "read error"; }

 private:
  int fd_ = -1;
};

bool IsUrl(std::string_view s) {
  return s.rfind("http://", 0) == 0 || s.rfind("https://", 0) == 0;
}

// The name a file is known by in history_file: the last part of its path
// or URL (without a query), the same wherever it is read from.
std::string FileName(std::string_view location) {
  std::string_view s = location;
  if (IsUrl(s)) s = s.substr(0, s.find_first_of("?#"));
  const std::size_t slash = s.find_last_of('/');
  if (slash != std::string_view::npos) s.remove_prefix(slash + 1);
  return std::string(s);
}

bool IsValidUtf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    if (c < 0x80) {
      n = 0;
    } else if ((c & 0xE0) == 0xC0 && c >= 0xC2) {
      n = 1;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
    } else if ((c & 0xF8) == 0xF0 && c <= 0xF4) {
      n = 3;
    } else {
      return false;
    }
    if (i + n >= s.size() && n > 0) return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n + 1;
  }
  return true;
}

// An IPv4 or IPv6 address as libcurl gives a URL's host ([] kept).
bool IsAddressLiteral(std::string_view host) {
  if (host.empty()) return false;
  if (host.front() == '[') return host.back() == ']';
  return std::all_of(host.begin(), host.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

// WARC-Date (W3C-DTF, UTC: 2024-02-20T12:34:56Z, with a fraction in
// WARC/1.1) in the crawl database's form, milliseconds:
// 2024-02-20T12:34:56.000Z. nullopt when it is not such a date.
std::optional<std::string> CaptureTime(std::string_view date) {
  auto digits = [&](std::size_t at, std::size_t n) {
    if (at + n > date.size()) return false;
    for (std::size_t i = at; i < at + n; ++i) {
      if (date[i] < '0' || date[i] > '9') return false;
    }
    return true;
  };
  if (!digits(0, 4) || date.size() < 20 || date[4] != '-' || !digits(5, 2) ||
      date[7] != '-' || !digits(8, 2) || date[10] != 'T' || !digits(11, 2) ||
      date[13] != ':' || !digits(14, 2) || date[16] != ':' || !digits(17, 2)) {
    return std::nullopt;
  }
  std::string out(date.substr(0, 19));
  std::string millis = "000";
  std::size_t at = 19;
  if (at < date.size() && date[at] == '.') {
    ++at;
    std::size_t n = 0;
    while (at < date.size() && date[at] >= '0' && date[at] <= '9') {
      if (n < 3) millis[n] = date[at];
      ++n;
      ++at;
    }
    if (n == 0) return std::nullopt;
  }
  if (at + 1 != date.size() || date[at] != 'Z') return std::nullopt;
  return out + "." + millis + "Z";
}

// A URL parsed and normalized by libcurl.
struct ParsedUrl {
  std::string url, scheme, host, path, query;
};

std::optional<ParsedUrl> ParseUrl(const std::string& url,
                                  const std::string* base = nullptr) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> u(curl_url(),
                                                        &curl_url_cleanup);
  if (u == nullptr) return std::nullopt;
  if (base != nullptr &&
      curl_url_set(u.get(), CURLUPART_URL, base->c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  if (curl_url_set(u.get(), CURLUPART_URL, url.c_str(),
                   CURLU_NON_SUPPORT_SCHEME | CURLU_URLENCODE) != CURLUE_OK) {
    return std::nullopt;
  }
  ParsedUrl out;
  auto get = [&](CURLUPart part, std::string* value) {
    char* text = nullptr;
    if (curl_url_get(u.get(), part, &text, 0) != CURLUE_OK) return false;
    *value = text;
    curl_free(text);
    return true;
  };
  if (!get(CURLUPART_URL, &out.url) || !get(CURLUPART_SCHEME, &out.scheme)) {
    return std::nullopt;
  }
  get(CURLUPART_HOST, &out.host);
  get(CURLUPART_PATH, &out.path);
  get(CURLUPART_QUERY, &out.query);
  return out;
}

// The crawl ID in a warcinfo record's block ("isPartOf: CC-MAIN-...").
std::string CrawlIdInWarcinfo(std::string_view block) {
  const std::size_t at = block.find("isPartOf:");
  if (at == std::string_view::npos) return "";
  std::string_view value = block.substr(at + 9);
  value = value.substr(0, value.find_first_of("\r\n"));
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  return std::string(value);
}

// Downloads `url` into `path` (libcurl, redirects followed); a status
// other than 2xx is an error.
Status DownloadToFile(const std::string& url, const std::string& path) {
  std::unique_ptr<FILE, decltype(&std::fclose)> out(
      std::fopen(path.c_str(), "wb"), &std::fclose);
  if (out == nullptr) {
    return Status(StatusCode::kIoError, "cannot write " + path);
  }
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(),
                                                           &curl_easy_cleanup);
  if (curl == nullptr) return Status(StatusCode::kNetwork, "libcurl failed");
  CURL* c = curl.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 30L);
  // Abandon a transfer slower than 1 KB/s for a minute.
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1024L);
  curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 60L);
  const std::string agent = DefaultUserAgent();
  curl_easy_setopt(c, CURLOPT_USERAGENT, agent.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEDATA, out.get());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &std::fwrite);
  const CURLcode rc = curl_easy_perform(c);
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  if (std::fflush(out.get()) != 0) {
    return Status(StatusCode::kIoError, "cannot write " + path);
  }
  if (rc != CURLE_OK) {
    return Status(StatusCode::kIoError, url + ": " + curl_easy_strerror(rc));
  }
  if (status < 200 || status > 299) {
    return Status(StatusCode::kIoError,
                  url + ": HTTP status " + std::to_string(status));
  }
  return Status::Ok();
}

// The list's domains with their ranks (the first `top`; all for 0).
Status ReadList(const std::string& path, std::int64_t top,
                std::unordered_map<std::string, std::int64_t>* ranks,
                std::int64_t* entries) {
  Result<std::unique_ptr<TopListReader>> reader = TopListReader::Open(path);
  if (!reader.ok()) return reader.status();
  TopListEntry entry;
  MalformedLine malformed;
  for (;;) {
    if (top > 0 && *entries >= top) break;
    const ReadOutcome outcome = reader.value()->Next(&entry, &malformed);
    if (outcome == ReadOutcome::kEnd) break;
    if (outcome == ReadOutcome::kError) {
      return Status(StatusCode::kIoError, reader.value()->error());
    }
    if (outcome != ReadOutcome::kEntry) continue;
    if (ranks->emplace(entry.domain, entry.rank).second) ++*entries;
  }
  return Status::Ok();
}

// Reads a path list (plain or gzip) into URLs under base_url.
Status ReadPathList(const std::string& path, const std::string& base_url,
                    std::vector<std::string>* files) {
  gzFile in = gzopen(path.c_str(), "rb");  // Reads plain files too.
  if (in == nullptr) {
    return Status(StatusCode::kIoError, "cannot open " + path);
  }
  std::string base = base_url;
  if (!base.empty() && base.back() != '/') base += '/';
  char line[8192];
  while (gzgets(in, line, sizeof(line)) != nullptr) {
    std::string entry(line);
    while (!entry.empty() && (entry.back() == '\n' || entry.back() == '\r' ||
                              entry.back() == ' ')) {
      entry.pop_back();
    }
    if (entry.empty() || entry[0] == '#') continue;
    while (!entry.empty() && entry[0] == '/') entry.erase(0, 1);
    files->push_back(IsUrl(entry) ? entry : base + entry);
  }
  int error = Z_OK;
  gzerror(in, &error);
  gzclose(in);
  if (error != Z_OK && error != Z_STREAM_END) {
    return Status(StatusCode::kIoError, "cannot read " + path);
  }
  return Status::Ok();
}

std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "unknown";
  return name;
}

std::string Now() { return FormatIso8601(std::chrono::system_clock::now()); }

std::string SecondsFromNow(int seconds) {
  return FormatIso8601(std::chrono::system_clock::now() +
                       std::chrono::seconds(seconds));
}

std::string JsonQuoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Everything the file workers share.
class Import {
 public:
  Import(const CommonCrawlImport& options, const ImportCallbacks& callbacks,
         CrawlHandle* handle, storage::CrawlStore* store, std::int64_t run_id,
         std::unordered_map<std::string, std::int64_t> ranks,
         ImportSummary* summary)
      : options_(options),
        callbacks_(callbacks),
        handle_(handle),
        store_(store),
        run_id_(run_id),
        ranks_(std::move(ranks)),
        summary_(summary),
        holder_(HostName() + ":" + std::to_string(getpid())) {}

  // Reads the files on options.jobs threads; one more thread writes what
  // they read (SQLite has one writer at a time), so that reading and
  // writing overlap even with one job.
  void Run(const std::vector<std::string>& files) {
    std::thread writer([this] { WriteQueued(); });
    std::atomic<std::size_t> next{0};
    auto work = [&] {
      for (;;) {
        const std::size_t i = next.fetch_add(1);
        if (i >= files.size() || cancelled() || stopped_.load()) return;
        ImportFile(files[i]);
      }
    };
    const int jobs = std::max(1, options_.jobs);
    std::vector<std::thread> threads;
    for (int j = 1; j < jobs; ++j) threads.emplace_back(work);
    work();
    for (std::thread& t : threads) t.join();
    ImportDeferred();
    {
      std::lock_guard lock(queue_mutex_);
      readers_done_ = true;
    }
    queue_cv_.notify_all();
    writer.join();
  }

  // PostgreSQL: the files other importers held when this one came to them,
  // and the ones whose lease it lost, are tried again until each is done
  // (by whoever) or taken over after its holder's lease ran out.
  void ImportDeferred() {
    for (;;) {
      WaitForWriter();
      std::vector<std::string> again;
      {
        std::lock_guard lock(mutex_);
        again.assign(deferred_.begin(), deferred_.end());
        deferred_.clear();
      }
      if (again.empty() || cancelled() || stopped_.load()) return;
      // Not faster than the leases can change hands.
      for (int i = 0; i < 10 && !cancelled(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      for (const std::string& location : again) {
        if (cancelled() || stopped_.load()) return;
        ImportFile(location);
      }
    }
  }

  // Until every queued batch is committed (or refused).
  void WaitForWriter() {
    std::unique_lock lock(queue_mutex_);
    queue_cv_.wait(
        lock, [&] { return (queue_.empty() && !committing_) || stopped_; });
  }

  // A storage failure stops every worker; the first is returned.
  Status status() {
    std::lock_guard lock(mutex_);
    return storage_status_;
  }

 private:
  bool cancelled() const { return handle_ != nullptr && handle_->cancelled(); }

  void NoteError(const std::string& file, const std::string& reason) {
    if (summary_->first_errors.size() < kMaxFirstErrors) {
      summary_->first_errors.push_back(file + ": " + reason);
    }
  }

  void Fail(const std::string& file, const std::string& reason) {
    std::lock_guard lock(mutex_);
    ++summary_->files_failed;
    ++summary_->errors;
    NoteError(file, reason);
  }

  // What one file's reading has gathered since its last commit.
  struct Batch {
    std::vector<FetchRecord> fetches;
    storage::HistoryCounts counts;
    std::map<std::string, std::int64_t> skipped;
    std::int64_t redirect_hops = 0;
    std::string last_error;
    std::vector<std::string> errors;
    std::int64_t records_since_commit = 0;
    std::size_t body_bytes = 0;
  };

  void Skip(Batch* batch, const char* reason) {
    ++batch->counts.skipped;
    ++batch->skipped[reason];
  }

  // The domain a capture of `host` is filed under, with its rank; false
  // when the host is no domain of the list.
  bool DomainOf(const std::string& host, std::string* domain,
                std::int64_t* rank) const {
    const bool www = host.rfind("www.", 0) == 0;
    if (ranks_.empty() && options_.list_path.empty()) {
      *domain =
          www && host.find('.', 4) != std::string::npos ? host.substr(4) : host;
      *rank = 0;
      return true;
    }
    if (auto it = ranks_.find(host); it != ranks_.end()) {
      *domain = host;
      *rank = it->second;
      return true;
    }
    if (www) {
      if (auto it = ranks_.find(host.substr(4)); it != ranks_.end()) {
        *domain = it->first;
        *rank = it->second;
        return true;
      }
    }
    return false;
  }

  // A finished chain as the fetch a crawl would have recorded.
  void AddChain(CaptureChain chain, const std::string& file, Batch* batch) {
    const Capture& first = chain.hops.front();
    Capture& last = chain.hops.back();
    batch->redirect_hops += static_cast<std::int64_t>(chain.hops.size()) - 1;
    FetchRecord r;
    if (!DomainOf(first.host, &r.domain, &r.rank)) {
      Skip(batch, "not_in_list");
      return;
    }
    r.url = first.url;
    r.final_url = last.url;
    r.http_status = last.response.http_status;
    const bool unresolved = r.http_status >= 300 && r.http_status <= 399;
    r.redirects =
        static_cast<int>(chain.hops.size()) - 1 + (unresolved ? 1 : 0);
    robots::HttpOutcome outcome;
    outcome.status = r.http_status;
    outcome.network_error = last.response.error != storage::ErrorClass::kNone;
    outcome.redirects_unresolved = unresolved;
    r.access = robots::ClassifyHttpOutcome(outcome);
    if (last.response.error != storage::ErrorClass::kNone) {
      r.error_class = last.response.error;
      r.error_message = last.response.error_message;
    } else if (unresolved) {
      r.error_class = chain.unresolved;
      r.error_message = chain.unresolved_message;
    }
    if (r.http_status >= 200 && r.http_status < 300 &&
        last.response.error == storage::ErrorClass::kNone) {
      r.body = std::move(last.response.body);
      r.truncated = last.response.truncated;
    }
    CopyResponseHeaders(last.response.headers, &r);
    r.ip = last.ip;
    for (const Capture& hop : chain.hops) {
      storage::FetchStep step;
      step.url = hop.url;
      step.http_status = hop.response.http_status;
      step.location = hop.response.headers.location;
      step.error_class = hop.response.error;
      step.error_message = hop.response.error_message;
      step.ip = hop.ip;
      step.total_ms = -1;
      r.steps.push_back(std::move(step));
    }
    // CaptureTime was checked when the capture was read.
    r.fetched_at = CaptureTime(first.date).value_or("");
    r.source = storage::FetchSource::kCommonCrawl;
    r.source_file = file;
    r.source_offset = first.offset;
    r.source_timestamp = first.date;
    batch->body_bytes += r.body.size();
    batch->fetches.push_back(std::move(r));
  }

  // One record of a file: counted, skipped, or read into a capture.
  void Read(const WarcRecord& record, CaptureChains* chains,
            std::vector<CaptureChain>* finished, Batch* batch) {
    const std::string& type = record.type;
    if (type != "response") {
      chains->Tick(finished);
      if (type == "warcinfo" || type == "request" || type == "metadata" ||
          type == "revisit") {
        Skip(batch, type.c_str());
      } else {
        Skip(batch, "not_http");
      }
      return;
    }
    if (!IsValidUtf8(record.target_uri)) {
      chains->Tick(finished);
      Skip(batch, "bad_uri");
      return;
    }
    if (record.content_type.find("application/http") == std::string::npos) {
      chains->Tick(finished);
      Skip(batch, "not_http");
      return;
    }
    std::optional<ParsedUrl> url = ParseUrl(record.target_uri);
    if (!url || (url->scheme != "http" && url->scheme != "https")) {
      chains->Tick(finished);
      Skip(batch, url ? "not_http" : "bad_uri");
      return;
    }
    Capture capture;
    std::string reason;
    if (!NormalizeDomainName(url->host, &capture.host, &reason)) {
      // An address is a host too (captures of http://192.0.2.1/robots.txt).
      if (!IsAddressLiteral(url->host)) {
        chains->Tick(finished);
        Skip(batch, "bad_uri");
        return;
      }
      capture.host = url->host;
    }
    if (!CaptureTime(record.date)) {
      chains->Tick(finished);
      ++batch->counts.errors;
      batch->errors.push_back(
          "a WARC-Date that is not a UTC date (" + record.date.substr(0, 40) +
          ") (record at offset " + std::to_string(record.offset) + ")");
      return;
    }
    std::string why;
    if (!history::ReadCapturedResponse(record.block, record.block_truncated,
                                       max_body_, &capture.response, &why)) {
      chains->Tick(finished);
      ++batch->counts.errors;
      batch->errors.push_back(why + " (record at offset " +
                              std::to_string(record.offset) + ")");
      return;
    }
    capture.url = url->url;
    capture.robots_path = url->path == "/robots.txt" && url->query.empty();
    capture.date = record.date;
    capture.offset = record.offset;
    capture.ip = record.ip_address;
    const int status = capture.response.http_status;
    if (status >= 300 && status <= 399 &&
        !capture.response.headers.location.empty()) {
      std::optional<ParsedUrl> target =
          ParseUrl(capture.response.headers.location, &capture.url);
      if (target) {
        capture.redirect_url = target->url;
        capture.redirect_is_http =
            target->scheme == "http" || target->scheme == "https";
      }
    }
    if (chains->Add(std::move(capture), finished) ==
        CaptureChains::Added::kNotRobotsTxt) {
      Skip(batch, "not_robots_txt");
    }
  }

  // A batch read, waiting for the writer, with its file's resume point.
  struct Pending {
    std::string name;
    std::string location;
    std::int64_t file_id = 0;
    std::int64_t resume_offset = 0;
    std::int64_t resume_skip = 0;
    bool done = false;     // The file's last batch.
    bool resumed = false;  // The file was begun by an earlier import.
    Batch batch;
  };

  // Hands `batch` to the writer (waiting while kMaxQueued are queued, which
  // bounds memory); false once storage has failed.
  bool Enqueue(const std::string& name, std::int64_t file_id,
               std::int64_t resume_offset, std::int64_t resume_skip, bool done,
               bool resumed, Batch* batch) {
    {
      std::lock_guard lock(mutex_);
      if (lost_.count(name) != 0) return false;  // Stop reading it.
    }
    Pending pending;
    pending.name = name;
    pending.location = locations_[name];
    pending.file_id = file_id;
    pending.resume_offset = resume_offset;
    pending.resume_skip = resume_skip;
    pending.done = done;
    pending.resumed = resumed;
    pending.batch = std::move(*batch);
    *batch = Batch();
    std::unique_lock lock(queue_mutex_);
    queue_cv_.wait(lock,
                   [&] { return queue_.size() < kMaxQueued || stopped_; });
    if (stopped_) return false;
    queue_.push_back(std::move(pending));
    queue_cv_.notify_all();
    return true;
  }

  // The writer: commits the queued batches in order, each with its file's
  // progress, until the readers are done and the queue is empty. Batches
  // queued when the import is cancelled are still committed (each is
  // whole); after a storage failure nothing more is.
  void WriteQueued() {
    for (;;) {
      Pending pending;
      {
        std::unique_lock lock(queue_mutex_);
        queue_cv_.wait(lock, [&] { return !queue_.empty() || readers_done_; });
        if (queue_.empty()) return;
        pending = std::move(queue_.front());
        queue_.pop_front();
        committing_ = true;
      }
      queue_cv_.notify_all();
      const bool committed = Commit(&pending);
      {
        std::lock_guard lock(queue_mutex_);
        committing_ = false;
        if (!committed) {
          stopped_ = true;
          queue_.clear();
        }
      }
      queue_cv_.notify_all();
      if (!committed) return;
    }
  }

  bool Commit(Pending* pending) {
    Batch* batch = &pending->batch;
    storage::HistoryProgress progress;
    progress.file_id = pending->file_id;
    progress.resume_offset = pending->resume_offset;
    progress.resume_skip = pending->resume_skip;
    progress.counts = batch->counts;
    if (!batch->errors.empty()) progress.last_error = batch->errors.back();
    progress.done = pending->done;
    if (pending->done) progress.finished_at = Now();
    progress.holder = holder_;
    progress.lease_until = SecondsFromNow(options_.lease_seconds);
    std::lock_guard lock(mutex_);
    if (!storage_status_.ok()) return false;
    if (lost_.count(pending->name) != 0) return true;  // See below.
    storage::Result<storage::HistoryCounts> decided =
        store_->AppendImportedFetches(run_id_, batch->fetches, progress);
    if (!decided.ok() &&
        decided.status().code() == storage::Status::Code::kLocked) {
      // Another importer took the file over (our lease ran out): it reads
      // these records again. Drop this file's batches, and look at the file
      // again later (it may be done by then, or free once more).
      ++summary_->leases_lost;
      lost_.insert(pending->name);
      deferred_.insert(pending->location);
      return true;
    }
    if (!decided.ok()) {
      storage_status_ = decided.status();
      return false;
    }
    summary_->records += batch->counts.records;
    summary_->fetches += decided->fetches;
    summary_->duplicates += decided->duplicates;
    summary_->errors += batch->counts.errors;
    summary_->redirect_hops += batch->redirect_hops;
    for (const auto& [reason, n] : batch->skipped) {
      summary_->skipped[reason] += n;
    }
    for (const std::string& e : batch->errors) NoteError(pending->name, e);
    if (pending->done) {
      ++summary_->files_imported;
      if (pending->resumed) ++summary_->files_resumed;
      if (callbacks_.on_file) callbacks_.on_file(pending->name, *summary_);
    }
    return true;
  }

  void ImportFile(const std::string& location) {
    const std::string name = FileName(location);
    storage::HistoryFile file;
    {
      std::lock_guard lock(mutex_);
      if (!storage_status_.ok()) return;
      locations_[name] = location;
      lost_.erase(name);
      storage::Result<storage::HistoryFile> opened =
          store_->OpenHistoryFile(run_id_, name, location, holder_, Now(),
                                  SecondsFromNow(options_.lease_seconds));
      if (!opened.ok()) {
        storage_status_ = opened.status();
        stopped_ = true;
        return;
      }
      file = *opened;
      if (!file.held_by.empty()) {
        // Another importer is reading it (PostgreSQL): later.
        if (waited_for_.insert(name).second) ++summary_->files_waited_for;
        deferred_.insert(location);
        return;
      }
      if (file.done) {
        ++summary_->files_already_done;
        if (callbacks_.on_file) callbacks_.on_file(name, *summary_);
        return;
      }
    }
    const bool resumed = file.resume_offset > 0 || file.resume_skip > 0;
    std::string path = location;
    std::string downloaded;
    if (IsUrl(location)) {
      namespace fs = std::filesystem;
      std::error_code ec;
      fs::path dir = options_.download_dir.empty()
                         ? fs::temp_directory_path(ec)
                         : fs::path(options_.download_dir);
      downloaded = (dir / ("robotscan-" + std::to_string(getpid()) + "-" +
                           name + ".part"))
                       .string();
      Status got = DownloadToFile(location, downloaded);
      if (!got.ok()) {
        std::remove(downloaded.c_str());
        Fail(name, got.message());
        return;
      }
      path = downloaded;
    }
    ReadFile(name, path, file, resumed);
    if (!downloaded.empty()) std::remove(downloaded.c_str());
  }

  void ReadFile(const std::string& name, const std::string& path,
                const storage::HistoryFile& file, bool resumed) {
    FileSource source;
    std::string error;
    if (!source.Open(path, file.resume_offset, &error)) {
      Fail(name, error);
      return;
    }
    WarcReader reader(&source, file.resume_offset);
    WarcRecord record;
    // The records of the resume member already imported.
    for (std::int64_t i = 0; i < file.resume_skip; ++i) {
      if (reader.Next(&record, &error) == WarcNext::kEnd) break;
    }
    CaptureChains chains;
    std::vector<CaptureChain> finished;
    Batch batch;
    std::int64_t resume_offset = file.resume_offset;
    std::int64_t resume_skip = file.resume_skip;
    const std::size_t batch_size =
        static_cast<std::size_t>(std::max(1, options_.batch_size));
    for (;;) {
      if (cancelled() || stopped_.load()) return;  // Uncommitted: redone.
      const WarcNext next = reader.Next(&record, &error);
      if (next == WarcNext::kEnd) break;
      ++batch.counts.records;
      ++batch.records_since_commit;
      if (next == WarcNext::kMalformed) {
        chains.Tick(&finished);
        ++batch.counts.errors;
        batch.errors.push_back(error);
      } else {
        Read(record, &chains, &finished, &batch);
      }
      for (CaptureChain& chain : finished) {
        AddChain(std::move(chain), name, &batch);
      }
      finished.clear();
      resume_offset = record.offset;
      resume_skip = record.index_in_member + 1;
      const bool full = batch.fetches.size() >= batch_size ||
                        batch.body_bytes >= kMaxBatchBodyBytes ||
                        batch.records_since_commit >= kRecordsPerCommit;
      if (full && !chains.empty() &&
          batch.fetches.size() >= batch_size * kForcedCommitFactor) {
        chains.FinishAll(&finished);
        for (CaptureChain& chain : finished) {
          AddChain(std::move(chain), name, &batch);
        }
        finished.clear();
      }
      if (full && chains.empty() &&
          !Enqueue(name, file.id, resume_offset, resume_skip, false, resumed,
                   &batch)) {
        return;
      }
    }
    chains.FinishAll(&finished);
    for (CaptureChain& chain : finished) {
      AddChain(std::move(chain), name, &batch);
    }
    Enqueue(name, file.id, resume_offset, resume_skip, true, resumed, &batch);
  }

  const CommonCrawlImport& options_;
  const ImportCallbacks& callbacks_;
  CrawlHandle* handle_;
  storage::CrawlStore* store_;
  std::int64_t run_id_;
  std::unordered_map<std::string, std::int64_t> ranks_;
  ImportSummary* summary_;
  std::string holder_;
  std::size_t max_body_ = std::max(options_.max_body_bytes, kMinBodyLimitBytes);
  std::mutex mutex_;  // Guards store_, summary_, storage_status_.
  Status storage_status_;
  // Set when storage failed: readers and the writer stop.
  std::atomic<bool> stopped_{false};
  // PostgreSQL's leases (guarded by mutex_): files to look at again, files
  // whose lease was lost (their queued batches are dropped), where each
  // file was read from, files counted in files_waited_for.
  std::set<std::string> deferred_;
  std::set<std::string> lost_;
  std::map<std::string, std::string> locations_;
  std::set<std::string> waited_for_;
  static constexpr std::size_t kMaxQueued = 4;
  std::mutex queue_mutex_;  // Guards queue_, readers_done_, committing_.
  std::condition_variable queue_cv_;
  std::deque<Pending> queue_;
  bool readers_done_ = false;
  bool committing_ = false;
};

// The crawl ID in the first warcinfo record of a local file, or "".
std::string CrawlIdInFirstRecord(const std::string& path) {
  FileSource source;
  std::string error;
  if (!source.Open(path, 0, &error)) return "";
  WarcReader reader(&source, 0);
  WarcRecord record;
  for (int i = 0; i < 3; ++i) {
    const WarcNext next = reader.Next(&record, &error);
    if (next == WarcNext::kEnd) break;
    if (next == WarcNext::kRecord && record.type == "warcinfo") {
      return CrawlIdInWarcinfo(record.block);
    }
  }
  return "";
}

bool IsCrawlId(std::string_view id) {
  // CC-MAIN-YYYY-WW (older crawls: CC-MAIN-YYYY-WW as well since 2013).
  if (id.size() != 15 || id.substr(0, 8) != "CC-MAIN-" || id[12] != '-') {
    return false;
  }
  for (std::size_t i : {8u, 9u, 10u, 11u, 13u, 14u}) {
    if (id[i] < '0' || id[i] > '9') return false;
  }
  return true;
}

}  // namespace

std::string CrawlIdInPath(std::string_view path) {
  const std::size_t at = path.find("CC-MAIN-");
  for (std::size_t i = at; i != std::string_view::npos;
       i = path.find("CC-MAIN-", i + 1)) {
    if (IsCrawlId(path.substr(i, 15)) &&
        (i + 15 == path.size() || path[i + 15] == '/')) {
      return std::string(path.substr(i, 15));
    }
  }
  return "";
}

Status ImportCommonCrawl(const CommonCrawlImport& options,
                         const ImportCallbacks& callbacks, CrawlHandle* handle,
                         ImportSummary* summary) {
  *summary = ImportSummary();
  if (options.lease_seconds < 1) {
    return Status(StatusCode::kInvalidArgument, "--lease must be at least 1 s");
  }
  if (options.jobs < 1 || options.jobs > 256) {
    return Status(StatusCode::kInvalidArgument, "--jobs must be 1 to 256");
  }
  if (options.top < 0) {
    return Status(StatusCode::kInvalidArgument, "--top must not be negative");
  }
  std::vector<std::string> files = options.files;
  if (!options.paths_file.empty()) {
    if (Status s = ReadPathList(options.paths_file, options.base_url, &files);
        !s.ok()) {
      return s;
    }
  }
  if (files.empty()) {
    return Status(StatusCode::kInvalidArgument, "no WARC files to import");
  }
  // A file is known by its name (history_file): the same name twice is
  // read once, so that two jobs never import one file at the same time.
  std::vector<std::string> unique;
  std::unordered_map<std::string, bool> seen;
  for (const std::string& f : files) {
    const std::string name = FileName(f);
    if (name.empty()) {
      return Status(StatusCode::kInvalidArgument, "'" + f + "' names no file");
    }
    if (seen.emplace(name, true).second) unique.push_back(f);
  }
  files = std::move(unique);
  summary->files = static_cast<std::int64_t>(files.size());

  // The crawl ID: given, else in the files' paths, else in the first
  // local file's warcinfo.
  std::string crawl_id = options.crawl_id;
  if (!crawl_id.empty() && !IsCrawlId(crawl_id)) {
    return Status(
        StatusCode::kInvalidArgument,
        "--crawl-id must look like CC-MAIN-2024-10, not '" + crawl_id + "'");
  }
  if (crawl_id.empty()) {
    for (const std::string& f : files) {
      crawl_id = CrawlIdInPath(f);
      if (!crawl_id.empty()) break;
    }
  }
  if (crawl_id.empty()) crawl_id = CrawlIdInPath(options.paths_file);
  if (crawl_id.empty()) {
    for (const std::string& f : files) {
      if (IsUrl(f)) continue;
      const std::string id = CrawlIdInFirstRecord(f);
      if (IsCrawlId(id)) {
        crawl_id = id;
        break;
      }
    }
  }
  if (crawl_id.empty()) {
    return Status(StatusCode::kInvalidArgument,
                  "no crawl ID in the files' paths or warcinfo records: "
                  "give --crawl-id CC-MAIN-YYYY-WW");
  }
  summary->crawl_id = crawl_id;

  std::unordered_map<std::string, std::int64_t> ranks;
  std::int64_t entries = 0;
  storage::ListProvenance list;
  if (!options.list_path.empty()) {
    if (Status s = ReadList(options.list_path, options.top, &ranks, &entries);
        !s.ok()) {
      return s;
    }
    if (Status s = ReadListProvenance(options.list_path, &list); !s.ok()) {
      return s;
    }
    list.entries = entries;
  }

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

  storage::RunInfo info;
  info.started_at = me.started_at;
  info.tool_version = options.tool_version;
  info.input = options.paths_file.empty() ? files.front() : options.paths_file;
  info.options_json =
      "{\"import\":\"commoncrawl\",\"crawl_id\":" + JsonQuoted(crawl_id) +
      ",\"files\":" + std::to_string(files.size()) +
      ",\"list\":" + JsonQuoted(options.list_path) +
      ",\"top\":" + std::to_string(options.top) + ",\"max_body_bytes\":" +
      std::to_string(std::max(options.max_body_bytes, kMinBodyLimitBytes)) +
      "}";
  info.host = me.host;
  info.pid = me.pid;
  info.list = list;
  info.source = storage::FetchSource::kCommonCrawl;
  info.source_crawl = crawl_id;
  // One run per crawl ID, also for importers starting together.
  storage::Result<std::int64_t> run = store.value()->FindOrBeginImportRun(info);
  if (!run.ok()) return run.status();
  const std::int64_t run_id = *run;
  summary->run_id = run_id;

  Import import(options, callbacks, handle, store.value().get(), run_id,
                std::move(ranks), summary);
  import.Run(files);
  if (Status s = import.status(); !s.ok()) {
    (void)store.value()->FinishRun(run_id, "failed", Now());
    return s;
  }
  summary->cancelled = handle != nullptr && handle->cancelled();
  const bool complete = !summary->cancelled && summary->files_failed == 0;
  return store.value()->FinishRun(run_id, complete ? "finished" : "interrupted",
                                  Now());
}

}  // namespace robotscan::crawler
