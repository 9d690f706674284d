// Conformance: every case of tests/data/conformance (copied from
// ../shared/conformance) in both compatibility modes.
//
// * google mode reproduces Google's parser: all 145 + 400 cases pass.
// * rfc mode (the default) passes the same cases except where RFC 9309 and
//   Google disagree; those are listed in kRfcDifferences with the section of
//   the RFC that decides them, and asserted the RFC way. README.md
//   ("RFC 9309 vs Google") shows the same table.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "robotscan/robots/robots.h"
#include "test_data.h"

namespace robotscan::robots {
namespace {

using testing::DecodedField;
using testing::ReadJsonLines;

// Cases whose RFC 9309 answer differs from Google's, and why.
const std::map<std::string, std::string>& RfcDifferences() {
  static const auto* differences = new std::map<std::string, std::string>{
      // RFC 9309 §2.2.2: "/robots.txt" is implicitly allowed.
      {"stress/327748#6", "RFC 9309 §2.2.2: /robots.txt is always allowed"},
      {"stress/369883#6", "RFC 9309 §2.2.2: /robots.txt is always allowed"},
      {"stress/369883#10", "RFC 9309 §2.2.2: /robots.txt is always allowed"},
      {"stress/860237#10", "RFC 9309 §2.2.2: /robots.txt is always allowed"},
      // RFC 9309 §2.2.2: non-ASCII octets in the URI are percent-encoded
      // before comparison, so a raw UTF-8 URL matches its encoded rule.
      // (#3 is the same comparison as #5 once the rule is encoded; the
      // issue's list names only #5, the data make #3 follow.)
      {"ID_Encoding#3", "RFC 9309 §2.2.2: raw UTF-8 URL is percent-encoded"},
      {"ID_Encoding#5", "RFC 9309 §2.2.2: raw UTF-8 URL is percent-encoded"},
      {"correctness/non-ascii-paths#3",
       "RFC 9309 §2.2.2: raw UTF-8 URL is percent-encoded"},
      {"correctness/non-ascii-paths#5",
       "RFC 9309 §2.2.2: raw UTF-8 URL is percent-encoded"},
      // RFC 9309 §2.2.3 / RFC 3986 §2.3: %-escapes of unreserved characters
      // are decoded before comparison.
      {"ID_Encoding#6", "RFC 9309 §2.2.3: %62%61%7A equals baz"},
      {"correctness/non-ascii-paths#6",
       "RFC 9309 §2.2.3: %62%61%7A equals baz"},
  };
  return *differences;
}

bool Allowed(const nlohmann::json& record, Compat compat) {
  ParseOptions options;
  options.compat = compat;
  const RobotsTxt robots =
      RobotsTxt::Parse(DecodedField(record, "robots_txt"), options);
  return robots.IsAllowedFor(record.at("user_agent").get<std::string>(),
                             record.at("url").get<std::string>());
}

struct FileExpectation {
  const char* file;
  std::size_t records;
};

class ConformanceFile : public ::testing::TestWithParam<FileExpectation> {};

TEST_P(ConformanceFile, GoogleModeMatchesGoogleOnEveryCase) {
  const auto records = ReadJsonLines(GetParam().file);
  ASSERT_EQ(records.size(), GetParam().records);
  int failures = 0;
  for (const auto& record : records) {
    const bool expected = record.at("allowed").get<bool>();
    const bool actual = Allowed(record, Compat::kGoogle);
    EXPECT_EQ(actual, expected) << record.at("id").get<std::string>() << ": "
                                << record.value("note", "");
    failures += actual != expected;
  }
  RecordProperty("failures", failures);
}

TEST_P(ConformanceFile, RfcModeDiffersOnlyWhereTheRfcSaysSo) {
  const auto records = ReadJsonLines(GetParam().file);
  ASSERT_EQ(records.size(), GetParam().records);
  int differences_seen = 0;
  for (const auto& record : records) {
    const std::string id = record.at("id").get<std::string>();
    const bool google = record.at("allowed").get<bool>();
    const auto difference = RfcDifferences().find(id);
    const bool rfc_differs = difference != RfcDifferences().end();
    const bool expected = rfc_differs ? !google : google;
    EXPECT_EQ(Allowed(record, Compat::kRfc9309), expected)
        << id << (rfc_differs ? " (" + difference->second + ")" : "");
    differences_seen += rfc_differs;
  }
  RecordProperty("rfc_differences", differences_seen);
}

INSTANTIATE_TEST_SUITE_P(
    Files, ConformanceFile,
    ::testing::Values(FileExpectation{"google-robotstxt-cases.jsonl", 145},
                      FileExpectation{"google-spec-test-cases.jsonl", 400}),
    [](const auto& param_info) {
      return std::string(param_info.param.file).find("spec") !=
                     std::string::npos
                 ? std::string("GoogleSpecTest")
                 : std::string("GoogleRobotsTest");
    });

TEST(ConformanceFile, EveryRfcDifferenceNamesAnExistingCase) {
  std::map<std::string, bool> found;
  for (const char* file :
       {"google-robotstxt-cases.jsonl", "google-spec-test-cases.jsonl"}) {
    for (const auto& record : ReadJsonLines(file)) {
      found[record.at("id").get<std::string>()] = true;
    }
  }
  for (const auto& [id, reason] : RfcDifferences()) {
    EXPECT_TRUE(found.count(id)) << id;
  }
}

// texting_robots' own tests: Google's parser agrees on 288 of 305; the other
// 17 are annotated in the data ("Google parser gives ..."). google mode must
// answer exactly as Google on all of them.
TEST(TextingRobotsCases, GoogleModeAgreesExceptTheAnnotatedCases) {
  const auto records = ReadJsonLines("texting-robots-cases.jsonl");
  ASSERT_EQ(records.size(), 305u);
  int agree = 0;
  int annotated = 0;
  for (const auto& record : records) {
    const std::string id = record.at("id").get<std::string>();
    const bool expected = record.at("allowed").get<bool>();
    const bool google_differs =
        record.value("note", "").find("Google parser gives") !=
        std::string::npos;
    annotated += google_differs;
    const bool actual = Allowed(record, Compat::kGoogle);
    agree += actual == expected;
    EXPECT_EQ(actual, google_differs ? !expected : expected)
        << id << ": " << record.value("note", "");
  }
  EXPECT_EQ(annotated, 17);
  EXPECT_EQ(agree, 288);
  RecordProperty("agree", agree);
}

// rfc mode agrees with texting_robots where texting_robots follows the RFC
// (implicit /robots.txt allow, encoding a raw UTF-8 URL) and with Google
// where texting_robots applies rules outside any group or keeps digits in
// agent names. The measured split is pinned so that a change is noticed.
TEST(TextingRobotsCases, RfcModeAgreementIsMeasured) {
  const auto records = ReadJsonLines("texting-robots-cases.jsonl");
  int agree = 0;
  std::map<std::string, int> disagreements_by_reason;
  for (const auto& record : records) {
    const bool expected = record.at("allowed").get<bool>();
    if (Allowed(record, Compat::kRfc9309) == expected) {
      ++agree;
      continue;
    }
    const std::string note = record.value("note", "");
    std::string reason = "other";
    if (note.find("no user-agent line") != std::string::npos) {
      reason = "rules outside any group";
    } else if (note.find("'008'") != std::string::npos) {
      reason = "digits in agent names";
    } else if (record.at("id") == "test_google_encoding#8") {
      // texting_robots compares %62%61%7A byte-wise; RFC 9309 §2.2.3
      // decodes escaped unreserved characters ("baz").
      reason = "unreserved escapes decoded";
    }
    ++disagreements_by_reason[reason];
    if (reason == "other") ADD_FAILURE() << record.at("id") << ": " << note;
  }
  EXPECT_EQ(disagreements_by_reason["other"], 0);
  EXPECT_EQ(agree + disagreements_by_reason["rules outside any group"] +
                disagreements_by_reason["digits in agent names"] +
                disagreements_by_reason["unreserved escapes decoded"],
            305);
  // Pinned from a measured run; see README.md ("Conformance").
  EXPECT_EQ(agree, 292);
  RecordProperty("agree", agree);
  std::printf(
      "texting_robots cases, rfc mode: %d/305 agree; %d rules outside "
      "any group, %d digits in agent names, %d unreserved escapes\n",
      agree, disagreements_by_reason["rules outside any group"],
      disagreements_by_reason["digits in agent names"],
      disagreements_by_reason["unreserved escapes decoded"]);
}

}  // namespace
}  // namespace robotscan::robots
