#include "scan/analysis_cache.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

namespace robotscan::regexguard::internal {
namespace {

namespace fs = std::filesystem;

std::optional<Verdict> VerdictFromName(std::string_view name) {
  for (Verdict v : {Verdict::kSafe, Verdict::kPolynomial, Verdict::kExponential,
                    Verdict::kUnknown}) {
    if (VerdictName(v) == name) return v;
  }
  return std::nullopt;
}

std::optional<Cause> CauseFromName(std::string_view name) {
  for (Cause c : {Cause::kNone, Cause::kBacktracking, Cause::kSearchRestart}) {
    if (CauseName(c) == name) return c;
  }
  return std::nullopt;
}

nlohmann::json ToJson(const std::string& key, const PatternVerdict& verdict) {
  nlohmann::json out = {{"key", key},
                        {"verdict", VerdictName(verdict.verdict)},
                        {"degree", verdict.degree},
                        {"cause", CauseName(verdict.cause)},
                        {"reason", verdict.reason},
                        {"attack", nullptr},
                        {"naive_only_growth", verdict.naive_only_growth},
                        {"naive_only_attack", nullptr},
                        {"versions", verdict.versions}};
  if (verdict.attack) {
    out["attack"] = {{"prefix", verdict.attack->prefix},
                     {"pump", verdict.attack->pump},
                     {"suffix", verdict.attack->suffix}};
  }
  if (verdict.naive_only_attack) {
    out["naive_only_attack"] = {{"prefix", verdict.naive_only_attack->prefix},
                                {"pump", verdict.naive_only_attack->pump},
                                {"suffix", verdict.naive_only_attack->suffix}};
  }
  return out;
}

// nullopt for anything but a well-formed entry for exactly `key`.
std::optional<PatternVerdict> FromJson(const std::string& key,
                                       const nlohmann::json& in) {
  if (!in.is_object() || in.value("key", "") != key) return std::nullopt;
  const auto verdict = VerdictFromName(in.value("verdict", ""));
  const auto cause = CauseFromName(in.value("cause", "?"));
  if (!verdict || !cause || !in.contains("degree") ||
      !in["degree"].is_number_integer() || !in.contains("attack")) {
    return std::nullopt;
  }
  PatternVerdict out;
  out.verdict = *verdict;
  out.cause = *cause;
  out.degree = in["degree"].get<int>();
  out.reason = in.value("reason", "");
  const nlohmann::json& attack = in["attack"];
  if (attack.is_object()) {
    out.attack = Attack{attack.at("prefix").get<std::string>(),
                        attack.at("pump").get<std::string>(),
                        attack.at("suffix").get<std::string>()};
  } else if (!attack.is_null()) {
    return std::nullopt;
  }
  out.naive_only_growth = in.value("naive_only_growth", "");
  out.versions = in.value("versions", "");
  if (in.contains("naive_only_attack") && in["naive_only_attack"].is_object()) {
    const nlohmann::json& naive = in["naive_only_attack"];
    out.naive_only_attack =
        Attack{naive.value("prefix", ""), naive.value("pump", ""),
               naive.value("suffix", "")};
  }
  return out;
}

}  // namespace

std::string StableHash(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(hash));
  return hex;
}

AnalysisCache::AnalysisCache(fs::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  dir_ /= "v1";
  std::error_code error;
  fs::create_directories(dir_, error);
  if (error) dir_.clear();  // an unwritable cache is no cache, not a failure
}

fs::path AnalysisCache::EntryPath(const std::string& key) const {
  return dir_ / (StableHash(key) + ".json");
}

std::optional<PatternVerdict> AnalysisCache::Lookup(
    const std::string& key) const {
  if (dir_.empty()) return std::nullopt;
  std::ifstream in(EntryPath(key), std::ios::binary);
  if (!in) return std::nullopt;
  const nlohmann::json entry = nlohmann::json::parse(in, nullptr, false);
  if (entry.is_discarded()) return std::nullopt;
  try {
    return FromJson(key, entry);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // wrong types inside: corrupt, rewritten later
  }
}

void AnalysisCache::Store(const std::string& key,
                          const PatternVerdict& verdict) const {
  if (dir_.empty() || verdict.BudgetExceeded()) return;
  const fs::path target = EntryPath(key);
  std::ostringstream suffix;
  suffix << ".tmp." << ::getpid() << "."
         << std::hash<std::thread::id>{}(std::this_thread::get_id());
  fs::path temporary = target;
  temporary += suffix.str();
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return;
    out << ToJson(key, verdict)
               .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (!out) return;
  }
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) fs::remove(temporary, error);
}

fs::path DefaultCacheDirectory() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
    return fs::path(xdg) / "regexguard";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return fs::path(home) / ".cache" / "regexguard";
  }
  return {};
}

}  // namespace robotscan::regexguard::internal
