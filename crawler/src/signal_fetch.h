// `crawl --signals`: after a domain's robots.txt, the AI-preference signals
// that live outside it (docs/crawler.md, "Signals"): /llms.txt,
// /.well-known/tdmrep.json (W3C TDMRep), and the homepage's X-Robots-Tag,
// Content-Usage (IETF aipref), tdm-reservation and tdm-policy headers.
//
// Like DomainFetch (fetch_machine.h) it is a state machine without I/O: the
// event loop carries out its actions with the same resolver, per-IP cap and
// transfer settings, and the records are written with the domain's fetch,
// in the same transaction, so a resumed crawl fetches them exactly once.
// The requests go to the origin that answered the robots.txt request (the
// scheme and host of its first response); a domain whose robots.txt got no
// response at all is not asked again, and its signals are recorded as not
// fetched. Redirects are followed (at most policy.max_redirects, http(s)
// only); there are no retries: a signal is a courtesy request, and one
// answer is what a crawler honouring it would see.
//
// What counts as present (JudgeSignal): a 2xx answer that is that kind of
// file. A site that answers every path with its HTML page or a "not found"
// page with status 200 (a soft 404) does not publish the file: HTML, an
// empty body, or a redirect that lands on the homepage is absent, with the
// reason recorded. tdmrep.json is also validated against TDMRep's format
// (ValidateTdmRep).
//
// Thread-safety: one machine per domain, used by one thread.
#ifndef ROBOTSCAN_CRAWLER_SIGNAL_FETCH_H_
#define ROBOTSCAN_CRAWLER_SIGNAL_FETCH_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "fetch_machine.h"
#include "robotscan/storage/crawl_store.h"
#include "url_parts.h"

namespace robotscan::crawler {

// The signals, in the order they are fetched.
inline constexpr std::string_view kSignalKinds[] = {"llms.txt", "tdmrep.json",
                                                    "homepage"};
// Bytes of a signal body kept: llms.txt and tdmrep.json files are small
// (the largest llms.txt files are indexes of a few KiB); the homepage's
// body is not kept, only enough is read to end the transfer cleanly.
inline constexpr std::size_t kSignalBodyLimitBytes = 64 * 1024;
inline constexpr std::size_t kHomepageBodyLimitBytes = 16 * 1024;

// True for an HTML answer: an HTML MIME type, or a body that starts (after
// a BOM and white space) with an HTML tag such as <!DOCTYPE html> or <html.
bool LooksLikeHtml(std::string_view content_type, std::string_view body);

// "" when `body` is a TDMRep file (W3C TDMRep, /.well-known/tdmrep.json): a
// JSON array of objects, each with a "location" string and a
// "tdm-reservation" of 0 or 1, and, if present, a "tdm-policy" string;
// otherwise what is wrong ("not JSON", "entry 2: tdm-reservation is not 0
// or 1", ...).
std::string ValidateTdmRep(std::string_view body);

// Sets record->present, absent_reason, valid and validation_error from what
// came back (http_status, content_type, body, final_url, redirects).
void JudgeSignal(storage::SignalRecord* record);

class SignalFetch {
 public:
  // `robots` is the domain's finished robots.txt fetch.
  SignalFetch(const FetchPolicy* policy, const storage::FetchRecord& robots);

  FetchAction Start();
  FetchAction OnAddresses(const std::vector<std::string>& addresses,
                          int connect_port, double dns_ms);
  FetchAction OnResolveFailed(ErrorClass error, const std::string& message,
                              double dns_ms);
  FetchAction OnTransferDone(TransferResult result);
  FetchAction OnRetryDue();  // Never asked for; ends the current signal.
  FetchAction OnStartFailed(const std::string& message);

  // Valid after kFinished: one record per kind, in kSignalKinds order.
  std::vector<storage::SignalRecord> TakeRecords() {
    return std::move(records_);
  }

 private:
  FetchAction StartSignal();
  FetchAction StartHop(std::string url, UrlParts parts);
  FetchAction EndSignal();
  FetchAction Fail(ErrorClass error, const std::string& message,
                   int http_status);
  std::size_t BodyLimit() const;  // Of the current signal's transfers.

  const FetchPolicy* policy_;
  bool reachable_ = false;
  UrlParts origin_;
  std::size_t next_kind_ = 0;
  storage::SignalRecord current_;
  std::string url_;
  UrlParts parts_;
  std::vector<std::string> visited_;
  std::string ip_;
  std::vector<storage::SignalRecord> records_;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_SIGNAL_FETCH_H_
