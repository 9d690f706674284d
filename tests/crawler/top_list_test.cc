#include "robotscan/crawler/top_list.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "crawl_test_util.h"

namespace robotscan::crawler {
namespace {

struct NameCase {
  const char* id;
  const char* input;
  const char* expected;  // nullptr: rejected.
};

TEST(NormalizeDomainNameTest, Table) {
  const NameCase cases[] = {
      {"plain", "example.com", "example.com"},
      {"upper", "ExAmPle.COM", "example.com"},
      {"trailing_dot", "example.com.", "example.com"},
      {"spaces", "  example.com \t", "example.com"},
      {"quoted", "\"example.com\"", "example.com"},
      {"idn_german", "bücher.example", "xn--bcher-kva.example"},
      {"idn_upper", "BÜCHER.example", "xn--bcher-kva.example"},
      {"idn_cjk", "例え.jp", "xn--r8jz45g.jp"},
      {"punycode_kept", "xn--bcher-kva.example", "xn--bcher-kva.example"},
      {"underscore", "_dmarc.example.com", "_dmarc.example.com"},
      {"empty", "", nullptr},
      {"no_dot", "localhost", nullptr},
      {"ipv4", "192.0.2.1", nullptr},
      {"double_dot", "a..b", nullptr},
      {"two_trailing_dots", "example.com..", nullptr},
      {"space_inside", "exa mple.com", nullptr},
      {"bad_char", "ex!ample.com", nullptr},
      {"long_label",
       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
       nullptr},
      {"invalid_utf8", "\xff\xfe.example", nullptr},
      {"leading_hyphen", "-evil.example", nullptr},
      {"leading_hyphen_inner", "a.-b.example", nullptr},
      {"trailing_hyphen", "a-.example", nullptr},
      {"inner_hyphens_kept", "a--b.ex-ample.com", "a--b.ex-ample.com"},
  };
  for (const NameCase& c : cases) {
    std::string domain, reason;
    const bool ok = NormalizeDomainName(c.input, &domain, &reason);
    if (c.expected == nullptr) {
      EXPECT_FALSE(ok) << c.id << " gave " << domain;
      EXPECT_FALSE(reason.empty()) << c.id;
    } else {
      EXPECT_TRUE(ok) << c.id << ": " << reason;
      EXPECT_EQ(domain, c.expected) << c.id;
    }
  }
}

// Parses a whole text with a fresh parser; entries as "rank:domain",
// malformed lines as "!line".
std::vector<std::string> ParseAll(const std::string& text,
                                  TopListFormat* format = nullptr) {
  TopListParser parser;
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!(end == text.size() && line.empty())) {
      TopListEntry entry;
      MalformedLine bad;
      switch (parser.ParseLine(line, &entry, &bad)) {
        case TopListParser::LineKind::kEntry:
          out.push_back(std::to_string(entry.rank) + ":" + entry.domain);
          break;
        case TopListParser::LineKind::kMalformed:
          out.push_back("!" + std::to_string(bad.line));
          break;
        case TopListParser::LineKind::kSkipped:
          break;
      }
    }
    start = end + 1;
  }
  if (format != nullptr) *format = parser.format();
  return out;
}

TEST(TopListParserTest, TrancoCsv) {
  TopListFormat format;
  EXPECT_EQ(ParseAll("1,google.com\n2,Facebook.com.\n\n3,bad name\n4,x.org\n",
                     &format),
            (std::vector<std::string>{"1:google.com", "2:facebook.com", "!4",
                                      "4:x.org"}));
  EXPECT_EQ(format, TopListFormat::kRankCsv);
}

TEST(TopListParserTest, RankMustBePositiveInteger) {
  EXPECT_EQ(ParseAll("1,a.com\nx,b.com\n0,c.com\n-3,d.com\n5,e.com,extra\n"),
            (std::vector<std::string>{"1:a.com", "!2", "!3", "!4", "!5"}));
}

TEST(TopListParserTest, MajesticWithHeader) {
  TopListFormat format;
  EXPECT_EQ(ParseAll("GlobalRank,TldRank,Domain,TLD,RefSubNets,RefIPs\n"
                     "1,1,google.com,com,1,1\n2,2,facebook.com,com,1,1\n"
                     "3,3\n",
                     &format),
            (std::vector<std::string>{"1:google.com", "2:facebook.com", "!4"}));
  EXPECT_EQ(format, TopListFormat::kMajesticCsv);
}

