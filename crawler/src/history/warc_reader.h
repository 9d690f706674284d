// A streaming reader of WARC files (ISO 28500; WARC/1.0 and WARC/1.1), as
// Common Crawl publishes its robots.txt captures: one gzip member per
// record (the "record-at-time compression" of the WARC spec, annex D), or
// a plain .warc. Each record comes with the byte offset in the file of the
// gzip member it starts in, the offset Common Crawl's indexes give, so that
// an import can name the record and resume at a member.
//
// Why not libarchive (Debian's, already a dependency): its WARC reader
// keeps only the path of WARC-Target-URI (the scheme and host are dropped,
// and the host is what an import files a capture under), refuses WARC/1.1
// records as an unsupported version, skips every record type but resource
// and response without saying so, and gives no member offsets
// (docs/history.md).
//
// Bad input never stops the reader for longer than a record: a record
// whose header is not WARC, whose Content-Length is not a number or runs
// past its gzip member, or that is not followed by its CRLF CRLF comes
// back as kMalformed with the reason, and the reader goes on at the next
// gzip member (in a plain file, at the next line that starts "WARC/"). A
// gzip stream that is damaged or ends early (a truncated download) is one
// kMalformed, then kEnd. Memory is bounded whatever the input: a header
// over max_header_bytes is malformed, and a block keeps its first
// max_block_bytes (the rest is read and dropped, block_truncated set).
//
// Thread-safety: one reader per thread.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_WARC_READER_H_
#define ROBOTSCAN_CRAWLER_HISTORY_WARC_READER_H_

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

namespace robotscan::crawler::history {

// Where the reader's bytes come from.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Up to `size` bytes into `out`; 0 at the end, -1 on an error (error()).
  virtual std::ptrdiff_t Read(char* out, std::size_t size) = 0;
  virtual std::string error() const { return "read error"; }
};

// The bytes of a string (tests, the fuzz target).
class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string_view bytes) : bytes_(bytes) {}
  // The source keeps a view: a temporary string would dangle.
  explicit StringSource(std::string&&) = delete;
  std::ptrdiff_t Read(char* out, std::size_t size) override;

 private:
  std::string_view bytes_;
};

struct WarcRecord {
  // Byte offset in the file of the gzip member the record starts in (of
  // the record itself in a plain file), and how many records started in
  // that member before it (0 with one record per member).
  std::int64_t offset = 0;
  std::int64_t index_in_member = 0;
  std::string version;  // "1.0", "1.1" (what follows "WARC/").
  // Header fields used by an import, as written (empty when absent).
  std::string type;  // WARC-Type: response, request, revisit, warcinfo, ...
  std::string target_uri;
  std::string date;          // WARC-Date.
  std::string content_type;  // Of the block: application/http; msgtype=...
  std::string ip_address;    // WARC-IP-Address.
  std::int64_t content_length = 0;
  std::string block;  // The content block, its first max_block_bytes.
  bool block_truncated = false;
};

struct WarcReaderOptions {
  std::size_t max_header_bytes = 64 * 1024;
  std::size_t max_block_bytes = 4 * 1024 * 1024;
};

enum class WarcNext : std::uint8_t { kRecord, kMalformed, kEnd };

class WarcReader {
 public:
  // Reads `source`, whose first byte is byte `start_offset` of the file (a
  // gzip member's first byte, or a record's in a plain file, when resuming).
  WarcReader(ByteSource* source, std::int64_t start_offset,
             const WarcReaderOptions& options = {});
  ~WarcReader();
  WarcReader(const WarcReader&) = delete;
  WarcReader& operator=(const WarcReader&) = delete;

  // The next record (kRecord), a malformed one (kMalformed, *error says
  // why and where; *record has its offset), or the end.
  WarcNext Next(WarcRecord* record, std::string* error);

  // Whether the input is gzip (known after the first Next).
  bool gzipped() const { return mode_ == Mode::kGzip; }

 private:
  enum class Mode : std::uint8_t { kUnknown, kGzip, kPlain };

  // Makes at least `want` bytes available after pos_ (fewer at the end of
  // the input or after a fatal error).
  void Fill(std::size_t want);
  bool FillChunk();
  void Consume(std::size_t n);
  std::size_t available() const { return buf_.size() - pos_; }
  std::int64_t position() const {
    return base_ + static_cast<std::int64_t>(pos_);
  }
  // The member offset and index of a record starting at position().
  void LocateRecordStart(WarcRecord* record);
  // Whether a gzip member starts after position `from` and at or before
  // position `to` (decompressed positions).
  bool MemberStartsWithin(std::int64_t from, std::int64_t to) const;
  // After a malformed record that started at `record_start`: on to the
  // next member start, or the next line that starts "WARC/".
  void Resync(std::int64_t record_start);
  WarcNext Malformed(std::string reason, WarcRecord* record,
                     std::string* error);

  ByteSource* source_;
  WarcReaderOptions options_;
  Mode mode_ = Mode::kUnknown;
  z_stream zs_{};
  bool zs_ready_ = false;
  bool input_end_ = false;
  bool stream_end_ = false;         // No more decompressed bytes will come.
  bool at_member_start_ = false;    // The next input byte starts a member.
  std::int64_t member_offset_ = 0;  // File offset of the current member.
  std::string fatal_;               // A damaged or truncated gzip stream.
  bool fatal_reported_ = false;
  std::unique_ptr<char[]> in_;
  std::unique_ptr<char[]> out_;  // inflate's output, before buf_.
  std::size_t in_size_ = 0;
  std::int64_t in_offset_ = 0;    // File offset of in_[0].
  std::int64_t consumed_in_ = 0;  // Plain input: file offset after buf_.
  std::string buf_;               // Decompressed bytes; pos_ is next.
  std::size_t pos_ = 0;
  std::int64_t base_ = 0;  // Decompressed position of buf_[0].
  // Decompressed positions where gzip members start, with their file
  // offsets; the front is the member the last record started in.
  struct MemberStart {
    std::int64_t position;
    std::int64_t offset;
  };
  std::deque<MemberStart> members_;
  std::int64_t record_member_offset_ = -1;
  std::int64_t records_in_member_ = 0;
};

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_WARC_READER_H_
