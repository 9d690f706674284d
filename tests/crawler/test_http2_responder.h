// The HTTP/2 side of the crawler's test server: hand-built frames over an
// already negotiated TLS connection (ALPN "h2"), so that a test decides
// exactly which bytes arrive together and what happens mid-body (a reset
// stream, a GOAWAY, a connection left open after the last byte). Real
// HTTP/2 servers (nginx, Apache, nghttpd, ...) are crawled by the real-server
// matrix; this one reproduces the edge cases they only hit by chance.
//
// Only what a robots.txt GET needs: the server reads frames until the
// client's request headers end (it does not decode them: the label comes
// from the TLS server name), then writes one response on stream 1 with a
// single write. Header blocks use HPACK literals (plus one dynamic-table
// entry where a case asks for it) and no Huffman coding.
#ifndef ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP2_RESPONDER_H_
#define ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP2_RESPONDER_H_

#include <functional>
#include <string>
#include <string_view>

namespace robotscan::testing {

struct Http2Connection {
  // Appends what the client sent next to *out; false at the end or on an
  // error.
  std::function<bool(std::string* out)> read_more;
  // Writes all of `bytes`; false on an error.
  std::function<bool(std::string_view bytes)> write;
};

// True when the host's first label is one this responder answers (the
// server's ALPN callback offers "h2" only for those).
bool IsHttp2TestLabel(std::string_view label);

// Serves one connection for `label` (see the table in the .cc file).
void ServeHttp2(const Http2Connection& connection, const std::string& label);

// The body each label answers with (for assertions), empty for labels
// whose response ends in an error.
std::string Http2TestBody(std::string_view label);

}  // namespace robotscan::testing

#endif  // ROBOTSCAN_TESTS_CRAWLER_TEST_HTTP2_RESPONDER_H_
