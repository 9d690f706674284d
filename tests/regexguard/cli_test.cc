// End-to-end tests of the built `regexguard` binary: exit codes and the
// JSON Lines contract (pattern, verdict, degree, attack, steps).
#include <gtest/gtest.h>

#include "cli_runner.h"

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

#ifdef REGEXGUARD_CLI_PATH

using robotscan::regexguard::testing::CliRun;

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (const char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted.push_back(c);
    }
  }
  return quoted + "'";
}

CliRun RunCli(const std::string& arguments) {
  return robotscan::regexguard::testing::RunCommand(REGEXGUARD_CLI_PATH,
                                                    arguments);
}

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) rows.push_back(nlohmann::json::parse(line));
  }
  return rows;
}

TEST(CliTest, ExponentialFindingExitsOneWithTheJsonContract) {
  const CliRun run = RunCli("check " + ShellQuote("^(a+)+$") +
                            " --dialect javascript --format json");
  EXPECT_EQ(run.exit_code, 1) << run.out;
  const auto rows = JsonLines(run.out);
  ASSERT_EQ(rows.size(), 1u);
  const auto& row = rows[0];
  EXPECT_EQ(row["pattern"], "^(a+)+$");
  EXPECT_EQ(row["verdict"], "exponential");
  EXPECT_TRUE(row["degree"].is_null());
  ASSERT_TRUE(row["attack"].is_object());
  EXPECT_TRUE(row["attack"]["prefix"].is_string());
  EXPECT_FALSE(row["attack"]["pump"].get<std::string>().empty());
  EXPECT_TRUE(row["attack"]["suffix"].is_string());
  ASSERT_TRUE(row["steps"].contains("pcre2-naive"));
  const auto& points = row["steps"]["pcre2-naive"];
  ASSERT_GE(points.size(), 4u);
  EXPECT_TRUE(points[0].contains("n"));
  EXPECT_TRUE(points[0].contains("steps"));
}

TEST(CliTest, SafePatternExitsZero) {
  const CliRun run =
      RunCli("check " + ShellQuote("^\\d{4}-\\d{2}$") + " --format json");
  EXPECT_EQ(run.exit_code, 0);
  const auto rows = JsonLines(run.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["verdict"], "safe");
  EXPECT_TRUE(rows[0]["attack"].is_null());
}

TEST(CliTest, UsageAndInvalidPatternExitTwo) {
  EXPECT_EQ(RunCli("check").exit_code, 2);
  EXPECT_EQ(RunCli("check a --dialect cobol").exit_code, 2);
  EXPECT_EQ(RunCli("check a --flags q").exit_code, 2);
  EXPECT_EQ(RunCli("check " + ShellQuote("(a")).exit_code, 2);
}

// Unreadable input is a usage error (exit 2, docs/regexguard.md) whose
// message names it. A directory used to open like a file and read as no
// patterns: no output, exit 0, as if every pattern were safe.
TEST(CliTest, UnreadablePatternFileIsAUsageErrorNamingIt) {
  const std::string dir = testing::TempDir() + "regexguard_cli_patterns_dir";
  std::filesystem::create_directories(dir);
  struct Case {
    const char* id;
    std::string arguments;
    std::string message;
  };
  const Case cases[] = {
      {"directory", "--file " + ShellQuote(dir),
       "cannot read '" + dir + "': Is a directory"},
      {"directory named .jsonl", "--file " + ShellQuote(dir + ".jsonl"),
       "cannot read '" + dir + ".jsonl': Is a directory"},
      {"stdin from a directory", "--file - < " + ShellQuote(dir),
       "cannot read standard input: Is a directory"},
      {"missing file", "--file " + ShellQuote(dir + "/missing.txt"),
       "cannot open '" + dir + "/missing.txt': No such file or directory"},
  };
  std::filesystem::create_directories(dir + ".jsonl");
  for (const Case& c : cases) {
    const CliRun run = robotscan::regexguard::testing::RunCommand(
        REGEXGUARD_CLI_PATH, "check " + c.arguments, /*merge_stderr=*/true);
    EXPECT_EQ(run.exit_code, 2) << c.id << ": " << run.out;
    EXPECT_NE(run.out.find(c.message), std::string::npos)
        << c.id << ": " << run.out;
  }
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(dir + ".jsonl");
}

