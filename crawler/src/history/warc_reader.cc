#include "history/warc_reader.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace robotscan::crawler::history {
namespace {

constexpr std::size_t kInputChunk = 256 * 1024;
constexpr std::size_t kOutputChunk = 256 * 1024;
// Bytes already read are dropped from the front of the buffer once they
// are this many and more than half of it (amortized O(1) per byte).
constexpr std::size_t kCompactAt = 1024 * 1024;

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) {
    s.remove_suffix(1);
  }
  return s;
}

bool IsVersion(std::string_view v) {
  // "1.0", "1.1", "0.18": digits, a dot, digits.
  const std::size_t dot = v.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == v.size()) {
    return false;
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i != dot && (v[i] < '0' || v[i] > '9')) return false;
  }
  return true;
}

}  // namespace

std::ptrdiff_t StringSource::Read(char* out, std::size_t size) {
  const std::size_t n = std::min(size, bytes_.size());
  std::memcpy(out, bytes_.data(), n);
  bytes_.remove_prefix(n);
  return static_cast<std::ptrdiff_t>(n);
}

WarcReader::WarcReader(ByteSource* source, std::int64_t start_offset,
                       const WarcReaderOptions& options)
    : source_(source),
      options_(options),
      in_(new char[kInputChunk]),
      out_(new char[kOutputChunk]),
      in_offset_(start_offset),
      consumed_in_(start_offset) {}

WarcReader::~WarcReader() {
  if (zs_ready_) inflateEnd(&zs_);
}

bool WarcReader::FillChunk() {
  if (stream_end_) return false;
  if (mode_ == Mode::kUnknown) {
    const std::ptrdiff_t n = source_->Read(in_.get(), kInputChunk);
    if (n < 0) {
      fatal_ = source_->error();
      stream_end_ = true;
      return false;
    }
    in_size_ = static_cast<std::size_t>(n);
    if (n == 0) input_end_ = true;
    const bool gzip = in_size_ >= 2 &&
                      static_cast<unsigned char>(in_[0]) == 0x1f &&
                      static_cast<unsigned char>(in_[1]) == 0x8b;
    if (gzip) {
      mode_ = Mode::kGzip;
      // 16 + MAX_WBITS: gzip framing only; each member is reset below.
      if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) {
        fatal_ = "cannot set up zlib";
        stream_end_ = true;
        return false;
      }
      zs_ready_ = true;
      zs_.next_in = reinterpret_cast<Bytef*>(in_.get());
      zs_.avail_in = static_cast<uInt>(in_size_);
      at_member_start_ = true;
    } else {
      mode_ = Mode::kPlain;
      buf_.append(in_.get(), in_size_);
      consumed_in_ += static_cast<std::int64_t>(in_size_);
      if (input_end_) stream_end_ = true;
      return in_size_ > 0;
    }
  }
  if (mode_ == Mode::kPlain) {
    const std::ptrdiff_t n = source_->Read(in_.get(), kInputChunk);
    if (n < 0) {
      fatal_ = source_->error();
      stream_end_ = true;
      return false;
    }
    if (n == 0) {
      input_end_ = stream_end_ = true;
      return false;
    }
    buf_.append(in_.get(), static_cast<std::size_t>(n));
    consumed_in_ += n;
    return true;
  }
  for (;;) {
    if (zs_.avail_in == 0) {
      if (input_end_) {
        if (!at_member_start_) {
          fatal_ = "the gzip member at offset " +
                   std::to_string(member_offset_) +
                   " ends early (a truncated file?)";
        }
        stream_end_ = true;
        return false;
      }
      in_offset_ += static_cast<std::int64_t>(in_size_);
      const std::ptrdiff_t n = source_->Read(in_.get(), kInputChunk);
      if (n < 0) {
        fatal_ = source_->error();
        stream_end_ = true;
        return false;
      }
      in_size_ = static_cast<std::size_t>(n);
      if (n == 0) input_end_ = true;
      zs_.next_in = reinterpret_cast<Bytef*>(in_.get());
      zs_.avail_in = static_cast<uInt>(in_size_);
      continue;
    }
    const std::int64_t here =
        in_offset_ + static_cast<std::int64_t>(in_size_ - zs_.avail_in);
    if (at_member_start_) {
      // The next member's bytes begin at the end of what is decompressed.
      members_.push_back(
          {base_ + static_cast<std::int64_t>(buf_.size()), here});
      member_offset_ = here;
      at_member_start_ = false;
    }
    // Into a scratch buffer, then appended: growing buf_ by a chunk first
    // would zero the chunk each time, and a member is often smaller than
    // a kilobyte (10% of an import's time, measured).
    zs_.next_out = reinterpret_cast<Bytef*>(out_.get());
    zs_.avail_out = static_cast<uInt>(kOutputChunk);
    const int rc = inflate(&zs_, Z_NO_FLUSH);
    const std::size_t produced = kOutputChunk - zs_.avail_out;
    buf_.append(out_.get(), produced);
    if (rc == Z_STREAM_END) {
      inflateReset(&zs_);
      at_member_start_ = true;
      if (produced > 0) return true;
      continue;
    }
    if (rc == Z_OK || (rc == Z_BUF_ERROR && zs_.avail_in == 0)) {
      if (produced > 0) return true;
      continue;
    }
    fatal_ = "damaged gzip data in the member at offset " +
             std::to_string(member_offset_) +
             (zs_.msg != nullptr ? std::string(": ") + zs_.msg : "");
    stream_end_ = true;
    return produced > 0;
  }
}

