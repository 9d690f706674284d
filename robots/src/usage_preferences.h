// Parsers for the values of Content-Usage and Content-Signal lines
// (robotscan/robots/preferences.h). Private. They never fail: what they
// cannot read is recorded in the result for the linter.
#ifndef ROBOTSCAN_ROBOTS_SRC_USAGE_PREFERENCES_H_
#define ROBOTSCAN_ROBOTS_SRC_USAGE_PREFERENCES_H_

#include <string_view>
#include <vector>

#include "robotscan/robots/preferences.h"
#include "robotscan/robots/robots.h"

namespace robotscan::robots::internal {

// A member of an RFC 9651 Dictionary, as far as the aipref vocabulary
// needs it: its key, and its value when that is a Token (parameters and
// every other kind of value are parsed, then dropped).
struct DictionaryMember {
  std::string_view key;
  bool is_token = false;
  std::string_view token;
};

// Parses `input` as an RFC 9651 (§4.2.2) Dictionary into *members, a key
// repeated keeping its first position and its last value. False, with
// *members unspecified, when `input` is not one. Linear in the input.
bool ParseStructuredDictionary(std::string_view input,
                               std::vector<DictionaryMember>* members);

// "[path] statement" (draft-ietf-aipref-attach-05 §3.2); the path is
// escaped or normalised for matching as a rule pattern is in `compat`.
ContentUsage ParseContentUsage(std::string_view value, int line, Compat compat);

// "key=yes, key=no" (contentsignals.org).
ContentSignal ParseContentSignal(std::string_view value, int line);

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_USAGE_PREFERENCES_H_
