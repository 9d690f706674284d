// Walks a list in order and says, entry by entry, what a ListSelection
// (--skip, --top; crawler.h) makes of it: the one reading of the
// selection, for the crawl's admission stage and for robotscan enqueue
// (the count for progress is ListSelection::CountOf). Private to the
// crawler.
//
// Thread-safety: a plain value, used by one thread.
#ifndef ROBOTSCAN_CRAWLER_LIST_CURSOR_H_
#define ROBOTSCAN_CRAWLER_LIST_CURSOR_H_

#include <cstdint>

#include "robotscan/crawler/crawler.h"

namespace robotscan::crawler {

class ListCursor {
 public:
  enum class Verdict : std::uint8_t {
    kSkip,     // Before the selection: leave it out.
    kTake,     // In the selection.
    kPastEnd,  // After the selection: nothing more is taken.
  };

  explicit ListCursor(const ListSelection& selection) : selection_(selection) {}

  // The verdict on the next entry of the list.
  Verdict Next() {
    if (skipped_ < selection_.skip) {
      ++skipped_;
      return Verdict::kSkip;
    }
    if (Exhausted()) return Verdict::kPastEnd;
    ++taken_;
    return Verdict::kTake;
  }

  // Whether every entry the selection takes was taken (the list need not
  // be read further).
  bool Exhausted() const {
    return selection_.top > 0 && taken_ >= selection_.top;
  }

 private:
  ListSelection selection_;
  std::int64_t skipped_ = 0;
  std::int64_t taken_ = 0;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_LIST_CURSOR_H_
