// Discovery (source_files.h): which files a scan reads when git does not
// list them, and what counts as binary.
#include "scan/source_files.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scan_parts_fixture.h"

namespace robotscan::regexguard::internal {
namespace {

TEST_F(ScanPartsTest, WalkKeepsKnownLanguagesAndSkipsDependencyFolders) {
  for (const char* folder : {"src", "node_modules/x", ".hidden", "vendor"}) {
    fs::create_directories(root_ / folder);
  }
  Write("src/b.py", "");
  Write("src/a.js", "");
  Write("src/notes.txt", "");  // no known language
  Write("node_modules/x/c.js", "");
  Write(".hidden/d.py", "");
  Write("vendor/e.go", "");
  const std::string root = root_.generic_string();
  // The same file twice (folder and name) is listed once.
  const Result<std::vector<SourceFile>> files = CollectSourceFiles(
      {root, root + "/src/a.js"}, ScanConfig(), /*use_git=*/false);
  ASSERT_TRUE(files) << files.status().message();
  std::vector<std::string> paths;
  for (const SourceFile& file : *files) {
    paths.push_back(file.path);
    EXPECT_FALSE(file.index_path);
  }
  EXPECT_EQ(paths,
            (std::vector<std::string>{root + "/src/a.js", root + "/src/b.py"}));

  const Result<std::vector<SourceFile>> missing =
      CollectSourceFiles({root + "/absent"}, ScanConfig(), false);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.status().code(), StatusCode::kIoError);
  EXPECT_EQ(missing.status().message(), "cannot read '" + root + "/absent'");
}

TEST_F(ScanPartsTest, ConfigGlobsSelectTheWalkedFiles) {
  fs::create_directories(root_ / "src" / "gen");
  Write("src/a.py", "");
  Write("src/gen/b.py", "");
  const fs::path config_file =
      Write(".regexguard.toml", "exclude = [\"gen\"]\n");
  const Result<ScanConfig> config = LoadScanConfig(config_file);
  ASSERT_TRUE(config);
  const Result<std::vector<SourceFile>> files =
      CollectSourceFiles({root_.string()}, *config, false);
  ASSERT_TRUE(files);
  ASSERT_EQ(files->size(), 1u);
  EXPECT_EQ(fs::path(files->front().path).filename(), "a.py");
  EXPECT_EQ(ReadSourceFile(files->front()), std::string());
  EXPECT_FALSE(ReadSourceFile({(root_ / "gone.py").string(), std::nullopt}));
}

TEST(LooksBinaryTest, ANulInTheFirst8KiB) {
  EXPECT_FALSE(LooksBinary("import re\n"));
  EXPECT_TRUE(LooksBinary(std::string("ab\0cd", 5)));
  EXPECT_FALSE(LooksBinary(std::string(8192, 'a') + std::string(1, '\0')));
}

}  // namespace
}  // namespace robotscan::regexguard::internal
