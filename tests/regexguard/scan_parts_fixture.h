// A fresh temporary folder per test for the scan's units (configuration,
// baseline, cache, discovery, ScanSources), removed afterwards.
#ifndef ROBOTSCAN_TESTS_REGEXGUARD_SCAN_PARTS_FIXTURE_H_
#define ROBOTSCAN_TESTS_REGEXGUARD_SCAN_PARTS_FIXTURE_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace robotscan::regexguard::internal {

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
}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_TESTS_REGEXGUARD_SCAN_PARTS_FIXTURE_H_
