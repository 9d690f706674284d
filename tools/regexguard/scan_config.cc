#include "scan_config.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include <toml++/toml.h>

namespace robotscan::regexguard::cli {
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

std::optional<ConfigError> ReadToml(const fs::path& file, ConfigNode* root) {
  try {
    *root = FromToml(toml::parse_file(file.string()));
  } catch (const toml::parse_error& e) {
    return ConfigError{
        Where(file, e.source().begin.line, e.source().begin.column) +
        std::string(e.description())};
  }
  root->line = root->column = 1;
  return std::nullopt;
}

// ---- YAML, the documented subset ----
//
// Top-level `key: value` lines; a value is a scalar, a flow list
// `[a, "b"]`, or (after `key:` alone) an indented block of `- item` lines or
// of `name: scalar` lines. Scalars are plain, "double-quoted" (\" \\ \n \t)
// or 'single-quoted' ('' for '). Comments start with # at the line start or
// after a blank. Anchors, tags, multi-line scalars and flow maps are refused.

class YamlReader {
 public:
  explicit YamlReader(fs::path file) : file_(std::move(file)) {}

  std::optional<ConfigError> Read(const std::string& text, ConfigNode* root) {
    SplitLines(text);
    root->kind = ConfigNode::Kind::kTable;
    root->line = root->column = 1;
    std::size_t i = 0;
    while (i < lines_.size()) {
      const Line& line = lines_[i];
      if (line.indent != 0) return Error(line, 1, "unexpected indentation");
      std::string key;
      std::size_t value_at = 0;
      if (auto error = SplitKey(line, &key, &value_at)) return error;
      ConfigNode value;
      if (value_at < line.text.size()) {
        if (auto error = Scalar(line, value_at, &value)) return error;
        ++i;
      } else {
        if (auto error = Block(&i, &value)) return error;
      }
      root->entries.push_back({std::move(key), std::move(value)});
    }
    return std::nullopt;
  }

 private:
  struct Line {
    std::size_t number = 0;  // 1-based
    std::size_t indent = 0;
    std::string text;  // without indentation and comment, right-trimmed
  };

  std::optional<ConfigError> Error(const Line& line, std::size_t column,
                                   const std::string& message) const {
    return ConfigError{Where(file_, line.number, column) + message};
  }

  void SplitLines(const std::string& text) {
    std::istringstream in(text);
    std::string raw;
    for (std::size_t number = 1; std::getline(in, raw); ++number) {
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      if (number == 1 && raw == "---") continue;
      // Cut the comment: a # outside quotes at the start or after a blank.
      char quote = 0;
      for (std::size_t k = 0; k < raw.size(); ++k) {
        const char c = raw[k];
        if (quote != 0) {
          if (c == '\\' && quote == '"') {
            ++k;
          } else if (c == quote) {
            quote = 0;
          }
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '#' && (k == 0 || raw[k - 1] == ' ')) {
          raw.resize(k);
          break;
        }
      }
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) {
        raw.pop_back();
      }
      const std::size_t indent = raw.find_first_not_of(' ');
      if (indent == std::string::npos) continue;
      lines_.push_back({number, indent, raw.substr(indent)});
    }
  }

  // "key: value" -> key and where the value starts (text.size() if none).
  std::optional<ConfigError> SplitKey(const Line& line, std::string* key,
                                      std::size_t* value_at) const {
    const std::size_t colon = line.text.find(':');
    if (colon == std::string::npos || colon == 0 ||
        (colon + 1 < line.text.size() && line.text[colon + 1] != ' ')) {
      return Error(line, line.indent + 1, "expected 'key: value'");
    }
    *key = line.text.substr(0, colon);
    if (key->find_first_of("\"'[]{}&*!|>%@`") != std::string::npos) {
      return Error(line, line.indent + 1, "unsupported key syntax");
    }
    *value_at = line.text.find_first_not_of(' ', colon + 1);
    if (*value_at == std::string::npos) *value_at = line.text.size();
    return std::nullopt;
  }

