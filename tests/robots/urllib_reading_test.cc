// The urllib compat mode: CPython 3.11's urllib.robotparser reproduced.
// Unit tables for the str and urllib.parse pieces (expected values printed
// by CPython 3.11.7), the quirks the report's sensitivity section relies on,
// and a differential test against the real urllib.robotparser
// (urllib_reference.py) on thousands of generated files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "robotscan/robots/robots.h"
#include "urllib/python_str.h"
#include "urllib/python_urlparse.h"

namespace robotscan::robots {
namespace {

namespace py = urllib::python;

RobotsTxt Urllib(std::string_view body) {
  ParseOptions options;
  options.compat = Compat::kUrllib;
  return RobotsTxt::Parse(body, options);
}

// Runs `command` and returns its standard output; *ok is false when it
// could not run or did not exit 0.
std::string RunCommand(const std::string& command, bool* ok) {
  std::string output;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  *ok = pipe != nullptr;
  if (pipe == nullptr) return output;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    output.append(buffer, n);
  }
  *ok = ::pclose(pipe) == 0;
  return output;
}

std::string Base64Decode(std::string_view text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int bits = 0, buffer = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) continue;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

std::string Printable(std::string_view bytes) {
  std::string out;
  for (char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n\n";
    } else if (c < 0x20 || c >= 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", c);
      out += hex;
    } else {
      out += ch;
    }
  }
  return out;
}

TEST(PythonText, DecodeUtf8ReplaceLikeCPython) {
  struct Case {
    std::string bytes, expected;
  };
  // bytes.decode("utf-8", "replace"): one U+FFFD per maximal invalid
  // subpart.
  const std::string r = "\xEF\xBF\xBD";
  const Case cases[] = {
      {"abc", "abc"},
      {"\xC3\xBC", "\xC3\xBC"},
      {"\xFF", r},
      {"\xC3", r},
      {"\xC3"
       "a",
       r + "a"},
      {"\xE0\x80", r + r},          // E0 needs A0-BF next.
      {"\xED\xA0\x80", r + r + r},  // A surrogate.
      {"\xF0\x90\x80", r},          // Truncated: one subpart.
      {"\xF0\x90\x80"
       "A",
       r + "A"},
      {"\xC0\xAF", r + r},                  // Overlong.
      {"\xF4\x90\x80\x80", r + r + r + r},  // Past U+10FFFF.
      {"\xEF\xBB\xBF"
       "x",
       "\xEF\xBB\xBF"
       "x"},  // A BOM is a character.
  };
  for (const Case& c : cases) {
    EXPECT_EQ(py::DecodeUtf8Replace(c.bytes), c.expected) << Printable(c.bytes);
  }
}

TEST(PythonText, SplitLinesAndStrip) {
  const std::vector<std::string_view> lines = py::SplitLines(
      "a\nb\r\nc\rd\x0b"
      "e\x0c"
      "f\x1cg\xC2\x85h\xE2\x80\xA8i\n");
  const std::vector<std::string_view> expected = {"a", "b", "c", "d", "e",
                                                  "f", "g", "h", "i"};
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(py::SplitLines("\n\n").size(), 2u);
  EXPECT_EQ(py::SplitLines("").size(), 0u);
  EXPECT_EQ(py::SplitLines("x\x1f"
                           "y")
                .size(),
            1u);  // US is not a break.
  EXPECT_EQ(py::Strip("\xC2\xA0\xE3\x80\x80 a b\t\x1f"), "a b");
  EXPECT_EQ(py::Strip("\xC2\xA1"), "\xC2\xA1");
}

