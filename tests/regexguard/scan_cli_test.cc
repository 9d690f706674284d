// End-to-end tests of `regexguard scan`: directory walking, skipped
// folders, suppression, compiler-style output and exit codes.
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
#include <vector>

namespace {

#ifdef REGEXGUARD_CLI_PATH

namespace fs = std::filesystem;

using ScanRun = robotscan::regexguard::testing::CliRun;

ScanRun RunScan(const std::string& arguments) {
  return robotscan::regexguard::testing::RunCommand(REGEXGUARD_CLI_PATH,
                                                    "scan " + arguments);
}

void WriteFile(const fs::path& path, const std::string& content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

class ScanCliTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::path(testing::TempDir()) /
        ("regexguard_scan_" +
         std::string(
             testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string Root() const { return root_.string(); }
  fs::path root_;
};

TEST_F(ScanCliTest, ReportsVulnerableRegexWithLocationAndAttack) {
  WriteFile(root_ / "app.py",
            "import re\n"
            "\n"
            "NAME = re.compile(r'^(a+)+$')\n");
  const ScanRun run = RunScan(Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  const std::string location = (root_ / "app.py").string() + ":3:19: ";
  EXPECT_NE(run.out.find(location + "error: exponential"), std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(location + "note: attack: "), std::string::npos)
      << run.out;
}

// One vulnerable literal per newly supported language, each reported at
// its own file, line and column; the Rust regex crate (linear time) and a
// suppressed PHP line are not reported.
TEST_F(ScanCliTest, ReportsEveryLanguageAtItsLiteral) {
  WriteFile(root_ / "a.cc", "// x\nstd::regex re(R\"((a+)+$)\");\n");
  WriteFile(root_ / "A.java",
            "class A {\n  Pattern p = Pattern.compile(\"^(a|a)*$\");\n}\n");
  WriteFile(root_ / "b.kt", "val r = Regex(\"\"\"^(\\w+\\s?)*$\"\"\")\n");
  WriteFile(root_ / "c.rb", "x = 1\ny = /^(a|aa)+$/\n");
  WriteFile(root_ / "d.php",
            "<?php\npreg_match('~^(a+)+$~', $s);\n"
            "preg_match('/^(b+)+$/', $s);  // regexguard: ignore trusted\n");
  WriteFile(root_ / "e.cs", "var r = new Regex(@\"^(a+)+$\");\n");
  WriteFile(root_ / "f.rs", "let r = Regex::new(r\"^(a+)+$\").unwrap();\n");
  const ScanRun run = RunScan(Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  for (const char* location :
       {"a.cc:2:15: error: exponential", "A.java:2:31: error: exponential",
        "b.kt:1:15: error: exponential", "c.rb:2:5: error: exponential",
        "d.php:2:12: error: exponential", "e.cs:1:19: error: exponential"}) {
    EXPECT_NE(run.out.find((root_ / location).string()), std::string::npos)
        << location << "\n"
        << run.out;
  }
  EXPECT_EQ(run.out.find("d.php:3:"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("f.rs"), std::string::npos) << run.out;
}

TEST_F(ScanCliTest, SafeSuppressedSkippedAndBinaryFilesPass) {
  WriteFile(root_ / "ok.py", "import re\nre.match(r'\\d+$', s)\n");
  WriteFile(root_ / "quiet.py",
            "import re\n"
            "# regexguard: ignore input is at most 10 chars\n"
            "re.compile(r'^(a+)+$')\n");
  WriteFile(root_ / "node_modules" / "dep.js", "x = /^(a+)+$/;\n");
  WriteFile(root_ / ".hidden" / "h.py", "re.compile(r'^(a+)+$')\n");
  WriteFile(root_ / "vendor" / "v.py", "re.compile(r'^(a+)+$')\n");
  WriteFile(root_ / "bin.js", std::string("x = /^(a+)+$/;\0", 15));
  const ScanRun run = RunScan(Root());
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(run.out, "");
}

TEST_F(ScanCliTest, FileListModeSkipsUnknownFilesAndWritesJsonRows) {
  WriteFile(root_ / "a.js",
            "s.replace(/^\\s*|\\s*$/g, '');\nt.replace(/^\\s*|\\s*$/g, '');\n");
  WriteFile(root_ / "b.txt", "re.compile(r'^(a+)+$')\n");
  const ScanRun run = RunScan("--format json " + (root_ / "a.js").string() +
                              " " + (root_ / "b.txt").string());
  // The search-restart finding is a warning: below the default fail level.
  EXPECT_EQ(run.exit_code, 0) << run.out;
  std::istringstream in(run.out);
  std::vector<nlohmann::json> rows;
  std::string line;
  while (std::getline(in, line)) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 2u) << run.out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i]["line"], i + 1);
    EXPECT_EQ(rows[i]["column"], 11);
    EXPECT_EQ(rows[i]["flags"], "g");
    EXPECT_EQ(rows[i]["severity"], "warning");
    EXPECT_EQ(rows[i]["cause"], "search-restart");
  }
  EXPECT_EQ(
      RunScan("--fail-level warning " + (root_ / "a.js").string()).exit_code,
      1);
}

TEST_F(ScanCliTest, UsageErrorsExitTwo) {
  EXPECT_EQ(RunScan((root_ / "missing").string()).exit_code, 2);
  EXPECT_EQ(RunScan("--format sarif " + Root()).exit_code, 2);
}

#endif  // REGEXGUARD_CLI_PATH

}  // namespace
