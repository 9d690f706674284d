// The Wayback Machine's CDX answers and periods as `robotscan import
// wayback` reads them (crawler/src/history/wayback_cdx.h), from tables.
// The end-to-end tests against a loopback emulator are in tests/history.
#include "history/wayback_cdx.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace robotscan::crawler::history {
namespace {

TEST(WaybackPeriodsTest, RefusesBadBoundsNamingTheFlag) {
  struct Case {
    const char* id;
    const char* from;
    const char* to;
    const char* message;  // A part of it.
  } cases[] = {
      {"dash", "2023-01", "2023", "--from must be YYYY or YYYYMM"},
      {"five digits", "20231", "2023", "--from must be YYYY or YYYYMM"},
      {"letters", "2023", "20x3", "--to must be YYYY or YYYYMM"},
      {"month 13", "202313", "2024", "a month of 01 to 12"},
      {"month 00", "2023", "202400", "--to must be YYYY or YYYYMM with a"},
      {"before 1996", "1995", "2000", "from 1996 on"},
      {"reversed", "202306", "202301", "is after --to"},
      {"empty", "", "2023", "--from must be"},
  };
  for (const Case& c : cases) {
    Result<WaybackPeriods> p =
        WaybackPeriods::Make(c.from, c.to, WaybackPeriod::kMonth);
    ASSERT_FALSE(p.ok()) << c.id;
    EXPECT_EQ(p.status().code(), StatusCode::kInvalidArgument) << c.id;
    EXPECT_NE(p.status().message().find(c.message), std::string::npos)
        << c.id << ": " << p.status().message();
  }
}

TEST(WaybackPeriodsTest, WidensToWholePeriodsAndLabelsThem) {
  struct Case {
    const char* id;
    const char* from;
    const char* to;
    WaybackPeriod every;
    std::vector<std::string> labels;
    const char* first_month;
    const char* last_month;
  } cases[] = {
      {"months",
       "202311",
       "202402",
       WaybackPeriod::kMonth,
       {"2023-11", "2023-12", "2024-01", "2024-02"},
       "202311",
       "202402"},
      {"a bare year is its twelve months",
       "2024",
       "2024",
       WaybackPeriod::kMonth,
       {"2024-01", "2024-02", "2024-03", "2024-04", "2024-05", "2024-06",
        "2024-07", "2024-08", "2024-09", "2024-10", "2024-11", "2024-12"},
       "202401",
       "202412"},
      {"quarters widen both ends",
       "202302",
       "202304",
       WaybackPeriod::kQuarter,
       {"2023-Q1", "2023-Q2"},
       "202301",
       "202306"},
      {"years",
       "201607",
       "2018",
       WaybackPeriod::kYear,
       {"2016", "2017", "2018"},
       "201601",
       "201812"},
  };
  for (const Case& c : cases) {
    Result<WaybackPeriods> p = WaybackPeriods::Make(c.from, c.to, c.every);
    ASSERT_TRUE(p.ok()) << c.id << ": " << p.status().message();
    std::vector<std::string> labels;
    for (int i = 0; i < p->size(); ++i) labels.push_back(p->Label(i));
    EXPECT_EQ(labels, c.labels) << c.id;
    EXPECT_EQ(p->FirstMonth(), c.first_month) << c.id;
    EXPECT_EQ(p->LastMonth(), c.last_month) << c.id;
  }
}

TEST(WaybackPeriodsTest, FindsTheTimestampsPeriod) {
  Result<WaybackPeriods> q =
      WaybackPeriods::Make("2023", "2023", WaybackPeriod::kQuarter);
  ASSERT_TRUE(q.ok());
  struct Case {
    const char* timestamp;
    int period;
  } cases[] = {
      {"20230101000000", 0},  {"20230331235959", 0},  {"20230401000000", 1},
      {"20231231235959", 3},  {"20221231235959", -1}, {"20240101000000", -1},
      {"2023010100000", -1},  // 13 digits
      {"20231301000000", -1}, {"2023x101000000", -1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(q->PeriodOf(c.timestamp), c.period) << c.timestamp;
  }
  EXPECT_EQ(q->CollapseDigits(), 6);
  EXPECT_EQ(WaybackPeriods::Make("2023", "2024", WaybackPeriod::kYear)
                ->CollapseDigits(),
            4);
}

TEST(WaybackPeriodsTest, NamesGoBothWays) {
  for (WaybackPeriod every : kWaybackPeriods) {
    EXPECT_EQ(ParseWaybackPeriod(WaybackPeriodName(every)), every)
        << WaybackPeriodName(every);
  }
  EXPECT_EQ(WaybackPeriodName(WaybackPeriod::kQuarter), "quarter");
  EXPECT_FALSE(ParseWaybackPeriod("week"));
  EXPECT_FALSE(ParseWaybackPeriod("Month"));
}

TEST(CdxAnswerTest, ReadsJsonPlainTextAndEmptyAnswers) {
  struct Case {
    const char* id;
    std::string body;
    std::vector<std::string> timestamps;
    std::string resume_key;
    std::int64_t malformed;
  } cases[] = {
      {"json",
       R"([["timestamp","original","statuscode","mimetype","digest"],
           ["20230101000000","http://a.test/robots.txt","200","text/plain","X"],
           ["20230201000000","https://a.test/robots.txt","-","warc/revisit","X"]])",
       {"20230101000000", "20230201000000"},
       "",
       0},
      {"json, fields in another order, a resume key",
       R"([["original","timestamp"],["http://a.test/robots.txt","20230101000000"],
           [],["com,a)/robots.txt 20230101000000"]])",
       {"20230101000000"},
       "com,a)/robots.txt 20230101000000",
       0},
      {"json, malformed rows counted",
       R"([["timestamp","original"],["2023","http://a.test/"],
           ["20230101000000",""],7,["20230101000000","http://a.test/"]])",
       {"20230101000000"},
       "",
       3},
      {"empty json", "[]\n", {}, "", 0},
      {"no bytes", "", {}, "", 0},
      {"blank", " \r\n", {}, "", 0},
      {"plain",
       "20230101000000 http://a.test/robots.txt 200 text/plain X\n"
       "20230301000000 http://a.test/robots.txt 404 text/html Y\r\n",
       {"20230101000000", "20230301000000"},
       "",
       0},
      {"plain, a resume key after a blank line",
       "20230101000000 http://a.test/robots.txt 200 text/plain X\n\nKEY 1\n",
       {"20230101000000"},
       "KEY 1",
       0},
  };
  for (const Case& c : cases) {
    Result<CdxPage> page = ReadCdxAnswer(c.body);
    ASSERT_TRUE(page.ok()) << c.id << ": " << page.status().message();
    std::vector<std::string> timestamps;
    for (const CdxCapture& capture : page->captures) {
      timestamps.push_back(capture.timestamp);
    }
    EXPECT_EQ(timestamps, c.timestamps) << c.id;
    EXPECT_EQ(page->resume_key, c.resume_key) << c.id;
    EXPECT_EQ(page->malformed, c.malformed) << c.id;
  }
  Result<CdxPage> plain =
      ReadCdxAnswer("20230101000000 http://a.test/robots.txt 301 unk D\n");
  ASSERT_TRUE(plain.ok());
  ASSERT_EQ(plain->captures.size(), 1u);
  EXPECT_EQ(plain->captures[0].original, "http://a.test/robots.txt");
  EXPECT_EQ(plain->captures[0].statuscode, "301");
  EXPECT_EQ(plain->captures[0].mimetype, "unk");
  EXPECT_EQ(plain->captures[0].digest, "D");
}

