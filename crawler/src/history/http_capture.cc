#include "history/http_capture.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>

namespace robotscan::crawler::history {
namespace {

char Lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string LowerCase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), Lower);
  return out;
}

std::string_view Trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// Undoes chunked transfer coding into *out. False for broken chunking;
// a body that stops early (a record cut at the reader's cap) is not an
// error when `cut` says it was cut.
bool Dechunk(std::string_view in, bool cut, std::size_t cap, std::string* out,
             bool* truncated) {
  for (;;) {
    const std::size_t eol = in.find('\n');
    if (eol == std::string_view::npos) return cut || in.empty();
    std::string_view size_line = Trimmed(in.substr(0, eol));
    size_line = size_line.substr(0, size_line.find(';'));
    size_line = Trimmed(size_line);
    if (size_line.empty() || size_line.size() > 15) return false;
    std::uint64_t size = 0;
    for (char c : size_line) {
      const char l = Lower(c);
      int digit = 0;
      if (l >= '0' && l <= '9') {
        digit = l - '0';
      } else if (l >= 'a' && l <= 'f') {
        digit = l - 'a' + 10;
      } else {
        return false;
      }
      size = size * 16 + static_cast<std::uint64_t>(digit);
    }
    in.remove_prefix(eol + 1);
    if (size == 0) return true;  // Trailers are not kept.
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(size, in.size()));
    if (out->size() < cap) {
      out->append(in.data(), std::min(take, cap - out->size()));
    }
    if (out->size() >= cap && take > 0) *truncated = true;
    if (take < size) return cut;
    in.remove_prefix(take);
    if (in.substr(0, 2) == "\r\n") {
      in.remove_prefix(2);
    } else if (in.substr(0, 1) == "\n") {
      in.remove_prefix(1);
    } else if (!in.empty()) {
      return false;
    }
    if (*truncated) return true;
  }
}

// Inflates `in` (gzip or zlib framing with window_bits 32 + 15, raw
// deflate with -15) into *out, at most `cap` bytes. False on damaged data;
// input that stops early is no error when `cut`.
bool Inflate(std::string_view in, int window_bits, bool cut, std::size_t cap,
             std::string* out, bool* truncated) {
  z_stream zs{};
  if (inflateInit2(&zs, window_bits) != Z_OK) return false;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char chunk[64 * 1024];
  bool ok = true;
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof(chunk);
    const int rc = inflate(&zs, Z_NO_FLUSH);
    const std::size_t produced = sizeof(chunk) - zs.avail_out;
    const std::size_t room = cap - std::min(cap, out->size());
    out->append(chunk, std::min(produced, room));
    if (produced > room) {
      *truncated = true;
      break;
    }
    if (rc == Z_STREAM_END) break;
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
      ok = cut;  // The compressed body stops before its end.
      if (cut) *truncated = true;
      break;
    }
    ok = false;
    break;
  }
  inflateEnd(&zs);
  return ok;
}

}  // namespace

