// What a Wayback Machine snapshot, and the chain of a captured redirect,
// mean for the fetch `robotscan import wayback` records
// (crawler/src/history/wayback_snapshot.h), from tables without a server.
#include "history/wayback_snapshot.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace robotscan::crawler::history {
namespace {

constexpr char kBase[] = "https://web.archive.org";

CdxCapture Capture(std::string status, std::string mimetype) {
  CdxCapture c;
  c.timestamp = "20240220123456";
  c.original = "https://www.a.test/robots.txt";
  c.statuscode = std::move(status);
  c.mimetype = std::move(mimetype);
  return c;
}

ArchiveResponse Replay(
    long status, std::string body,
    std::vector<std::pair<std::string, std::string>> site_headers) {
  ArchiveResponse r;
  r.status = status;
  r.body = std::move(body);
  r.headers.emplace_back("memento-datetime", "Tue, 20 Feb 2024 12:34:56 GMT");
  for (auto& [name, value] : site_headers) {
    r.headers.emplace_back("x-archive-orig-" + name, value);
  }
  return r;
}

// A capture of the bare domain, as redirects to www. are captured.
CdxCapture RedirectCapture() {
  CdxCapture c = Capture("301", "unk");
  c.original = "http://a.test/robots.txt";
  return c;
}

bool InFebruary2024(std::string_view timestamp) {
  return timestamp.substr(0, 6) == "202402";
}

// The chain of `capture` given one answer per request, in order; the
// URLs it asked for in *asked.
SnapshotOutcome Follow(const CdxCapture& capture,
                       const std::vector<ArchiveResponse>& answers,
                       storage::FetchRecord* r, std::string* why,
                       std::vector<std::string>* asked = nullptr) {
  SnapshotChain chain(capture, kBase, InFebruary2024, 512000);
  for (const ArchiveResponse& answer : answers) {
    if (chain.next_url().empty()) break;
    if (asked != nullptr) asked->push_back(chain.next_url());
    chain.Answer(answer);
  }
  EXPECT_TRUE(chain.next_url().empty()) << "the chain asks for more";
  return chain.Finish(r, why);
}

SnapshotOutcome ReadSnapshot(const CdxCapture& capture,
                             const ArchiveResponse& response, const char*,
                             std::size_t, storage::FetchRecord* r,
                             std::string* why) {
  return Follow(capture, {response}, r, why);
}

// The archive's own redirect to the capture nearest the time asked for.
ArchiveResponse ArchiveRedirect(const std::string& to) {
  ArchiveResponse r;
  r.status = 302;
  r.headers.emplace_back("location", to);
  return r;
}

TEST(WaybackSnapshotTest, RecordsTheCaptureAsACrawlWould) {
  storage::FetchRecord r;
  std::string why;
  const std::string body("User-agent: *\r\nDisallow: /\0\xff", 28);
  ASSERT_EQ(ReadSnapshot(Capture("200", "text/plain"),
                         Replay(200, body,
                                {{"content-type", "text/plain"},
                                 {"etag", "\"e1\""},
                                 {"last-modified", "Mon, 19 Feb 2024"}}),
                         kBase, 512000, &r, &why),
            SnapshotOutcome::kFetch)
      << why;
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.access, robots::AccessClass::kSuccess);
  EXPECT_EQ(r.body, body);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.content_type, "text/plain");
  EXPECT_EQ(r.etag, "\"e1\"");
  EXPECT_EQ(r.last_modified, "Mon, 19 Feb 2024");
  EXPECT_EQ(r.url, "https://www.a.test/robots.txt");
  EXPECT_EQ(r.final_url, r.url);
  EXPECT_EQ(r.fetched_at, "2024-02-20T12:34:56.000Z");
  EXPECT_EQ(r.source, storage::FetchSource::kWayback);
  EXPECT_EQ(r.source_timestamp, "20240220123456");
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_EQ(r.steps[0].http_status, 200);
}

