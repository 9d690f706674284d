#include "scan/baseline.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <tuple>

#include <nlohmann/json.hpp>

#include "scan/analysis_cache.h"

namespace robotscan::regexguard::internal {
namespace {

std::string NormalPath(const std::string& path) {
  return std::filesystem::path(path).lexically_normal().generic_string();
}

std::string PatternHash(const BaselineEntry& entry) {
  return StableHash(entry.pattern + '\0' + entry.flags);
}

std::string KeyOf(const std::string& path, const std::string& pattern_hash,
                  const std::string& dialect) {
  return NormalPath(path) + '\0' + pattern_hash + '\0' + dialect;
}

}  // namespace

Result<Baseline> Baseline::Read(const std::string& file) {
  auto fail = [&](std::string message) {
    return Status{StatusCode::kIoError, std::move(message), std::nullopt};
  };
  // A directory opens like a file and then throws from the parser's read.
  std::error_code not_statable;
  if (std::filesystem::is_directory(file, not_statable)) {
    return fail("cannot read baseline '" + file +
                "': " + std::strerror(EISDIR));
  }
  std::ifstream in(file, std::ios::binary);
  if (!in) return fail("cannot read baseline '" + file + "'");
  const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("version", 0) != 1 ||
      !doc.contains("findings") || !doc["findings"].is_array()) {
    return fail("baseline '" + file +
                "' is not a version 1 regexguard baseline");
  }
  Baseline baseline;
  for (const nlohmann::json& finding : doc["findings"]) {
    if (!finding.is_object() || !finding.contains("path") ||
        !finding["path"].is_string() || !finding.contains("pattern_hash") ||
        !finding["pattern_hash"].is_string() || !finding.contains("dialect") ||
        !finding["dialect"].is_string()) {
      return fail("baseline '" + file +
                  "': each finding needs string path, pattern_hash and "
                  "dialect");
    }
    ++baseline.remaining_[KeyOf(finding["path"], finding["pattern_hash"],
                                finding["dialect"])];
  }
  return baseline;
}

Status Baseline::Write(const std::string& file,
                       const std::vector<BaselineEntry>& entries) {
  std::vector<nlohmann::json> rows;
  for (const BaselineEntry& entry : entries) {
    rows.push_back({{"path", NormalPath(entry.path)},
                    {"pattern_hash", PatternHash(entry)},
                    {"dialect", entry.dialect},
                    {"rule", entry.rule},
                    {"pattern", entry.pattern}});
  }
  auto key = [](const nlohmann::json& row) {
    return std::tie(row["path"].get_ref<const std::string&>(),
                    row["pattern_hash"].get_ref<const std::string&>(),
                    row["dialect"].get_ref<const std::string&>());
  };
  std::sort(rows.begin(), rows.end(),
            [&](const nlohmann::json& a, const nlohmann::json& b) {
              return key(a) < key(b);
            });
  const nlohmann::json doc = {
      {"version", 1}, {"tool", "regexguard"}, {"findings", rows}};
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
      << "\n";
  if (!out) {
    return Status{StatusCode::kIoError, "cannot write baseline '" + file + "'",
                  std::nullopt};
  }
  return Status();
}

bool Baseline::Consume(const BaselineEntry& entry) {
  auto it =
      remaining_.find(KeyOf(entry.path, PatternHash(entry), entry.dialect));
  if (it == remaining_.end() || it->second == 0) return false;
  --it->second;
  return true;
}

}  // namespace robotscan::regexguard::internal