TEST(PythonText, DigitsLikeIsdigitAndInt) {
  EXPECT_TRUE(py::IsDigits("10"));
  EXPECT_TRUE(py::IsDigits("\xC2\xB2"));        // '²' is a digit...
  EXPECT_FALSE(py::ParseDigits("\xC2\xB2"));    // ...that int() refuses.
  EXPECT_EQ(py::ParseDigits("\xD9\xA3"), 3.0);  // Arabic-Indic three.
  EXPECT_EQ(py::ParseDigits(" 007 "), 7.0);
  EXPECT_FALSE(py::IsDigits("1.5"));
  EXPECT_FALSE(py::IsDigits(""));
  EXPECT_TRUE(py::ParseDigits(std::string(4300, '1')));
  EXPECT_FALSE(py::ParseDigits(std::string(4301, '0')));  // The str limit.
}

TEST(PythonUrlparse, UnquoteAndQuote) {
  const std::string r = "\xEF\xBF\xBD";
  EXPECT_EQ(py::Unquote("/a%20b"), "/a b");
  EXPECT_EQ(py::Unquote("%C3%BC"), "\xC3\xBC");
  EXPECT_EQ(py::Unquote("%C3"), r);
  EXPECT_EQ(py::Unquote("%C3\xC3\xA9"), r + "\xC3\xA9");  // Run ends at é.
  EXPECT_EQ(py::Unquote("%zz%4"), "%zz%4");
  EXPECT_EQ(py::Unquote("%%41"), "%A");
  EXPECT_EQ(py::Unquote("%ED%A0%80"), r + r + r);
  EXPECT_EQ(py::Quote("/a b"), "/a%20b");
  EXPECT_EQ(py::Quote("\xC3\xBC"), "%C3%BC");
  EXPECT_EQ(py::Quote("~a_b.c-d/e"), "~a_b.c-d/e");
  EXPECT_EQ(py::Quote("*$?;#%"), "%2A%24%3F%3B%23%25");
}

TEST(PythonUrlparse, ParseAndUnparseLikeCPython) {
  struct Case {
    const char* url;
    const char* scheme;
    const char* netloc;
    const char* path;
    const char* params;
    const char* query;
    const char* fragment;
    const char* unparsed;
  };
  const Case cases[] = {
      {"http://h/a;b?c#d", "http", "h", "/a", "b", "c", "d",
       "http://h/a;b?c#d"},
      {"HTTP://h/a", "http", "h", "/a", "", "", "", "http://h/a"},
      {"//h/a", "", "h", "/a", "", "", "", "//h/a"},
      {"/a;b/c;d", "", "", "/a;b/c", "d", "", "", "/a;b/c;d"},
      {"a:b", "a", "", "b", "", "", "", "a:b"},
      {"1a:b", "", "", "1a:b", "", "", "", "1a:b"},
      {"  \x01http://h/a", "http", "h", "/a", "", "", "", "http://h/a"},
      {"ht\ttp://h/\na", "http", "h", "/a", "", "", "", "http://h/a"},
      {"mailto:x;y", "mailto", "", "x;y", "", "", "", "mailto:x;y"},
      {"x;y", "", "", "x", "y", "", "", "x;y"},
      {"http:/a", "http", "", "/a", "", "", "", "http:///a"},
      {"//", "", "", "", "", "", "", ""},
      {"//[::1]/a", "", "[::1]", "/a", "", "", "", "//[::1]/a"},
      {"tel:1;2", "tel", "", "1", "2", "", "", "tel:1;2"},
      {"//[v1.x]/a", "", "[v1.x]", "/a", "", "", "", "//[v1.x]/a"},
  };
  for (const Case& c : cases) {
    py::ParsedUrl url;
    ASSERT_TRUE(py::UrlParse(c.url, &url)) << c.url;
    EXPECT_EQ(url.scheme, c.scheme) << c.url;
    EXPECT_EQ(url.netloc, c.netloc) << c.url;
    EXPECT_EQ(url.path, c.path) << c.url;
    EXPECT_EQ(url.params, c.params) << c.url;
    EXPECT_EQ(url.query, c.query) << c.url;
    EXPECT_EQ(url.fragment, c.fragment) << c.url;
    EXPECT_EQ(py::UrlUnparse(url), c.unparsed) << c.url;
  }
  // Where urlparse raises ValueError.
  for (const char* bad :
       {"//[x/a", "//]a", "//[1.2.3.4]/", "//[v1.]/", "//[1::2::3]/",
        "http://h\xEF\xBC\x8F"
        "x/",
        "//[::1%]/", "//[12345::]/"}) {
    py::ParsedUrl url;
    EXPECT_FALSE(py::UrlParse(bad, &url)) << bad;
  }
  for (const char* good : {"::", "::1", "1:2:3:4:5:6:7:8", "::ffff:1.2.3.4",
                           "fe80::1%eth0", "1::", "1:2:3:4:5:6:7::"}) {
    EXPECT_TRUE(py::IsPythonIpv6Address(good)) << good;
  }
  for (const char* bad : {":", "1:2", "1:2:3:4:5:6:7:8:9", ":1:2:3:4:5:6:7",
                          "1::2::3", "::1.2.3.04", "::g",
                          "1:2:3:4:5:6:7:8::", "", "1:2:3:4:5:6:1.2.3.4:5"}) {
    EXPECT_FALSE(py::IsPythonIpv6Address(bad)) << bad;
  }
}

