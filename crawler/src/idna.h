// Internationalized host names to their ASCII (punycode) form, with
// libidn2. Private to the crawler.
#ifndef ROBOTSCAN_CRAWLER_IDNA_H_
#define ROBOTSCAN_CRAWLER_IDNA_H_

#include <string>
#include <string_view>

namespace robotscan::crawler {

// `host` (UTF-8) as ASCII: nontransitional UTS #46 first (IDNA 2008, as
// browsers do), transitional as a fallback for names only the older rules
// accept. An ASCII host comes back unchanged. False, with libidn2's reason
// in *error, when the name is not a valid internationalized name.
bool HostToAscii(std::string_view host, std::string* ascii, std::string* error);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_IDNA_H_
