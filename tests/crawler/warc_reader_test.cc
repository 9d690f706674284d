// The WARC reader, the HTTP response reader and the redirect chains of
// `robotscan import` (crawler/src/history/), from tables of bytes made
// here. The end-to-end tests with Wget's WARC files are in tests/history.
#include "history/warc_reader.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "history/capture_chains.h"
#include "history/http_capture.h"

namespace robotscan::crawler::history {
namespace {

std::string Record(const std::string& version, const std::string& fields,
                   const std::string& block) {
  return "WARC/" + version + "\r\n" + fields +
         "Content-Length: " + std::to_string(block.size()) + "\r\n\r\n" +
         block + "\r\n\r\n";
}

std::string Response(const std::string& uri, const std::string& http) {
  return Record("1.0",
                "WARC-Type: response\r\nWARC-Target-URI: " + uri +
                    "\r\nWARC-Date: 2024-02-21T10:00:00Z\r\n"
                    "Content-Type: application/http\r\n",
                http);
}

std::string Gzip(const std::string& data) {
  z_stream zs{};
  deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
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

struct Outcome {
  WarcNext next;
  std::string uri;  // kRecord: the target URI; kMalformed: part of the error.
  std::int64_t offset;
};

std::vector<Outcome> ReadAll(const std::string& bytes,
                             WarcReaderOptions options = {}) {
  StringSource source(bytes);
  WarcReader reader(&source, 0, options);
  std::vector<Outcome> out;
  WarcRecord record;
  std::string error;
  for (int i = 0; i < 100; ++i) {
    const WarcNext next = reader.Next(&record, &error);
    if (next == WarcNext::kEnd) break;
    out.push_back({next, next == WarcNext::kRecord ? record.target_uri : error,
                   record.offset});
  }
  return out;
}

const std::string kOk = "HTTP/1.1 200 OK\r\n\r\nUser-agent: *\n";

TEST(WarcReaderTest, GzipMembersGiveRecordsWithTheirOffsets) {
  const std::string a = Gzip(Response("http://a.test/robots.txt", kOk));
  const std::string b = Gzip(Record("1.1", "WARC-Type: warcinfo\r\n", "x"));
  const std::string c = Gzip(Response("<http://c.test/robots.txt>", kOk));
  const std::vector<Outcome> got = ReadAll(a + b + c);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].uri, "http://a.test/robots.txt");
  EXPECT_EQ(got[0].offset, 0);
  EXPECT_EQ(got[1].offset, static_cast<std::int64_t>(a.size()));
  EXPECT_EQ(got[2].uri, "http://c.test/robots.txt") << "<> dropped";
  EXPECT_EQ(got[2].offset, static_cast<std::int64_t>(a.size() + b.size()));
}

TEST(WarcReaderTest, MalformedRecordsAreReportedAndSkipped) {
  const std::string good = Response("http://g.test/robots.txt", kOk);
  std::string too_long = good;
  too_long.replace(too_long.find("Content-Length: ") + 16, 2, "9999");
  std::string too_short = good;
  too_short.replace(too_short.find("Content-Length: ") + 16, 2, "10");
  const struct {
    const char* id;
    std::string bad;  // A member between two good ones.
    const char* error;
  } cases[] = {
      {"too long", too_long, "runs past"},
      {"too short", too_short, "no CRLF CRLF"},
      {"not WARC", "GET / HTTP/1.1\r\n\r\n", "not a WARC record"},
      {"version 2", Record("2.0", "WARC-Type: response\r\n", "x"),
       "unsupported WARC version"},
      {"no length", "WARC/1.0\r\nWARC-Type: response\r\n\r\n\r\n\r\n",
       "without Content-Length"},
      {"length not a number",
       "WARC/1.0\r\nContent-Length: 1e3\r\n\r\nx\r\n\r\n", "not a number"},
  };
  for (const auto& c : cases) {
    const std::vector<Outcome> got =
        ReadAll(Gzip(good) + Gzip(c.bad) + Gzip(good));
    ASSERT_EQ(got.size(), 3u) << c.id;
    EXPECT_EQ(got[0].next, WarcNext::kRecord) << c.id;
    EXPECT_EQ(got[1].next, WarcNext::kMalformed) << c.id;
    EXPECT_NE(got[1].uri.find(c.error), std::string::npos)
        << c.id << ": " << got[1].uri;
    EXPECT_EQ(got[2].next, WarcNext::kRecord) << c.id << " resynced";
  }
}

TEST(WarcReaderTest, ATruncatedMemberIsOneErrorThenTheEnd) {
  const std::string good = Gzip(Response("http://g.test/robots.txt", kOk));
  const std::string cut = good.substr(0, good.size() / 2);
  const std::vector<Outcome> got = ReadAll(good + cut);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1].next, WarcNext::kMalformed);
  EXPECT_NE(got[1].uri.find("ends early"), std::string::npos) << got[1].uri;
}

TEST(WarcReaderTest, PlainFilesResyncAtTheNextWarcLine) {
  const std::string good = Response("http://g.test/robots.txt", kOk);
  std::string bad = good;
  bad.replace(bad.find("Content-Length: ") + 16, 2, "10");
  const std::vector<Outcome> got = ReadAll(good + bad + good);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[1].next, WarcNext::kMalformed);
  EXPECT_EQ(got[2].next, WarcNext::kRecord);
  EXPECT_EQ(got[2].offset, static_cast<std::int64_t>(good.size() * 2));
}

