// The persistent analysis cache of a scan (scan.h), private to the library:
// one small JSON file per analyzed (pattern, flags, dialect, anchoring,
// budget, tool version and build), so a second scan of an unchanged tree
// analyzes nothing.
//
// Layout: DIR/v1/<16 hex digits of the key's FNV-1a hash>.json holding the
// full key text (a hash collision is then a miss, never a wrong verdict) and
// the verdict. Entries are written to a temporary name and renamed into place,
// so concurrent scans sharing DIR see whole entries or none; an entry that
// does not parse is treated as missing and rewritten. Verdicts that ran out
// of the time budget are not stored: they depend on the machine's load, and
// the next run may well finish.
//
// DIR is ScanOptions::cache_dir, else $XDG_CACHE_HOME/regexguard, else
// $HOME/.cache/regexguard. The key text is the caller's (scan.cc puts the
// tool version and the build into it).
//
// Thread safety: Lookup and Store are const and may run concurrently.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SCAN_ANALYSIS_CACHE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SCAN_ANALYSIS_CACHE_H_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "robotscan/regexguard/scan.h"  // PatternVerdict

namespace robotscan::regexguard::internal {

// FNV-1a, 64 bits, as 16 lowercase hex digits: stable across builds and
// platforms (unlike std::hash), for cache file names and baseline keys.
std::string StableHash(std::string_view text);

class AnalysisCache {
 public:
  // An empty `dir` disables the cache: lookups miss, stores do nothing.
  explicit AnalysisCache(std::filesystem::path dir);

  std::optional<PatternVerdict> Lookup(const std::string& key) const;
  void Store(const std::string& key, const PatternVerdict& verdict) const;

 private:
  std::filesystem::path EntryPath(const std::string& key) const;
  std::filesystem::path dir_;
};

// $XDG_CACHE_HOME/regexguard or $HOME/.cache/regexguard; empty when neither
// variable is set.
std::filesystem::path DefaultCacheDirectory();

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SCAN_ANALYSIS_CACHE_H_
