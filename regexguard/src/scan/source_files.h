// Which files a scan reads (scan.h), and their content. Private to the
// library.
//
// Directories: inside a git work tree the listing is git's own
// (`git ls-files --cached --others --exclude-standard`), so .gitignore,
// .git/info/exclude and the global excludes file apply exactly as git applies
// them; elsewhere (or with `use_git` false) the folder is walked. Either way
// hidden folders, node_modules, vendor, third_party and __pycache__ are
// skipped, and only files whose language LanguageForPath knows are kept.
// Files named explicitly (as pre-commit passes them) are taken as they are.
// Staged mode lists the added, copied and modified files of the index and
// reads their staged content (`git show :PATH`), not the work tree's.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SCAN_SOURCE_FILES_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SCAN_SOURCE_FILES_H_

#include <optional>
#include <string>
#include <vector>

#include "robotscan/regexguard/status.h"
#include "scan/scan_config.h"

namespace robotscan::regexguard::internal {

struct SourceFile {
  std::string path;  // as reported (relative to the current directory)
  // For staged files: the path in the git index (relative to the work
  // tree's root), whose staged content is read instead of the disk's.
  std::optional<std::string> index_path;
};

// The source files under `paths` that `config` selects, sorted and without
// duplicates. kIoError for a path that does not exist or cannot be read.
Result<std::vector<SourceFile>> CollectSourceFiles(
    const std::vector<std::string>& paths, const ScanConfig& config,
    bool use_git);

// The staged files (limited to `pathspecs` when not empty) that `config`
// selects, sorted. kIoError outside a git work tree.
Result<std::vector<SourceFile>> CollectStagedFiles(
    const std::vector<std::string>& pathspecs, const ScanConfig& config);

// The file's content (the staged blob for staged files); nullopt when it
// cannot be read.
std::optional<std::string> ReadSourceFile(const SourceFile& file);

// A NUL byte in the first 8 KiB marks a binary file, as git decides.
bool LooksBinary(const std::string& content);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SCAN_SOURCE_FILES_H_