TEST(WaybackSnapshotTest, ClassifiesEveryKindOfAnswer) {
  struct Case {
    const char* id;
    CdxCapture capture;
    ArchiveResponse response;
    SnapshotOutcome outcome;
    int status;                  // Of the fetch, for kFetch.
    robots::AccessClass access;  // Of the fetch.
    const char* body;            // Kept, for kFetch.
    const char* content_type;    // Kept, for kFetch.
    storage::ErrorClass error;   // Of the fetch.
  } cases[] = {
      {"the site's 404 carries no body", Capture("404", "text/html"),
       Replay(404, "<html>nope</html>", {{"content-type", "text/html"}}),
       SnapshotOutcome::kFetch, 404, robots::AccessClass::kUnavailable, "",
       "text/html", storage::ErrorClass::kNone},
      {"the site's HTML at 200 is kept as it came", Capture("200", "text/html"),
       Replay(200, "<html>hi</html>", {}), SnapshotOutcome::kFetch, 200,
       robots::AccessClass::kSuccess, "<html>hi</html>", "text/html",
       storage::ErrorClass::kNone},
      {"a revisit is the replayed capture's status",
       Capture("-", "warc/revisit"),
       Replay(200, "Disallow: /r\n", {{"content-type", "text/plain"}}),
       SnapshotOutcome::kFetch, 200, robots::AccessClass::kSuccess,
       "Disallow: /r\n", "text/plain", storage::ErrorClass::kNone},
      {"the site's 503 is the site's", Capture("503", "text/html"),
       Replay(503, "down", {}), SnapshotOutcome::kFetch, 503,
       robots::AccessClass::kUnreachable, "", "text/html",
       storage::ErrorClass::kNone},
      {"the archive's own 404 page", Capture("200", "text/plain"),
       ArchiveResponse{
           404, {{"content-type", "text/html"}}, "<html>", false, 1},
       SnapshotOutcome::kArchiveError, 0, robots::AccessClass::kUnreachable, "",
       "", storage::ErrorClass::kNone},
      {"the archive's own page at 200", Capture("200", "text/plain"),
       ArchiveResponse{200, {}, "<html>Wayback</html>", false, 1},
       SnapshotOutcome::kArchiveError, 0, robots::AccessClass::kUnreachable, "",
       "", storage::ErrorClass::kNone},
      {"the archive still busy after every try", Capture("200", "text/plain"),
       ArchiveResponse{429, {{"retry-after", "60"}}, "", false, 6},
       SnapshotOutcome::kFailed, 0, robots::AccessClass::kUnreachable, "", "",
       storage::ErrorClass::kNone},
      {"the archive's 502", Capture("200", "text/plain"),
       ArchiveResponse{502, {}, "", false, 6}, SnapshotOutcome::kFailed, 0,
       robots::AccessClass::kUnreachable, "", "", storage::ErrorClass::kNone},
  };
  for (const Case& c : cases) {
    storage::FetchRecord r;
    std::string why;
    EXPECT_EQ(ReadSnapshot(c.capture, c.response, kBase, 512000, &r, &why),
              c.outcome)
        << c.id << ": " << why;
    if (c.outcome != SnapshotOutcome::kFetch) {
      EXPECT_FALSE(why.empty()) << c.id;
      continue;
    }
    EXPECT_EQ(r.http_status, c.status) << c.id;
    EXPECT_EQ(r.access, c.access) << c.id;
    EXPECT_EQ(r.body, c.body) << c.id;
    EXPECT_EQ(r.content_type, c.content_type) << c.id;
    EXPECT_EQ(r.error_class, c.error) << c.id;
  }
}

TEST(WaybackSnapshotTest, FollowsACapturedRedirectThroughTheArchive) {
  storage::FetchRecord r;
  std::string why;
  std::vector<std::string> asked;
  ASSERT_EQ(
      Follow(RedirectCapture(),
             {Replay(302, "", {{"location", "https://www.a.test/robots.txt"}}),
              ArchiveRedirect("/web/20240220123500id_/"
                              "https://www.a.test/robots.txt"),
              Replay(200, "Disallow: /w\n", {{"content-type", "text/plain"}})},
             &r, &why, &asked),
      SnapshotOutcome::kFetch)
      << why;
  EXPECT_EQ(asked, (std::vector<std::string>{
                       "https://web.archive.org/web/20240220123456id_/"
                       "http://a.test/robots.txt",
                       "https://web.archive.org/web/20240220123456id_/"
                       "https://www.a.test/robots.txt",
                       "https://web.archive.org/web/20240220123500id_/"
                       "https://www.a.test/robots.txt"}));
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.access, robots::AccessClass::kSuccess);
  EXPECT_EQ(r.error_class, storage::ErrorClass::kNone);
  EXPECT_EQ(r.body, "Disallow: /w\n");
  EXPECT_EQ(r.redirects, 1);
  EXPECT_EQ(r.final_url, "https://www.a.test/robots.txt");
  EXPECT_EQ(r.fetched_at, "2024-02-20T12:34:56.000Z");  // The first capture.
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].http_status, 301);
  EXPECT_EQ(r.steps[0].location, "https://www.a.test/robots.txt");
  EXPECT_EQ(r.steps[1].http_status, 200);
}