// The readings the report's sensitivity section counts, each alone.
TEST(UrllibReading, AgentsMatchBySubstring) {
  const RobotsTxt robots = Urllib("User-agent: oBot\nDisallow: /\n");
  EXPECT_FALSE(robots.IsAllowedFor("RobotscanGenericCrawler", "/"));
  EXPECT_TRUE(robots.HasGroupFor("RobotscanGenericCrawler"));
  EXPECT_TRUE(RobotsTxt::Parse("User-agent: oBot\nDisallow: /\n")
                  .IsAllowedFor("RobotscanGenericCrawler", "/"));
}

TEST(UrllibReading, FirstMatchingRuleDecides) {
  const RobotsTxt robots = Urllib("User-agent: *\nDisallow: /\nAllow: /a\n");
  const MatchResult result = robots.Check("x", "/a");
  EXPECT_FALSE(result.allowed);
  EXPECT_EQ(result.line, 2);
  EXPECT_EQ(result.pattern, "/");
  EXPECT_TRUE(result.used_global_group);
  // An empty Disallow allows everything, and shadows what follows.
  EXPECT_TRUE(Urllib("User-agent: *\nDisallow:\nDisallow: /\n")
                  .IsAllowedFor("x", "/private"));
}

TEST(UrllibReading, AnEmptyLineEndsAGroupAndOnlyTheFirstStarCounts) {
  EXPECT_TRUE(Urllib("User-agent: GPTBot\n\nDisallow: /\n")
                  .IsAllowedFor("GPTBot", "/"));
  const RobotsTxt two_stars =
      Urllib("User-agent: *\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n");
  EXPECT_TRUE(two_stars.IsAllowedFor("x", "/b"));
  EXPECT_FALSE(two_stars.IsAllowedFor("x", "/a"));
  ASSERT_EQ(two_stars.groups().size(), 1u);  // The second is dropped.
}

TEST(UrllibReading, AByteOrderMarkHidesTheFirstLine) {
  const RobotsTxt robots = Urllib("\xEF\xBB\xBFUser-agent: *\nDisallow: /\n");
  EXPECT_TRUE(robots.IsAllowedFor("x", "/"));
  EXPECT_TRUE(robots.groups().empty());
  EXPECT_EQ(robots.rules_outside_groups().size(), 1u);
}

TEST(UrllibReading, ProductTokensAreNotCut) {
  const RobotsTxt robots = Urllib("User-agent: MJ12bot\nDisallow: /\n");
  ASSERT_EQ(robots.groups().size(), 1u);
  EXPECT_EQ(robots.groups()[0].tokens[0], "mj12bot");
  EXPECT_FALSE(robots.IsAllowedFor("MJ12bot", "/"));
  EXPECT_TRUE(robots.IsAllowedFor("MJ", "/"));
}

