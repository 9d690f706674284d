// End-to-end tests of `regexguard scan`: directory walking, skipped
// folders, suppression, compiler-style output, exit codes, severity tiers,
// configuration file, baseline, cache and SARIF. The git-dependent parts
// (.gitignore, --staged, install-hook) are in scan_git_test.sh (label slow).
#include <gtest/gtest.h>

#include "cli_runner.h"

#include <sys/wait.h>

#include <array>
#include <chrono>
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

// Standard error merged into `out`, for --stats and error messages.
ScanRun RunScanWithStderr(const std::string& arguments) {
  return robotscan::regexguard::testing::RunCommand(
      REGEXGUARD_CLI_PATH, "scan " + arguments, /*merge_stderr=*/true);
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t CountLines(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
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
            "class A {\n  Pattern p = Pattern.compile(\"^((a|a)*)*$\");\n}\n");
  // Java's loop memo makes ^(a|a)*$ linear and ^(\w+\s?)*$ quadratic
  // there (proof/jit_model.h); a loop inside a quantified group has none.
  WriteFile(root_ / "b.kt", "val r = Regex(\"\"\"^((\\w+\\s?)*)*$\"\"\")\n");
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
  EXPECT_EQ(RunScan("--format xml " + Root()).exit_code, 2);
  EXPECT_EQ(RunScan("--fail-level fatal " + Root()).exit_code, 2);
}

// A directory where a file is expected opens like a file: --config DIR used
// to apply no settings and exit 0 (toml++ read it as an empty document), a
// YAML-named one or --baseline DIR ended in a C++ library message.
TEST_F(ScanCliTest, DirectoryGivenAsAFileIsAUsageErrorNamingIt) {
  WriteFile(root_ / "a.py", "import re\nre.compile(r'^(a+)+$')\n");
  struct Case {
    const char* id;
    std::string flag;
    fs::path directory;
    std::string message;
  };
  const Case cases[] = {
      {"toml config", "--config", root_ / "conf.toml", ": cannot read: "},
      {"yaml config", "--config", root_ / "conf.yaml", ": cannot read: "},
      {"baseline", "--baseline", root_ / "base.json", "cannot read baseline '"},
  };
  for (const Case& c : cases) {
    fs::create_directories(c.directory);
    const ScanRun run =
        RunScanWithStderr(c.flag + " " + c.directory.string() + " " + Root());
    EXPECT_EQ(run.exit_code, 2) << c.id << ": " << run.out;
    EXPECT_TRUE(Contains(run.out, c.directory.string())) << c.id << run.out;
    EXPECT_TRUE(Contains(run.out, c.message)) << c.id << ": " << run.out;
    EXPECT_TRUE(Contains(run.out, "Is a directory")) << c.id << ": " << run.out;
  }
}

