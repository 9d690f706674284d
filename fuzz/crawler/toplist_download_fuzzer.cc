// Fuzzes what `robotscan toplist` does with downloaded bytes (zip
// extraction with libarchive, HTML sniffing, the list parser) and the
// provenance line parser: any bytes must be refused or accepted cleanly,
// an accepted list has entries, and a parsed provenance line survives a
// round trip.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "robotscan/crawler/top_list_download.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the Content-Type the server claimed.
  static constexpr std::string_view kTypes[] = {
      "", "application/zip", "text/csv", "text/html; charset=utf-8"};
  const std::string_view type = kTypes[data[0] % 4];
  std::string bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  const std::string first_line = bytes.substr(0, bytes.find('\n'));

  robotscan::crawler::TopListDownload list;
  const robotscan::Status status = robotscan::crawler::ReadDownloadedList(
      "http://127.0.0.1/x", bytes, type, std::size_t{1} << 20, &list);
  if (status.ok() &&
      (list.provenance.entries <= 0 || list.provenance.sha256.size() != 64 ||
       list.csv.size() > (std::size_t{1} << 20) + bytes.size())) {
    __builtin_trap();
  }
  if (auto p = robotscan::crawler::ParseProvenanceLine(first_line)) {
    const auto again = robotscan::crawler::ParseProvenanceLine(
        robotscan::crawler::FormatProvenanceLine(*p));
    if (!again || again->source != p->source || again->sha256 != p->sha256 ||
        again->list_id != p->list_id) {
      __builtin_trap();
    }
  }
  return 0;
}
