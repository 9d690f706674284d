// The scan's configuration file, `.regexguard.toml` (or the same keys in
// `.regexguard.yaml`): which files to scan, when the run fails, dialect
// overrides and the analysis budget. Private to the library (scan.h).
//
//   include = ["src/**"]          # default: every file of a known language
//   exclude = ["tests/fixtures/**", "*.min.js"]
//   fail-level = "error"          # error | warning | note
//   polynomial = "warning"        # severity of polynomial backtracking
//   injection = "error"           # regex injection: error | warning | off
//   timeout-per-regex = 2.0       # seconds per distinct pattern
//   baseline = "base.json"        # relative to this file
//   engine-versions = ["ruby=3.3"] # engine releases to judge for
//   [dialects]                    # language name = dialect name
//   javascript = "javascript"
//
// The file is found in the current directory or the nearest parent up to the
// git work tree's root (`--config FILE` names one). Unknown keys and wrong
// types are errors with their line, so a typo never silently disables a rule.
// Command-line flags override the file.
//
// Globs are matched against the path relative to the configuration file's
// folder: `*` and `?` stay within one path component, `**` crosses them, and
// a glob without `/` matches the file name or any folder name on the way, as
// in .gitignore. A glob that matches a folder matches everything below it.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SCAN_SCAN_CONFIG_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SCAN_SCAN_CONFIG_H_

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/engine_versions.h"
#include "robotscan/regexguard/status.h"

namespace robotscan::regexguard::internal {

struct ScanConfig {
  std::filesystem::path file;  // empty when no configuration file is used
  std::vector<std::string> include;
  std::vector<std::string> exclude;
  std::optional<std::string> fail_level;
  std::optional<std::string> polynomial_severity;
  std::optional<std::string> injection_severity;  // "off": not looked for
  std::optional<double> timeout_seconds;
  // The baseline file, resolved against the configuration file's folder.
  std::optional<std::filesystem::path> baseline;
  std::map<std::string, Dialect> dialects;  // by SourceLanguageName
  EngineVersions engine_versions;           // "engine-versions"

  // Whether `path` passes the include and exclude globs.
  bool Selects(const std::filesystem::path& path) const;
};

// The nearest `.regexguard.toml` (or `.regexguard.yaml`) from `start`
// upward, stopping at the folder that holds `.git`; nullopt when none.
std::optional<std::filesystem::path> FindScanConfig(
    const std::filesystem::path& start);

// Reads `file`: TOML, or YAML when the name ends in .yaml/.yml
// (docs/regexguard.md). Errors: kInvalidArgument with the message
// "FILE:LINE:COLUMN: what is wrong" (syntax, unknown key, wrong type), or
// kIoError for an unreadable file.
Result<ScanConfig> LoadScanConfig(const std::filesystem::path& file);

// Glob match as described above; `path` uses '/' separators. Linear-time
// in |glob| * |path| (no backtracking).
bool MatchesGlob(std::string_view glob, std::string_view path);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SCAN_SCAN_CONFIG_H_
