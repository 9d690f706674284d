// The columns both LatestFetchReader backends select (in this order) and
// the one decoding of such a row into a LatestFetchRow, so that the SQLite
// and the PostgreSQL reader cannot drift apart. Each backend's SQL lists
// the columns in Column order; each backend wraps its current row in a
// small cell reader. Private to storage.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_COLUMNS_H_
#define ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_COLUMNS_H_

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "body_codec.h"
#include "robotscan/storage/latest_fetch_reader.h"
#include "robotscan/storage/status.h"
#include "schema/crawl_tables.h"

namespace robotscan::storage::latest_fetch_columns {

enum Column : int {
  kDomain,
  kRank,
  kUrl,
  kFinalUrl,
  kHttpStatus,
  kAccess,
  kError,
  kRedirects,
  kBytes,
  kTruncated,
  kContentType,
  kBody,
  kBodySha256,
  kFetchedAt,
  kCompression,
  kCompressedBody,
  kNotModified,
  // The fetch's signals (crawl --signals): NULL where there are none or
  // the database has no signal_fetch table.
  kSignalsFetched,
  kLlmsTxtPresent,
  kTdmRepPresent,
  kTdmRepValid,
  kTdmRepBody,
  kXRobotsTag,
  kContentUsage,
  kTdmReservation,
  kTdmPolicy,
};

// What each Column reads, in Column order: a column of the view by name,
// or nullptr for kCompressedBody (a zstd body, which the view leaves
// NULL). latest_fetch_view.h makes both backends' SELECT of them.
inline constexpr const char* kViewColumnOf[] = {
    "domain",       "rank",  "url",         "final_url",  "http_status",
    "access",       "error", "redirects",   "bytes",      "truncated",
    "content_type", "body",  "body_sha256", "fetched_at", "body_compression",
    nullptr,  // kCompressedBody
    "not_modified",
};
static_assert(std::size(kViewColumnOf) == kNotModified + 1);

// The signal columns, after kViewColumnOf's, in Column order: from three
// LEFT JOINs of signal_fetch (aliases s1 llms.txt, s2 tdmrep.json, s3
// homepage), as latest_fetch_view.h joins them.
inline constexpr const char* kSignalColumnOf[] = {
    "CASE WHEN s3.kind IS NULL THEN 0 ELSE 1 END",
    "s1.present",
    "s2.present",
    "s2.valid",
    "s2.body",
    "s3.x_robots_tag",
    "s3.content_usage",
    "s3.tdm_reservation",
    "s3.tdm_policy",
};
static_assert(std::size(kSignalColumnOf) == kTdmPolicy - kNotModified);

// Fills *row from the current row of `cells`, which provides
//   std::string_view Bytes(int column) const;   // NULL: empty
//   std::int64_t Int(int column) const;         // NULL: 0
//   bool IsNull(int column) const;
// Strings keep their capacity from row to row. A compressed body is
// decompressed (kCorrupt, naming the domain, when it does not decode).
template <typename Cells>
Status DecodeLatestFetchRow(const Cells& cells, LatestFetchRow* row) {
  row->domain.assign(cells.Bytes(kDomain));
  row->rank = cells.Int(kRank);
  row->url.assign(cells.Bytes(kUrl));
  row->final_url.assign(cells.Bytes(kFinalUrl));
  row->http_status = static_cast<int>(cells.Int(kHttpStatus));
  // The view's access column is NOT NULL with a CHECK on its names; an
  // error class a newer robotscan added reads as kOther.
  if (!schema::AccessCodec::Load(cells, kAccess, &row->access)) {
    return Status(Status::Code::kCorrupt,
                  "latest_fetch of " + row->domain +
                      " holds an access class this robotscan cannot read");
  }
  schema::ErrorClassCodec::LoadOr(cells, kError, ErrorClass::kOther,
                                  &row->error);
  row->redirects = static_cast<int>(cells.Int(kRedirects));
  row->bytes = cells.Int(kBytes);
  row->truncated = cells.Int(kTruncated) != 0;
  row->not_modified = cells.Int(kNotModified) != 0;
  row->content_type.assign(cells.Bytes(kContentType));
  row->body_sha256.assign(cells.Bytes(kBodySha256));
  row->fetched_at.assign(cells.Bytes(kFetchedAt));
  if (!cells.IsNull(kCompressedBody)) {
    Status s = DecompressBody(cells.Bytes(kCompressedBody), 0, &row->body);
    if (!s.ok()) {
      return Status(s.code(), s.message() + " (" + row->domain + ")");
    }
  } else {
    row->body.assign(cells.Bytes(kBody));
  }
  SignalSummary& signals = row->signals;
  signals.fetched = cells.Int(kSignalsFetched) != 0;
  signals.llms_txt = cells.Int(kLlmsTxtPresent) != 0;
  signals.tdmrep = cells.Int(kTdmRepPresent) != 0;
  signals.tdmrep_valid = cells.IsNull(kTdmRepValid)
                             ? -1
                             : static_cast<int>(cells.Int(kTdmRepValid));
  signals.tdmrep_body.assign(cells.Bytes(kTdmRepBody));
  signals.x_robots_tag.assign(cells.Bytes(kXRobotsTag));
  signals.content_usage.assign(cells.Bytes(kContentUsage));
  signals.tdm_reservation.assign(cells.Bytes(kTdmReservation));
  signals.tdm_policy.assign(cells.Bytes(kTdmPolicy));
  return Status::Ok();
}

// LatestFetchReader::Next's answer once a backend has stepped onto a row:
// true with *row filled, or DecodeLatestFetchRow's error.
template <typename Cells>
Result<bool> DecodeNextRow(const Cells& cells, LatestFetchRow* row) {
  if (Status s = DecodeLatestFetchRow(cells, row); !s.ok()) return s;
  return true;
}

// Fills *body (its excerpt aside) from a row of FindSharedBodies' GROUP BY,
// whose columns both backends select in this order: the body's hex
// SHA-256, the domains serving it, its size, the best rank (INT64_MAX:
// none), and that rank packed with the example domain ("<rank>|<domain>",
// one min() picking both; the domain is what follows the first '|').
template <typename Cells>
void DecodeSharedBody(const Cells& cells, SharedBody* body) {
  body->sha256.assign(cells.Bytes(0));
  body->domains = cells.Int(1);
  body->bytes = cells.Int(2);
  const std::int64_t best = cells.Int(3);
  body->example_rank = best == INT64_MAX ? 0 : best;
  const std::string_view packed = cells.Bytes(4);
  const std::size_t bar = packed.find('|');
  body->example_domain.assign(
      bar == std::string_view::npos ? packed : packed.substr(bar + 1));
}

}  // namespace robotscan::storage::latest_fetch_columns

#endif  // ROBOTSCAN_STORAGE_SCHEMA_LATEST_FETCH_COLUMNS_H_
