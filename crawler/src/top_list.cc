#include "robotscan/crawler/top_list.h"

#include <zlib.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string>
#include <vector>

#include "idna.h"
#include "robotscan/base/ascii.h"

namespace robotscan::crawler {
namespace {

constexpr std::size_t kMaxInputName = 1024;
constexpr std::size_t kMaxName = 253;
constexpr std::size_t kMaxLabel = 63;
constexpr std::size_t kMaxLine = 64 * 1024;
constexpr std::size_t kMaxQuoted = 200;
constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

std::string_view Trim(std::string_view s) {
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
           c == '\f';
  };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') {
    s = s.substr(1, s.size() - 2);
  }
  return s;
}

std::vector<std::string_view> SplitCsv(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(Trim(line.substr(start)));
      return fields;
    }
    fields.push_back(Trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

bool ParseRank(std::string_view text, std::int64_t* rank) {
  if (text.empty()) return false;
  const auto [end, ec] =
      std::from_chars(text.data(), text.data() + text.size(), *rank);
  return ec == std::errc() && end == text.data() + text.size() && *rank > 0;
}

bool IsLdhOrUnderscore(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

bool LooksLikeIpv4(std::string_view name) {
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || c == '.'; });
}

bool StartsWithBom(std::string_view s) { return s.substr(0, 3) == kUtf8Bom; }

}  // namespace

bool NormalizeDomainName(std::string_view input, std::string* domain,
                         std::string* reason) {
  std::string_view name = Trim(input);
  if (name.empty()) {
    *reason = "empty domain";
    return false;
  }
  if (name.size() > kMaxInputName) {
    *reason = "domain longer than 1024 bytes";
    return false;
  }
  // A fully qualified name may end in one dot; "a.b.." is not a name.
  if (name.back() == '.') name.remove_suffix(1);
  std::string ascii;
  std::string idna_error;
  if (!HostToAscii(name, &ascii, &idna_error)) {
    *reason = "invalid internationalized name: " + idna_error;
    return false;
  }
  ascii = ToAsciiLower(ascii);
  if (ascii.empty() || ascii.size() > kMaxName) {
    *reason = "domain length not in 1..253";
    return false;
  }
  if (ascii.find('.') == std::string::npos) {
    *reason = "not a domain name (no dot)";
    return false;
  }
  if (LooksLikeIpv4(ascii)) {
    *reason = "an IP address, not a domain name";
    return false;
  }
  std::size_t label_start = 0;
  for (std::size_t i = 0; i <= ascii.size(); ++i) {
    if (i == ascii.size() || ascii[i] == '.') {
      const std::size_t length = i - label_start;
      if (length == 0 || length > kMaxLabel) {
        *reason = "empty or over-long label";
        return false;
      }
      // RFC 952/1123 host names: a label neither starts nor ends with a
      // hyphen (no such name is registrable; "-x.com" would also read as
      // an option to any tool it is passed to).
      if (ascii[label_start] == '-' || ascii[i - 1] == '-') {
        *reason = "a label starts or ends with a hyphen";
        return false;
      }
      label_start = i + 1;
      continue;
    }
    if (!IsLdhOrUnderscore(ascii[i])) {
      *reason = "character not allowed in a domain name";
      return false;
    }
  }
  *domain = std::move(ascii);
  return true;
}

TopListParser::LineKind TopListParser::Malformed(std::string_view line,
                                                 std::string reason,
                                                 MalformedLine* bad) const {
  bad->line = line_number_;
  bad->reason = std::move(reason);
  bad->text.assign(line.substr(0, kMaxQuoted));
  return LineKind::kMalformed;
}

TopListParser::LineKind TopListParser::ParseMajesticHeader(
    std::string_view line, MalformedLine* bad) {
  const std::vector<std::string_view> fields = SplitCsv(line);
  bool have_rank = false;
  bool have_domain = false;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (AsciiEqualsIgnoreCase(fields[i], "GlobalRank")) {
      majestic_rank_column_ = i;
      have_rank = true;
    } else if (AsciiEqualsIgnoreCase(fields[i], "Domain")) {
      majestic_domain_column_ = i;
      have_domain = true;
    }
  }
  if (!have_rank || !have_domain) {
    return Malformed(line, "header without GlobalRank and Domain columns", bad);
  }
  format_ = TopListFormat::kMajesticCsv;
  return LineKind::kSkipped;
}

