#include "robotscan/robots/url.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "normalize.h"
#include "test_data.h"

namespace robotscan::robots {
namespace {

using testing::DecodedField;
using testing::ReadJsonLines;

// google-robotstxt-other.jsonl: GetPathParamsQuery, MaybeEscapePattern and
// IsValidUserAgentToObey expectations of Google's robots_test.cc.
TEST(GoogleOtherCases, PathExtractionEscapingAndAgentValidity) {
  int checked = 0;
  for (const auto& record : ReadJsonLines("google-robotstxt-other.jsonl")) {
    const std::string id = record.at("id").get<std::string>();
    const std::string kind = record.at("kind").get<std::string>();
    if (kind == "GetPathParamsQuery") {
      EXPECT_EQ(GetPathParamsQuery(DecodedField(record, "input")),
                record.at("expected").get<std::string>())
          << id;
    } else if (kind == "MaybeEscapePattern") {
      EXPECT_EQ(EscapePatternGoogle(DecodedField(record, "input")),
                record.at("expected").get<std::string>())
          << id;
    } else if (kind == "IsValidUserAgentToObey") {
      // null means a null string_view, i.e. empty.
      const std::string agent =
          record.at("input").is_null() ? "" : DecodedField(record, "input");
      EXPECT_EQ(IsValidUserAgentToObey(agent),
                record.at("expected").get<bool>())
          << id;
    } else {
      continue;  // Parser counts: tokenizer_test.cc.
    }
    ++checked;
  }
  EXPECT_EQ(checked, 19 + 4 + 11);
}

// ExtractPathParamsQuery, written the obvious way (find_first_of and
// find, as Google's GetPathParamsQuery does), as the reference for the
// single-pass version.
std::string ReferencePathParamsQuery(std::string_view url) {
  constexpr auto npos = std::string_view::npos;
  const std::size_t start =
      (url.size() >= 2 && url[0] == '/' && url[1] == '/') ? 2 : 0;
  const std::size_t early_path = url.find_first_of("/?;", start);
  std::size_t protocol_end = url.find("://", start);
  if (early_path < protocol_end) protocol_end = npos;
  protocol_end = protocol_end == npos ? start : protocol_end + 3;
  const std::size_t path_start = url.find_first_of("/?;", protocol_end);
  if (path_start == npos) return "/";
  const std::size_t hash_pos = url.find('#', start);
  if (hash_pos < path_start) return "/";
  const std::size_t path_end = hash_pos == npos ? url.size() : hash_pos;
  std::string path(url.substr(path_start, path_end - path_start));
  if (path.front() != '/') path = "/" + path;
  return path;
}

TEST(ExtractPathParamsQuery, EqualsTheFindFirstOfReference) {
  std::mt19937 rng(5);
  // Short URLs dense in delimiters, and long runs without one, so that the
  // 16-byte scan meets its delimiters at every offset of a block and in the
  // tail.
  const std::string dense = ":/?;#ab";
  const std::string sparse = ":/?;#abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
  // Some start like a web URL (the fast path's "http://" and "https://")
  // or nearly so.
  const std::string prefixes[] = {"",         "http://",  "https://",
                                  "http:/",   "https:",   "httpx://",
                                  "http://#", "https://h"};
  int non_root = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string& alphabet = i % 2 == 0 ? dense : sparse;
    std::string url = i % 3 == 0 ? "" : prefixes[rng() % std::size(prefixes)];
    const std::size_t n = rng() % (i % 2 == 0 ? 12 : 60);
    for (std::size_t k = 0; k < n; ++k)
      url += alphabet[rng() % alphabet.size()];
    std::string scratch;
    const std::string expected = ReferencePathParamsQuery(url);
    ASSERT_EQ(std::string(ExtractPathParamsQuery(url, scratch)), expected)
        << "url=" << url;
    non_root += expected != "/";
  }
  EXPECT_GT(non_root, 50000);
}

// The batch check's extractor, which skips the scheme and host a URL
// shares with the one before it, against the reference and UrlSyntaxError
// on runs of URLs: hosts whose prefixes (scheme, host, perhaps a port) end
// on both sides of the 16- and 32-byte limits, near misses of each (one
// byte changed, http for https), and rests of 0 to 50 bytes that start
// with every delimiter and hold '#', controls, spaces and DEL anywhere.
TEST(RunPathExtractor, AnswersAsTheReferenceOnRunsOfUrls) {
  std::mt19937 rng(20261202);
  const std::string hosts[] = {
      "https://e.com",            // 13 bytes: under 16, never shared
      "https://www.e.com",        // 17
      "http://www.e.com",         // 16
      "https://www.example.com",  // 23
      "https://www.exbmple.com",  // one byte changed
      "http://www.example.com",   // the same host, http
      "https://www.example.com:8443",
      "https://a-long-host-name.example",   // 32
      "https://a-long-host-name.example.",  // 33: past the limit
      "https://www.example.com\x01x"};      // a control byte in the host
  const std::string rest_bytes = "/?;#ab \x01\x7f%";
  const char starts[] = {'/', '/', '/', '/', '?', ';', '#', 'a', '\0'};
  std::vector<std::string> urls;
  for (int i = 0; i < 200000; ++i) {
    // Runs of one host, broken now and then by another.
    const std::string& host = hosts[(i / 5 + (rng() % 7 == 0)) % 10];
    std::string url = host;
    const char start = starts[rng() % std::size(starts)];
    if (start != '\0') url += start;
    const std::size_t n = rng() % (rng() % 4 == 0 ? 51 : 20);
    for (std::size_t k = 0; k < n; ++k) {
      // Mostly letters, so that most URLs are clean.
      url += rng() % 4 == 0 ? rest_bytes[rng() % rest_bytes.size()] : 'b';
    }
    urls.push_back(std::move(url));
  }
  internal::RunPathExtractor<true> checked;
  internal::RunPathExtractor<false> unchecked;
  std::string scratch_checked, scratch_unchecked;
  int refused = 0, non_root = 0;
  for (const std::string& url : urls) {
    const std::string expected = ReferencePathParamsQuery(url);
    bool well_formed = false;
    ASSERT_EQ(std::string(checked.Extract(url, scratch_checked, &well_formed)),
              expected)
        << "url=" << url;
    ASSERT_EQ(well_formed, !UrlSyntaxError(url).has_value()) << "url=" << url;
    ASSERT_EQ(
        std::string(unchecked.Extract(url, scratch_unchecked, &well_formed)),
        expected)
        << "url=" << url;
    refused += UrlSyntaxError(url).has_value();
    non_root += expected != "/";
  }
  // Both answers of the syntax test, and paths, are common.
  EXPECT_GT(refused, 20000);
  EXPECT_GT(static_cast<int>(urls.size()) - refused, 50000);
  EXPECT_GT(non_root, 100000);
}

// UrlSyntaxError's word-at-a-time scan must flag every control byte, space
// and DEL at every offset (inside a word and in the tail) and nothing else.
TEST(UrlSyntaxError, FindsEveryForbiddenByteAtEveryOffset) {
  // Up to 40 bytes: the 8- and 16-byte scans, their tails and overlaps.
  for (std::size_t size = 1; size <= 40; ++size) {
    for (std::size_t at = 0; at < size; ++at) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string url(size, 'a');
        url[at] = static_cast<char>(byte);
        const bool forbidden = byte <= 0x20 || byte == 0x7F;
        const std::optional<std::string> error = UrlSyntaxError(url);
        ASSERT_EQ(error.has_value(), forbidden)
            << "byte " << byte << " at " << at << " of " << size;
        if (forbidden) {
          EXPECT_NE(error->find("offset " + std::to_string(at)),
                    std::string::npos)
              << *error;
        }
      }
    }
  }
  EXPECT_FALSE(
      UrlSyntaxError("https://example.com/caf\xc3\xa9?q=~").has_value());
}

