// Fuzzes crawl --signals' judges of what a site served (crawler/src/
// signal_fetch.h): any content type and body, as llms.txt, tdmrep.json or a
// homepage, give a verdict, never a crash, and the verdict is consistent: a
// present file is never HTML, a valid TDMRep file validates, a homepage's
// body is never judged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "signal_fetch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  using robotscan::crawler::JudgeSignal;
  using robotscan::crawler::kSignalKinds;
  using robotscan::crawler::LooksLikeHtml;
  using robotscan::crawler::ValidateTdmRep;
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  // First byte: the kind and whether the answer came through a redirect;
  // then the content type up to a newline, then the body.
  const std::size_t newline = input.find('\n');
  const std::string_view content_type =
      newline == std::string_view::npos ? "" : input.substr(0, newline);
  const std::string_view body =
      newline == std::string_view::npos ? input : input.substr(newline + 1);
  robotscan::storage::SignalRecord record;
  record.kind = std::string(kSignalKinds[data[0] % 3]);
  record.url = "https://a.test/x";
  record.final_url = (data[0] & 0x10) ? "https://a.test/" : record.url;
  record.redirects = (data[0] & 0x10) ? 1 : 0;
  record.http_status = 200;
  record.content_type = std::string(content_type);
  record.body = std::string(body);
  JudgeSignal(&record);
  if (record.present == !record.absent_reason.empty()) std::abort();
  if (record.kind != "homepage" && record.present &&
      LooksLikeHtml(record.content_type, record.body)) {
    std::abort();
  }
  if (record.valid == 1 && ValidateTdmRep(record.body) != "") std::abort();
  if (record.valid != -1 && record.kind != "tdmrep.json") std::abort();
  if (record.kind == "homepage" && !record.present) std::abort();
  return 0;
}