TopListParser::LineKind TopListParser::ParseLine(std::string_view line,
                                                 TopListEntry* entry,
                                                 MalformedLine* malformed) {
  ++line_number_;
  if (line_number_ == 1 && StartsWithBom(line)) line.remove_prefix(3);
  const std::string_view text = Trim(line);
  if (text.empty() || text.front() == '#') return LineKind::kSkipped;

  if (format_ == TopListFormat::kUndetected) {
    const std::vector<std::string_view> fields = SplitCsv(text);
    const bool is_header =
        std::any_of(fields.begin(), fields.end(), [](std::string_view f) {
          return AsciiEqualsIgnoreCase(f, "GlobalRank");
        });
    if (is_header) return ParseMajesticHeader(text, malformed);
    std::int64_t rank = 0;
    format_ = fields.size() >= 2 && ParseRank(fields[0], &rank)
                  ? TopListFormat::kRankCsv
                  : TopListFormat::kOnePerLine;
  }

  std::int64_t rank = 0;
  std::string_view name;
  std::string reason;
  switch (format_) {
    case TopListFormat::kRankCsv: {
      const std::vector<std::string_view> fields = SplitCsv(text);
      if (fields.size() != 2) {
        return Malformed(line, "expected rank,domain", malformed);
      }
      if (!ParseRank(fields[0], &rank)) {
        return Malformed(line, "rank is not a positive integer", malformed);
      }
      name = fields[1];
      break;
    }
    case TopListFormat::kMajesticCsv: {
      const std::vector<std::string_view> fields = SplitCsv(text);
      const std::size_t needed =
          std::max(majestic_rank_column_, majestic_domain_column_) + 1;
      if (fields.size() < needed) {
        return Malformed(line, "too few columns", malformed);
      }
      if (!ParseRank(fields[majestic_rank_column_], &rank)) {
        return Malformed(line, "GlobalRank is not a positive integer",
                         malformed);
      }
      name = fields[majestic_domain_column_];
      break;
    }
    case TopListFormat::kOnePerLine:
    case TopListFormat::kUndetected:
      if (text.find_first_of(", \t") != std::string_view::npos) {
        return Malformed(line, "expected one domain per line", malformed);
      }
      rank = data_lines_ + 1;
      name = text;
      break;
  }
  if (name.find('/') != std::string_view::npos ||
      name.find(':') != std::string_view::npos) {
    return Malformed(line, "a URL or host:port, not a domain name", malformed);
  }
  std::string domain;
  if (!NormalizeDomainName(name, &domain, &reason)) {
    return Malformed(line, std::move(reason), malformed);
  }
  ++data_lines_;
  entry->rank = rank;
  entry->domain = std::move(domain);
  entry->line = line_number_;
  return LineKind::kEntry;
}

namespace {

class GzipTopListReader final : public TopListReader {
 public:
  explicit GzipTopListReader(gzFile file) : file_(file) {}
  ~GzipTopListReader() override { gzclose(file_); }
  GzipTopListReader(const GzipTopListReader&) = delete;
  GzipTopListReader& operator=(const GzipTopListReader&) = delete;

  ReadOutcome Next(TopListEntry* entry, MalformedLine* malformed) override {
    std::string line;
    bool too_long = false;
    for (;;) {
      bool have_line = false;
      if (!ReadLine(&line, &too_long, &have_line)) return ReadOutcome::kError;
      if (!have_line) return ReadOutcome::kEnd;
      if (too_long) {
        // Count the line so numbers stay right, then report it.
        TopListEntry ignored;
        MalformedLine unused;
        parser_.ParseLine("", &ignored, &unused);
        malformed->line = parser_.line_number();
        malformed->reason = "line longer than 64 KiB";
        malformed->text = line.substr(0, kMaxQuoted);
        return ReadOutcome::kMalformed;
      }
      switch (parser_.ParseLine(line, entry, malformed)) {
        case TopListParser::LineKind::kEntry:
          return ReadOutcome::kEntry;
        case TopListParser::LineKind::kMalformed:
          return ReadOutcome::kMalformed;
        case TopListParser::LineKind::kSkipped:
          break;
      }
    }
  }
  const std::string& error() const override { return error_; }
  TopListFormat format() const override { return parser_.format(); }

 private:
  bool Fill() {
    buffer_.resize(64 * 1024);
    const int n =
        gzread(file_, buffer_.data(), static_cast<unsigned>(buffer_.size()));
    if (n < 0) {
      int code = 0;
      error_ = std::string("read failed: ") + gzerror(file_, &code);
      return false;
    }
    buffer_.resize(static_cast<std::size_t>(n));
    position_ = 0;
    eof_ = n == 0;
    return true;
  }

  // Reads up to the next LF, CRLF or lone CR. Lines over kMaxLine are
  // consumed but not kept (*too_long).
  bool ReadLine(std::string* line, bool* too_long, bool* have_line) {
    line->clear();
    *too_long = false;
    *have_line = false;
    for (;;) {
      if (position_ == buffer_.size()) {
        if (eof_) return true;
        if (!Fill()) return false;
        if (eof_) return true;
        if (skip_lf_ && buffer_[0] == '\n') ++position_;
        skip_lf_ = false;
        continue;
      }
      skip_lf_ = false;
      const char* begin = buffer_.data() + position_;
      const char* end = buffer_.data() + buffer_.size();
      const char* stop = std::find_if(
          begin, end, [](char c) { return c == '\n' || c == '\r'; });
      *have_line = true;
      if (line->size() + static_cast<std::size_t>(stop - begin) > kMaxLine) {
        *too_long = true;
        const std::size_t room =
            kMaxLine > line->size() ? kMaxLine - line->size() : 0;
        line->append(begin,
                     std::min(room, static_cast<std::size_t>(stop - begin)));
      } else {
        line->append(begin, stop);
      }
      position_ = static_cast<std::size_t>(stop - buffer_.data());
      if (stop == end) continue;
      ++position_;
      if (*stop == '\r') {
        if (position_ < buffer_.size()) {
          if (buffer_[position_] == '\n') ++position_;
        } else {
          skip_lf_ = true;  // CRLF split across two buffers.
        }
      }
      return true;
    }
  }

  gzFile file_;
  TopListParser parser_;
  std::string buffer_;
  std::size_t position_ = 0;
  bool eof_ = false;
  bool skip_lf_ = false;
  std::string error_;
};

}  // namespace

Result<std::unique_ptr<TopListReader>> TopListReader::Open(
    const std::string& path) {
  // gzopen reads plain files transparently, so one path serves .csv and
  // .csv.gz (and a gzip file without the suffix).
  gzFile file = gzopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status(StatusCode::kIoError, "cannot open " + path);
  }
  gzbuffer(file, 128 * 1024);
  return std::unique_ptr<TopListReader>(
      std::make_unique<GzipTopListReader>(file));
}

}  // namespace robotscan::crawler
