#include "robotscan/crawler/top_list_download.h"

#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

#include "robotscan/base/ascii.h"
#include "robotscan/crawler/download.h"

namespace robotscan::crawler {
namespace {

constexpr char kProvenancePrefix[] = "# robotscan-toplist ";

std::string HexSha256(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         digest.data());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char byte : digest) {
    hex += kHex[byte >> 4];
    hex += kHex[byte & 15];
  }
  return hex;
}

std::string UtcDate(std::time_t when) {
  std::tm tm{};
  gmtime_r(&when, &tm);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &tm);
  return text;
}

// The list at `url`: a 200 answer, or an error that says which URL failed.
Status Get(const std::string& url, const TopListRequest& request,
           Downloaded* answer) {
  DownloadRequest get;
  get.url = url;
  get.timeout = request.timeout;
  get.max_bytes = request.max_bytes;
  get.user_agent = request.user_agent;
  Result<Downloaded> downloaded = Download(get);
  if (!downloaded.ok()) return downloaded.status();
  *answer = std::move(downloaded).value();
  if (answer->http_status != 200) {
    return Status(StatusCode::kIoError,
                  url + ": HTTP " + std::to_string(answer->http_status) +
                      " instead of the list");
  }
  return Status::Ok();
}

bool LooksLikeHtml(std::string_view content_type, std::string_view body) {
  if (ToAsciiLower(content_type).find("text/html") != std::string::npos) {
    return true;
  }
  std::string head = ToAsciiLower(body.substr(0, 512));
  const std::size_t start = head.find_first_not_of(" \t\r\n\xef\xbb\xbf");
  if (start == std::string::npos) return false;
  head = head.substr(start);
  return head.rfind("<!doctype", 0) == 0 || head.rfind("<html", 0) == 0 ||
         head.rfind("<?xml", 0) == 0 || head.rfind("<head", 0) == 0;
}

bool IsZip(std::string_view bytes) {
  return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("PK\3\4");
}

struct FreeArchive {
  void operator()(archive* a) const { archive_read_free(a); }
};

// The first regular file of a zip, read with libarchive.
Status ExtractFirstFile(const std::string& url, const std::string& zip,
                        std::size_t max_bytes, std::string* out) {
  std::unique_ptr<archive, FreeArchive> reader(archive_read_new());
  if (!reader) return Status(StatusCode::kInternal, "archive_read_new failed");
  archive_read_support_format_zip(reader.get());
  const auto damaged = [&url, &reader](const char* what) {
    const char* detail = archive_error_string(reader.get());
    return Status(StatusCode::kInvalidInput,
                  url + ": damaged zip (" + what + ": " +
                      (detail != nullptr ? detail : "unknown error") + ")");
  };
  if (archive_read_open_memory(reader.get(), zip.data(), zip.size()) !=
      ARCHIVE_OK) {
    return damaged("open");
  }
  archive_entry* entry = nullptr;
  for (;;) {
    const int rc = archive_read_next_header(reader.get(), &entry);
    if (rc == ARCHIVE_EOF) {
      return Status(StatusCode::kInvalidInput, url + ": the zip holds no file");
    }
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) return damaged("entry");
    if (archive_entry_filetype(entry) == AE_IFREG) break;
  }
  out->clear();
  std::array<char, 64 * 1024> buffer;
  for (;;) {
    const la_ssize_t n =
        archive_read_data(reader.get(), buffer.data(), buffer.size());
    if (n == 0) break;
    if (n < 0) return damaged("data");
    if (out->size() + static_cast<std::size_t>(n) > max_bytes) {
      return Status(StatusCode::kInvalidInput,
                    url + ": the zipped list is larger than " +
                        std::to_string(max_bytes >> 20) + " MiB");
    }
    out->append(buffer.data(), static_cast<std::size_t>(n));
  }
  return Status::Ok();
}

// Checks the list with the crawl's own parser: entries and malformed lines.
void CountEntries(TopListDownload* list) {
  TopListParser parser;
  std::string_view rest = list->csv;
  TopListEntry entry;
  MalformedLine bad;
  list->provenance.entries = 0;
  while (!rest.empty()) {
    std::size_t end = rest.find_first_of("\r\n");
    std::string_view line = rest.substr(0, end);
    if (end == std::string_view::npos) {
      rest = {};
    } else {
      const bool crlf =
          rest[end] == '\r' && end + 1 < rest.size() && rest[end + 1] == '\n';
      rest.remove_prefix(end + (crlf ? 2 : 1));
    }
    switch (parser.ParseLine(line, &entry, &bad)) {
      case TopListParser::LineKind::kEntry:
        ++list->provenance.entries;
        break;
      case TopListParser::LineKind::kMalformed:
        ++list->malformed_lines;
        if (list->first_malformed.size() < 10) {
          list->first_malformed.push_back(bad);
        }
        break;
      case TopListParser::LineKind::kSkipped:
        break;
    }
  }
}