  // The indented lines after "key:" at lines_[*i].
  std::optional<ConfigError> Block(std::size_t* i, ConfigNode* out) {
    const Line& head = lines_[*i];
    ++*i;
    if (*i >= lines_.size() || lines_[*i].indent == 0) {
      return Error(head, head.text.size() + 1, "missing value");
    }
    const std::size_t indent = lines_[*i].indent;
    const bool list = lines_[*i].text.rfind("-", 0) == 0;
    out->kind = list ? ConfigNode::Kind::kList : ConfigNode::Kind::kTable;
    out->line = lines_[*i].number;
    out->column = indent + 1;
    for (; *i < lines_.size() && lines_[*i].indent > 0; ++*i) {
      const Line& line = lines_[*i];
      if (line.indent != indent) {
        return Error(line, line.indent + 1, "inconsistent indentation");
      }
      ConfigNode value;
      if (list) {
        if (line.text.rfind("- ", 0) != 0) {
          return Error(line, indent + 1, "expected '- item'");
        }
        const std::size_t at = line.text.find_first_not_of(' ', 2);
        if (auto error = Scalar(line, at, &value)) return error;
        if (value.kind == ConfigNode::Kind::kList) {
          return Error(line, indent + at + 1, "nested lists are not supported");
        }
        out->items.push_back(std::move(value));
      } else {
        std::string key;
        std::size_t at = 0;
        if (auto error = SplitKey(line, &key, &at)) return error;
        if (at >= line.text.size()) {
          return Error(line, indent + 1, "nesting deeper than one level");
        }
        if (auto error = Scalar(line, at, &value)) return error;
        out->entries.push_back({std::move(key), std::move(value)});
      }
    }
    return std::nullopt;
  }

  // A scalar or flow list from line.text[at].
  std::optional<ConfigError> Scalar(const Line& line, std::size_t at,
                                    ConfigNode* out) const {
    const std::string& text = line.text;
    out->line = line.number;
    out->column = line.indent + at + 1;
    if (text[at] == '[') {
      if (text.back() != ']') {
        return Error(line, out->column, "unterminated flow list");
      }
      out->kind = ConfigNode::Kind::kList;
      std::size_t k = at + 1;
      const std::size_t end = text.size() - 1;
      while (true) {
        while (k < end && text[k] == ' ') ++k;
        if (k == end) break;
        std::size_t item_end = k;
        if (text[k] == '"' || text[k] == '\'') {
          item_end = text.find(text[k], k + 1);
          while (item_end != std::string::npos && text[k] == '"' &&
                 text[item_end - 1] == '\\') {
            item_end = text.find('"', item_end + 1);
          }
          if (item_end == std::string::npos || item_end >= end) {
            return Error(line, line.indent + k + 1, "unterminated string");
          }
          ++item_end;
        } else {
          item_end = text.find(',', k);
          if (item_end == std::string::npos) item_end = end;
        }
        std::size_t trimmed = item_end;
        while (trimmed > k && text[trimmed - 1] == ' ') --trimmed;
        ConfigNode item;
        const Line piece{line.number, line.indent + k,
                         text.substr(k, trimmed - k)};
        if (auto error = Scalar(piece, 0, &item)) return error;
        if (item.kind == ConfigNode::Kind::kList) {
          return Error(line, item.column, "nested lists are not supported");
        }
        out->items.push_back(std::move(item));
        k = item_end;
        while (k < end && text[k] == ' ') ++k;
        if (k == end) break;
        if (text[k] != ',') {
          return Error(line, line.indent + k + 1, "expected ',' or ']'");
        }
        ++k;
      }
      return std::nullopt;
    }
    const std::string value = text.substr(at);
    if (value.front() == '"') {
      out->kind = ConfigNode::Kind::kString;
      for (std::size_t k = 1; k < value.size(); ++k) {
        if (value[k] == '"') {
          if (k + 1 != value.size()) {
            return Error(line, out->column + k + 1, "text after the string");
          }
          return std::nullopt;
        }
        if (value[k] == '\\' && k + 1 < value.size()) {
          const char escaped = value[++k];
          if (escaped == 'n') {
            out->text += '\n';
          } else if (escaped == 't') {
            out->text += '\t';
          } else if (escaped == '"' || escaped == '\\' || escaped == '/') {
            out->text += escaped;
          } else {
            return Error(line, out->column + k, "unsupported escape");
          }
        } else {
          out->text += value[k];
        }
      }
      return Error(line, out->column, "unterminated string");
    }
    if (value.front() == '\'') {
      out->kind = ConfigNode::Kind::kString;
      for (std::size_t k = 1; k < value.size(); ++k) {
        if (value[k] != '\'') {
          out->text += value[k];
        } else if (k + 1 < value.size() && value[k + 1] == '\'') {
          out->text += '\'';
          ++k;
        } else if (k + 1 != value.size()) {
          return Error(line, out->column + k + 1, "text after the string");
        } else {
          return std::nullopt;
        }
      }
      return Error(line, out->column, "unterminated string");
    }
    if (std::string("{&*!|>%@`").find(value.front()) != std::string::npos) {
      return Error(line, out->column,
                   "unsupported YAML (flow maps, anchors, tags, block "
                   "scalars); see docs/regexguard.md");
    }
    if (value == "true" || value == "false" || value == "null" ||
        value == "~") {
      out->kind = ConfigNode::Kind::kOther;
      return std::nullopt;
    }
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str() + value.size() &&
        value.find_first_of("0123456789") != std::string::npos &&
        value.find_first_of("xXnN") == std::string::npos) {
      out->kind = ConfigNode::Kind::kNumber;
      out->number = number;
      return std::nullopt;
    }
    out->kind = ConfigNode::Kind::kString;
    out->text = value;
    return std::nullopt;
  }

  fs::path file_;
  std::vector<Line> lines_;
};