TEST(CdxAnswerTest, RefusesWhatIsNoAnswer) {
  for (const char* body : {"[[\"timestamp\"", "{\"a\": 1}",
                           "<!DOCTYPE html><html>Too many requests</html>"}) {
    Result<CdxPage> page = ReadCdxAnswer(body);
    EXPECT_FALSE(page.ok()) << body;
    if (!page.ok()) {
      EXPECT_EQ(page.status().code(), StatusCode::kInvalidInput) << body;
    }
  }
}

TEST(CdxQueryTest, AsksForTheDomainsRobotsTxtInTheRange) {
  Result<WaybackPeriods> p =
      WaybackPeriods::Make("2016", "202403", WaybackPeriod::kMonth);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(CdxQueryUrl("https://web.archive.org", "example.com", *p, 1000,
                        false, ""),
            "https://web.archive.org/cdx/search/cdx?url=example.com/"
            "robots.txt&fl=timestamp,original,statuscode,mimetype,digest"
            "&from=201601&to=202403&collapse=timestamp:6&output=json"
            "&showResumeKey=true&limit=1000");
  EXPECT_EQ(CdxQueryUrl("http://127.0.0.1:1", "a.test", *p, 2, true,
                        "com,a)/robots.txt 2016+x"),
            "http://127.0.0.1:1/cdx/search/cdx?url=a.test/robots.txt"
            "&fl=timestamp,original,statuscode,mimetype,digest&from=201601"
            "&to=202403&collapse=timestamp:6&showResumeKey=true&limit=2"
            "&resumeKey=com%2Ca%29/robots.txt%202016%2Bx");
}

TEST(SnapshotUrlTest, IsTheRawFormOfTheCapture) {
  CdxCapture c;
  c.timestamp = "20240220123456";
  c.original = "https://www.a.test/robots.txt";
  EXPECT_EQ(SnapshotUrl("https://web.archive.org", c),
            "https://web.archive.org/web/20240220123456id_/"
            "https://www.a.test/robots.txt");
  EXPECT_EQ(CaptureTimeOf(c.timestamp), "2024-02-20T12:34:56.000Z");
}

}  // namespace
}  // namespace robotscan::crawler::history
