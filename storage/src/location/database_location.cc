#include "robotscan/storage/database_location.h"

#include <cctype>

namespace robotscan::storage {
namespace {

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool IsPostgresUri(std::string_view location) {
  return StartsWithNoCase(location, "postgresql://") ||
         StartsWithNoCase(location, "postgres://");
}

std::string RedactDatabaseUri(std::string_view location) {
  if (!IsPostgresUri(location)) return std::string(location);
  std::string out(location);
  const std::size_t authority = out.find("://") + 3;
  // The user info ends at the last '@' before the path: a password may
  // itself contain '@' only percent-encoded, but be generous.
  const std::size_t path = out.find_first_of("/?", authority);
  const std::size_t end = path == std::string::npos ? out.size() : path;
  const std::size_t at = out.rfind('@', end == 0 ? 0 : end - 1);
  if (at != std::string::npos && at >= authority) {
    const std::size_t colon = out.find(':', authority);
    if (colon != std::string::npos && colon < at) {
      out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // ?password=... / &password=...
  const std::size_t query = out.find('?');
  if (query != std::string::npos) {
    std::size_t pos = query + 1;
    while (pos < out.size()) {
      std::size_t amp = out.find('&', pos);
      if (amp == std::string::npos) amp = out.size();
      const std::string_view pair(out.data() + pos, amp - pos);
      if (StartsWithNoCase(pair, "password=")) {
        out.replace(pos + 9, amp - pos - 9, "***");
        amp = out.find('&', pos);
        if (amp == std::string::npos) amp = out.size();
      }
      pos = amp + 1;
    }
  }
  return out;
}

}  // namespace robotscan::storage