// One file per tier; the rule id sets each tier apart in the text output.
TEST_F(ScanCliTest, SeverityTiersHaveTheirOwnRules) {
  WriteFile(root_ / "tiers.py",
            "import re\n"
            "re.compile(r'^(a+)+$')\n"     // exponential
            "re.compile(r'^a*a*$')\n"      // polynomial in one match
            "re.compile(r'\\s*x\\s*$')\n"  // quadratic via the search loop
            "re.compile(r'^(a|b)+(')\n");  // invalid: a note
  WriteFile(root_ / "lin.go",
            "package m\nimport \"regexp\"\n"
            "var r = regexp.MustCompile(`(a+)+$`)\n");
  const std::string path = (root_ / "tiers.py").string();
  const ScanRun run = RunScan("--no-cache " + Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_TRUE(Contains(run.out, path + ":2:12: error: exponential "))
      << run.out;
  EXPECT_TRUE(Contains(run.out, "[regexguard/exponential]")) << run.out;
  EXPECT_TRUE(Contains(run.out, path + ":3:12: warning: quadratic backtracking "
                                       "(ReDoS)"))
      << run.out;
  EXPECT_TRUE(Contains(run.out, "[regexguard/polynomial]")) << run.out;
  EXPECT_TRUE(Contains(run.out, path + ":4:12: warning: quadratic "
                                       "backtracking from the search loop"))
      << run.out;
  EXPECT_TRUE(Contains(run.out, "[regexguard/search-restart]")) << run.out;
  // Notes only on request.
  EXPECT_FALSE(Contains(run.out, ": note: verdict unknown")) << run.out;
  EXPECT_FALSE(Contains(run.out, "lin.go")) << run.out;
  const ScanRun info = RunScan("--no-cache --show-info " + Root());
  EXPECT_TRUE(Contains(info.out, path + ":5:12: note: verdict unknown"))
      << info.out;
  EXPECT_TRUE(Contains(info.out,
                       "lin.go:3:28: note: regex for a linear-time "
                       "engine"))
      << info.out;
  EXPECT_TRUE(Contains(info.out, "[regexguard/info]")) << info.out;

  // Polynomial is a warning by default: without the exponential one the run
  // passes, unless polynomial is raised to error or the fail level lowered.
  WriteFile(root_ / "tiers.py", "import re\nre.compile(r'^a*a*$')\n");
  EXPECT_EQ(RunScan("--no-cache " + Root()).exit_code, 0);
  EXPECT_EQ(
      RunScan("--no-cache --polynomial-severity error " + Root()).exit_code, 1);
  EXPECT_EQ(RunScan("--no-cache --fail-level warning " + Root()).exit_code, 1);
  EXPECT_EQ(
      RunScan("--no-cache --fail-level note --show-info " + Root()).exit_code,
      1);
}

// scan has no per-language code: every language the extractor knows is
// walked, analyzed in its dialect and reported the same way.
TEST_F(ScanCliTest, ScansEveryExtractorLanguage) {
  const struct {
    const char* file;
    const char* source;
    const char* location;
  } kCases[] = {
      {"A.java",
       "class A { java.util.regex.Pattern p = "
       "java.util.regex.Pattern.compile(\"^((a+)+)+$\"); }\n",
       "A.java:1:"},
      {"a.rb", "X = /^(a|a)*$/\n", "a.rb:1:5: error: exponential"},
      {"a.php", "<?php preg_match('/^(a+)+$/', $s);\n",
       "a.php:1:18: error: exponential"},
      {"C.cs",
       "class C { System.Text.RegularExpressions.Regex r = new "
       "System.Text.RegularExpressions.Regex(@\"^(a+)+$\"); }\n",
       "C.cs:1:"},
  };
  for (const auto& c : kCases) WriteFile(root_ / c.file, c.source);
  const ScanRun run = RunScan("--no-cache " + Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  for (const auto& c : kCases) {
    EXPECT_TRUE(Contains(run.out, c.location)) << c.file << "\n" << run.out;
  }
  EXPECT_EQ(CountLines(run.out, ": error: exponential"), 4u) << run.out;
}

// Issue 12: a PHP pattern PCRE2 as shipped survives (dot-star anchoring
// makes `.*[/;]` one scan per line) while a naive backtracker is
// quadratic: a note that says so, shown without --show-info, never silence
// and never an error; the same text from Python is the finding it is there.
TEST_F(ScanCliTest, PcreSurvivorThatExplodesOnNaiveBacktrackersIsANote) {
  WriteFile(root_ / "mime.php",
            "<?php\n"
            "$ext = preg_match('#.*[/;]#', $path);\n");
  WriteFile(root_ / "mime.py",
            "import re\n"
            "LAST = re.compile(r'.*[/;]')\n");
  const ScanRun run = RunScan(Root());
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_TRUE(Contains(run.out, "mime.php:2:")) << run.out;
  EXPECT_TRUE(Contains(run.out,
                       "note: PCRE2 as shipped (interpreter and JIT) "
                       "survives, but a naive backtracker"))
      << run.out;
  EXPECT_TRUE(Contains(run.out, "[regexguard/naive-only]")) << run.out;
  EXPECT_TRUE(Contains(run.out, "mime.py:2:")) << run.out;
  EXPECT_TRUE(Contains(run.out, "[regexguard/search-restart]")) << run.out;
}

TEST_F(ScanCliTest, BudgetExceededIsAWarningNeverSafe) {
  WriteFile(root_ / "slow.py", "import re\nre.compile(r'^(a+)+$')\n");
  const ScanRun run = RunScan(
      "--no-cache --timeout-per-regex 0.000001 --format json " + Root());
  ASSERT_EQ(run.exit_code, 0) << run.out;  // a warning: below the fail level
  const nlohmann::json row = nlohmann::json::parse(run.out);
  EXPECT_EQ(row["severity"], "warning");
  EXPECT_EQ(row["rule"], "regexguard/budget-exceeded");
  EXPECT_EQ(row["verdict"], "unknown");
  EXPECT_TRUE(Contains(row["reason"].get<std::string>(), "budget exceeded"));
  const ScanRun text =
      RunScan("--no-cache --timeout-per-regex 0.000001 " + Root());
  EXPECT_TRUE(Contains(text.out, "warning: analysis budget exceeded"))
      << text.out;
  EXPECT_TRUE(Contains(text.out, "not proven safe")) << text.out;
}

TEST_F(ScanCliTest, ConfigFileSelectsFilesAndSetsLevels) {
  WriteFile(root_ / "src" / "a.py", "import re\nre.compile(r'^a*a*$')\n");
  WriteFile(root_ / "tests" / "fixtures" / "b.py",
            "import re\nre.compile(r'^(a+)+$')\n");
  WriteFile(root_ / "src" / "c.min.js", "x = /^(a+)+$/;\n");
  WriteFile(root_ / ".regexguard.toml",
            "# comments are fine\n"
            "exclude = [\"tests/fixtures\", \"*.min.js\"]\n"
            "fail-level = \"warning\"\n"
            "timeout-per-regex = 5\n");
  // Found from a subfolder of the tree, as the nearest one upward.
  const std::string cd = "cd " + (root_ / "src").string() + " && ";
  ScanRun run = robotscan::regexguard::testing::RunCommand(
      cd + REGEXGUARD_CLI_PATH, "scan --no-cache --no-git ..");
  EXPECT_EQ(run.exit_code, 1) << run.out;  // the polynomial warning fails
  EXPECT_TRUE(Contains(run.out, "a.py:2:12: warning: quadratic")) << run.out;
  EXPECT_FALSE(Contains(run.out, "b.py")) << run.out;
  EXPECT_FALSE(Contains(run.out, "c.min.js")) << run.out;
  // Flags beat the file; --no-config ignores it.
  EXPECT_EQ(RunScan("--no-cache --fail-level error --config " +
                    (root_ / ".regexguard.toml").string() + " " + Root())
                .exit_code,
            0);
  EXPECT_TRUE(Contains(RunScan("--no-cache --no-config " + Root()).out,
                       "b.py:2:12: error"));

  // include, and dialect overrides by language name.
  WriteFile(root_ / "only.toml",
            "include = [\"src/**\"]\n"
            "polynomial = \"error\"\n"
            "[dialects]\n"
            "python = \"javascript\"\n");
  run = RunScan("--no-cache --format json --config " +
                (root_ / "only.toml").string() + " " + Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  std::istringstream rows(run.out);
  std::string first_row;
  std::getline(rows, first_row);  // src/a.py sorts before src/c.min.js
  const nlohmann::json row = nlohmann::json::parse(first_row);
  EXPECT_TRUE(Contains(row["path"], "a.py")) << run.out;
  EXPECT_EQ(row["dialect"], "javascript");
  EXPECT_EQ(row["severity"], "error");

  // Strict: unknown keys and wrong values are errors naming file and line.
  WriteFile(root_ / "bad.toml", "exclude = [\"x\"]\nfail_level = \"error\"\n");
  run = RunScanWithStderr("--config " + (root_ / "bad.toml").string() + " " +
                          Root());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.out, "bad.toml:2:")) << run.out;
  EXPECT_TRUE(Contains(run.out, "unknown key 'fail_level'")) << run.out;
  WriteFile(root_ / "bad.toml", "\n\ntimeout-per-regex = \"fast\"\n");
  run = RunScanWithStderr("--config " + (root_ / "bad.toml").string() + " " +
                          Root());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_TRUE(Contains(run.out, "bad.toml:3:")) << run.out;
  WriteFile(root_ / "bad.toml", "include = [\n");
  EXPECT_EQ(RunScan("--config " + (root_ / "bad.toml").string() + " " + Root())
                .exit_code,
            2);
}

// The YAML form takes the same keys (read with yaml-cpp, so anchors and
// the rest of YAML work); each mistake is named with its line and column.
TEST_F(ScanCliTest, YamlConfigFileTakesTheSameKeys) {
  WriteFile(root_ / "src" / "a.py", "import re\nre.compile(r'^a*a*$')\n");
  WriteFile(root_ / "gen" / "b.py", "import re\nre.compile(r'^(a+)+$')\n");
  WriteFile(root_ / ".regexguard.yaml",
            "---\n"
            "# which files\n"
            "exclude:\n"
            "  - gen          # generated\n"
            "  - '*.min.js'\n"
            "include: &globs [\"src/**\", gen/**]\n"
            "polynomial: error\n"
            "timeout-per-regex: 5\n"
            "dialects:\n"
            "  python: \"javascript\"\n");
  ScanRun run = robotscan::regexguard::testing::RunCommand(
      "cd " + Root() + " && " + REGEXGUARD_CLI_PATH,
      "scan --no-cache --format json");
  EXPECT_EQ(run.exit_code, 1) << run.out;  // polynomial raised to error
  const nlohmann::json row = nlohmann::json::parse(run.out);  // one row
  EXPECT_EQ(row["path"], "./src/a.py");
  EXPECT_EQ(row["dialect"], "javascript");
  EXPECT_EQ(row["severity"], "error");

  const struct {
    const char* id;
    const char* text;
    const char* where;
  } kBadFiles[] = {
      {"unknown key", "exclude: [a]\nfail_level: error\n", "bad.yaml:2:"},
      {"unterminated list", "include: [a, b\n", "bad.yaml:2:1:"},
      {"indentation", "exclude:\n  - a\n - b\n", "bad.yaml:3:2:"},
      {"number expected", "\ntimeout-per-regex: fast\n", "bad.yaml:2:20:"},
      {"map for a list", "exclude: {a: 1}\n", "bad.yaml:1:10:"},
      {"bad dialect", "dialects:\n  python: perl\n", "bad.yaml:2:11:"},
      {"boolean", "fail-level: true\n", "bad.yaml:1:13:"},
  };
  for (const auto& bad : kBadFiles) {
    WriteFile(root_ / "bad.yaml", bad.text);
    run = RunScanWithStderr("--config " + (root_ / "bad.yaml").string() + " " +
                            Root());
    EXPECT_EQ(run.exit_code, 2) << bad.id;
    EXPECT_TRUE(Contains(run.out, bad.where)) << bad.id << ": " << run.out;
  }
}

TEST_F(ScanCliTest, BaselineHidesKnownFindingsAcrossLineMoves) {
  const fs::path app = root_ / "app.py";
  WriteFile(app, "import re\nA = re.compile(r'^(a+)+$')\n");
  const std::string baseline = (root_ / "baseline.json").string();
  EXPECT_EQ(RunScan("--no-cache --write-baseline " + baseline + " " + Root())
                .exit_code,
            0);
  const nlohmann::json written = nlohmann::json::parse(std::ifstream(baseline));
  ASSERT_EQ(written["findings"].size(), 1u) << written.dump();
  EXPECT_EQ(written["findings"][0]["rule"], "regexguard/exponential");
  EXPECT_FALSE(written["findings"][0].contains("line"));

  // Lines inserted above: still the known finding.
  WriteFile(app, "import re\n\n\nX = 1\nA = re.compile(r'^(a+)+$')\n");
  ScanRun run = RunScan("--no-cache --baseline " + baseline + " " + Root());
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(run.out, "");
  // A new vulnerable regex (and a second copy of the known one) are new.
  WriteFile(app,
            "import re\nA = re.compile(r'^(a+)+$')\n"
            "B = re.compile(r'^(b|b)*$')\nC = re.compile(r'^(a+)+$')\n");
  run = RunScan("--no-cache --baseline " + baseline + " " + Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_FALSE(Contains(run.out, "app.py:2:")) << run.out;
  EXPECT_TRUE(Contains(run.out, "app.py:3:16: error")) << run.out;
  EXPECT_TRUE(Contains(run.out, "app.py:4:16: error")) << run.out;
  // JSON marks baselined rows.
  run = RunScan("--no-cache --format json --baseline " + baseline + " " +
                (root_ / "app.py").string());
  std::istringstream rows(run.out);
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(nlohmann::json::parse(line)["baselined"], true);
  EXPECT_EQ(
      RunScan("--baseline " + (root_ / "missing.json").string() + " " + Root())
          .exit_code,
      2);
}

TEST_F(ScanCliTest, SecondRunAnswersFromTheCacheWithIdenticalOutput) {
  WriteFile(root_ / "src" / "a.py",
            "import re\nre.compile(r'^(a+)+$')\nre.match(r'\\d+$', s)\n"
            "re.compile(r'^a*a*$')\n");
  WriteFile(root_ / "src" / "b.js", "x = /^(a|a)*$/; y = /^(a|a)*$/;\n");
  const std::string cache = (root_ / "cache").string();
  const std::string args =
      "--stats --jobs 2 --cache-dir " + cache + " " + (root_ / "src").string();
  const ScanRun cold = RunScanWithStderr(args);
  EXPECT_EQ(cold.exit_code, 1);
  EXPECT_TRUE(Contains(cold.out,
                       "files=2 regexes=5 distinct=4 analysed=4 cache-hits=0"))
      << cold.out;
  const ScanRun warm = RunScanWithStderr(args);
  EXPECT_EQ(warm.exit_code, 1);
  EXPECT_TRUE(Contains(warm.out, "analysed=0 cache-hits=4")) << warm.out;
  const std::string findings =
      RunScan("--cache-dir " + cache + " " + (root_ / "src").string()).out;
  EXPECT_EQ(findings, RunScan("--no-cache " + (root_ / "src").string()).out);
  EXPECT_EQ(CountLines(findings, ": error: "), 3u) << findings;

  // A corrupt entry is a miss, and is rewritten.
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(root_ / "cache" / "v1")) {
    entries.push_back(entry.path());
  }
  ASSERT_EQ(entries.size(), 4u);
  WriteFile(entries[0], "{\"key\": tru");
  const ScanRun repaired = RunScanWithStderr(args);
  EXPECT_TRUE(Contains(repaired.out, "analysed=1 cache-hits=3"))
      << repaired.out;
  EXPECT_TRUE(Contains(RunScanWithStderr(args).out, "cache-hits=4"));
  EXPECT_TRUE(Contains(RunScanWithStderr("--no-cache --stats " + Root()).out,
                       "cache-hits=0"));
}

TEST_F(ScanCliTest, RebuiltBinaryDoesNotTrustTheOldCache) {
  WriteFile(root_ / "src" / "a.py", "import re\nre.compile(r'^(a+)+$')\n");
  // A copy of the binary stands for a rebuild: same version, other file.
  const fs::path copy = root_ / "regexguard-copy";
  fs::copy_file(REGEXGUARD_CLI_PATH, copy);
  fs::permissions(copy, fs::perms::owner_all, fs::perm_options::add);
  const auto run = [&](const fs::path& binary) {
    return robotscan::regexguard::testing::RunCommand(
        binary.string(),
        "scan --stats --cache-dir " + (root_ / "cache").string() + " " +
            (root_ / "src").string(),
        /*merge_stderr=*/true);
  };
  EXPECT_TRUE(Contains(run(copy).out, "analysed=1 cache-hits=0"));
  EXPECT_TRUE(Contains(run(copy).out, "analysed=0 cache-hits=1"));
  fs::last_write_time(copy,
                      fs::last_write_time(copy) + std::chrono::seconds(5));
  EXPECT_TRUE(Contains(run(copy).out, "analysed=1 cache-hits=0"))
      << "a rebuilt binary must re-analyse";
  EXPECT_TRUE(Contains(run(copy).out, "analysed=0 cache-hits=1"));
}

TEST_F(ScanCliTest, SarifLogHasRulesLocationsAndAttack) {
  WriteFile(root_ / "dir with space" / "app.py",
            "import re\n\nNAME = re.compile(r'^(a+)+$')\n");
  WriteFile(root_ / "w.js", "s.replace(/^\\s*|\\s*$/g, '');\n");
  const ScanRun run = robotscan::regexguard::testing::RunCommand(
      "cd " + Root() + " && " + REGEXGUARD_CLI_PATH,
      "scan --no-cache --format sarif");
  EXPECT_EQ(run.exit_code, 1) << run.out;
  const nlohmann::json log = nlohmann::json::parse(run.out);
  EXPECT_EQ(log["version"], "2.1.0");
  const nlohmann::json& sarif_run = log["runs"][0];
  std::vector<std::string> rule_ids;
  for (const auto& rule : sarif_run["tool"]["driver"]["rules"]) {
    rule_ids.push_back(rule["id"]);
  }
  EXPECT_EQ(rule_ids,
            (std::vector<std::string>{
                "regexguard/exponential", "regexguard/polynomial",
                "regexguard/search-restart", "regexguard/budget-exceeded",
                "regexguard/unknown", "regexguard/info",
                "regexguard/naive-only", "regexguard/injection"}));
  ASSERT_EQ(sarif_run["results"].size(), 2u) << run.out;
  const nlohmann::json& first = sarif_run["results"][0];
  EXPECT_EQ(first["ruleId"], "regexguard/exponential");
  EXPECT_EQ(first["level"], "error");
  const nlohmann::json& location = first["locations"][0]["physicalLocation"];
  EXPECT_EQ(location["artifactLocation"]["uri"], "dir%20with%20space/app.py");
  EXPECT_EQ(location["region"]["startLine"], 3);
  EXPECT_EQ(location["region"]["startColumn"], 19);
  EXPECT_TRUE(Contains(first["message"]["text"], "attack: \"\" + \"a\" * n"))
      << first.dump();
  EXPECT_EQ(sarif_run["results"][1]["ruleId"], "regexguard/search-restart");
  EXPECT_EQ(sarif_run["results"][1]["level"], "warning");
}

TEST_F(ScanCliTest, JobsDoNotChangeTheOutput) {
  for (int i = 0; i < 6; ++i) {
    WriteFile(root_ / ("f" + std::to_string(i) + ".py"),
              "import re\nre.compile(r'^(" + std::string(1, 'a' + i) +
                  "+)+$')\nre.compile(r'^x*x*$')\n");
  }
  const ScanRun one = RunScan("--no-cache --jobs 1 " + Root());
  const ScanRun four = RunScan("--no-cache --jobs 4 " + Root());
  EXPECT_EQ(one.exit_code, 1);
  EXPECT_EQ(one.out, four.out);
  EXPECT_EQ(CountLines(one.out, ": error: "), 6u) << one.out;
}

// --engine-version on scan: the versions note and JSON field, a Ruby that
// memoizes the literal drops the finding, and the cache keeps the two
// runs' verdicts apart.
TEST_F(ScanCliTest, EngineVersionOnScan) {
  WriteFile(root_ / "app.rb", "NAME = /\\A(a+)+\\z/\n");
  const std::string cache = "--cache-dir " + (root_ / "cache").string() + " ";
  const ScanRun any = RunScan(cache + (root_ / "app.rb").string());
  EXPECT_EQ(any.exit_code, 1) << any.out;
  EXPECT_TRUE(Contains(any.out,
                       "app.rb:1:8: note: versions: exponential on "
                       "Ruby < 3.2; linear on Ruby >= 3.2 "
                       "(memoization)\n"))
      << any.out;

  const ScanRun new_ruby = RunScan(cache + "--engine-version ruby=3.3 " +
                                   (root_ / "app.rb").string());
  EXPECT_EQ(new_ruby.exit_code, 0) << new_ruby.out;
  EXPECT_FALSE(Contains(new_ruby.out, "error")) << new_ruby.out;

  const ScanRun old_ruby =
      RunScan(cache + "--engine-version ruby=3.1 --format json " +
              (root_ / "app.rb").string());
  EXPECT_EQ(old_ruby.exit_code, 1) << old_ruby.out;
  const auto row = nlohmann::json::parse(old_ruby.out);
  EXPECT_EQ(row["verdict"], "exponential");
  EXPECT_EQ(row["versions"],
            "exponential on Ruby 3.1 (linear from Ruby 3.2 on: memoization)");

  const ScanRun sarif =
      RunScan(cache + "--format sarif " + (root_ / "app.rb").string());
  const auto log = nlohmann::json::parse(sarif.out);
  EXPECT_EQ(log["runs"][0]["results"][0]["properties"]["versions"],
            "exponential on Ruby < 3.2; linear on Ruby >= 3.2 (memoization)");

  EXPECT_EQ(RunScan("--engine-version ruby=x " + Root()).exit_code, 2);
}

// The configuration's engine-versions, and the flag over it per engine.
TEST_F(ScanCliTest, EngineVersionsFromTheConfigurationFile) {
  WriteFile(root_ / "app.rb", "NAME = /\\A(a+)+\\z/\n");
  WriteFile(root_ / "cfg.toml", "engine-versions = [\"ruby=3.3\"]\n");
  const std::string common = "--no-cache --config " +
                             (root_ / "cfg.toml").string() + " " +
                             (root_ / "app.rb").string();
  EXPECT_EQ(RunScan(common).exit_code, 0);
  const ScanRun overridden = RunScan("--engine-version ruby=3.1 " + common);
  EXPECT_EQ(overridden.exit_code, 1) << overridden.out;
  EXPECT_TRUE(Contains(overridden.out, "exponential on Ruby 3.1"))
      << overridden.out;
  // Another engine's version leaves the configuration's Ruby in place.
  EXPECT_EQ(RunScan("--engine-version node=22 " + common).exit_code, 0);
}

// A JavaScript literal with the l flag runs on V8's linear engine.
TEST_F(ScanCliTest, LinearFlagLiteralIsNotAFinding) {
  WriteFile(root_ / "app.js",
            "const linear = /^(a+)+$/l;\n"
            "const backtracking = /^(b+)+$/;\n");
  const ScanRun run = RunScan("--no-cache " + Root());
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_EQ(CountLines(run.out, ": error: "), 1u) << run.out;
  EXPECT_TRUE(Contains(run.out, "app.js:2:")) << run.out;
}

#endif  // REGEXGUARD_CLI_PATH

}  // namespace
