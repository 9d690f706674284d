// Allocation-free core of NormalizeForMatching (url.h). Private.
#ifndef ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_
#define ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_

#include <array>
#include <cstddef>
#include <string_view>

#include "robotscan/robots/url.h"

namespace robotscan::robots::internal {

// True when NormalizeForMatching would change `input`.
bool NeedsNormalization(std::string_view input, PathRole role);

// The bytes of a URL path that NormalizeForMatching may change or start an
// escape with ('%', '*', '$' and the bytes that must be encoded); every
// other byte is kept as it is, where it is.
const std::array<bool, 256>& UrlPathBytesNormalizationMayChange();

// ExtractPathParamsQuery, and in *well_formed whether UrlSyntaxError would
// accept `url` (no control byte, space or DEL), found in the same pass
// for most URLs.
std::string_view ExtractPathParamsQueryChecked(std::string_view url,
                                               std::string& scratch,
                                               bool* well_formed);

// Writes the normal form of `input` to `out`, which must hold at least
// 3 * input.size() bytes (every byte may become %XX). Returns its length.
std::size_t NormalizeInto(std::string_view input, PathRole role, char* out);

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_