bool IsListId(std::string_view id) {
  if (id.empty() || id.size() > 16) return false;
  for (char c : id) {
    if (!IsAsciiAlnum(c)) return false;
  }
  return true;
}

std::string WithoutTrailingSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

}  // namespace

Status ReadDownloadedList(const std::string& url, std::string bytes,
                          std::string_view content_type, std::size_t max_bytes,
                          TopListDownload* list) {
  list->csv.clear();
  list->malformed_lines = 0;
  list->first_malformed.clear();
  if (LooksLikeHtml(content_type, bytes)) {
    return Status(
        StatusCode::kInvalidInput,
        url + ": the server sent an HTML page (" +
            (content_type.empty() ? "no type" : std::string(content_type)) +
            "), not a list");
  }
  storage::ListProvenance& p = list->provenance;
  p.url = url;
  p.sha256 = HexSha256(bytes);
  if (IsZip(bytes)) {
    if (Status s = ExtractFirstFile(url, bytes, max_bytes, &list->csv);
        !s.ok()) {
      return s;
    }
  } else {
    list->csv = std::move(bytes);
  }
  CountEntries(list);
  if (p.entries == 0) {
    std::string why = url + ": no list entries";
    if (!list->first_malformed.empty()) {
      const MalformedLine& bad = list->first_malformed.front();
      why += " (" + std::to_string(list->malformed_lines) +
             " malformed lines; line " + std::to_string(bad.line) + ": " +
             bad.reason + ")";
    }
    return Status(StatusCode::kInvalidInput, why);
  }
  return Status::Ok();
}

std::string_view TopListSourceName(TopListSource source) {
  switch (source) {
    case TopListSource::kTranco:
      return "tranco";
    case TopListSource::kUmbrella:
      return "umbrella";
    case TopListSource::kMajestic:
      return "majestic";
  }
  return "tranco";
}

std::optional<TopListSource> ParseTopListSource(std::string_view name) {
  for (TopListSource s : {TopListSource::kTranco, TopListSource::kUmbrella,
                          TopListSource::kMajestic}) {
    if (TopListSourceName(s) == name) return s;
  }
  return std::nullopt;
}

Status DownloadTopList(const TopListRequest& request, TopListDownload* list) {
  *list = TopListDownload();
  if (!request.list_id.empty() && request.source != TopListSource::kTranco) {
    return Status(StatusCode::kInvalidArgument,
                  "a list ID names a Tranco list; " +
                      std::string(TopListSourceName(request.source)) +
                      " lists are by date");
  }
  if (!request.list_id.empty() && !IsListId(request.list_id)) {
    return Status(StatusCode::kInvalidArgument,
                  "invalid Tranco list ID '" + request.list_id +
                      "' (letters and digits, e.g. X5Y7N)");
  }
  if (Status agent = CheckHeaderValue("--user-agent", request.user_agent);
      !agent.ok()) {
    return agent;
  }
  std::string base = request.base_url;
  std::string path;
  switch (request.source) {
    case TopListSource::kTranco:
      if (base.empty()) base = "https://tranco-list.eu";
      path = request.list_id.empty()
                 ? "/top-1m.csv.zip"
                 : "/download/" + request.list_id + "/1000000";
      break;
    case TopListSource::kUmbrella:
      if (base.empty())
        base = "http://s3-us-west-1.amazonaws.com/umbrella-static";
      path = "/top-1m.csv.zip";
      break;
    case TopListSource::kMajestic:
      if (base.empty()) base = "https://downloads.majestic.com";
      path = "/majestic_million.csv";
      break;
  }
  base = WithoutTrailingSlash(base);
  const std::string url = base + path;

  Downloaded answer;
  if (Status s = Get(url, request, &answer); !s.ok()) return s;
  if (Status s =
          ReadDownloadedList(url, std::move(answer.body), answer.content_type,
                             request.max_bytes, list);
      !s.ok()) {
    return s;
  }
  storage::ListProvenance& p = list->provenance;
  p.source = std::string(TopListSourceName(request.source));
  const std::time_t published =
      answer.last_modified.empty()
          ? -1
          : curl_getdate(answer.last_modified.c_str(), nullptr);
  p.date = UtcDate(published > 0 ? published : std::time(nullptr));
  if (request.source == TopListSource::kTranco) {
    if (!request.list_id.empty()) {
      p.list_id = request.list_id;
    } else {
      // The current list's ID, the form a paper cites. Without it the list
      // is still usable (its date and SHA-256 identify it).
      Downloaded id;
      if (Get(base + "/top-1m-id", request, &id).ok()) {
        std::string text = id.body;
        text = std::string(StripAsciiWhitespace(text));
        if (IsListId(text)) p.list_id = text;
      }
    }
  }
  return Status::Ok();
}

