#include "test_http2_responder.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace robotscan::testing {
namespace {

// RFC 9113 §6: frame types and flags used here.
constexpr std::uint8_t kData = 0x0, kHeaders = 0x1, kRstStream = 0x3,
                       kSettings = 0x4, kGoAway = 0x7, kContinuation = 0x9;
constexpr std::uint8_t kEndStream = 0x1, kAck = 0x1, kEndHeaders = 0x4;
constexpr std::uint32_t kInternalError = 0x2;
// The largest frame payload a peer must accept without saying otherwise.
constexpr std::size_t kMaxFrame = 16384;

constexpr std::string_view kPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

std::string Frame(std::uint8_t type, std::uint8_t flags, std::uint32_t stream,
                  std::string_view payload) {
  std::string out;
  const std::size_t n = payload.size();
  out.push_back(static_cast<char>((n >> 16) & 0xff));
  out.push_back(static_cast<char>((n >> 8) & 0xff));
  out.push_back(static_cast<char>(n & 0xff));
  out.push_back(static_cast<char>(type));
  out.push_back(static_cast<char>(flags));
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((stream >> shift) & 0x7f));
  }
  out.append(payload);
  return out;
}

std::string Uint32(std::uint32_t v) {
  std::string out;
  for (int shift = 24; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((v >> shift) & 0xff));
  }
  return out;
}

