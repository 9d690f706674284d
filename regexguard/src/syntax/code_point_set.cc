// CodePointSet: sorted disjoint ranges; all operations are linear merges.
#include <algorithm>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {

CodePointSet CodePointSet::Range(char32_t first, char32_t last) {
  CodePointSet set;
  set.Add(first, last);
  return set;
}

void CodePointSet::Add(char32_t first, char32_t last) {
  if (first > last) return;
  if (last > kMaxCodePoint) last = kMaxCodePoint;
  if (first > kMaxCodePoint) return;
  // Insert, then merge overlapping or adjacent neighbours.
  auto it = std::lower_bound(
      ranges_.begin(), ranges_.end(), first,
      [](const CodePointRange& r, char32_t c) { return r.last + 1 < c; });
  CodePointRange merged{first, last};
  auto end = it;
  while (end != ranges_.end() && end->first <= merged.last + 1) {
    merged.first = std::min(merged.first, end->first);
    merged.last = std::max(merged.last, end->last);
    ++end;
  }
  it = ranges_.erase(it, end);
  ranges_.insert(it, merged);
}

void CodePointSet::Add(const CodePointSet& other) {
  for (const CodePointRange& r : other.ranges_) Add(r.first, r.last);
}

CodePointSet CodePointSet::Complement() const {
  CodePointSet result;
  char32_t next = 0;
  for (const CodePointRange& r : ranges_) {
    if (r.first > next) result.ranges_.push_back({next, r.first - 1});
    next = r.last + 1;
  }
  if (next <= kMaxCodePoint) result.ranges_.push_back({next, kMaxCodePoint});
  return result;
}

CodePointSet CodePointSet::Intersect(const CodePointSet& other) const {
  CodePointSet result;
  std::size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const CodePointRange& a = ranges_[i];
    const CodePointRange& b = other.ranges_[j];
    const char32_t lo = std::max(a.first, b.first);
    const char32_t hi = std::min(a.last, b.last);
    if (lo <= hi) result.ranges_.push_back({lo, hi});
    if (a.last < b.last) {
      ++i;
    } else {
      ++j;
    }
  }
  return result;
}

bool CodePointSet::Contains(char32_t c) const {
  auto it = std::lower_bound(
      ranges_.begin(), ranges_.end(), c,
      [](const CodePointRange& r, char32_t x) { return r.last < x; });
  return it != ranges_.end() && it->first <= c;
}

bool CodePointSet::Intersects(const CodePointSet& other) const {
  std::size_t i = 0, j = 0;
  while (i < ranges_.size() && j < other.ranges_.size()) {
    const CodePointRange& a = ranges_[i];
    const CodePointRange& b = other.ranges_[j];
    if (std::max(a.first, b.first) <= std::min(a.last, b.last)) return true;
    if (a.last < b.last) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

}  // namespace robotscan::regexguard
