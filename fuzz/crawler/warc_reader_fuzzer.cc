// Fuzzes the WARC reader and the HTTP response reader of `robotscan import`
// (crawler/src/history/): any bytes, plain or cut into gzip members at each
// "WARC/", must give records, malformed records or the end, never a crash,
// a hang or unbounded memory: each call makes progress, a kept block stays
// within its cap, and a response body within the body cap.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "history/http_capture.h"
#include "history/warc_reader.h"

namespace {

using robotscan::crawler::history::CapturedResponse;
using robotscan::crawler::history::ReadCapturedResponse;
using robotscan::crawler::history::StringSource;
using robotscan::crawler::history::WarcNext;
using robotscan::crawler::history::WarcReader;
using robotscan::crawler::history::WarcReaderOptions;
using robotscan::crawler::history::WarcRecord;

// `data` as one gzip member.
std::string Gzipped(std::string_view data) {
  z_stream zs{};
  if (deflateInit2(&zs, 1, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK) {
    return "";
  }
  std::string out(deflateBound(&zs, data.size()) + 32, '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  deflate(&zs, Z_FINISH);
  out.resize(out.size() - zs.avail_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0 || size > (1u << 20)) return 0;
  const int mode = data[0] % 3;
  const std::string_view input(reinterpret_cast<const char*>(data) + 1,
                               size - 1);
  std::string bytes;
  if (mode == 0) {
    bytes = std::string(input);  // Plain (or gzip, if the input is).
  } else {
    // One member per "WARC/"; mode 2 then cuts the last member short.
    std::size_t start = 0;
    while (start < input.size()) {
      std::size_t next = input.find("WARC/", start + 1);
      if (next == std::string_view::npos) next = input.size();
      bytes += Gzipped(input.substr(start, next - start));
      start = next;
    }
    if (mode == 2 && !bytes.empty()) bytes.resize(bytes.size() * 3 / 4);
  }
  StringSource source(bytes);
  WarcReaderOptions options;
  options.max_header_bytes = 4096;
  options.max_block_bytes = 65536;
  WarcReader reader(&source, 0, options);
  WarcRecord record;
  std::string error;
  // Every record or malformed record uses up at least a byte of input.
  const std::size_t most = input.size() + 2;
  std::size_t calls = 0;
  for (;;) {
    const WarcNext next = reader.Next(&record, &error);
    if (next == WarcNext::kEnd) break;
    if (++calls > most) __builtin_trap();
    if (next == WarcNext::kMalformed) {
      if (error.empty()) __builtin_trap();
      continue;
    }
    if (record.block.size() > options.max_block_bytes || record.offset < 0 ||
        record.offset > static_cast<std::int64_t>(bytes.size())) {
      __builtin_trap();
    }
    CapturedResponse response;
    std::string why;
    if (ReadCapturedResponse(record.block, record.block_truncated, 1024,
                             &response, &why)) {
      if (response.body.size() > 1024) __builtin_trap();
      if (response.http_status < 0 || response.http_status > 999) {
        __builtin_trap();
      }
    } else if (why.empty()) {
      __builtin_trap();
    }
  }
  return 0;
}