TEST(CliTest, FileInputKeepsInputOrderInJsonLines) {
  const std::string path = ::testing::TempDir() + "/regexguard_cli_test.jsonl";
  {
    std::ofstream file(path);
    file
        << R"({"id": "one", "pattern": "^\\d+\\d+!$", "dialect": "python"})"
        << "\n"
        << R"({"id": "two", "pattern": "abc"})"
        << "\n"
        << R"({"id": "three", "pattern": "\\s*$", "flags": "g", "dialect": "javascript"})"
        << "\n";
  }
  const CliRun run = RunCli("check --file " + path + " --format json --jobs 2");
  EXPECT_EQ(run.exit_code, 1);
  const auto rows = JsonLines(run.out);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0]["id"], "one");
  EXPECT_EQ(rows[0]["verdict"], "polynomial");
  EXPECT_EQ(rows[0]["degree"], 2);
  EXPECT_EQ(rows[0]["complexity"], "polynomial(2)");
  EXPECT_EQ(rows[1]["id"], "two");
  EXPECT_EQ(rows[1]["verdict"], "safe");
  EXPECT_EQ(rows[2]["id"], "three");
}

TEST(CliTest, SarifHasOneResultPerFinding) {
  const std::string path = ::testing::TempDir() + "/regexguard_cli_test.txt";
  {
    std::ofstream file(path);
    file << "^(a+)+$\nabc\n^\\s+|\\s+$\n";
  }
  const CliRun run =
      RunCli("check --file " + path + " --dialect javascript --format sarif");
  EXPECT_EQ(run.exit_code, 1);
  const auto sarif = nlohmann::json::parse(run.out);
  EXPECT_EQ(sarif["version"], "2.1.0");
  const auto& results = sarif["runs"][0]["results"];
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0]["ruleId"], "regexguard/exponential");
  // The same rule ids as `regexguard scan`, each declared by the driver.
  for (const auto& result : results) {
    bool declared = false;
    for (const auto& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) {
      declared = declared || rule["id"] == result["ruleId"];
    }
    EXPECT_TRUE(declared) << result["ruleId"];
    EXPECT_EQ(result["ruleId"].get<std::string>().rfind("regexguard/", 0), 0u);
  }
  EXPECT_EQ(
      results[0]["locations"][0]["physicalLocation"]["region"]["startLine"], 1);
  EXPECT_EQ(
      results[1]["locations"][0]["physicalLocation"]["region"]["startLine"], 3);
}

TEST(CliTest, TextFormatShowsCarets) {
  const CliRun run =
      RunCli("check " + ShellQuote("^(\\w+\\s?)+$") + " --dialect python");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("verdict: exponential"), std::string::npos);
  EXPECT_NE(run.out.find("^^^"), std::string::npos) << run.out;
}

// --engine-version (issue 27, item 3): without it the verdict names the
// versions it holds for; with it, a Ruby that memoizes the pattern makes it
// safe (exit 0), an older one keeps the finding (exit 1).
TEST(CliTest, EngineVersionDecidesRubyMemoization) {
  const std::string pattern = ShellQuote("^(a+)+$");
  const CliRun any = RunCli("check " + pattern + " --dialect ruby");
  EXPECT_EQ(any.exit_code, 1) << any.out;
  EXPECT_NE(any.out.find("verdict: exponential, cause: backtracking\n"
                         "versions: exponential on Ruby < 3.2; linear on "
                         "Ruby >= 3.2 (memoization)\n"),
            std::string::npos)
      << any.out;

  const CliRun old_ruby =
      RunCli("check " + pattern + " --dialect ruby --engine-version ruby=3.1");
  EXPECT_EQ(old_ruby.exit_code, 1) << old_ruby.out;
  EXPECT_NE(old_ruby.out.find("versions: exponential on Ruby 3.1 (linear "
                              "from Ruby 3.2 on: memoization)"),
            std::string::npos)
      << old_ruby.out;

  const CliRun new_ruby = RunCli("check " + pattern +
                                 " --dialect ruby --engine-version ruby=3.3 "
                                 "--format json");
  EXPECT_EQ(new_ruby.exit_code, 0) << new_ruby.out;
  const auto rows = JsonLines(new_ruby.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["verdict"], "safe");
  EXPECT_TRUE(rows[0]["attack"].is_null());
  EXPECT_EQ(rows[0]["defended_by"], "memoization");
  EXPECT_EQ(rows[0]["versions"],
            "linear on Ruby 3.3 (memoization); exponential on Ruby < 3.2");
  // The backtracker's own verdict is still there.
  EXPECT_EQ(rows[0]["configs"]["pcre2"]["growth"], "exponential");
  ASSERT_EQ(rows[0]["defences"].size(), 1u);
  const auto& defence = rows[0]["defences"][0];
  EXPECT_EQ(defence["engine"], "ruby");
  EXPECT_EQ(defence["defence"], "memoization");
  EXPECT_EQ(defence["available_from"], "3.2");
  EXPECT_EQ(defence["reached_from"], "3.2");
  EXPECT_EQ(defence["opt_in"], false);
  EXPECT_TRUE(defence["obstacle"].is_null());
}

