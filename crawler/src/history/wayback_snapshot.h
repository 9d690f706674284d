// What a Wayback Machine snapshot (the answer to /web/<timestamp>id_/<URL>)
// says about the site, as the fetch a crawl would have recorded — or that
// the archive answered with a page of its own, or not at all.
//
// A replay of a capture carries Memento-Datetime (RFC 7089) and the
// site's headers as X-Archive-Orig-*; the archive's own pages (not
// archived after all, excluded, an error) carry neither, and are never
// recorded as the site's answer.
//
// Thread-safety: a pure function.
#ifndef ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_
#define ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "history/archive_client.h"
#include "history/wayback_cdx.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::crawler::history {

enum class SnapshotOutcome {
  kFetch,         // *record is the fetch to write.
  kArchiveError,  // The archive's own page (a 4xx or 2xx): no fetch.
  kFailed,        // The archive's 429 or 5xx after every try: left pending.
};

// Reads `response` to the snapshot of `capture` from the archive at
// `base`. For kFetch, fills *record (all but domain and rank): the
// capture's status (the CDX row's; a revisit's "-" is the replay's), the
// site's headers, a 2xx body cut at max_body, a captured redirect as an
// unresolved one (its target is not followed), fetched_at the capture
// time, source wayback with the timestamp. *why says what went wrong for
// the other outcomes.
SnapshotOutcome ReadSnapshot(const CdxCapture& capture,
                             const ArchiveResponse& response,
                             std::string_view base, std::size_t max_body,
                             storage::FetchRecord* record, std::string* why);

}  // namespace robotscan::crawler::history

#endif  // ROBOTSCAN_CRAWLER_HISTORY_WAYBACK_SNAPSHOT_H_