struct NormalizeCase {
  const char* input;
  PathRole role;
  const char* expected;
};

TEST(NormalizeForMatching, Rfc9309Section223Table) {
  const NormalizeCase cases[] = {
      // Unreserved characters are decoded, case of hex does not matter.
      {"/foo/bar/%62%61%7A", PathRole::kUrlPath, "/foo/bar/baz"},
      {"/%7euser", PathRole::kUrlPath, "/~user"},
      {"/%7Euser", PathRole::kRulePattern, "/~user"},
      // Reserved characters keep their encoding, hex upper-cased.
      {"/a%2fb", PathRole::kUrlPath, "/a%2Fb"},
      {"/a%3Fb", PathRole::kRulePattern, "/a%3Fb"},
      // Non-ASCII is encoded (RFC 9309 §2.2.2 example: /foo/bar/ツ).
      {"/foo/bar/\xE3\x83\x84", PathRole::kUrlPath, "/foo/bar/%E3%83%84"},
      {"/foo/bar/\xE3\x83\x84", PathRole::kRulePattern, "/foo/bar/%E3%83%84"},
      // A literal '*' or '$' in a URL is compared in encoded form, so a
      // rule's %2A / %24 matches it (RFC 9309 §2.2.3 table).
      {"/path/file-with-a-*.html", PathRole::kUrlPath,
       "/path/file-with-a-%2A.html"},
      {"/path/foo-$", PathRole::kUrlPath, "/path/foo-%24"},
      {"/path/file-with-a-%2A.html", PathRole::kRulePattern,
       "/path/file-with-a-%2A.html"},
      // In a rule '*' stays a wildcard and only a final '$' is an anchor.
      {"/a*b$", PathRole::kRulePattern, "/a*b$"},
      {"/a$b", PathRole::kRulePattern, "/a%24b"},
      // Space and other bytes that cannot appear in a URI are encoded; a
      // stray '%' is compared as %25.
      {"/a b", PathRole::kUrlPath, "/a%20b"},
      {"/100%", PathRole::kUrlPath, "/100%25"},
      {"/100%25", PathRole::kUrlPath, "/100%25"},
      {"/plain/path?q=1&r=2", PathRole::kUrlPath, "/plain/path?q=1&r=2"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(NormalizedForMatching(c.input, c.role), c.expected) << c.input;
    // The normal form is a fixed point.
    EXPECT_EQ(NormalizedForMatching(c.expected, c.role), c.expected)
        << c.expected;
  }
}

TEST(NormalizeForMatching, ReportsWhetherAnythingChanged) {
  std::string out = "untouched";
  EXPECT_FALSE(NormalizeForMatching("/plain", PathRole::kUrlPath, &out));
  EXPECT_EQ(out, "untouched");
  EXPECT_FALSE(NormalizeForMatching("/a%2F", PathRole::kUrlPath, &out));
  EXPECT_TRUE(NormalizeForMatching("/a%2f", PathRole::kUrlPath, &out));
  EXPECT_EQ(out, "/a%2F");
}

TEST(ExtractProductToken, ReadsLeadingTokenCharacters) {
  EXPECT_EQ(ExtractProductToken("Googlebot/2.1"), "Googlebot");
  EXPECT_EQ(ExtractProductToken("AB42bot"), "AB");
  EXPECT_EQ(ExtractProductToken("Foo_Bar-baz qux"), "Foo_Bar-baz");
  EXPECT_EQ(ExtractProductToken("008"), "");
}

}  // namespace
}  // namespace robotscan::robots
