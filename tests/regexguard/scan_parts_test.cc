// Unit tests of the pieces behind `regexguard scan`: glob matching, the
// configuration readers (TOML and the YAML subset agree), the baseline's
// keys and counts, and the analysis cache's entries.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "baseline.h"
#include "cache.h"
#include "scan_config.h"

namespace robotscan::regexguard::cli {
namespace {

namespace fs = std::filesystem;

class ScanPartsTest : public testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::path(testing::TempDir()) /
        ("regexguard_parts_" +
         std::string(
             testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  fs::path Write(const std::string& name, const std::string& content) {
    std::ofstream(root_ / name, std::ios::binary) << content;
    return root_ / name;
  }
  fs::path root_;
};

TEST(MatchesGlobTest, Table) {
  const struct {
    const char* glob;
    std::string path;
    bool matches;
  } kCases[] = {
      {"*.py", "a.py", true},
      {"*.py", "src/deep/a.py", true},  // no '/': any depth, like .gitignore
      {"*.py", "a.pyc", false},
      {"src/*.py", "src/a.py", true},
      {"src/*.py", "src/x/a.py", false},  // '*' stays in one component
      {"src/**", "src/x/y/a.py", true},
      {"src/**/*.py", "src/a.py", true},  // "**/" matches no folder too
      {"src/**/*.py", "src/x/y/a.py", true},
      {"**/fixtures", "tests/fixtures/a.py", true},  // a folder: all below
      {"tests/fixtures", "tests/fixtures/a/b.py", true},
      {"tests/fixtures", "tests/fixturesX/b.py", false},
      {"fixtures", "tests/fixtures/a.py", true},
      {"/src/a.py", "src/a.py", true},  // leading '/' anchors at the root
      {"a?.js", "ab.js", true},
      {"a?.js", "a/.js", false},
      {"*.min.js", "dist/app.min.js", true},
      {"vendor/", "vendor/x.js", true},
      // Many stars never backtrack: |glob| * |path| steps.
      {"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", std::string(4000, 'a'), false},
  };
  for (const auto& c : kCases) {
    EXPECT_EQ(MatchesGlob(c.glob, c.path), c.matches)
        << c.glob << " vs " << c.path.substr(0, 40);
  }
}

TEST_F(ScanPartsTest, TomlAndYamlReadTheSameConfig) {
  const fs::path toml = Write(".regexguard.toml",
                              "include = [\"src/**\"]\n"
                              "exclude = ['gen', \"*.min.js\"]\n"
                              "fail-level = \"warning\"\n"
                              "polynomial = \"error\"\n"
                              "timeout-per-regex = 2.5\n"
                              "baseline = \"base.json\"\n"
                              "[dialects]\n"
                              "python = \"pcre\"\n");
  const fs::path yaml = Write(".regexguard.yaml",
                              "include: [src/**]\n"
                              "exclude:\n"
                              "  - gen\n"
                              "  - \"*.min.js\"\n"
                              "fail-level: warning\n"
                              "polynomial: 'error'\n"
                              "timeout-per-regex: 2.5\n"
                              "baseline: base.json\n"
                              "dialects:\n"
                              "  python: pcre\n");
  ScanConfig from_toml;
  ScanConfig from_yaml;
  ASSERT_FALSE(LoadScanConfig(toml, &from_toml));
  ASSERT_FALSE(LoadScanConfig(yaml, &from_yaml));
  for (const ScanConfig* config : {&from_toml, &from_yaml}) {
    EXPECT_EQ(config->include, std::vector<std::string>{"src/**"});
    EXPECT_EQ(config->exclude, (std::vector<std::string>{"gen", "*.min.js"}));
    EXPECT_EQ(config->fail_level, "warning");
    EXPECT_EQ(config->polynomial_severity, "error");
    EXPECT_EQ(config->timeout_seconds, 2.5);
    EXPECT_EQ(config->baseline, root_ / "base.json");
    ASSERT_EQ(config->dialects.count("python"), 1u);
    EXPECT_EQ(config->dialects.at("python"), Dialect::kPcre);
    EXPECT_TRUE(config->Selects(root_ / "src" / "a.py"));
    EXPECT_FALSE(config->Selects(root_ / "src" / "gen" / "a.py"));
    EXPECT_FALSE(config->Selects(root_ / "src" / "a.min.js"));
    EXPECT_FALSE(config->Selects(root_ / "lib" / "a.py"));
  }
  EXPECT_EQ(FindScanConfig(root_), root_ / ".regexguard.toml");
}

TEST(StableHashTest, IsFnv1a64) {
  EXPECT_EQ(StableHash(""), "cbf29ce484222325");
  EXPECT_EQ(StableHash("a"), "af63dc4c8601ec8c");
}

TEST_F(ScanPartsTest, BaselineCountsOccurrencesAndIgnoresLines) {
  const BaselineEntry known{"./src/a.py", "^(a+)+$", "", "python",
                            "regexguard/exponential"};
  const std::string file = (root_ / "baseline.json").string();
  ASSERT_FALSE(Baseline::Write(file, {known}));
  Baseline baseline;
  ASSERT_FALSE(Baseline::Read(file, &baseline));
  BaselineEntry same_elsewhere = known;
  same_elsewhere.path = "src/a.py";               // the same path, normalised
  same_elsewhere.rule = "regexguard/polynomial";  // the rule is not the key
  EXPECT_TRUE(baseline.Consume(same_elsewhere));
  EXPECT_FALSE(baseline.Consume(known));  // a second copy is new
  Baseline fresh;
  ASSERT_FALSE(Baseline::Read(file, &fresh));
  BaselineEntry other_flags = known;
  other_flags.flags = "i";
  EXPECT_FALSE(fresh.Consume(other_flags));
  BaselineEntry other_dialect = known;
  other_dialect.dialect = "javascript";
  EXPECT_FALSE(fresh.Consume(other_dialect));
  EXPECT_TRUE(
      Baseline::Read(Write("bad.json", "{\"version\": 2}").string(), &fresh)
          .has_value());
}

TEST_F(ScanPartsTest, CacheRoundTripsAndSkipsBrokenOrBudgetEntries) {
  const AnalysisCache cache(root_ / "cache");
  PatternVerdict verdict;
  verdict.verdict = Verdict::kExponential;
  verdict.cause = Cause::kBacktracking;
  verdict.attack = Attack{"", "a", "b"};
  EXPECT_FALSE(cache.Lookup("key 1"));
  cache.Store("key 1", verdict);
  const std::optional<PatternVerdict> back = cache.Lookup("key 1");
  ASSERT_TRUE(back);
  EXPECT_EQ(back->verdict, Verdict::kExponential);
  EXPECT_EQ(back->cause, Cause::kBacktracking);
  ASSERT_TRUE(back->attack);
  EXPECT_EQ(back->attack->pump, "a");
  EXPECT_FALSE(cache.Lookup("key 2"));

  // A corrupt entry is a miss; storing again repairs it.
  const fs::path entry =
      root_ / "cache" / "v1" / (StableHash("key 1") + ".json");
  ASSERT_TRUE(fs::exists(entry));
  std::ofstream(entry, std::ios::trunc)
      << "{\"key\": \"key 1\", \"verdict\": 7}";
  EXPECT_FALSE(cache.Lookup("key 1"));
  cache.Store("key 1", verdict);
  EXPECT_TRUE(cache.Lookup("key 1"));

  // Running out of time depends on the machine: never stored.
  PatternVerdict ran_out;
  ran_out.reason = "budget exceeded: time ran out";
  ASSERT_TRUE(ran_out.BudgetExceeded());
  cache.Store("key 3", ran_out);
  EXPECT_FALSE(cache.Lookup("key 3"));

  // No folder: a disabled cache.
  const AnalysisCache disabled{fs::path()};
  disabled.Store("key 1", verdict);
  EXPECT_FALSE(disabled.Lookup("key 1"));
}

}  // namespace
}  // namespace robotscan::regexguard::cli
