#include "input.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <system_error>

namespace robotscan::regexguard::cli {
namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::optional<std::string> OptionalString(const nlohmann::json& object,
                                          const char* key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

}  // namespace

std::optional<InputError> ReadPatternFile(const std::string& path,
                                          std::vector<PatternInput>* out) {
  std::ifstream file;
  std::istream* in = &std::cin;
  const std::string name = path == "-" ? "standard input" : "'" + path + "'";
  if (path != "-") {
    // A directory opens like a file and then reads as nothing: without this
    // check `--file DIR` would analyze no pattern and exit 0.
    std::error_code not_statable;
    if (std::filesystem::is_directory(path, not_statable)) {
      return InputError{"cannot read " + name + ": " + std::strerror(EISDIR)};
    }
    file.open(path, std::ios::binary);
    if (!file) {
      return InputError{"cannot open " + name + ": " + std::strerror(errno)};
    }
    in = &file;
  }
  const bool json_lines = EndsWith(path, ".jsonl");
  errno = 0;
  std::string line;
  int number = 0;
  while (std::getline(*in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    PatternInput input;
    input.line = number;
    if (!json_lines) {
      input.pattern = line;
      out->push_back(std::move(input));
      continue;
    }
    const nlohmann::json object = nlohmann::json::parse(line, nullptr, false);
    if (object.is_discarded() || !object.is_object() ||
        !object.contains("pattern") || !object["pattern"].is_string()) {
      return InputError{path + ":" + std::to_string(number) +
                        ": expected a JSON object with a string \"pattern\""};
    }
    input.pattern = object["pattern"].get<std::string>();
    input.id = OptionalString(object, "id");
    input.flags = OptionalString(object, "flags");
    input.dialect = OptionalString(object, "dialect");
    out->push_back(std::move(input));
  }
  // A failed read (standard input redirected from a directory, an I/O
  // error) ends the loop like the end of the file. A file stream turns it
  // into badbit; std::cin reads through stdio (synced), where only
  // ferror(stdin) keeps it.
  if (in->bad() || (path == "-" && std::ferror(stdin))) {
    return InputError{"cannot read " + name +
                      (errno != 0 ? std::string(": ") + std::strerror(errno)
                                  : std::string())};
  }
  return std::nullopt;
}

}  // namespace robotscan::regexguard::cli
