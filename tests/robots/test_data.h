// Shared helpers for the robots tests: reading the JSON Lines conformance
// files copied into tests/data/conformance.
#ifndef ROBOTSCAN_TESTS_ROBOTS_TEST_DATA_H_
#define ROBOTSCAN_TESTS_ROBOTS_TEST_DATA_H_

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace robotscan::robots::testing {

// Every record of tests/data/conformance/<name>; fails the test if missing.
std::vector<nlohmann::json> ReadJsonLines(const std::string& name);

// The record's `field`, base64-decoded when the record says
// "encoding": "base64".
std::string DecodedField(const nlohmann::json& record,
                         const std::string& field);

std::string Base64Decode(const std::string& text);

}  // namespace robotscan::robots::testing

#endif  // ROBOTSCAN_TESTS_ROBOTS_TEST_DATA_H_
