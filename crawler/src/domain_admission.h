// The admission stage: decides which list entries one event loop fetches.
// It reads the list (streamed), applies --skip/--top to list positions,
// keeps the entries whose domain hashes to this loop (so duplicates meet in
// one loop), drops duplicates still in flight or uncommitted, and skips
// domains the database already has (newer than --recrawl-older-than). What
// comes out is a domain to fetch, with its previous fetch for conditional
// requests. Concurrency, the rate limit and the writer's backlog are the
// event loop's to apply: it asks for the next domain when it has room.
//
// Thread-safety: one per loop, used on that loop's thread.
#ifndef ROBOTSCAN_CRAWLER_DOMAIN_ADMISSION_H_
#define ROBOTSCAN_CRAWLER_DOMAIN_ADMISSION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "domain_filter.h"
#include "list_cursor.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/top_list.h"
#include "robotscan/storage/crawl_store.h"

namespace robotscan::crawler {

struct AdmittedDomain {
  TopListEntry entry;
  std::optional<storage::PreviousFetch> previous;
};

// Where an event loop takes its domains from: a list (DomainAdmission,
// below) or, for a worker of a scaled-out crawl, the batches it leased from
// the shared frontier (leased_domain_source.h).
class DomainSource {
 public:
  enum class Outcome : std::uint8_t {
    kDomain,  // *out is a domain to fetch.
    kYield,   // Did enough for one turn; call again.
    kWait,    // Nothing now; more may come: call again shortly.
    kEnd,     // No more domains for this loop.
    kError,   // error() says why (list or database unreadable).
  };
  virtual ~DomainSource() = default;
  // The next domain, reading at most *lines_left list lines (decremented).
  virtual Outcome Next(int* lines_left, AdmittedDomain* out) = 0;
  // Records of these domains are committed (from the writer).
  virtual void Committed(const std::vector<std::string>& domains) = 0;
  virtual std::string error() const = 0;
  virtual std::int64_t duplicates() const = 0;
  virtual std::int64_t already_present() const = 0;
  virtual std::int64_t malformed_lines() const = 0;
};

class DomainAdmission final : public DomainSource {
 public:
  using MalformedHandler = std::function<void(const MalformedLine&)>;

  // Malformed lines are reported by loop 0 only (every loop reads the
  // whole list). `reader` looks up previous fetches; with
  // `database_was_empty` only domains committed in this crawl can be there
  // (see DomainFilter), which saves the lookup for all others.
  DomainAdmission(const CrawlPlan& plan, std::size_t loop_index,
                  std::size_t loop_count, std::unique_ptr<TopListReader> list,
                  storage::CrawlStore* reader, bool database_was_empty,
                  MalformedHandler on_malformed);

  // Reads list lines until a domain to fetch, at most *lines_left of them
  // (decremented).
  Outcome Next(int* lines_left, AdmittedDomain* out) override;

  // Records of these domains are committed (from the writer).
  void Committed(const std::vector<std::string>& domains) override;

  std::string error() const override { return error_; }
  std::int64_t duplicates() const override { return duplicates_; }
  std::int64_t already_present() const override { return already_present_; }
  std::int64_t malformed_lines() const override { return malformed_lines_; }

 private:
  const std::size_t loop_index_;
  const std::size_t loop_count_;
  std::unique_ptr<TopListReader> list_;
  storage::CrawlStore* reader_;
  const bool database_was_empty_;
  MalformedHandler on_malformed_;
  std::string recrawl_cutoff_;  // ISO 8601; empty: never re-fetch.
  // Domains admitted in this run whose record is not yet committed: with
  // the database, this catches duplicates in the list.
  std::unordered_set<std::string> uncommitted_;
  // Domains committed in this crawl, when it started on an empty database.
  DomainFilter committed_;
  ListCursor cursor_;  // --skip and --top, by list position.
  bool done_ = false;
  std::string error_;
  std::int64_t duplicates_ = 0;
  std::int64_t already_present_ = 0;
  std::int64_t malformed_lines_ = 0;
};

// The loop a domain belongs to (a hash of its name).
std::size_t LoopOfDomain(const std::string& domain, std::size_t loop_count);

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_DOMAIN_ADMISSION_H_