// ---- Checking the keys, for both syntaxes ----

std::optional<ConfigError> ReadGlobs(const fs::path& file,
                                     const ConfigNode& node,
                                     std::vector<std::string>* out) {
  if (node.kind != ConfigNode::Kind::kList) {
    return ConfigError{Where(file, node) + "expected a list of glob strings"};
  }
  for (const ConfigNode& element : node.items) {
    if (element.kind != ConfigNode::Kind::kString || element.text.empty()) {
      return ConfigError{Where(file, element) +
                         "expected a non-empty glob string"};
    }
    out->push_back(element.text);
  }
  return std::nullopt;
}

std::optional<ConfigError> ReadChoice(
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
  return ConfigError{message};
}

std::optional<ConfigError> ReadConfig(const fs::path& file,
                                      const ConfigNode& root,
                                      ScanConfig* config) {
  for (const auto& [key, node] : root.entries) {
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
      if (node.kind != ConfigNode::Kind::kNumber || !(node.number > 0)) {
        error = ConfigError{Where(file, node) +
                            "expected a positive number of seconds"};
      } else {
        config->timeout_seconds = node.number;
      }
    } else if (key == "baseline") {
      if (node.kind != ConfigNode::Kind::kString || node.text.empty()) {
        error = ConfigError{Where(file, node) + "expected a file name"};
      } else {
        config->baseline = file.parent_path() / node.text;
      }
    } else if (key == "dialects") {
      if (node.kind != ConfigNode::Kind::kTable) {
        error = ConfigError{Where(file, node) +
                            "expected a table of language = dialect"};
      }
      for (const auto& [language, value] : node.entries) {
        const std::optional<Dialect> dialect =
            value.kind == ConfigNode::Kind::kString
                ? DialectFromName(value.text)
                : std::nullopt;
        if (!dialect) {
          error = ConfigError{Where(file, value) +
                              "expected a dialect name (pcre, python, "
                              "javascript, java, ruby, go, dotnet)"};
          break;
        }
        config->dialects[language] = *dialect;
      }
    } else {
      error = ConfigError{Where(file, node) + "unknown key '" + key + "'"};
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

std::optional<ConfigError> LoadScanConfig(const fs::path& file,
                                          ScanConfig* config) {
  ConfigNode root;
  if (file.extension() == ".yaml" || file.extension() == ".yml") {
    std::ifstream in(file, std::ios::binary);
    if (!in) return ConfigError{file.string() + ": cannot read"};
    std::ostringstream text;
    text << in.rdbuf();
    if (auto error = YamlReader(file).Read(text.str(), &root)) return error;
  } else if (auto error = ReadToml(file, &root)) {
    return error;
  }
  config->file = file;
  return ReadConfig(file, root, config);
}

}  // namespace robotscan::regexguard::cli
