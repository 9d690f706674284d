#include "domain_admission.h"

#include <chrono>
#include <utility>

#include "time_format.h"

namespace robotscan::crawler {

std::size_t LoopOfDomain(const std::string& domain, std::size_t loop_count) {
  return loop_count <= 1 ? 0 : std::hash<std::string>{}(domain) % loop_count;
}

DomainAdmission::DomainAdmission(const CrawlPlan& plan, std::size_t loop_index,
                                 std::size_t loop_count,
                                 std::unique_ptr<TopListReader> list,
                                 storage::CrawlStore* reader,
                                 bool database_was_empty,
                                 MalformedHandler on_malformed)
    : loop_index_(loop_index),
      loop_count_(loop_count),
      list_(std::move(list)),
      reader_(reader),
      database_was_empty_(database_was_empty),
      on_malformed_(std::move(on_malformed)),
      cursor_(plan.selection) {
  if (plan.options.recrawl_older_than) {
    recrawl_cutoff_ = FormatIso8601(std::chrono::system_clock::now() -
                                    *plan.options.recrawl_older_than);
  }
}

DomainAdmission::Outcome DomainAdmission::Next(int* lines_left,
                                               AdmittedDomain* out) {
  while (!done_) {
    if (*lines_left <= 0) return Outcome::kYield;
    --*lines_left;
    TopListEntry entry;
    MalformedLine bad;
    switch (list_->Next(&entry, &bad)) {
      case ReadOutcome::kEnd:
        done_ = true;
        return Outcome::kEnd;
      case ReadOutcome::kError:
        error_ = "reading the list: " + list_->error();
        return Outcome::kError;
      case ReadOutcome::kMalformed:
        // Every loop reads the whole list; the first one reports.
        if (loop_index_ == 0) {
          ++malformed_lines_;
          if (on_malformed_) on_malformed_(bad);
        }
        continue;
      case ReadOutcome::kEntry:
        break;
    }
    // --skip and --top count list positions, in every loop alike.
    switch (cursor_.Next()) {
      case ListCursor::Verdict::kSkip:
        continue;
      case ListCursor::Verdict::kPastEnd:
        done_ = true;
        return Outcome::kEnd;
      case ListCursor::Verdict::kTake:
        break;
    }
    if (LoopOfDomain(entry.domain, loop_count_) != loop_index_) continue;
    if (uncommitted_.count(entry.domain) != 0) {
      ++duplicates_;
      continue;
    }
    std::optional<storage::PreviousFetch> previous;
    // Into an empty database, only a domain recorded earlier in this crawl
    // can be found there (see DomainFilter).
    if (!database_was_empty_ || committed_.MayContain(entry.domain)) {
      storage::Result<std::optional<storage::PreviousFetch>> found =
          reader_->FindLatestFetch(entry.domain);
      if (!found.ok()) {
        error_ = "reading the database: " + found.status().message();
        return Outcome::kError;
      }
      previous = std::move(found).value();
    }
    if (previous &&
        (recrawl_cutoff_.empty() || previous->fetched_at >= recrawl_cutoff_)) {
      ++already_present_;
      continue;
    }
    uncommitted_.insert(entry.domain);
    out->entry = std::move(entry);
    out->previous = std::move(previous);
    return Outcome::kDomain;
  }
  return Outcome::kEnd;
}

void DomainAdmission::Committed(const std::vector<std::string>& domains) {
  for (const std::string& domain : domains) {
    uncommitted_.erase(domain);
    if (database_was_empty_) committed_.Add(domain);
  }
}

}  // namespace robotscan::crawler