TEST(TopListParserTest, OnePerLineRanksByEntryOrder) {
  TopListFormat format;
  EXPECT_EQ(ParseAll("# comment\na.com\n\nB.com\nc.com/path\nd.com\n", &format),
            (std::vector<std::string>{"1:a.com", "2:b.com", "!5", "3:d.com"}));
  EXPECT_EQ(format, TopListFormat::kOnePerLine);
}

TEST(TopListParserTest, BomAndCrlf) {
  EXPECT_EQ(ParseAll("\xEF\xBB\xBF"
                     "1,a.com\r\n2,b.com\r\n"),
            (std::vector<std::string>{"1:a.com", "2:b.com"}));
}

TEST(TopListParserTest, UrlsAndPortsAreMalformed) {
  EXPECT_EQ(ParseAll("1,http://a.com\n2,a.com:8080\n3,ok.com\n"),
            (std::vector<std::string>{"!1", "!2", "3:ok.com"}));
}

TEST(TopListParserTest, DuplicatesAreKeptForTheCrawlerToSkip) {
  EXPECT_EQ(ParseAll("1,a.com\n2,A.com.\n"),
            (std::vector<std::string>{"1:a.com", "2:a.com"}));
}

std::vector<std::string> ReadAll(const std::string& path) {
  auto opened = TopListReader::Open(path);
  EXPECT_TRUE(opened.ok()) << opened.status().message();
  std::vector<std::string> out;
  if (!opened.ok()) return out;
  TopListReader* reader = opened->get();
  TopListEntry entry;
  MalformedLine bad;
  for (;;) {
    switch (reader->Next(&entry, &bad)) {
      case ReadOutcome::kEntry:
        out.push_back(std::to_string(entry.rank) + ":" + entry.domain + "@" +
                      std::to_string(entry.line));
        break;
      case ReadOutcome::kMalformed:
        out.push_back("!" + std::to_string(bad.line) + " " + bad.reason);
        break;
      case ReadOutcome::kEnd:
        return out;
      case ReadOutcome::kError:
        ADD_FAILURE() << reader->error();
        return out;
    }
  }
}

TEST(TopListReaderTest, CrOnlyLineEndsAndMissingFinalNewline) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("l.csv"), "1,a.com\r2,b.com\r\r3,c.com");
  EXPECT_EQ(ReadAll(dir.File("l.csv")),
            (std::vector<std::string>{"1:a.com@1", "2:b.com@2", "3:c.com@4"}));
}

TEST(TopListReaderTest, GzipIsDetectedFromContent) {
  testing::TempDir dir;
  const std::string path = dir.File("list.csv.gz");
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  std::string text = "\xEF\xBB\xBF";
  for (int i = 1; i <= 5000; ++i) {
    text += std::to_string(i) + ",d" + std::to_string(i) + ".test\r\n";
  }
  gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
  gzclose(gz);
  const std::vector<std::string> entries = ReadAll(path);
  ASSERT_EQ(entries.size(), 5000u);
  EXPECT_EQ(entries.front(), "1:d1.test@1");
  EXPECT_EQ(entries.back(), "5000:d5000.test@5000");
}

TEST(TopListReaderTest, OverlongLineIsReportedAndSkipped) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("l.txt"),
                     "a.com\n" + std::string(100000, 'x') + "\nb.com\n");
  EXPECT_EQ(ReadAll(dir.File("l.txt")),
            (std::vector<std::string>{"1:a.com@1", "!2 line longer than 64 KiB",
                                      "2:b.com@3"}));
}

TEST(TopListReaderTest, MissingFileIsAnError) {
  const auto opened = TopListReader::Open("/nonexistent/list.csv");
  ASSERT_FALSE(opened.ok());
  EXPECT_EQ(opened.status().code(), StatusCode::kIoError);
  EXPECT_NE(opened.status().message().find("/nonexistent/list.csv"),
            std::string::npos);
}

}  // namespace
}  // namespace robotscan::crawler