// RFC 7541 §5.1: an integer with an N-bit prefix, the byte's other bits
// being `first`.
void AppendInteger(std::string* out, std::uint8_t first, int prefix_bits,
                   std::size_t value) {
  const std::size_t max = (std::size_t{1} << prefix_bits) - 1;
  if (value < max) {
    out->push_back(static_cast<char>(first | value));
    return;
  }
  out->push_back(static_cast<char>(first | max));
  value -= max;
  while (value >= 128) {
    out->push_back(static_cast<char>(0x80 | (value & 0x7f)));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// §5.2, without Huffman coding.
void AppendString(std::string* out, std::string_view s) {
  AppendInteger(out, 0x00, 7, s.size());
  out->append(s);
}

// §6.2: a literal field with a new name, added to the dynamic table or not.
void AppendLiteral(std::string* out, std::string_view name,
                   std::string_view value, bool add_to_table = false) {
  out->push_back(static_cast<char>(add_to_table ? 0x40 : 0x00));
  AppendString(out, name);
  AppendString(out, value);
}

void AppendStatus(std::string* out, int status) {
  if (status == 200) {
    out->push_back(static_cast<char>(0x88));  // Static table entry 8.
    return;
  }
  AppendInteger(out, 0x00, 4, 8);  // Literal, name from static entry 8.
  AppendString(out, std::to_string(status));
}

// A header block as HEADERS plus CONTINUATION frames of at most kMaxFrame.
std::string HeaderFrames(std::string_view block, bool end_stream) {
  std::string out;
  std::size_t at = 0;
  bool first = true;
  do {
    const std::size_t n = std::min(kMaxFrame, block.size() - at);
    const bool last = at + n == block.size();
    std::uint8_t flags = last ? kEndHeaders : 0;
    if (first && end_stream) flags |= kEndStream;
    out +=
        Frame(first ? kHeaders : kContinuation, flags, 1, block.substr(at, n));
    at += n;
    first = false;
  } while (at < block.size());
  return out;
}

// The body as DATA frames of at most kMaxFrame; END_STREAM on the last
// one when `end_stream`.
std::string DataFrames(std::string_view body, bool end_stream) {
  std::string out;
  std::size_t at = 0;
  do {
    const std::size_t n = std::min(kMaxFrame, body.size() - at);
    const bool last = at + n == body.size();
    out += Frame(kData, last && end_stream ? kEndStream : 0, 1,
                 body.substr(at, n));
    at += n;
  } while (at < body.size());
  return out;
}

// A robots.txt of `size` bytes whose lines number themselves, so that a
// byte lost or repeated anywhere shows.
std::string NumberedBody(std::size_t size) {
  std::string body = "User-agent: *\n";
  for (int i = 0; body.size() < size; ++i) {
    body += "Disallow: /h2/" + std::to_string(i) + "/\n";
  }
  body.resize(size);
  return body;
}

// Reads frames until the request's header block ends, acknowledging the
// client's SETTINGS. False if the client went away first.
bool ReadRequest(const Http2Connection& c) {
  std::string in;
  while (in.size() < kPreface.size()) {
    if (!c.read_more(&in)) return false;
  }
  if (in.compare(0, kPreface.size(), kPreface) != 0) return false;
  std::size_t at = kPreface.size();
  for (;;) {
    while (in.size() < at + 9) {
      if (!c.read_more(&in)) return false;
    }
    const auto byte = [&](std::size_t i) {
      return static_cast<std::uint8_t>(in[at + i]);
    };
    const std::size_t length =
        (std::size_t{byte(0)} << 16) | (std::size_t{byte(1)} << 8) | byte(2);
    const std::uint8_t type = byte(3), flags = byte(4);
    while (in.size() < at + 9 + length) {
      if (!c.read_more(&in)) return false;
    }
    at += 9 + length;
    if (type == kSettings && !(flags & kAck)) {
      if (!c.write(Frame(kSettings, kAck, 0, ""))) return false;
    }
    if ((type == kHeaders || type == kContinuation) && (flags & kEndHeaders)) {
      return true;
    }
  }
}

std::string Response(std::string_view label) {
  const std::string body = Http2TestBody(label);
  std::string block;
  AppendStatus(&block, 200);
  AppendLiteral(&block, "content-type", "text/plain");
  if (label == "h2ok" || label == "h2huge") {
    return HeaderFrames(block, false) + DataFrames(body, true);
  }
  if (label == "h2dyn") {
    // 3,000 bytes of header value entered once into the dynamic table and
    // then named by one byte each 40 times: 123 KB of header text (libcurl
    // takes up to 128 KiB) from a 3 KB frame. With a 12 KB body and the
    // end of the stream, that is one TLS record, which libcurl reads at
    // once: its buffer must hold all 135 KB.
    AppendLiteral(&block, "x-pad", std::string(3000, 'p'), true);
    for (int i = 0; i < 40; ++i) block.push_back(static_cast<char>(0xbe));
    return HeaderFrames(block, false) + DataFrames(body, true);
  }
  if (label == "h2longline") {
    // One 40,000-byte header line, in HEADERS and CONTINUATION frames:
    // longer than a TLS record and than libcurl's default buffer.
    AppendLiteral(&block, "x-long", std::string(40000, 'l'));
    return HeaderFrames(block, false) + DataFrames(body, true);
  }
  if (label == "h2rst" || label == "h2goaway") {
    AppendLiteral(&block, "content-length", "2000");
    std::string out =
        HeaderFrames(block, false) + DataFrames(NumberedBody(500), false);
    if (label == "h2rst") {
      return out + Frame(kRstStream, 0, 1, Uint32(kInternalError));
    }
    return out + Frame(kGoAway, 0, 0, Uint32(1) + Uint32(kInternalError));
  }
  std::string not_found;
  AppendStatus(&not_found, 404);
  return HeaderFrames(not_found, true);
}

}  // namespace

bool IsHttp2TestLabel(std::string_view label) {
  for (std::string_view known :
       {"h2ok", "h2dyn", "h2longline", "h2huge", "h2rst", "h2goaway"}) {
    if (label == known) return true;
  }
  return false;
}

std::string Http2TestBody(std::string_view label) {
  if (label == "h2ok") return NumberedBody(33);
  if (label == "h2dyn") return NumberedBody(12000);
  if (label == "h2longline") return NumberedBody(30000);
  if (label == "h2huge") return NumberedBody(600 * 1024);
  return "";
}

// What each label does. Every response is written with one write after
// the request, and but for h2goaway the connection then stays open until
// the client closes it, as real HTTP/2 servers keep theirs: nothing but
// the crawler itself can end the transfer.
//   h2ok        200, 33-byte body
//   h2dyn       200, 123 KB of header text (HPACK dynamic table), 12 KB
//               body, all in one TLS record
//   h2longline  200, one 40 KB header line, 30 KB body
//   h2huge      200, 600 KiB body (the crawler keeps 500 KiB)
//   h2rst       200 promising 2,000 bytes, 500 sent, then RST_STREAM
//   h2goaway    200 promising 2,000 bytes, 500 sent, then GOAWAY and close
void ServeHttp2(const Http2Connection& c, const std::string& label) {
  if (!c.write(Frame(kSettings, 0, 0, ""))) return;
  if (!ReadRequest(c)) return;
  if (!c.write(Response(label))) return;
  if (label == "h2goaway") return;  // Closes the connection.
  std::string ignored;
  while (c.read_more(&ignored)) ignored.clear();
}

}  // namespace robotscan::testing
