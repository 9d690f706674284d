// Bounded accumulators shared by the report's parts: top-N lists of the
// best-ranked domains and count maps of crawled text that stop growing at a
// budget. Private to the report library.
#ifndef ROBOTSCAN_REPORT_SRC_RANKING_H_
#define ROBOTSCAN_REPORT_SRC_RANKING_H_

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "robotscan/report/report.h"

namespace robotscan::report::internal {

// Unranked domains (rank 0) sort after every ranked one.
inline std::int64_t RankKey(std::int64_t rank) {
  return rank > 0 ? rank : std::numeric_limits<std::int64_t>::max();
}

// Longest free-text key kept in a count map (agent tokens, unknown keys):
// longer ones are cut so a hostile file cannot make one key huge.
inline constexpr std::size_t kMaxKeyBytes = 100;

// Counts per free-text key, up to a fixed number of distinct keys; later
// keys are counted as untracked so the total stays honest.
class BoundedCounter {
 public:
  explicit BoundedCounter(std::size_t max_keys) : max_keys_(max_keys) {}

  // Returns the slot for `key`, or nullptr when the map is full.
  template <typename Value>
  static Value* Find(std::unordered_map<std::string, Value>* map,
                     std::string_view key, std::size_t max_keys,
                     std::int64_t* untracked) {
    const std::string cut(key.substr(0, kMaxKeyBytes));
    auto it = map->find(cut);
    if (it != map->end()) return &it->second;
    if (map->size() >= max_keys) {
      ++*untracked;
      return nullptr;
    }
    return &map->emplace(cut, Value{}).first->second;
  }

  void Add(std::string_view key) {
    std::int64_t* slot = Find(&counts_, key, max_keys_, &untracked_);
    if (slot != nullptr) ++*slot;
  }

  std::vector<KeyCount> Top(std::size_t n) const {
    std::vector<KeyCount> all;
    all.reserve(counts_.size());
    for (const auto& [key, count] : counts_) all.push_back({key, count, ""});
    const std::size_t keep = std::min(n, all.size());
    std::partial_sort(all.begin(), all.begin() + static_cast<long>(keep),
                      all.end(), [](const KeyCount& a, const KeyCount& b) {
                        return a.count != b.count ? a.count > b.count
                                                  : a.key < b.key;
                      });
    all.resize(keep);
    return all;
  }

  std::int64_t untracked() const { return untracked_; }

 private:
  std::size_t max_keys_;
  std::unordered_map<std::string, std::int64_t> counts_;
  std::int64_t untracked_ = 0;
};

// Keeps the `limit` best-ranked items (rank, then domain): a max-heap whose
// top is the worst kept.
template <typename Item>
class BestRanked {
 public:
  explicit BestRanked(std::size_t limit) : limit_(limit) {}

  // Whether an item of this rank and domain would be kept (so callers can
  // skip building it).
  bool WouldKeep(std::int64_t rank, std::string_view domain) const {
    if (limit_ == 0) return false;
    if (heap_.size() < limit_) return true;
    return Key{RankKey(rank), std::string(domain)} < heap_.front().first;
  }

  void Add(std::int64_t rank, const std::string& domain, Item item) {
    if (!WouldKeep(rank, domain)) return;
    if (heap_.size() == limit_) {
      std::pop_heap(heap_.begin(), heap_.end(), Less);
      heap_.pop_back();
    }
    heap_.emplace_back(Key{RankKey(rank), domain}, std::move(item));
    std::push_heap(heap_.begin(), heap_.end(), Less);
  }

  // Best rank first.
  std::vector<Item> Take() {
    std::sort_heap(heap_.begin(), heap_.end(), Less);
    std::vector<Item> items;
    items.reserve(heap_.size());
    for (auto& entry : heap_) items.push_back(std::move(entry.second));
    heap_.clear();
    return items;
  }

 private:
  using Key = std::pair<std::int64_t, std::string>;
  using Entry = std::pair<Key, Item>;
  static bool Less(const Entry& a, const Entry& b) { return a.first < b.first; }

  std::size_t limit_;
  std::vector<Entry> heap_;
};

// The `n` agents with the highest count_of (ties by token), count > 0 only.
template <typename CountOf>
std::vector<AgentRestriction> TopAgents(std::vector<AgentRestriction> agents,
                                        std::size_t n, CountOf count_of) {
  agents.erase(std::remove_if(agents.begin(), agents.end(),
                              [&](const AgentRestriction& agent) {
                                return count_of(agent) <= 0;
                              }),
               agents.end());
  const std::size_t keep = std::min(n, agents.size());
  std::partial_sort(
      agents.begin(), agents.begin() + static_cast<long>(keep), agents.end(),
      [&](const AgentRestriction& a, const AgentRestriction& b) {
        return count_of(a) != count_of(b) ? count_of(a) > count_of(b)
                                          : a.token < b.token;
      });
  agents.resize(keep);
  return agents;
}

}  // namespace robotscan::report::internal

#endif  // ROBOTSCAN_REPORT_SRC_RANKING_H_
