#include "scan/scan_config.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include <toml++/toml.h>
#include <yaml-cpp/yaml.h>

namespace robotscan::regexguard::internal {
namespace {

namespace fs = std::filesystem;

// A configuration value and where it was written, from either syntax, so
// both are checked by the same code with the same messages.
struct ConfigEntry;

struct ConfigNode {
  enum class Kind { kString, kNumber, kList, kTable, kOther };
  Kind kind = Kind::kOther;
  std::size_t line = 0;
  std::size_t column = 0;
  std::string text;                  // kString
  double number = 0;                 // kNumber
  std::vector<ConfigNode> items;     // kList
  std::vector<ConfigEntry> entries;  // kTable, in file order
};

struct ConfigEntry {
  std::string key;
  ConfigNode value;
};

std::string Where(const fs::path& file, std::size_t line, std::size_t column) {
  return file.string() + ":" + std::to_string(line) + ":" +
         std::to_string(column) + ": ";
}

std::string Where(const fs::path& file, const ConfigNode& node) {
  return Where(file, node.line, node.column);
}

// ---- TOML, through toml++ ----

ConfigNode FromToml(const toml::node& node) {
  ConfigNode out;
  out.line = node.source().begin.line;
  out.column = node.source().begin.column;
  if (const auto* text = node.as_string()) {
    out.kind = ConfigNode::Kind::kString;
    out.text = text->get();
  } else if (node.is_number()) {
    out.kind = ConfigNode::Kind::kNumber;
    out.number = node.value<double>().value_or(0);
  } else if (const auto* array = node.as_array()) {
    out.kind = ConfigNode::Kind::kList;
    for (const toml::node& element : *array) {
      out.items.push_back(FromToml(element));
    }
  } else if (const auto* table = node.as_table()) {
    out.kind = ConfigNode::Kind::kTable;
    for (const auto& [key, value] : *table) {
      out.entries.push_back({std::string(key.str()), FromToml(value)});
    }
  }
  return out;
}

std::optional<Status> ReadToml(const fs::path& file, ConfigNode* root) {
  try {
    *root = FromToml(toml::parse_file(file.string()));
  } catch (const toml::parse_error& e) {
    return Status{StatusCode::kInvalidArgument,
                  Where(file, e.source().begin.line, e.source().begin.column) +
                      std::string(e.description()),
                  std::nullopt};
  }
  root->line = root->column = 1;
  return std::nullopt;
}

// ---- YAML, through yaml-cpp ----

bool IsYamlBoolean(const std::string& text) {
  return text == "true" || text == "false" || text == "True" ||
         text == "False" || text == "TRUE" || text == "FALSE";
}

ConfigNode FromYaml(const YAML::Node& node) {
  ConfigNode out;
  const YAML::Mark mark = node.Mark();
  out.line = static_cast<std::size_t>(mark.line + 1);
  out.column = static_cast<std::size_t>(mark.column + 1);
  switch (node.Type()) {
    case YAML::NodeType::Scalar: {
      const std::string& text = node.Scalar();
      // A quoted scalar is tagged "!": always a string. A plain one is
      // typed as YAML's core schema types it.
      if (node.Tag() == "!") {
        out.kind = ConfigNode::Kind::kString;
        out.text = text;
        break;
      }
      if (IsYamlBoolean(text)) break;  // kOther
      char* end = nullptr;
      const double number = std::strtod(text.c_str(), &end);
      if (!text.empty() && end == text.c_str() + text.size() &&
          text.find_first_of("0123456789") != std::string::npos &&
          text.find_first_of("xXnN") == std::string::npos) {
        out.kind = ConfigNode::Kind::kNumber;
        out.number = number;
        break;
      }
      out.kind = ConfigNode::Kind::kString;
      out.text = text;
      break;
    }
    case YAML::NodeType::Sequence:
      out.kind = ConfigNode::Kind::kList;
      for (const YAML::Node& item : node) out.items.push_back(FromYaml(item));
      break;
    case YAML::NodeType::Map:
      out.kind = ConfigNode::Kind::kTable;
      for (const auto& entry : node) {
        out.entries.push_back({entry.first.Scalar(), FromYaml(entry.second)});
      }
      break;
    default:  // Null, undefined: kOther.
      break;
  }
  return out;
}

std::optional<Status> ReadYaml(const fs::path& file, ConfigNode* root) {
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return Status{StatusCode::kIoError, file.string() + ": cannot read",
                  std::nullopt};
  try {
    const YAML::Node document = YAML::Load(in);
    if (document.IsNull()) {
      *root = ConfigNode();
      root->kind = ConfigNode::Kind::kTable;  // An empty file: no settings.
    } else {
      *root = FromYaml(document);
    }
  } catch (const YAML::Exception& e) {
    return Status{StatusCode::kInvalidArgument,
                  Where(file, static_cast<std::size_t>(e.mark.line + 1),
                        static_cast<std::size_t>(e.mark.column + 1)) +
                      e.msg,
                  std::nullopt};
  }
  root->line = root->column = 1;
  return std::nullopt;
}

// ---- Checking the keys, for both syntaxes ----

std::optional<Status> ReadGlobs(const fs::path& file, const ConfigNode& node,
                                std::vector<std::string>* out) {
  if (node.kind != ConfigNode::Kind::kList) {
    return Status{StatusCode::kInvalidArgument,
                  Where(file, node) + "expected a list of glob strings",
                  std::nullopt};
  }
  for (const ConfigNode& element : node.items) {
    if (element.kind != ConfigNode::Kind::kString || element.text.empty()) {
      return Status{StatusCode::kInvalidArgument,
                    Where(file, element) + "expected a non-empty glob string",
                    std::nullopt};
    }
    out->push_back(element.text);
  }
  return std::nullopt;
}

std::optional<Status> ReadChoice(
    const fs::path& file, const ConfigNode& node,
    std::initializer_list<std::string_view> allowed,
    std::optional<std::string>* out) {
  if (node.kind == ConfigNode::Kind::kString) {
    for (std::string_view choice : allowed) {
      if (node.text == choice) {
        *out = node.text;
        return std::nullopt;
      }
    }
  }
  std::string message = Where(file, node) + "expected one of";
  for (std::string_view choice : allowed) {
    message += " \"" + std::string(choice) + "\"";
  }
  return Status{StatusCode::kInvalidArgument, message, std::nullopt};
}

std::optional<Status> ReadConfig(const fs::path& file, const ConfigNode& root,
                                 ScanConfig* config) {
  for (const auto& [key, node] : root.entries) {
    std::optional<Status> error;
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
    } else if (key == "injection") {
      error = ReadChoice(file, node, {"error", "warning", "off"},
                         &config->injection_severity);
    } else if (key == "timeout-per-regex") {
      if (node.kind != ConfigNode::Kind::kNumber || !(node.number > 0)) {
        error =
            Status{StatusCode::kInvalidArgument,
                   Where(file, node) + "expected a positive number of seconds",
                   std::nullopt};
      } else {
        config->timeout_seconds = node.number;
      }
    } else if (key == "baseline") {
      if (node.kind != ConfigNode::Kind::kString || node.text.empty()) {
        error =
            Status{StatusCode::kInvalidArgument,
                   Where(file, node) + "expected a file name", std::nullopt};
      } else {
        config->baseline = file.parent_path() / node.text;
      }
    } else if (key == "engine-versions") {
      if (node.kind != ConfigNode::Kind::kList) {
        error = Status{
            StatusCode::kInvalidArgument,
            Where(file, node) + "expected a list of \"engine=version\" strings",
            std::nullopt};
      }
      for (const ConfigNode& element : node.items) {
        const Status added =
            element.kind == ConfigNode::Kind::kString
                ? AddEngineVersion(element.text, &config->engine_versions)
                : Status(StatusCode::kInvalidArgument,
                         "expected an \"engine=version\" string");
        if (!added.ok()) {
          error = Status{StatusCode::kInvalidArgument,
                         Where(file, element) + added.message(), std::nullopt};
          break;
        }
      }
    } else if (key == "dialects") {
      if (node.kind != ConfigNode::Kind::kTable) {
        error =
            Status{StatusCode::kInvalidArgument,
                   Where(file, node) + "expected a table of language = dialect",
                   std::nullopt};
      }
      for (const auto& [language, value] : node.entries) {
        const std::optional<Dialect> dialect =
            value.kind == ConfigNode::Kind::kString
                ? DialectFromName(value.text)
                : std::nullopt;
        if (!dialect) {
          error = Status{StatusCode::kInvalidArgument,
                         Where(file, value) +
                             "expected a dialect name (pcre, python, "
                             "javascript, java, ruby, go, dotnet)",
                         std::nullopt};
          break;
        }
        config->dialects[language] = *dialect;
      }
    } else {
      error =
          Status{StatusCode::kInvalidArgument,
                 Where(file, node) + "unknown key '" + key + "'", std::nullopt};
    }
    if (error) return error;
  }
  return std::nullopt;
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

Result<ScanConfig> LoadScanConfig(const fs::path& file) {
  // toml++ reads a directory as an empty document (no settings, silently)
  // and yaml-cpp throws from the stream, so a directory is refused here.
  std::error_code not_statable;
  if (fs::is_directory(file, not_statable)) {
    return Status{StatusCode::kIoError,
                  file.string() + ": cannot read: " + std::strerror(EISDIR),
                  std::nullopt};
  }
  ConfigNode root;
  if (file.extension() == ".yaml" || file.extension() == ".yml") {
    if (auto error = ReadYaml(file, &root)) return *error;
  } else if (auto error = ReadToml(file, &root)) {
    return *error;
  }
  ScanConfig config;
  config.file = file;
  if (auto error = ReadConfig(file, root, &config)) return *error;
  return config;
}

}  // namespace robotscan::regexguard::internal
