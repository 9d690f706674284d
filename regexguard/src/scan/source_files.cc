#include "scan/source_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include "robotscan/regexguard/extract.h"
#include "scan/process.h"

namespace robotscan::regexguard::internal {
namespace {

namespace fs = std::filesystem;

// Folders never scanned: version control, dependencies and vendored code
// (which their own projects answer for), and hidden folders.
bool IsSkippedDirectoryName(std::string_view name) {
  return (name.size() > 1 && name[0] == '.' && name != "..") ||
         name == "node_modules" || name == "vendor" || name == "third_party" ||
         name == "__pycache__";
}

// Whether a relative path goes through a skipped folder.
bool IsUnderSkippedDirectory(const fs::path& relative) {
  const fs::path folders = relative.parent_path();
  for (const fs::path& part : folders) {
    if (IsSkippedDirectoryName(part.string())) return true;
  }
  return false;
}

bool IsWanted(const std::string& path, const ScanConfig& config) {
  return LanguageForPath(path).has_value() && config.Selects(path);
}

// Splits NUL-terminated git output.
std::vector<std::string> SplitNul(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (std::size_t end; (end = text.find('\0', begin)) != std::string::npos;
       begin = end + 1) {
    parts.push_back(text.substr(begin, end - begin));
  }
  return parts;
}

// Git's listing of `dir`: tracked files plus untracked ones not ignored.
// nullopt when `dir` is not inside a git work tree (or git is missing).
std::optional<std::vector<std::string>> ListWithGit(const std::string& dir) {
  const ProcessResult run =
      RunProcess({"git", "-C", dir, "ls-files", "--cached", "--others",
                  "--exclude-standard", "-z", "--", "."});
  if (run.exit_code != 0) return std::nullopt;
  return SplitNul(run.out);
}

void WalkDirectory(const std::string& dir, const ScanConfig& config,
                   std::vector<SourceFile>* files) {
  std::error_code error;
  fs::recursive_directory_iterator it(
      dir, fs::directory_options::skip_permission_denied, error);
  for (; !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_directory(error)) {
      if (IsSkippedDirectoryName(it->path().filename().string())) {
        it.disable_recursion_pending();
      }
      continue;
    }
    const std::string file = it->path().generic_string();
    if (it->is_regular_file(error) && IsWanted(file, config)) {
      files->push_back({file, std::nullopt});
    }
  }
}

void SortUnique(std::vector<SourceFile>* files) {
  auto by_path = [](const SourceFile& a, const SourceFile& b) {
    return a.path < b.path;
  };
  std::sort(files->begin(), files->end(), by_path);
  files->erase(std::unique(files->begin(), files->end(),
                           [](const SourceFile& a, const SourceFile& b) {
                             return a.path == b.path;
                           }),
               files->end());
}

}  // namespace

bool LooksBinary(const std::string& content) {
  return std::string_view(content).substr(0, 8192).find('\0') !=
         std::string_view::npos;
}

Result<std::vector<SourceFile>> CollectSourceFiles(
    const std::vector<std::string>& paths, const ScanConfig& config,
    bool use_git) {
  std::vector<SourceFile> listed_files;
  std::vector<SourceFile>* files = &listed_files;
  for (const std::string& path : paths) {
    std::error_code error;
    const fs::file_status status = fs::status(path, error);
    if (error || !fs::exists(status)) {
      return Status{StatusCode::kIoError, "cannot read '" + path + "'",
                    std::nullopt};
    }
    if (!fs::is_directory(status)) {
      // An explicit file (as hooks pass them) is scanned if its language is
      // known, silently ignored otherwise.
      if (IsWanted(path, config)) files->push_back({path, std::nullopt});
      continue;
    }
    std::optional<std::vector<std::string>> listed;
    if (use_git) listed = ListWithGit(path);
    if (!listed) {
      WalkDirectory(path, config, files);
      continue;
    }
    for (const std::string& relative : *listed) {
      if (IsUnderSkippedDirectory(relative)) continue;
      const fs::path full = fs::path(path) / relative;
      // --cached lists files deleted from the work tree, and submodules.
      if (!fs::is_regular_file(full, error)) continue;
      const std::string file = full.generic_string();
      if (IsWanted(file, config)) files->push_back({file, std::nullopt});
    }
  }
  SortUnique(files);
  return listed_files;
}

Result<std::vector<SourceFile>> CollectStagedFiles(
    const std::vector<std::string>& pathspecs, const ScanConfig& config) {
  std::vector<SourceFile> staged_files;
  std::vector<SourceFile>* files = &staged_files;
  std::vector<std::string> argv = {
      "git", "diff",         "--cached", "--name-only", "--diff-filter=ACM",
      "-z",  "--no-renames", "--"};
  argv.insert(argv.end(), pathspecs.begin(), pathspecs.end());
  const ProcessResult run = RunProcess(argv);
  if (run.exit_code != 0) {
    return Status{StatusCode::kIoError,
                  "--staged needs a git work tree (git diff --cached failed)",
                  std::nullopt};
  }
  // git names staged files from the root; report them from here: "sub/"
  // (the prefix) is dropped below sub, "../" (to the root) added elsewhere.
  const ProcessResult where =
      RunProcess({"git", "rev-parse", "--show-prefix", "--show-cdup"});
  std::vector<std::string> lines;
  std::size_t begin = 0;
  for (std::size_t end;
       (end = where.out.find('\n', begin)) != std::string::npos;
       begin = end + 1) {
    lines.push_back(where.out.substr(begin, end - begin));
  }
  const std::string prefix = lines.size() > 0 ? lines[0] : "";
  const std::string to_root = lines.size() > 1 ? lines[1] : "";
  for (const std::string& path : SplitNul(run.out)) {
    if (IsUnderSkippedDirectory(path)) continue;
    const std::string shown = !prefix.empty() && path.rfind(prefix, 0) == 0
                                  ? path.substr(prefix.size())
                                  : to_root + path;
    if (IsWanted(shown, config)) files->push_back({shown, path});
  }
  SortUnique(files);
  return staged_files;
}

std::optional<std::string> ReadSourceFile(const SourceFile& file) {
  if (file.index_path) {
    // ":PATH" names the staged blob, PATH relative to the work tree's root.
    const ProcessResult run =
        RunProcess({"git", "show", ":" + *file.index_path});
    if (run.exit_code != 0) return std::nullopt;
    return run.out;
  }
  std::ifstream in(file.path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace robotscan::regexguard::internal
