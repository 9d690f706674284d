// The scan's configuration (scan_config.h): glob matching, and the TOML and
// YAML readers agreeing on every key.
#include "scan/scan_config.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "scan_parts_fixture.h"

namespace robotscan::regexguard::internal {
namespace {

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
                              "engine-versions = [\"ruby=3.3\", \"node=22\"]\n"
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
                              "engine-versions: [ruby=3.3, 'node=22']\n"
                              "dialects:\n"
                              "  python: pcre\n");
  const Result<ScanConfig> from_toml = LoadScanConfig(toml);
  const Result<ScanConfig> from_yaml = LoadScanConfig(yaml);
  ASSERT_TRUE(from_toml) << from_toml.status().message();
  ASSERT_TRUE(from_yaml) << from_yaml.status().message();
  for (const ScanConfig* config : {&*from_toml, &*from_yaml}) {
    EXPECT_EQ(config->include, std::vector<std::string>{"src/**"});
    EXPECT_EQ(config->exclude, (std::vector<std::string>{"gen", "*.min.js"}));
    EXPECT_EQ(config->fail_level, "warning");
    EXPECT_EQ(config->polynomial_severity, "error");
    EXPECT_EQ(config->timeout_seconds, 2.5);
    EXPECT_EQ(config->baseline, root_ / "base.json");
    EXPECT_EQ(EngineVersionsText(config->engine_versions),
              "node=22.0,ruby=3.3");
    ASSERT_EQ(config->dialects.count("python"), 1u);
    EXPECT_EQ(config->dialects.at("python"), Dialect::kPcre);
    EXPECT_TRUE(config->Selects(root_ / "src" / "a.py"));
    EXPECT_FALSE(config->Selects(root_ / "src" / "gen" / "a.py"));
    EXPECT_FALSE(config->Selects(root_ / "src" / "a.min.js"));
    EXPECT_FALSE(config->Selects(root_ / "lib" / "a.py"));
  }
  EXPECT_EQ(FindScanConfig(root_), root_ / ".regexguard.toml");
}
TEST_F(ScanPartsTest, ConfigMistakesAreErrorsWithTheirPlace) {
  const struct {
    const char* name;
    const char* content;
    const char* message;  // the error's message ends with this
  } kCases[] = {
      {"a.toml", "fail-level = \"fatal\"\n",
       ":1:14: expected one of \"error\" \"warning\" \"note\""},
      {"b.toml", "\nincludes = [\"src\"]\n", ":2:12: unknown key 'includes'"},
      {"c.toml", "timeout-per-regex = -1\n",
       ":1:21: expected a positive number of seconds"},
      {"d.yaml", "fail-level: true\n",
       ":1:13: expected one of \"error\" \"warning\" \"note\""},
      {"e.yaml", "dialects:\n  python: perl\n",
       ":2:11: expected a dialect name (pcre, python, javascript, java, ruby, "
       "go, dotnet)"},
      {"f.toml", "engine-versions = \"ruby=3.3\"\n",
       ":1:19: expected a list of \"engine=version\" strings"},
      {"g.yaml", "engine-versions: [ruby=3.3, perl=5]\n",
       ":1:29: bad engine version 'perl=5': expected ruby=X.Y, node=N, "
       "dotnet=N or java=N"},
  };
  for (const auto& c : kCases) {
    const Result<ScanConfig> config = LoadScanConfig(Write(c.name, c.content));
    ASSERT_FALSE(config) << c.name;
    EXPECT_EQ(config.status().code(), StatusCode::kInvalidArgument) << c.name;
    const std::string& message = config.status().message();
    const std::string ending = c.message;
    EXPECT_TRUE(message.size() >= ending.size() &&
                message.compare(message.size() - ending.size(), ending.size(),
                                ending) == 0)
        << c.name << ": " << message;
  }
  const Result<ScanConfig> missing = LoadScanConfig(root_ / "none.yaml");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), StatusCode::kIoError);
}

}  // namespace
}  // namespace robotscan::regexguard::internal