TEST(WarcReaderTest, BlocksAndHeadersAreBounded) {
  WarcReaderOptions options;
  options.max_header_bytes = 256;
  options.max_block_bytes = 100;
  const std::string big =
      Response("http://b.test/robots.txt", kOk + std::string(5000, 'x'));
  // StringSource reads a view: the gzip bytes must outlive it.
  const std::string gzipped = Gzip(big);
  StringSource source(gzipped);
  WarcReader reader(&source, 0, options);
  WarcRecord record;
  std::string error;
  ASSERT_EQ(reader.Next(&record, &error), WarcNext::kRecord) << error;
  EXPECT_EQ(record.block.size(), 100u);
  EXPECT_TRUE(record.block_truncated);
  const std::string long_header =
      Record("1.0", "X-Long: " + std::string(1000, 'h') + "\r\n", "x");
  EXPECT_EQ(ReadAll(Gzip(long_header), options)[0].next, WarcNext::kMalformed);
}

TEST(HttpCaptureTest, BodiesAreDecodedAndCut) {
  const std::string gz = Gzip("User-agent: *\nDisallow: /\n");
  const struct {
    const char* id;
    std::string block;
    int status;
    std::string body;
    bool truncated;
    storage::ErrorClass error;
  } cases[] = {
      {"plain", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nabc", 200,
       "abc", false, storage::ErrorClass::kNone},
      {"chunked",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n"
       "2;x=y\r\nde\r\n0\r\n\r\n",
       200, "abcde", false, storage::ErrorClass::kNone},
      {"gzip, cut at the cap",
       "HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n" + gz, 200,
       "User-agent: *\nDi", true, storage::ErrorClass::kNone},
      {"cut at the cap", "HTTP/1.1 200 OK\r\n\r\n" + std::string(20, 'x'), 200,
       std::string(16, 'x'), true, storage::ErrorClass::kNone},
      {"broken chunks",
       "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n",
       200, "", false, storage::ErrorClass::kProtocol},
      {"br not decoded", "HTTP/1.1 200 OK\r\nContent-Encoding: br\r\n\r\nxx",
       200, "", false, storage::ErrorClass::kProtocol},
      {"Common Crawl's decoded body",
       "HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\r\nabc", 200,
       "abc", false, storage::ErrorClass::kNone},
      {"404", "HTTP/1.0 404 Not Found\r\n\r\n<html>", 404, "<html>", false,
       storage::ErrorClass::kNone},
  };
  for (const auto& c : cases) {
    CapturedResponse response;
    std::string why;
    ASSERT_TRUE(ReadCapturedResponse(c.block, false, 16, &response, &why))
        << c.id << ": " << why;
    EXPECT_EQ(response.http_status, c.status) << c.id;
    EXPECT_EQ(response.body, c.body) << c.id;
    EXPECT_EQ(response.truncated, c.truncated) << c.id;
    EXPECT_EQ(response.error, c.error) << c.id;
  }
  CapturedResponse cc;
  std::string why;
  ASSERT_TRUE(ReadCapturedResponse(
      "HTTP/1.1 200 OK\r\nX-Crawler-Content-Encoding: gzip\r\n\r\nabc", false,
      16, &cc, &why));
  EXPECT_EQ(cc.headers.content_encoding, "gzip") << "what the server sent";
  for (const char* not_http : {"", "<html>", "HTTP/1.1 abc\r\n\r\n",
                               "HTTP/1.1 200 OK\r\nno end of header"}) {
    EXPECT_FALSE(ReadCapturedResponse(not_http, false, 16, &cc, &why))
        << not_http;
    EXPECT_FALSE(why.empty());
  }
}

Capture Hop(const std::string& url, int status, const std::string& target) {
  Capture c;
  c.url = url;
  c.robots_path =
      url.size() > 11 && url.substr(url.size() - 11) == "/robots.txt";
  c.response.http_status = status;
  c.redirect_url = target;
  c.redirect_is_http = target.rfind("http", 0) == 0;
  return c;
}

TEST(CaptureChainsTest, RedirectsAreLinkedToTheirTargets) {
  CaptureChains chains(/*window=*/2);
  std::vector<CaptureChain> done;
  EXPECT_EQ(chains.Add(Hop("http://a.test/robots.txt", 301,
                           "https://www.a.test/robots.txt"),
                       &done),
            CaptureChains::Added::kStarted);
  EXPECT_EQ(
      chains.Add(Hop("http://b.test/robots.txt", 301, "ftp://b.test/"), &done),
      CaptureChains::Added::kStarted);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0].unresolved, storage::ErrorClass::kRedirectScheme);
  EXPECT_EQ(chains.Add(Hop("https://www.a.test/robots.txt", 200, ""), &done),
            CaptureChains::Added::kLinked);
  ASSERT_EQ(done.size(), 2u);
  EXPECT_EQ(done[1].hops.size(), 2u);
  EXPECT_EQ(done[1].unresolved, storage::ErrorClass::kNone);
  EXPECT_TRUE(chains.empty());
  // A target that never comes ends the chain after the window.
  chains.Add(Hop("http://c.test/robots.txt", 302, "http://c.test/x"), &done);
  EXPECT_EQ(chains.Add(Hop("http://d.test/page", 200, ""), &done),
            CaptureChains::Added::kNotRobotsTxt);
  chains.Tick(&done);
  chains.Tick(&done);
  ASSERT_EQ(done.size(), 3u);
  EXPECT_EQ(done[2].unresolved, storage::ErrorClass::kOther);
  // A loop.
  chains.Add(Hop("http://e.test/robots.txt", 302, "http://e.test/robots.txt"),
             &done);
  ASSERT_EQ(done.size(), 4u);
  EXPECT_EQ(done[3].unresolved, storage::ErrorClass::kRedirectLoop);
}

}  // namespace
}  // namespace robotscan::crawler::history
