// Fuzzes the top-list parser and domain normalization (IDNA via libidn2):
// any bytes, split into lines as TopListReader does, must parse without
// crashing, and every accepted domain must be normalized.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "robotscan/crawler/top_list.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  robotscan::crawler::TopListParser parser;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = text.size();
    robotscan::crawler::TopListEntry entry;
    robotscan::crawler::MalformedLine bad;
    if (parser.ParseLine(text.substr(start, end - start), &entry, &bad) ==
        robotscan::crawler::TopListParser::LineKind::kEntry) {
      // Invariants of a normalized name: non-empty, at most 253 bytes,
      // lower-case ASCII, and idempotent under normalization.
      if (entry.domain.empty() || entry.domain.size() > 253 ||
          entry.rank <= 0) {
        __builtin_trap();
      }
      for (char c : entry.domain) {
        if ((c >= 'A' && c <= 'Z') || static_cast<unsigned char>(c) >= 0x80) {
          __builtin_trap();
        }
      }
      std::string again, reason;
      if (!robotscan::crawler::NormalizeDomainName(entry.domain, &again,
                                                   &reason) ||
          again != entry.domain) {
        __builtin_trap();
      }
    }
    start = end + 1;
  }
  return 0;
}
