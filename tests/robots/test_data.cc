#include "test_data.h"

#include <gtest/gtest.h>

#include <fstream>
#include <stdexcept>

namespace robotscan::robots::testing {

std::vector<nlohmann::json> ReadJsonLines(const std::string& name) {
  const std::string path =
      std::string(ROBOTSCAN_TEST_DATA_DIR) + "/conformance/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<nlohmann::json> records;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) records.push_back(nlohmann::json::parse(line));
  }
  return records;
}

std::string Base64Decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  int bits = 0;
  int acc = 0;
  for (char c : text) {
    const int v = value(c);
    if (v < 0) continue;  // '=' padding and whitespace.
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

std::string DecodedField(const nlohmann::json& record,
                         const std::string& field) {
  const std::string raw = record.at(field).get<std::string>();
  if (record.contains("encoding") && record["encoding"] == "base64") {
    return Base64Decode(raw);
  }
  return raw;
}

}  // namespace robotscan::robots::testing
