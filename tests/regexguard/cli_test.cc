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

#else
TEST(CliTest, DISABLED_CliNotBuilt) {}
#endif

}  // namespace