TEST(WaybackSnapshotTest, AnUnfollowedRedirectIsRecordedWithWhy) {
  const auto to = [](const char* location) {
    return Replay(301, "", {{"location", location}});
  };
  struct Case {
    const char* id;
    std::vector<ArchiveResponse> answers;
    SnapshotOutcome outcome;
    int redirects;
    storage::ErrorClass error;
    const char* message;  // A part of it.
  } cases[] = {
      {"the target is not archived",
       {to("https://www.a.test/robots.txt"),
        ArchiveResponse{404, {{"content-type", "text/html"}}, "", false, 1}},
       SnapshotOutcome::kFetch,
       1,
       storage::ErrorClass::kOther,
       "is not in the archive (HTTP 404)"},
      {"the target was captured in another month",
       {to("https://www.a.test/robots.txt"),
        ArchiveRedirect("https://web.archive.org/web/20240301000000id_/"
                        "https://www.a.test/robots.txt"),
        Replay(200, "x", {})},
       SnapshotOutcome::kFetch,
       1,
       storage::ErrorClass::kOther,
       "captured only outside the period (nearest: 20240301000000)"},
      {"a loop",
       {to("/robots2.txt"), to("http://a.test/robots.txt")},
       SnapshotOutcome::kFetch,
       2,
       storage::ErrorClass::kRedirectLoop,
       "loop back to http://a.test/robots.txt"},
      {"another scheme",
       {to("ftp://a.test/robots.txt")},
       SnapshotOutcome::kFetch,
       1,
       storage::ErrorClass::kRedirectScheme,
       "neither http nor https"},
      {"six captured redirects",
       {to("/r1"), to("/r2"), to("/r3"), to("/r4"), to("/r5"), to("/r6")},
       SnapshotOutcome::kFetch,
       6,
       storage::ErrorClass::kTooManyRedirects,
       "more than 5"},
      {"no Location",
       {Replay(302, "", {})},
       SnapshotOutcome::kFetch,
       1,
       storage::ErrorClass::kOther,
       "without a Location"},
      {"the archive busy for the target",
       {to("https://www.a.test/robots.txt"),
        ArchiveResponse{503, {}, "", false, 6}},
       SnapshotOutcome::kFailed,
       0,
       storage::ErrorClass::kNone,
       "HTTP 503 for https://www.a.test/robots.txt"},
  };
  for (const Case& c : cases) {
    storage::FetchRecord r;
    std::string why;
    ASSERT_EQ(Follow(RedirectCapture(), c.answers, &r, &why), c.outcome)
        << c.id << ": " << why;
    if (c.outcome == SnapshotOutcome::kFailed) {
      EXPECT_NE(why.find(c.message), std::string::npos) << c.id << ": " << why;
      continue;
    }
    EXPECT_EQ(r.http_status, 301) << c.id;
    EXPECT_EQ(r.redirects, c.redirects) << c.id;
    EXPECT_EQ(r.error_class, c.error) << c.id;
    EXPECT_NE(r.error_message.find(c.message), std::string::npos)
        << c.id << ": " << r.error_message;
    EXPECT_TRUE(r.body.empty()) << c.id;
  }
}

TEST(WaybackSnapshotTest, ARedirectKeepsTheSitesLocation) {
  struct Case {
    const char* id;
    ArchiveResponse response;
    const char* location;
  } cases[] = {
      {"the site's, replayed",
       Replay(301, "", {{"location", "ftp://www.a.test/robots.txt"}}),
       "ftp://www.a.test/robots.txt"},
      {"the archive's rewritten one, undone",
       ArchiveResponse{302,
                       {{"memento-datetime", "x"},
                        {"location",
                         "https://web.archive.org/web/20240220123500id_/"
                         "ftp://www.a.test/robots.txt"}},
                       "",
                       false,
                       1},
       "ftp://www.a.test/robots.txt"},
  };
  for (const Case& c : cases) {
    storage::FetchRecord r;
    std::string why;
    ASSERT_EQ(Follow(Capture("301", "unk"), {c.response}, &r, &why),
              SnapshotOutcome::kFetch)
        << c.id;
    ASSERT_EQ(r.steps.size(), 1u) << c.id;
    EXPECT_EQ(r.steps[0].location, c.location) << c.id;
    EXPECT_EQ(r.redirects, 1) << c.id;
  }
}

TEST(WaybackSnapshotTest, ALongBodyIsCut) {
  storage::FetchRecord r;
  std::string why;
  ArchiveResponse cut = Replay(200, std::string(512000, 'x'), {});
  cut.truncated = true;  // The client stopped reading at the cap.
  ASSERT_EQ(
      ReadSnapshot(Capture("200", "text/plain"), cut, kBase, 512000, &r, &why),
      SnapshotOutcome::kFetch);
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.body.size(), 512000u);
}

}  // namespace
}  // namespace robotscan::crawler::history