TEST(UrllibReading, ParseErrorsKeepWhatCameBefore) {
  const RobotsTxt robots = Urllib(
      "User-agent: a\nDisallow: /\n\nUser-agent: *\nDisallow: //[x\n"
      "User-agent: GPTBot\nDisallow: /\n");
  EXPECT_EQ(robots.urllib_error_line(), 5);
  EXPECT_FALSE(robots.IsAllowedFor("a", "/"));
  EXPECT_TRUE(robots.IsAllowedFor("GPTBot", "/"));  // Never read.
  EXPECT_EQ(
      Urllib("User-agent: *\nCrawl-delay: \xC2\xB2\n").urllib_error_line(), 2);
  EXPECT_EQ(Urllib("User-agent: *\nDisallow: /\n").urllib_error_line(), 0);
}

TEST(UrllibReading, ExtensionsAndSitemapsAsCPythonReturnsThem) {
  const RobotsTxt robots = Urllib(
      "Sitemap: %68ttp://x/s.xml\nUser-agent: a\nCrawl-delay: 1\n"
      "Crawl-delay: 7\nRequest-rate: 3/60\n\nUser-agent: *\nDisallow: /\n");
  ASSERT_EQ(robots.sitemaps().size(), 1u);
  EXPECT_EQ(robots.sitemaps()[0].url, "http://x/s.xml");
  EXPECT_EQ(robots.ExtensionsFor("a").crawl_delay, 7.0);  // The last one.
  ASSERT_TRUE(robots.ExtensionsFor("a").request_rate);
  EXPECT_EQ(robots.ExtensionsFor("a").request_rate->seconds, 60.0);
  EXPECT_FALSE(robots.ExtensionsFor("b").crawl_delay);
}

TEST(UrllibReading, UrlsThatCPythonCannotParse) {
  const MatchResult result =
      Urllib("User-agent: *\nDisallow: /\n").Check("x", "http://[x/");
  EXPECT_EQ(result.decision, Decision::kInvalidUrl);
  EXPECT_FALSE(result.allowed);
  EXPECT_EQ(DecisionName(result.decision), "invalid-url");
}

TEST(UrllibReading, RulesForNamesTheGroupConsulted) {
  const RobotsTxt robots =
      Urllib("User-agent: bot\nDisallow: /a\n\nUser-agent: *\nAllow: /b\n");
  const std::vector<const Rule*> rules = robots.RulesFor("GPTBot");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0]->pattern, "/a");
  ASSERT_EQ(robots.RulesFor("Google").size(), 1u);
  EXPECT_EQ(robots.RulesFor("Google")[0]->pattern, "/b");
}

TEST(UrllibReading, CompatNames) {
  Compat compat = Compat::kRfc9309;
  EXPECT_TRUE(ParseCompatName("urllib", &compat));
  EXPECT_EQ(compat, Compat::kUrllib);
  EXPECT_EQ(CompatName(Compat::kUrllib), "urllib");
  EXPECT_EQ(Urllib("").compat(), Compat::kUrllib);
  EXPECT_FALSE(RobotsTxt::DisallowAll(Compat::kUrllib).IsAllowedFor("x", "/"));
  EXPECT_TRUE(RobotsTxt::AllowAll(Compat::kUrllib).IsAllowedFor("x", "/"));
}