void WarcReader::Fill(std::size_t want) {
  if (pos_ >= kCompactAt && pos_ * 2 > buf_.size()) {
    buf_.erase(0, pos_);
    base_ += static_cast<std::int64_t>(pos_);
    pos_ = 0;
  }
  while (available() < want && FillChunk()) {
  }
}

void WarcReader::Consume(std::size_t n) { pos_ += std::min(n, available()); }

void WarcReader::LocateRecordStart(WarcRecord* record) {
  const std::int64_t p = position();
  if (mode_ != Mode::kGzip) {
    record->offset = consumed_in_ - static_cast<std::int64_t>(available());
    record->index_in_member = 0;
    return;
  }
  while (members_.size() > 1 && members_[1].position <= p) {
    members_.pop_front();
  }
  const std::int64_t offset = members_.empty() ? 0 : members_.front().offset;
  if (offset != record_member_offset_) {
    record_member_offset_ = offset;
    records_in_member_ = 0;
  }
  record->offset = offset;
  record->index_in_member = records_in_member_++;
}

bool WarcReader::MemberStartsWithin(std::int64_t from, std::int64_t to) const {
  if (mode_ != Mode::kGzip) return false;
  for (const MemberStart& m : members_) {
    if (m.position > from && m.position < to) return true;
  }
  return false;
}

void WarcReader::Resync(std::int64_t record_start) {
  for (;;) {
    if (mode_ == Mode::kGzip) {
      for (const MemberStart& m : members_) {
        if (m.position > record_start && m.position >= position()) {
          Consume(static_cast<std::size_t>(m.position - position()));
          return;
        }
      }
      Consume(available());
    } else {
      const std::size_t at = buf_.find("\nWARC/", pos_);
      if (at != std::string::npos) {
        Consume(at + 1 - pos_);
        return;
      }
      // Keep a tail that may be the start of "\nWARC/".
      if (available() > 5) Consume(available() - 5);
    }
    const std::size_t before = available();
    Fill(before + 1);
    if (available() == before) {
      Consume(available());
      return;
    }
  }
}

WarcNext WarcReader::Malformed(std::string reason, WarcRecord* record,
                               std::string* error) {
  *error = std::move(reason) + " (record at offset " +
           std::to_string(record->offset) + ")";
  return WarcNext::kMalformed;
}

