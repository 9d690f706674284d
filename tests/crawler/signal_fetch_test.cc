// crawl --signals' machine and judges (signal_fetch.h) without a server:
// which URLs it asks for, from which origin, how redirects, failures and
// the address policy end each signal, and what counts as present.
#include "signal_fetch.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace robotscan::crawler {
namespace {

constexpr char kPublicAddress[] = "93.184.216.34";

storage::FetchRecord RobotsAnsweredAt(std::string url) {
  storage::FetchRecord robots;
  robots.domain = "a.test";
  storage::FetchStep failed;
  failed.url = "https://a.test/robots.txt";
  failed.error_class = ErrorClass::kConnectRefused;
  robots.steps.push_back(failed);
  storage::FetchStep answered;
  answered.url = std::move(url);
  answered.http_status = 200;
  robots.steps.push_back(answered);
  return robots;
}

TransferResult Answer(int status, std::string content_type, std::string body,
                      std::string redirect = "") {
  TransferResult r;
  r.http_status = status;
  r.headers.content_type = std::move(content_type);
  r.body = std::move(body);
  r.redirect_url = std::move(redirect);
  return r;
}

// Drives the machine: every host resolves to kPublicAddress (or the listed
// address), every URL answers from `answers` (404 when missing).
std::vector<storage::SignalRecord> RunSignals(
    const FetchPolicy& policy, const storage::FetchRecord& robots,
    std::map<std::string, TransferResult> answers,
    std::vector<std::string>* requested,
    std::map<std::string, std::string> addresses = {}) {
  SignalFetch machine(&policy, robots);
  FetchAction action = machine.Start();
  for (int guard = 0; guard < 100; ++guard) {
    switch (action.kind) {
      case FetchAction::Kind::kResolve: {
        const auto it = addresses.find(action.parts.host);
        action = machine.OnAddresses(
            {it == addresses.end() ? kPublicAddress : it->second},
            action.parts.port, 1);
        break;
      }
      case FetchAction::Kind::kTransfer: {
        requested->push_back(action.url);
        EXPECT_GT(action.max_body, 0u) << action.url;
        const auto it = answers.find(action.url);
        action = machine.OnTransferDone(
            it == answers.end() ? Answer(404, "text/html", "<html>no</html>")
                                : it->second);
        break;
      }
      case FetchAction::Kind::kWaitRetry:
        action = machine.OnRetryDue();
        break;
      case FetchAction::Kind::kFinished:
        return machine.TakeRecords();
    }
  }
  ADD_FAILURE() << "the machine did not finish";
  return {};
}

TEST(SignalFetchTest, AsksTheOriginThatAnsweredForEachSignalOnce) {
  FetchPolicy policy;
  std::vector<std::string> requested;
  TransferResult home = Answer(200, "text/html", "<html>home</html>");
  home.headers.x_robots_tag = "noai, noimageai";
  home.headers.tdm_reservation = "1";
  home.headers.tdm_policy = "https://a.test/policy.json";
  home.headers.content_usage = "train-ai=n";
  const auto records =
      RunSignals(policy, RobotsAnsweredAt("http://a.test:8080/robots.txt"),
                 {{"http://a.test:8080/llms.txt",
                   Answer(200, "text/markdown", "# A\n> about\n")},
                  {"http://a.test:8080/.well-known/tdmrep.json",
                   Answer(200, "application/json",
                          R"([{"location": "/", "tdm-reservation": 1}])")},
                  {"http://a.test:8080/", home}},
                 &requested);
  EXPECT_EQ(requested, (std::vector<std::string>{
                           "http://a.test:8080/llms.txt",
                           "http://a.test:8080/.well-known/tdmrep.json",
                           "http://a.test:8080/"}));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].kind, "llms.txt");
  EXPECT_TRUE(records[0].present);
  EXPECT_EQ(records[0].body, "# A\n> about\n");
  EXPECT_EQ(records[1].kind, "tdmrep.json");
  EXPECT_TRUE(records[1].present);
  EXPECT_EQ(records[1].valid, 1);
  EXPECT_EQ(records[2].kind, "homepage");
  EXPECT_TRUE(records[2].present);
  EXPECT_EQ(records[2].body, "");  // Only its headers are kept.
  EXPECT_EQ(records[2].x_robots_tag, "noai, noimageai");
  EXPECT_EQ(records[2].tdm_reservation, "1");
  EXPECT_EQ(records[2].tdm_policy, "https://a.test/policy.json");
  EXPECT_EQ(records[2].content_usage, "train-ai=n");
}

TEST(SignalFetchTest, AnUnreachableHostIsNotAskedAgain) {
  FetchPolicy policy;
  storage::FetchRecord robots;
  storage::FetchStep failed;
  failed.url = "https://a.test/robots.txt";
  failed.error_class = ErrorClass::kDnsNxdomain;
  robots.steps.push_back(failed);
  std::vector<std::string> requested;
  const auto records = RunSignals(policy, robots, {}, &requested);
  EXPECT_TRUE(requested.empty());
  ASSERT_EQ(records.size(), 3u);
  for (const storage::SignalRecord& r : records) {
    EXPECT_FALSE(r.present);
    EXPECT_EQ(r.absent_reason, "not-fetched");
    EXPECT_EQ(r.url, "");
  }
}

