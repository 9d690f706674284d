#include "scan_config.h"

#include <system_error>

#include <toml++/toml.h>

namespace robotscan::regexguard::cli {
namespace {

namespace fs = std::filesystem;

std::string Where(const fs::path& file, const toml::source_region& region) {
  return file.string() + ":" + std::to_string(region.begin.line) + ":" +
         std::to_string(region.begin.column) + ": ";
}

// Reads an array of strings; nullopt and a message for any other shape.
std::optional<ConfigError> ReadGlobs(const fs::path& file,
                                     const toml::node& node,
                                     std::vector<std::string>* out) {
  const toml::array* array = node.as_array();
  if (array == nullptr) {
    return ConfigError{Where(file, node.source()) +
                       "expected an array of glob strings"};
  }
  for (const toml::node& element : *array) {
    const std::optional<std::string> glob = element.value<std::string>();
    if (!glob || glob->empty()) {
      return ConfigError{Where(file, element.source()) +
                         "expected a non-empty glob string"};
    }
    out->push_back(*glob);
  }
  return std::nullopt;
}

std::optional<ConfigError> ReadChoice(
    const fs::path& file, const toml::node& node,
    std::initializer_list<std::string_view> allowed,
    std::optional<std::string>* out) {
  const std::optional<std::string> value = node.value<std::string>();
  if (value) {
    for (std::string_view choice : allowed) {
      if (*value == choice) {
        *out = *value;
        return std::nullopt;
      }
    }
  }
  std::string message = Where(file, node.source()) + "expected one of";
  for (std::string_view choice : allowed) {
    message += " \"" + std::string(choice) + "\"";
  }
  return ConfigError{message};
}

// Reachable path positions after each glob token, so a glob full of `*` costs
// |glob| * |path| steps and never backtracks.
bool MatchesWholePath(std::string_view glob, std::string_view path) {
  const std::size_t n = path.size();
  std::vector<bool> current(n + 1, false);
  current[0] = true;
  std::size_t g = 0;
  while (g < glob.size()) {
    std::vector<bool> next(n + 1, false);
    if (glob.compare(g, 3, "**/") == 0) {
      // Zero or more whole folders.
      bool started = false;
      for (std::size_t j = 0; j <= n; ++j) {
        if (current[j]) {
          started = true;
          next[j] = true;
        }
        if (j < n && started && path[j] == '/') next[j + 1] = true;
      }
      g += 3;
    } else if (glob.compare(g, 2, "**") == 0) {
      for (std::size_t j = 0; j <= n; ++j) {
        next[j] = next[j] || current[j];
        if (j < n && next[j]) next[j + 1] = true;
      }
      g += 2;
    } else if (glob[g] == '*') {
      for (std::size_t j = 0; j <= n; ++j) {
        next[j] = next[j] || current[j];
        if (j < n && next[j] && path[j] != '/') next[j + 1] = true;
      }
      g += 1;
    } else {
      for (std::size_t j = 0; j < n; ++j) {
        if (current[j] &&
            (glob[g] == '?' ? path[j] != '/' : path[j] == glob[g])) {
          next[j + 1] = true;
        }
      }
      g += 1;
    }
    current = std::move(next);
  }
  return current[n];
}

}  // namespace

bool MatchesGlob(std::string_view glob, std::string_view path) {
  if (!glob.empty() && glob.front() == '/') glob.remove_prefix(1);
  if (!glob.empty() && glob.back() == '/') glob.remove_suffix(1);
  const bool any_depth = glob.find('/') == std::string_view::npos;
  // The whole path, then each folder on the way to it.
  for (std::size_t end = path.size();;) {
    const std::string_view prefix = path.substr(0, end);
    if (any_depth) {
      const std::size_t slash = prefix.rfind('/');
      const std::string_view name =
          slash == std::string_view::npos ? prefix : prefix.substr(slash + 1);
      if (MatchesWholePath(glob, name)) return true;
    } else if (MatchesWholePath(glob, prefix)) {
      return true;
    }
    end = prefix.rfind('/');
    if (end == std::string_view::npos || end == 0) return false;
  }
}

bool ScanConfig::Selects(const fs::path& path) const {
  if (include.empty() && exclude.empty()) return true;
  std::string relative = path.generic_string();
  if (!file.empty()) {
    std::error_code error;
    const fs::path absolute = fs::absolute(path, error).lexically_normal();
    const fs::path base =
        fs::absolute(file, error).lexically_normal().parent_path();
    const fs::path inside = absolute.lexically_relative(base);
    if (!error && !inside.empty() && *inside.begin() != "..") {
      relative = inside.generic_string();
    }
  }
  if (relative.rfind("./", 0) == 0) relative.erase(0, 2);
  if (!include.empty()) {
    bool included = false;
    for (const std::string& glob : include) {
      included = included || MatchesGlob(glob, relative);
    }
    if (!included) return false;
  }
  for (const std::string& glob : exclude) {
    if (MatchesGlob(glob, relative)) return false;
  }
  return true;
}

std::optional<fs::path> FindScanConfig(const fs::path& start) {
  std::error_code error;
  fs::path dir = fs::absolute(start, error);
  if (error) return std::nullopt;
  for (;;) {
    for (const char* name : {".regexguard.toml", ".regexguard.yaml"}) {
      if (fs::is_regular_file(dir / name, error)) return dir / name;
    }
    if (fs::exists(dir / ".git", error) || dir == dir.parent_path()) {
      return std::nullopt;
    }
    dir = dir.parent_path();
  }
}

std::optional<ConfigError> LoadScanConfig(const fs::path& file,
                                          ScanConfig* config) {
  if (file.extension() == ".yaml" || file.extension() == ".yml") {
    return ConfigError{file.string() +
                       ": YAML configuration is not supported yet; write "
                       "the same keys as .regexguard.toml"};
  }
  toml::table table;
  try {
    table = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    return ConfigError{Where(file, e.source()) + std::string(e.description())};
  }
  config->file = file;
  for (const auto& [key, node] : table) {
    std::optional<ConfigError> error;
    if (key == "include") {
      error = ReadGlobs(file, node, &config->include);
    } else if (key == "exclude") {
      error = ReadGlobs(file, node, &config->exclude);
    } else if (key == "fail-level") {
      error = ReadChoice(file, node, {"error", "warning", "note"},
                         &config->fail_level);
    } else if (key == "polynomial") {
      error = ReadChoice(file, node, {"error", "warning"},
                         &config->polynomial_severity);
    } else if (key == "timeout-per-regex") {
      const std::optional<double> seconds = node.value<double>();
      if (!seconds || *seconds <= 0) {
        error = ConfigError{Where(file, node.source()) +
                            "expected a positive number of seconds"};
      } else {
        config->timeout_seconds = *seconds;
      }
    } else if (key == "dialects") {
      const toml::table* dialects = node.as_table();
      if (dialects == nullptr) {
        error = ConfigError{Where(file, node.source()) + "expected a table"};
      } else {
        for (const auto& [language, value] : *dialects) {
          const std::optional<std::string> name = value.value<std::string>();
          const std::optional<Dialect> dialect =
              name ? DialectFromName(*name) : std::nullopt;
          if (!dialect) {
            error = ConfigError{Where(file, value.source()) +
                                "expected a dialect name (pcre, python, "
                                "javascript, java, ruby, go, dotnet)"};
            break;
          }
          config->dialects[std::string(language.str())] = *dialect;
        }
      }
    } else {
      error = ConfigError{Where(file, node.source()) + "unknown key '" +
                          std::string(key.str()) + "'"};
    }
    if (error) return error;
  }
  return std::nullopt;
}

}  // namespace robotscan::regexguard::cli
