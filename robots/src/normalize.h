// Allocation-free core of NormalizeForMatching (url.h). Private.
#ifndef ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_
#define ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_

#include <array>
#include <cstddef>
#include <string>
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

// ExtractPathParamsQuery (and with kCheckSyntax, *well_formed as
// ExtractPathParamsQueryChecked's) for a run of URLs, most of which share
// their scheme and host with the one before: every URL checked against
// one robots.txt does. A URL that starts with the previous "http(s)://host"
// and then '/' has its path start there, so only the bytes after that
// prefix are searched for the path's end and for a control byte (the
// prefix's bytes, the same as the previous URL's, held neither). Up to a
// third of the instructions of a batch check went to finding the path.
// It keeps a pointer into a URL it was given (the last one whose prefix
// it took): every URL given must outlive the extractor's later calls, as
// a batch's do.
template <bool kCheckSyntax>
class RunPathExtractor {
 public:
  std::string_view Extract(std::string_view url, std::string& scratch,
                           bool* well_formed);

 private:
  const char* prefix_ = nullptr;  // The previous URL's "http(s)://host".
  std::size_t prefix_size_ = 0;   // 0: none.
};
extern template class RunPathExtractor<true>;
extern template class RunPathExtractor<false>;

// Writes the normal form of `input` to `out`, which must hold at least
// 3 * input.size() bytes (every byte may become %XX). Returns its length.
std::size_t NormalizeInto(std::string_view input, PathRole role, char* out);

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_NORMALIZE_H_
