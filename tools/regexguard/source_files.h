// Which files `regexguard scan` reads, and their content.
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
#ifndef ROBOTSCAN_TOOLS_REGEXGUARD_SOURCE_FILES_H_
#define ROBOTSCAN_TOOLS_REGEXGUARD_SOURCE_FILES_H_

#include <optional>
#include <string>
#include <vector>

#include "scan_config.h"

namespace robotscan::regexguard::cli {

struct SourceFile {
  std::string path;  // as reported (relative to the current directory)
  // For staged files: the path in the git index (relative to the work
  // tree's root), whose staged content is read instead of the disk's.
  std::optional<std::string> index_path;
};

struct WalkError {
  std::string message;
};

// Appends the source files under `paths` that `config` selects, sorted and
// without duplicates.
std::optional<WalkError> CollectSourceFiles(
    const std::vector<std::string>& paths, const ScanConfig& config,
    bool use_git, std::vector<SourceFile>* files);

// The staged files (limited to `pathspecs` when not empty) that `config`
// selects. Fails outside a git work tree.
std::optional<WalkError> CollectStagedFiles(
    const std::vector<std::string>& pathspecs, const ScanConfig& config,
    std::vector<SourceFile>* files);

// The file's content (the staged blob for staged files); nullopt when it
// cannot be read.
std::optional<std::string> ReadSourceFile(const SourceFile& file);

// A NUL byte in the first 8 KiB marks a binary file, as git decides.
bool LooksBinary(const std::string& content);

}  // namespace robotscan::regexguard::cli

#endif  // ROBOTSCAN_TOOLS_REGEXGUARD_SOURCE_FILES_H_