bool ReadCapturedResponse(std::string_view block, bool block_truncated,
                          std::size_t max_body, CapturedResponse* response,
                          std::string* why) {
  *response = CapturedResponse();
  // The status line: HTTP/<version> <3 digits>[ <reason>].
  const std::size_t first_eol = block.find('\n');
  const std::string_view status_line =
      Trimmed(block.substr(0, std::min(first_eol, block.size())));
  const std::size_t sp = status_line.find(' ');
  if (status_line.substr(0, 5) != "HTTP/" || sp == std::string_view::npos ||
      status_line.size() < sp + 4) {
    *why = "no HTTP status line";
    return false;
  }
  const std::string_view code = status_line.substr(sp + 1, 3);
  if (!std::all_of(code.begin(), code.end(),
                   [](char c) { return c >= '0' && c <= '9'; }) ||
      (status_line.size() > sp + 4 && status_line[sp + 4] != ' ')) {
    *why = "no HTTP status code";
    return false;
  }
  response->http_status =
      (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
  // The header ends at the first empty line (CRLF CRLF; LF LF tolerated).
  std::size_t header_end = std::string_view::npos;
  std::size_t body_start = 0;
  for (std::size_t at = block.find('\n'); at != std::string_view::npos;
       at = block.find('\n', at + 1)) {
    const std::size_t next = at + 1;
    if (block.substr(next, 2) == "\r\n") {
      header_end = next;
      body_start = next + 2;
      break;
    }
    if (block.substr(next, 1) == "\n") {
      header_end = next;
      body_start = next + 1;
      break;
    }
  }
  if (header_end == std::string_view::npos) {
    if (!block_truncated && first_eol != std::string_view::npos &&
        Trimmed(block.substr(first_eol + 1)).empty()) {
      // A status line and nothing else: a response without headers/body.
      header_end = block.size();
      body_start = block.size();
    } else {
      *why = "the HTTP header never ends";
      return false;
    }
  }
  std::string transfer_encoding, content_encoding, crawler_encoding,
      crawler_transfer, crawler_length;
  ResponseHeaders& h = response->headers;
  std::string_view lines =
      first_eol == std::string_view::npos
          ? std::string_view()
          : block.substr(first_eol + 1, header_end > first_eol
                                            ? header_end - first_eol - 1
                                            : 0);
  while (!lines.empty()) {
    const std::size_t eol = lines.find('\n');
    const std::string_view line = lines.substr(0, eol);
    lines.remove_prefix(eol == std::string_view::npos ? lines.size() : eol + 1);
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string name = LowerCase(Trimmed(line.substr(0, colon)));
    const std::string value(Trimmed(line.substr(colon + 1)));
    if (name == "content-type") {
      h.content_type = value;
    } else if (name == "content-encoding") {
      content_encoding = value;
    } else if (name == "content-length") {
      h.content_length = value;
    } else if (name == "cache-control") {
      h.cache_control = value;
    } else if (name == "expires") {
      h.expires = value;
    } else if (name == "last-modified") {
      h.last_modified = value;
    } else if (name == "etag") {
      h.etag = value;
    } else if (name == "retry-after") {
      h.retry_after = value;
    } else if (name == "location") {
      h.location = value;
    } else if (name == "transfer-encoding") {
      transfer_encoding = LowerCase(value);
    } else if (name == "x-crawler-content-encoding") {
      crawler_encoding = value;
    } else if (name == "x-crawler-transfer-encoding") {
      crawler_transfer = value;
    } else if (name == "x-crawler-content-length") {
      crawler_length = value;
    }
  }
  // What the server sent, also where the archive undid it.
  h.content_encoding =
      !crawler_encoding.empty() ? crawler_encoding : content_encoding;
  if (!crawler_length.empty()) h.content_length = crawler_length;

  std::string_view raw = block.substr(std::min(body_start, block.size()));
  std::string dechunked;
  bool truncated = false;
  auto fail = [&](std::string message) {
    response->error = ErrorClass::kProtocol;
    response->error_message = std::move(message);
    response->body.clear();
    response->truncated = false;
    return true;
  };
  if (transfer_encoding.find("chunked") != std::string::npos) {
    // Dechunk the whole raw body (bounded by the record's kept block), so
    // that a content encoding is undone from its start.
    bool cut_dechunked = false;
    if (!Dechunk(raw, block_truncated, block.size(), &dechunked,
                 &cut_dechunked)) {
      return fail("broken chunked transfer encoding");
    }
    raw = dechunked;
  }
  const std::string encoding = LowerCase(Trimmed(content_encoding));
  if (encoding.empty() || encoding == "identity") {
    response->body.assign(raw.substr(0, std::min(raw.size(), max_body)));
    truncated = raw.size() > max_body || block_truncated;
  } else if (encoding == "gzip" || encoding == "x-gzip") {
    if (!Inflate(raw, 32 + MAX_WBITS, block_truncated, max_body,
                 &response->body, &truncated)) {
      return fail("broken gzip content encoding");
    }
  } else if (encoding == "deflate") {
    // "deflate" is zlib-wrapped by the RFC, raw in some servers.
    std::string body;
    bool cut = false;
    if (Inflate(raw, MAX_WBITS, block_truncated, max_body, &body, &cut)) {
      response->body = std::move(body);
      truncated = cut;
    } else if (Inflate(raw, -MAX_WBITS, block_truncated, max_body,
                       &response->body, &truncated)) {
    } else {
      return fail("broken deflate content encoding");
    }
  } else {
    return fail("content encoding " + encoding.substr(0, 40) +
                " is not decoded by imports");
  }
  response->truncated = truncated;
  return true;
}

}  // namespace robotscan::crawler::history
