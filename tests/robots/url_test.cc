#include "robotscan/robots/url.h"

#include <gtest/gtest.h>

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