// The differential test: every check of thousands of generated files
// against the real urllib.robotparser.
TEST(UrllibDifferential, AgreesWithCPythonOnEveryCheck) {
  bool ok = false;
  const std::string output =
      RunCommand("python3 '" ROBOTSCAN_SOURCE_DIR
                 "/tests/robots/urllib_reference.py' --seed 7 --files 3000",
                 &ok);
  ASSERT_TRUE(ok) << "python3 (CPython 3.11) is required for this test";
  std::istringstream lines(output);
  std::size_t files = 0, checks = 0, disallowed = 0, errors = 0, raised = 0;
  int failures = 0;
  for (std::string line; std::getline(lines, line);) {
    const auto record = nlohmann::json::parse(line);
    const std::string body = Base64Decode(record["body"].get<std::string>());
    const std::string id = "file " + std::to_string(record["id"].get<int>()) +
                           ":\n" + Printable(body);
    const RobotsTxt robots = Urllib(body);
    ++files;
    raised += record["raised"].get<bool>();
    EXPECT_EQ(robots.urllib_error_line() != 0, record["raised"].get<bool>())
        << id;
    std::vector<std::string> sitemaps;
    for (const Sitemap& sitemap : robots.sitemaps()) {
      sitemaps.push_back(sitemap.url);
    }
    if (record["sitemaps"].is_null()) {
      EXPECT_TRUE(sitemaps.empty()) << id;
    } else {
      EXPECT_EQ(sitemaps, record["sitemaps"].get<std::vector<std::string>>())
          << id;
    }
    for (const auto& check : record["checks"]) {
      const std::string agent = check[0];
      const std::string url = check[1];
      const MatchResult result = robots.Check(agent, url);
      ++checks;
      if (check[2].is_string()) {
        ++errors;
        EXPECT_EQ(result.decision, Decision::kInvalidUrl)
            << id << "agent " << agent << " url " << Printable(url);
        continue;
      }
      const bool expected = check[2].get<bool>();
      disallowed += !expected;
      if (result.allowed != expected ||
          result.decision == Decision::kInvalidUrl) {
        if (++failures <= 20) {
          ADD_FAILURE() << id << "agent " << agent << " url " << Printable(url)
                        << ": CPython " << expected << ", urllib mode "
                        << result.allowed << " ("
                        << DecisionName(result.decision) << " line "
                        << result.line << ")";
        }
      }
    }
    for (const auto& delay : record["delays"]) {
      const std::optional<double> actual =
          robots.ExtensionsFor(delay[0].get<std::string>()).crawl_delay;
      if (delay[1].is_null()) {
        EXPECT_FALSE(actual) << id;
      } else if (delay[1].is_string()) {
        EXPECT_TRUE(actual && std::isinf(*actual)) << id;
      } else {
        EXPECT_EQ(actual, delay[1].get<double>()) << id;
      }
    }
    for (const auto& rate : record["rates"]) {
      const std::optional<RequestRate> actual =
          robots.ExtensionsFor(rate[0].get<std::string>()).request_rate;
      ASSERT_EQ(actual.has_value(), !rate[1].is_null()) << id;
      if (actual) {
        EXPECT_EQ(actual->requests, rate[1][0].get<double>()) << id;
        EXPECT_EQ(actual->seconds, rate[1][1].get<double>()) << id;
      }
    }
  }
  EXPECT_EQ(failures, 0) << "checks that disagree (first 20 shown)";
  EXPECT_EQ(files, 3000u);
  // The generated files exercise both answers, CPython's URL errors and its
  // parse errors, so agreement is not agreement on "allowed" alone.
  EXPECT_GT(disallowed, checks / 20);
  EXPECT_GT(errors, 100u);
  EXPECT_GT(raised, 50u);
  std::printf(
      "urllib differential: %zu files, %zu checks (%zu disallowed, "
      "%zu URL errors), %zu files where parse() raised\n",
      files, checks, disallowed, errors, raised);
}

TEST(UrllibDifferential, UnicodeTablesAreThoseOfThisCPython) {
  bool ok = false;
  const std::string generated =
      RunCommand("python3 '" ROBOTSCAN_SOURCE_DIR
                 "/robots/src/urllib/python_unicode_tables.py'",
                 &ok);
  ASSERT_TRUE(ok);
  std::ifstream in(ROBOTSCAN_SOURCE_DIR
                   "/robots/src/urllib/python_unicode_tables.inc",
                   std::ios::binary);
  std::stringstream checked_in;
  checked_in << in.rdbuf();
  EXPECT_EQ(generated, checked_in.str())
      << "regenerate robots/src/urllib/python_unicode_tables.inc";
}

}  // namespace
}  // namespace robotscan::robots