TEST(CliTest, EngineVersionFieldsInJsonAndSarif) {
  const CliRun json = RunCli("check " + ShellQuote("^(?=a)(a+)+$") +
                             " --dialect dotnet --format json");
  EXPECT_EQ(json.exit_code, 1) << json.out;
  const auto rows = JsonLines(json.out);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["verdict"], "exponential");
  EXPECT_EQ(rows[0]["versions"],
            "exponential with .NET's backtracking engines (every .NET "
            "version); RegexOptions.NonBacktracking refuses a lookahead");
  EXPECT_TRUE(rows[0]["defended_by"].is_null());
  const auto& defence = rows[0]["defences"][0];
  EXPECT_EQ(defence["defence"], "non-backtracking");
  EXPECT_TRUE(defence["reached_from"].is_null());
  EXPECT_EQ(defence["obstacle_span"]["begin"], 1);
  EXPECT_EQ(defence["obstacle_span"]["end"], 6);

  // A dialect without a defence, a safe pattern: null and empty, present.
  const CliRun plain = RunCli("check " + ShellQuote("^abc$") +
                              " --dialect python --format json");
  const auto plain_rows = JsonLines(plain.out);
  ASSERT_EQ(plain_rows.size(), 1u);
  EXPECT_TRUE(plain_rows[0]["versions"].is_null());
  EXPECT_TRUE(plain_rows[0]["defended_by"].is_null());
  EXPECT_TRUE(plain_rows[0]["defences"].empty());

  const CliRun sarif =
      RunCli("check " + ShellQuote("^(a+)+$") +
             " --dialect javascript --engine-version node=22 --format sarif");
  EXPECT_EQ(sarif.exit_code, 1) << sarif.out;
  const auto log = nlohmann::json::parse(sarif.out);
  const auto& result = log["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "regexguard/exponential");
  EXPECT_EQ(result["properties"]["versions"],
            "exponential with V8's backtracking engine (Node 22); linear "
            "with V8's linear engine (Node >= 16: the l flag, under "
            "--enable-experimental-regexp-engine)");
  EXPECT_EQ(result["properties"]["defences"][0]["defence"], "linear-engine");
}

TEST(CliTest, TheLinearFlagAndBadEngineVersions) {
  const CliRun linear = RunCli("check " + ShellQuote("^(a+)+$") +
                               " --dialect javascript --flags l");
  EXPECT_EQ(linear.exit_code, 0) << linear.out;
  EXPECT_NE(linear.out.find("verdict: safe\n"), std::string::npos)
      << linear.out;
  // V8 refuses /(a)\1/l: an invalid pattern, exit 2 as for a syntax error.
  const CliRun refused = RunCli("check " + ShellQuote("(a)\\1") +
                                " --dialect javascript --flags l");
  EXPECT_EQ(refused.exit_code, 2) << refused.out;
  EXPECT_NE(refused.out.find("Cannot be executed in linear time"),
            std::string::npos)
      << refused.out;

  for (const char* bad : {"ruby", "ruby=three", "perl=5", "node="}) {
    const CliRun run = robotscan::regexguard::testing::RunCommand(
        REGEXGUARD_CLI_PATH, "check 'a+' --engine-version " + ShellQuote(bad),
        /*merge_stderr=*/true);
    EXPECT_EQ(run.exit_code, 2) << bad << ": " << run.out;
    EXPECT_NE(run.out.find("bad engine version"), std::string::npos)
        << bad << ": " << run.out;
  }
}

#else
TEST(CliTest, DISABLED_CliNotBuilt) {}
#endif

}  // namespace
