// Reading top-sites lists (Tranco, Alexa, Umbrella, Majestic, plain) into
// normalized domain names with their rank.
//
// Accepted inputs, detected from the first data line:
//   * "rank,domain" CSV without header (Tranco, Alexa, Umbrella);
//   * Majestic's CSV with a header line naming GlobalRank and Domain;
//   * one domain per line (the rank is the entry's ordinal in the file).
// Files may be gzip-compressed (detected from the content, not the name),
// start with a UTF-8 BOM, use LF, CRLF or CR line ends, and contain blank
// lines and '#' comments. Names are lower-cased, a trailing dot dropped and
// internationalized names converted to punycode (IDNA 2008 / UTS #46, via
// libidn2). A malformed line is reported and skipped; it never stops a
// reader. Duplicates are not removed here (the crawler skips a domain it
// already has).
//
// Thread-safety: TopListParser and TopListReader are not thread-safe; use
// one per thread. NormalizeDomainName is a pure function.
//
// Usage:
//   Result<std::unique_ptr<TopListReader>> opened =
//       TopListReader::Open("top-1m.csv.gz");
//   if (!opened.ok()) return Fail(opened.status().message());
//   TopListReader* reader = opened->get();
//   TopListEntry entry;
//   MalformedLine bad;
//   for (;;) {
//     switch (reader->Next(&entry, &bad)) {
//       case ReadOutcome::kEntry: Use(entry); break;
//       case ReadOutcome::kMalformed: Report(bad); break;
//       case ReadOutcome::kEnd: return;
//       case ReadOutcome::kError: Fail(reader->error()); return;
//     }
//   }
#ifndef ROBOTSCAN_CRAWLER_TOP_LIST_H_
#define ROBOTSCAN_CRAWLER_TOP_LIST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/status.h"

namespace robotscan::crawler {

struct TopListEntry {
  std::int64_t rank = 0;
  std::string domain;     // Normalized: lower-case ASCII, no trailing dot.
  std::int64_t line = 0;  // 1-based line number in the file.
};

struct MalformedLine {
  std::int64_t line = 0;
  std::string reason;
  std::string text;  // The offending line, cut to 200 bytes.
};

enum class TopListFormat : std::uint8_t {
  kUndetected,   // No data line seen yet.
  kRankCsv,      // rank,domain
  kMajesticCsv,  // header with GlobalRank and Domain columns
  kOnePerLine,   // domain
};

// Normalizes a domain name as found in a list. On failure returns false and
// says why in *reason. Input longer than 1024 bytes is rejected before any
// IDNA work, which bounds the cost.
bool NormalizeDomainName(std::string_view input, std::string* domain,
                         std::string* reason);

// Parses a list one line at a time (no I/O); the building block of
// TopListReader and the fuzz target.
class TopListParser {
 public:
  enum class LineKind : std::uint8_t { kEntry, kSkipped, kMalformed };

  // `line` excludes its terminator. Line numbers are counted internally.
  LineKind ParseLine(std::string_view line, TopListEntry* entry,
                     MalformedLine* malformed);
  TopListFormat format() const { return format_; }
  std::int64_t line_number() const { return line_number_; }

 private:
  LineKind ParseMajesticHeader(std::string_view line, MalformedLine* bad);
  LineKind Malformed(std::string_view line, std::string reason,
                     MalformedLine* bad) const;

  TopListFormat format_ = TopListFormat::kUndetected;
  std::int64_t line_number_ = 0;
  std::int64_t data_lines_ = 0;
  std::size_t majestic_rank_column_ = 0;
  std::size_t majestic_domain_column_ = 0;
};

enum class ReadOutcome : std::uint8_t { kEntry, kMalformed, kEnd, kError };

// Streams a list file (plain or gzip) through a TopListParser in bounded
// memory: one 64 KiB buffer plus the current line (a line longer than
// 64 KiB is reported malformed and skipped).
class TopListReader {
 public:
  // kIoError naming the file if it cannot be opened.
  static Result<std::unique_ptr<TopListReader>> Open(const std::string& path);
  virtual ~TopListReader() = default;

  virtual ReadOutcome Next(TopListEntry* entry, MalformedLine* malformed) = 0;
  virtual const std::string& error() const = 0;
  virtual TopListFormat format() const = 0;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_TOP_LIST_H_
