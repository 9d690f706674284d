// What a Wayback Machine snapshot (the answer to /web/<timestamp>id_/<URL>)
// says about the site, as the fetch a crawl would have recorded — or that
// the archive answered with a page of its own, or not at all.
//
// A replay of a capture carries Memento-Datetime (RFC 7089) and the
// site's headers as X-Archive-Orig-*; the archive's own pages (not
// archived after all, excluded, an error) carry neither, and are never
// recorded as the site's answer. The archive's own redirects (to the
// capture nearest the time asked for) carry neither too, and are followed.
//
// A captured redirect is followed through the archive, as the crawler
// follows a live one: the target's capture nearest the first capture's
// time, if the archive has one in the same period (a fetch stands for its
// period); at most five captured redirects, as the crawler. The chain is a
// machine without I/O: it names the URL to ask for, takes the answer, and
// in the end says what to record.
//
// Thread-safety: a SnapshotChain is used by one thread.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_
#define ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "history/archive_client.h"
#include "history/wayback_cdx.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::crawler::history {

enum class SnapshotOutcome {
  kFetch,         // The record is the fetch to write.
  kArchiveError,  // The archive's own page for the first capture: no fetch.
  kFailed,        // The archive's 429 or 5xx after every try: left pending.
};

class SnapshotChain {
 public:
  // The captured redirects followed, at most (the crawler's limit).
  static constexpr int kMaxRedirects = 5;
  // The archive's own redirects followed per capture, at most.
  static constexpr int kMaxArchiveRedirects = 3;

  // `in_period`: whether a 14-digit timestamp lies in the first capture's
  // period. `base`: the archive's root, without a trailing slash.
  SnapshotChain(CdxCapture first, std::string base,
                std::function<bool(std::string_view)> in_period,
                std::size_t max_body);

  // The URL to ask the archive for next; "" once the chain is finished.
  const std::string& next_url() const { return next_url_; }
  // The archive's answer to next_url().
  void Answer(const ArchiveResponse& response);
  // Once finished: the outcome, with the fetch to write (all but domain
  // and rank) for kFetch, or why not.
  SnapshotOutcome Finish(storage::FetchRecord* record, std::string* why);

 private:
  struct Hop {
    std::string timestamp;  // Of the capture replayed.
    std::string url;        // The site's URL.
    int status = 0;
    ArchiveResponse response;
  };
  void Stop(storage::ErrorClass error, std::string message);

  CdxCapture first_;
  std::string base_;
  std::function<bool(std::string_view)> in_period_;
  std::size_t max_body_;
  std::string next_url_;
  std::string next_original_;  // The site's URL next_url_ asks for.
  int archive_redirects_ = 0;
  std::vector<Hop> hops_;
  // Why the chain ended before a final answer (kNone: it got one, or the
  // first capture was not replayed).
  storage::ErrorClass unresolved_ = storage::ErrorClass::kNone;
  std::string unresolved_message_;
  // A target's answer was the archive's 429 or 5xx after every try.
  bool failed_ = false;
  // The first capture's answer when it was no replay.
  bool not_replayed_ = false;
  ArchiveResponse archive_answer_;
};

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_