std::string FormatProvenanceLine(const storage::ListProvenance& p) {
  // Values never hold spaces (a URL's would be escaped).
  std::string url;
  for (char c : p.url) {
    if (c == ' ') {
      url += "%20";
    } else if (static_cast<unsigned char>(c) >= 0x21 && c != 0x7f) {
      url += c;
    }
  }
  std::string line = kProvenancePrefix;
  line += "source=" + p.source;
  if (!p.list_id.empty()) line += " list_id=" + p.list_id;
  if (!p.date.empty()) line += " date=" + p.date;
  if (!url.empty()) line += " url=" + url;
  line += " sha256=" + p.sha256;
  return line;
}

std::optional<storage::ListProvenance> ParseProvenanceLine(
    std::string_view line) {
  const std::string_view prefix = kProvenancePrefix;
  if (line.substr(0, prefix.size()) != prefix) return std::nullopt;
  line.remove_prefix(prefix.size());
  storage::ListProvenance p;
  while (!line.empty()) {
    const std::size_t end = line.find(' ');
    const std::string_view field = line.substr(0, end);
    line = end == std::string_view::npos ? std::string_view()
                                         : line.substr(end + 1);
    const std::size_t eq = field.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view key = field.substr(0, eq);
    std::string value(field.substr(eq + 1));
    if (key == "source") p.source = std::move(value);
    if (key == "list_id") p.list_id = std::move(value);
    if (key == "date") p.date = std::move(value);
    if (key == "url") p.url = std::move(value);
    if (key == "sha256") p.sha256 = std::move(value);
  }
  if (p.source.empty() || p.sha256.size() != 64) return std::nullopt;
  return p;
}

Status WriteTopListFile(const std::string& path, const TopListDownload& list) {
  const std::string temporary = path + ".part";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return Status(StatusCode::kIoError, "cannot write " + temporary);
    out << FormatProvenanceLine(list.provenance) << '\n';
    out.write(list.csv.data(), static_cast<std::streamsize>(list.csv.size()));
    if (!list.csv.empty() && list.csv.back() != '\n') out << '\n';
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      return Status(StatusCode::kIoError, "cannot write " + temporary);
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    return Status(StatusCode::kIoError,
                  "cannot rename " + temporary + " to " + path);
  }
  return Status::Ok();
}

Status ReadListProvenance(const std::string& path,
                          storage::ListProvenance* provenance) {
  *provenance = storage::ListProvenance();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::kIoError, "cannot read " + path);
  // The first line, read to at most the list reader's line cap (64 KiB): a
  // provenance line is short, and a list whose first line is a gigabyte
  // must not cost a gigabyte here.
  std::string first(64 * 1024, '\0');
  in.read(first.data(), static_cast<std::streamsize>(first.size()));
  first.resize(static_cast<std::size_t>(in.gcount()));
  const std::size_t end = first.find_first_of("\r\n");
  if (end != std::string::npos) {
    first.resize(end);
    if (auto p = ParseProvenanceLine(first)) {
      *provenance = std::move(*p);
      return Status::Ok();
    }
  }
  // Any other list: its own bytes identify it.
  in.clear();
  in.seekg(0);
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> sha(EVP_MD_CTX_new(),
                                                              &EVP_MD_CTX_free);
  if (!sha || EVP_DigestInit_ex(sha.get(), EVP_sha256(), nullptr) != 1) {
    return Status(StatusCode::kInternal, "SHA-256 unavailable");
  }
  std::array<char, 64 * 1024> buffer;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    EVP_DigestUpdate(sha.get(), buffer.data(),
                     static_cast<std::size_t>(in.gcount()));
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  EVP_DigestFinal_ex(sha.get(), digest.data(), &size);
  static constexpr char kHex[] = "0123456789abcdef";
  provenance->source = "file";
  for (unsigned int i = 0; i < size; ++i) {
    provenance->sha256 += kHex[digest[i] >> 4];
    provenance->sha256 += kHex[digest[i] & 15];
  }
  return Status::Ok();
}

}  // namespace robotscan::crawler