WarcNext WarcReader::Next(WarcRecord* record, std::string* error) {
  *record = WarcRecord();
  error->clear();
  // Blank lines between records are tolerated.
  for (;;) {
    Fill(1);
    if (available() == 0) break;
    const char c = buf_[pos_];
    if (c != '\r' && c != '\n') break;
    Consume(1);
  }
  if (available() == 0) {
    if (!fatal_.empty() && !fatal_reported_) {
      fatal_reported_ = true;
      record->offset = member_offset_;
      *error = fatal_;
      return WarcNext::kMalformed;
    }
    return WarcNext::kEnd;
  }
  LocateRecordStart(record);
  const std::int64_t start = position();
  // When the input stopped early, its reason is the record's.
  auto ran_out = [&](std::string reason) {
    if (!fatal_.empty() && !fatal_reported_) {
      fatal_reported_ = true;
      reason = fatal_;
    }
    Resync(start);
    return Malformed(std::move(reason), record, error);
  };

  // The header: up to CRLF CRLF, within max_header_bytes.
  const std::size_t limit = options_.max_header_bytes;
  Fill(limit + 4);
  const std::string_view view(buf_.data() + pos_,
                              std::min(available(), limit + 4));
  const std::size_t end = view.find("\r\n\r\n");
  if (view.substr(0, std::min<std::size_t>(5, view.size())) !=
      std::string_view("WARC/").substr(0,
                                       std::min<std::size_t>(5, view.size()))) {
    Resync(start);
    return Malformed("not a WARC record header", record, error);
  }
  if (end == std::string_view::npos) {
    if (view.size() <= limit) return ran_out("the WARC header never ends");
    Resync(start);
    return Malformed("a WARC header over " + std::to_string(limit) + " bytes",
                     record, error);
  }
  const std::size_t header_size = end + 4;
  if (MemberStartsWithin(start, start + static_cast<std::int64_t>(end))) {
    Resync(start);
    return Malformed("a WARC header that runs past its gzip member", record,
                     error);
  }
  std::string_view header = view.substr(0, end);
  bool have_length = false;
  bool first = true;
  std::string_view last_name;
  while (!header.empty()) {
    const std::size_t eol = header.find("\r\n");
    const std::string_view line = header.substr(0, eol);
    header.remove_prefix(eol == std::string_view::npos ? header.size()
                                                       : eol + 2);
    if (first) {
      first = false;
      const std::string_view version = Trimmed(line.substr(5));
      if (!IsVersion(version) || version[0] > '1' || version.find('.') > 1) {
        Resync(start);
        return Malformed("an unsupported WARC version (" +
                             std::string(line.substr(0, 40)) + ")",
                         record, error);
      }
      record->version = std::string(version);
      continue;
    }
    if (!line.empty() && (line[0] == ' ' || line[0] == '\t')) {
      continue;  // A folded continuation: no field we read is folded.
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    last_name = Trimmed(line.substr(0, colon));
    const std::string_view value = Trimmed(line.substr(colon + 1));
    if (EqualsIgnoringCase(last_name, "WARC-Type")) {
      record->type = std::string(value);
    } else if (EqualsIgnoringCase(last_name, "WARC-Target-URI")) {
      // WARC/1.0 examples wrap the URI in <>; WARC/1.1 does not.
      std::string_view uri = value;
      if (uri.size() >= 2 && uri.front() == '<' && uri.back() == '>') {
        uri = uri.substr(1, uri.size() - 2);
      }
      record->target_uri = std::string(uri);
    } else if (EqualsIgnoringCase(last_name, "WARC-Date")) {
      record->date = std::string(value);
    } else if (EqualsIgnoringCase(last_name, "Content-Type")) {
      record->content_type = std::string(value);
    } else if (EqualsIgnoringCase(last_name, "WARC-IP-Address")) {
      record->ip_address = std::string(value);
    } else if (EqualsIgnoringCase(last_name, "Content-Length")) {
      if (value.empty() || value.size() > 15 ||
          !std::all_of(value.begin(), value.end(),
                       [](char c) { return c >= '0' && c <= '9'; })) {
        Resync(start);
        return Malformed("a Content-Length that is not a number (" +
                             std::string(value.substr(0, 40)) + ")",
                         record, error);
      }
      record->content_length = std::stoll(std::string(value));
      have_length = true;
    }
  }
  if (!have_length) {
    Resync(start);
    return Malformed("a WARC record without Content-Length", record, error);
  }
  Consume(header_size);

  // The block: its first max_block_bytes kept, the rest read and dropped;
  // never past the start of the next gzip member.
  std::int64_t left = record->content_length;
  const std::size_t keep_limit = options_.max_block_bytes;
  while (left > 0) {
    const std::size_t want =
        static_cast<std::size_t>(std::min<std::int64_t>(left, kOutputChunk));
    Fill(want);
    if (available() == 0) {
      return ran_out("a block shorter than its Content-Length " +
                     std::to_string(record->content_length));
    }
    const std::size_t take = std::min(available(), want);
    if (MemberStartsWithin(position(),
                           position() + static_cast<std::int64_t>(take) + 1)) {
      Resync(start);
      return Malformed("a Content-Length " +
                           std::to_string(record->content_length) +
                           " that runs past the record's gzip member",
                       record, error);
    }
    if (record->block.size() < keep_limit) {
      const std::size_t keep =
          std::min(take, keep_limit - record->block.size());
      record->block.append(buf_.data() + pos_, keep);
      if (keep < take) record->block_truncated = true;
    } else {
      record->block_truncated = true;
    }
    Consume(take);
    left -= static_cast<std::int64_t>(take);
  }
  Fill(4);
  if (available() < 4 ||
      std::string_view(buf_.data() + pos_, 4) != "\r\n\r\n") {
    if (available() < 4 && stream_end_ && !fatal_.empty()) {
      return ran_out("");
    }
    Resync(start);
    return Malformed("no CRLF CRLF after the block (a wrong Content-Length " +
                         std::to_string(record->content_length) + "?)",
                     record, error);
  }
  Consume(4);
  return WarcNext::kRecord;
}

}  // namespace robotscan::crawler::history