TEST(SignalFetchTest, SoftNotFoundPagesAreAbsent) {
  FetchPolicy policy;
  std::vector<std::string> requested;
  const auto records = RunSignals(
      policy, RobotsAnsweredAt("https://a.test/robots.txt"),
      {{"https://a.test/llms.txt", Answer(302, "", "", "https://www.a.test/")},
       {"https://www.a.test/", Answer(200, "text/html", "<html>hi</html>")},
       {"https://a.test/.well-known/tdmrep.json",
        Answer(200, "text/plain", "\xEF\xBB\xBF  <!DOCTYPE HTML><p>none")},
       {"https://a.test/", Answer(404, "text/plain", "")}},
      &requested);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].absent_reason, "soft-404");
  EXPECT_EQ(records[0].redirects, 1);
  EXPECT_EQ(records[0].final_url, "https://www.a.test/");
  EXPECT_EQ(records[0].body, "");
  EXPECT_EQ(records[1].absent_reason, "html");
  EXPECT_EQ(records[1].valid, -1);
  EXPECT_EQ(records[2].absent_reason, "status");
  EXPECT_EQ(records[2].http_status, 404);
}

TEST(SignalFetchTest, RedirectLoopsAndPrivateAddressesEndOneSignalOnly) {
  FetchPolicy policy;
  std::vector<std::string> requested;
  const auto records = RunSignals(
      policy, RobotsAnsweredAt("https://a.test/robots.txt"),
      {{"https://a.test/llms.txt",
        Answer(301, "", "", "https://a.test/llms.txt")},
       {"https://a.test/.well-known/tdmrep.json",
        Answer(302, "", "", "https://inside.test/tdmrep.json")},
       {"https://a.test/", Answer(200, "text/html", "<html></html>")}},
      &requested, {{"inside.test", "10.0.0.1"}});
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].error_class, ErrorClass::kRedirectLoop);
  EXPECT_EQ(records[0].absent_reason, "status");
  EXPECT_EQ(records[1].error_class, ErrorClass::kBlockedAddress);
  EXPECT_EQ(records[1].absent_reason, "no-response");
  EXPECT_TRUE(records[2].present);
  EXPECT_EQ(requested.size(), 3u);  // inside.test was never connected to.
}

TEST(SignalFetchTest, TdmRepFilesAreValidated) {
  EXPECT_EQ(ValidateTdmRep(R"([])"), "");
  EXPECT_EQ(ValidateTdmRep(
                R"([{"location": "/", "tdm-reservation": 0},
                    {"location": "/a/*", "tdm-reservation": 1,
                     "tdm-policy": "https://x.test/p.json", "other": 1}])"),
            "");
  EXPECT_EQ(ValidateTdmRep("{"), "not JSON");
  EXPECT_EQ(ValidateTdmRep(R"({"location": "/"})"), "not a JSON array");
  EXPECT_EQ(ValidateTdmRep(R"([1])"), "entry 1: not an object");
  EXPECT_EQ(ValidateTdmRep(R"([{"location": 5, "tdm-reservation": 1}])"),
            "entry 1: no location string");
  EXPECT_EQ(ValidateTdmRep(R"([{"location": "/", "tdm-reservation": 2}])"),
            "entry 1: tdm-reservation is not 0 or 1");
  EXPECT_EQ(ValidateTdmRep(R"([{"location": "/", "tdm-reservation": "1"}])"),
            "entry 1: tdm-reservation is not 0 or 1");
  EXPECT_EQ(ValidateTdmRep(R"([{"location": "/", "tdm-reservation": 1},
                               {"location": "/"}])"),
            "entry 2: no tdm-reservation");
  EXPECT_EQ(
      ValidateTdmRep(
          R"([{"location": "/", "tdm-reservation": 1, "tdm-policy": 3}])"),
      "entry 1: tdm-policy is not a string");

  storage::SignalRecord record;
  record.kind = "tdmrep.json";
  record.url = "https://a.test/.well-known/tdmrep.json";
  record.final_url = record.url;
  record.http_status = 200;
  record.content_type = "application/json";
  record.body = R"([{"location": "/"}])";
  JudgeSignal(&record);
  EXPECT_TRUE(record.present);  // Published, but not valid TDMRep.
  EXPECT_EQ(record.valid, 0);
  EXPECT_EQ(record.validation_error, "entry 1: no tdm-reservation");
  record.body = "[]";
  record.truncated = true;
  JudgeSignal(&record);
  EXPECT_EQ(record.valid, 0);
  EXPECT_EQ(record.validation_error, "truncated at the body limit");
}

TEST(SignalFetchTest, HtmlIsRecognisedByTypeOrByItsFirstTag) {
  EXPECT_TRUE(LooksLikeHtml("text/html; charset=utf-8", "# not html"));
  EXPECT_TRUE(LooksLikeHtml("Application/XHTML+XML", ""));
  EXPECT_TRUE(LooksLikeHtml("text/plain", "\n\n  <html lang=en>"));
  EXPECT_TRUE(LooksLikeHtml("", "<HEAD><title>x"));
  EXPECT_FALSE(LooksLikeHtml("text/markdown", "# Title\n<b>inline</b>"));
  EXPECT_FALSE(LooksLikeHtml("application/json", "[]"));
}

}  // namespace
}  // namespace robotscan::crawler
