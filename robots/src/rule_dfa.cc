#include "rule_dfa.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace robotscan::robots::internal {
namespace {

// Bounds on the construction itself, whatever the state budget: past these
// a file is hostile or huge, and the trie serves it.
constexpr std::size_t kMaxRules = 4096;
constexpr std::size_t kMaxThreads = std::size_t{1} << 15;

// A set of threads, one bit each. Thread base[r] + p is rule r at position
// p of its pattern text (p == text size: the pattern has ended), so moving
// every thread of a set one byte on is a one-bit shift of the whole set.
using ThreadSet = std::vector<std::uint64_t>;

struct ThreadSetHash {
  std::size_t operator()(const ThreadSet& set) const {
    std::uint64_t h = 1469598103934665603u;  // FNV-1a over the words.
    for (const std::uint64_t word : set) h = (h ^ word) * 1099511628211u;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

template <typename Visit>
void ForEachThread(const ThreadSet& set, Visit visit) {
  for (std::size_t w = 0; w < set.size(); ++w) {
    for (std::uint64_t bits = set[w]; bits != 0; bits &= bits - 1) {
      visit(static_cast<std::uint32_t>(
          w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits))));
    }
  }
}

}  // namespace

std::unique_ptr<RuleDfa> RuleDfa::Build(std::span<const IndexedRule> rules,
                                        const Limits& limits) {
  if (rules.empty() || rules.size() > kMaxRules) return nullptr;
  std::size_t thread_count = 0;
  for (const IndexedRule& rule : rules) {
    thread_count += rule.pattern.text.size() + 1;
  }
  if (thread_count > kMaxThreads) return nullptr;

  auto dfa = std::unique_ptr<RuleDfa>(new RuleDfa());
  // Rank 0 is the best rule: the order BestMatch prefers (Beats, then the
  // index order, which is the order its trie walk meets equal rules in).
  dfa->rule_of_rank_.resize(rules.size());
  std::iota(dfa->rule_of_rank_.begin(), dfa->rule_of_rank_.end(), 0u);
  std::stable_sort(dfa->rule_of_rank_.begin(), dfa->rule_of_rank_.end(),
                   [&](std::uint32_t a, std::uint32_t b) {
                     return Beats(rules[a], rules[b]);
                   });
  std::vector<std::uint32_t> rank(rules.size());
  for (std::uint32_t k = 0; k < rules.size(); ++k) {
    rank[dfa->rule_of_rank_[k]] = k;
  }
  // One more slot, past the ranks, for "no rule": a walk's answer is then
  // an index whatever it is, and taking it is not a branch.
  dfa->no_rule_slot_ = static_cast<std::uint32_t>(rules.size());
  dfa->rule_of_rank_.push_back(kNoRule);
  for (const std::uint32_t r : dfa->rule_of_rank_) {
    dfa->allow_of_rank_.push_back(r == kNoRule || rules[r].allow);
  }

  // Bytes that some pattern names literally each get a class; all others
  // (and '*', never a literal) share class 0.
  std::uint32_t classes = 1;
  for (const IndexedRule& rule : rules) {
    for (char ch : rule.pattern.text) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '*' || dfa->byte_class_[c] != 0) continue;
      dfa->byte_class_[c] = static_cast<std::uint8_t>(classes++);
    }
  }
  dfa->class_count_ = classes;

  // What each thread is: its rule's rank, and masks of the threads inside a
  // '*', at a literal byte of each class, and past the end.
  const std::size_t words = (thread_count + 63) / 64;
  std::vector<std::uint32_t> rank_of_thread;
  std::vector<std::uint8_t> class_of_thread;  // Literal threads only.
  ThreadSet at_star(words), ended_free(words), ended_anchored(words);
  ThreadSet literal(words);
  std::vector<ThreadSet> literal_of_class(classes, ThreadSet(words));
  ThreadSet start(words);
  auto set_bit = [](ThreadSet& set, std::size_t id) {
    set[id / 64] |= std::uint64_t{1} << (id % 64);
  };
  for (std::uint32_t r = 0; r < rules.size(); ++r) {
    const std::string_view text = rules[r].pattern.text;
    set_bit(start, rank_of_thread.size());
    // Where only '*'s are left, the pattern has matched, '$' or not: "/a*"
    // is "/a". Were such threads kept, each rule with a trailing '*' that
    // ever matched would stay in every later state, doubling the states.
    std::size_t matched_at = text.size();
    while (matched_at > 0 && text[matched_at - 1] == '*') --matched_at;
    for (std::size_t p = 0; p <= text.size(); ++p) {
      const std::size_t id = rank_of_thread.size();
      rank_of_thread.push_back(rank[r]);
      class_of_thread.push_back(0);
      if (p >= matched_at && (p < text.size() || matched_at < text.size())) {
        set_bit(ended_free, id);
      } else if (p == text.size()) {
        set_bit(rules[r].pattern.anchored ? ended_anchored : ended_free, id);
      } else if (text[p] == '*') {
        set_bit(at_star, id);
      } else {
        const std::uint8_t k =
            dfa->byte_class_[static_cast<unsigned char>(text[p])];
        class_of_thread.back() = k;
        set_bit(literal, id);
        set_bit(literal_of_class[k], id);
      }
    }
  }

  std::size_t word_operations = 0;
  auto shift_one = [&](const ThreadSet& in, ThreadSet* out) {
    std::uint64_t carry = 0;
    for (std::size_t w = 0; w < words; ++w) {
      (*out)[w] = (in[w] << 1) | carry;
      carry = in[w] >> 63;
    }
  };
  // Adds what `set` reaches through '*'s ('*' may match nothing). The
  // scratch sets are reused: construction allocates only for new states.
  ThreadSet moved(words);
  ThreadSet stars(words);
  auto close = [&](ThreadSet* set) {
    while (true) {
      for (std::size_t w = 0; w < words; ++w) stars[w] = (*set)[w] & at_star[w];
      shift_one(stars, &moved);
      bool grew = false;
      for (std::size_t w = 0; w < words; ++w) {
        grew = grew || (moved[w] & ~(*set)[w]) != 0;
        (*set)[w] |= moved[w];
      }
      word_operations += 4 * words;
      if (!grew) return;
    }
  };

  // A state depends only on its threads, never on what was matched before
  // (the walk keeps the best match so far): pruning threads that can no
  // longer win would make states remember history and multiply.
  std::unordered_map<ThreadSet, std::uint32_t, ThreadSetHash> state_of_set;
  std::vector<const ThreadSet*> set_of_state;
  auto add_state = [&](const ThreadSet& set) -> std::uint32_t {
    if (auto found = state_of_set.find(set); found != state_of_set.end()) {
      return found->second;
    }
    auto it = state_of_set
                  .emplace(set, static_cast<std::uint32_t>(dfa->states_.size()))
                  .first;
    State state;
    const ThreadSet& threads = it->first;
    ForEachThread(threads, [&](std::uint32_t id) {
      const std::uint32_t r = rank_of_thread[id];
      const std::uint64_t bit = std::uint64_t{1} << (id % 64);
      if ((ended_free[id / 64] & bit) != 0) {
        state.done = std::min(state.done, r);  // Matched, whatever follows.
        return;
      }
      state.alive = std::min(state.alive, r);
      if ((ended_anchored[id / 64] & bit) != 0) {
        state.at_end = std::min(state.at_end, r);  // A '$' rule, complete.
      }
    });
    dfa->states_.push_back(state);
    set_of_state.push_back(&it->first);  // Keys of an unordered_map stay put.
    return it->second;
  };

  close(&start);
  add_state(start);
  // Per state: threads inside a '*' survive any byte; a literal thread
  // moves on for its one byte's class only. So every class that no literal
  // thread of the state reads leads to the same state, computed once.
  std::vector<std::uint8_t> classes_read;
  std::vector<bool> read(classes, false);
  ThreadSet threads(words), staying(words), otherwise_set(words);
  ThreadSet advancing(words), next(words);
  for (std::uint32_t s = 0; s < dfa->states_.size(); ++s) {
    if (dfa->states_.size() > limits.max_states ||
        dfa->states_.size() * classes > limits.max_table_entries ||
        word_operations > limits.max_work) {
      return nullptr;
    }
    threads = *set_of_state[s];  // A copy: add_state may rehash.
    for (std::size_t w = 0; w < words; ++w)
      staying[w] = threads[w] & at_star[w];
    classes_read.clear();
    for (std::size_t w = 0; w < words; ++w) {
      for (std::uint64_t bits = threads[w] & literal[w]; bits != 0;
           bits &= bits - 1) {
        const std::uint8_t k =
            class_of_thread[w * 64 +
                            static_cast<std::size_t>(__builtin_ctzll(bits))];
        if (!read[k]) {
          read[k] = true;
          classes_read.push_back(k);
        }
      }
    }
    otherwise_set = staying;
    close(&otherwise_set);
    const std::uint32_t otherwise = add_state(otherwise_set);
    const std::size_t row = dfa->next_.size();
    dfa->next_.resize(row + classes, otherwise);
    for (const std::uint8_t k : classes_read) {
      read[k] = false;
      for (std::size_t w = 0; w < words; ++w) {
        advancing[w] = threads[w] & literal_of_class[k][w];
      }
      shift_one(advancing, &next);
      for (std::size_t w = 0; w < words; ++w) next[w] |= staying[w];
      close(&next);
      word_operations += 4 * words;
      dfa->next_[row + k] = add_state(next);
    }
    word_operations += 4 * words;
  }
  dfa->work_ = word_operations;
  dfa->state_count_ = dfa->states_.size();
  // Plus the stop column, and the sink's row: it matches nothing, and
  // alive (rank 0, the best) keeps it from looking decided.
  const std::uint32_t row_size = kRowHeader + classes + 1;
  const std::size_t rows = dfa->states_.size() + 1;
  dfa->sink_row_ = static_cast<std::uint32_t>(dfa->states_.size() * row_size);
  dfa->table_.resize(rows * row_size);
  for (std::size_t s = 0; s < rows; ++s) {
    std::uint32_t* row = dfa->table_.data() + s * row_size;
    const bool sink = s == dfa->states_.size();
    row[kDone] = sink ? kNoRank : dfa->states_[s].done;
    row[kAlive] = sink ? 0 : dfa->states_[s].alive;
    row[kAtEnd] = sink ? kNoRank : dfa->states_[s].at_end;
    for (std::uint32_t k = 0; k < classes; ++k) {
      row[kRowHeader + k] =
          sink ? dfa->sink_row_ : dfa->next_[s * classes + k] * row_size;
    }
    row[kRowHeader + classes] = dfa->sink_row_;
  }
  // The batch walk's copy in 16-bit entries when every offset and rank
  // fits (nearly always): half the bytes, so more of the rows a walk meets
  // stay in the L1 cache. Ranks past 0xFFFE, and no rank, become 0xFFFF.
  if (rows * row_size <= 0xFFFF && rules.size() < 0xFFFF) {
    dfa->table16_.resize(dfa->table_.size());
    for (std::size_t i = 0; i < dfa->table_.size(); ++i) {
      dfa->table16_[i] = static_cast<std::uint16_t>(
          std::min<std::uint32_t>(dfa->table_[i], 0xFFFF));
    }
  }
  dfa->states_ = {};
  dfa->next_ = {};
  return dfa;
}

template <bool kStopping>
bool RuleDfa::Walk(std::string_view path, const std::array<bool, 256>* stop,
                   std::size_t must_read, std::uint32_t* slot) const {
  return table16_.empty()
             ? WalkWith<kStopping>(table_.data(), path, stop, must_read, slot)
             : WalkWith<kStopping>(table16_.data(), path, stop, must_read,
                                   slot);
}

template <bool kStopping, typename Entry>
bool RuleDfa::WalkWith(const Entry* table, std::string_view path,
                       const std::array<bool, 256>* stop, std::size_t must_read,
                       std::uint32_t* slot) const {
  std::uint32_t row = 0;  // The start state's.
  std::uint32_t best = table[kDone];
  std::size_t read = 0;
  for (const char ch : path) {
    // Nothing alive can beat the best match: the rest of the path is moot.
    if (table[row + kAlive] >= best) break;
    ++read;
    const auto c = static_cast<unsigned char>(ch);
    if constexpr (kStopping) {
      if ((*stop)[c]) return false;
    }
    row = table[row + kRowHeader + byte_class_[c]];
    best = std::min<std::uint32_t>(best, table[row + kDone]);
  }
  if constexpr (kStopping) {
    // Every byte read was checked; now the rest of the first must_read.
    for (std::size_t i = read; i < std::min(path.size(), must_read); ++i) {
      if ((*stop)[static_cast<unsigned char>(path[i])]) return false;
    }
  } else {
    static_cast<void>(must_read);
  }
  // Past a break, at_end (counted in alive) cannot beat `best`.
  *slot = std::min<std::uint32_t>({best, table[row + kAtEnd], no_rule_slot_});
  return true;
}

template <bool kStopping>
bool RuleDfa::FinishLane(const Lane& lane, std::string_view path,
                         const std::array<bool, 256>* stop,
                         std::size_t must_read, std::uint32_t* slot) const {
  if constexpr (kStopping) {
    // A stop byte was read, perhaps after the answer was known, or perhaps
    // before: the careful walk tells which.
    if (lane.row == sink_row_) return Walk<true>(path, stop, must_read, slot);
    // Decided before its end: the rest of the first must_read bytes, not
    // read, must still hold no stop byte.
    const auto* begin = reinterpret_cast<const unsigned char*>(path.data());
    const unsigned char* must_end = begin + std::min(path.size(), must_read);
    for (const unsigned char* at = lane.at; at < must_end; ++at) {
      if ((*stop)[*at]) return false;
    }
  } else {
    static_cast<void>(path);
    static_cast<void>(stop);
    static_cast<void>(must_read);
  }
  // Read past the point where the answer was known, the walk met only
  // threads that were alive there, none better than `best`: the answer is
  // the one the walk had then.
  *slot = std::min({lane.best, table_[lane.row + kAtEnd], no_rule_slot_});
  return true;
}

template <bool kStopping>
void RuleDfa::WalkMany(std::span<const std::string_view> paths,
                       const std::array<bool, 256>* stop, std::size_t must_read,
                       const std::uint8_t* classes, std::uint32_t* slots,
                       bool* decided) const {
  // A block at a time, its paths taken shortest first (a counting sort;
  // lengths past kLongest share a bucket), so that the two lanes mostly
  // hold paths of the same length: they end together, and a walk's end,
  // a branch mispredicted about once per turn, comes once per two paths.
  constexpr std::size_t kBlock = 256;
  constexpr std::size_t kLongest = 63;
  for (std::size_t base = 0; base < paths.size(); base += kBlock) {
    const std::size_t size = std::min(kBlock, paths.size() - base);
    std::uint16_t starts[kLongest + 2] = {};
    for (std::size_t i = 0; i < size; ++i) {
      ++starts[std::min(paths[base + i].size(), kLongest) + 1];
    }
    for (std::size_t l = 1; l <= kLongest + 1; ++l) starts[l] += starts[l - 1];
    std::uint16_t order[kBlock];
    for (std::size_t i = 0; i < size; ++i) {
      order[starts[std::min(paths[base + i].size(), kLongest)]++] =
          static_cast<std::uint16_t>(base + i);
    }
    if (!table16_.empty()) {
      WalkBlock<kStopping>(table16_.data(), paths, std::span(order, size), stop,
                           must_read, classes, slots, decided);
    } else {
      WalkBlock<kStopping>(table_.data(), paths, std::span(order, size), stop,
                           must_read, classes, slots, decided);
    }
  }
}

template <bool kStopping, typename Entry>
void RuleDfa::WalkBlock(const Entry* table,
                        std::span<const std::string_view> paths,
                        std::span<const std::uint16_t> order,
                        const std::array<bool, 256>* stop,
                        std::size_t must_read, const std::uint8_t* classes,
                        std::uint32_t* slots, bool* decided) const {
  const std::size_t count = order.size();
  std::size_t next = 0;
  const auto start = [&](Lane& lane) {
    lane.index = order[next++];
    lane.at = reinterpret_cast<const unsigned char*>(paths[lane.index].data());
    lane.left = paths[lane.index].size();
    lane.row = 0;
    lane.best = table[kDone];
  };
  // (`|`, not `||`: one branch where it is tested, not two.)
  const auto over = [&](const Lane& lane) {
    return (lane.left == 0) | (table[lane.row + kAlive] >= lane.best);
  };
  const auto finish = [&](const Lane& lane) {
    slots[lane.index] = no_rule_slot_;  // An index even if undecided.
    decided[lane.index] = FinishLane<kStopping>(lane, paths[lane.index], stop,
                                                must_read, &slots[lane.index]);
  };
  // One byte of a lane's walk: the next row, and the best match on
  // entering it.
  const auto step = [&](std::uint32_t& row, std::uint32_t& best,
                        unsigned char c) {
    row = table[row + kRowHeader + classes[c]];
    best = std::min<std::uint32_t>(best, table[row + kDone]);
  };
  const auto walk_alone = [&](Lane& lane) {
    while (!over(lane)) {
      step(lane.row, lane.best, *lane.at);
      ++lane.at;
      --lane.left;
    }
    finish(lane);
  };
  // Bytes walked between the lanes' checks: long enough that the check is
  // rare, short enough that a walk decided early does not read much more.
  constexpr std::size_t kStretch = 32;
  if (count >= 2) {
    Lane lanes[2];
    start(lanes[0]);
    start(lanes[1]);
    while (true) {
      Lane& a = lanes[0];
      Lane& b = lanes[1];
      const std::size_t n = std::min({a.left, b.left, kStretch});
      // The walks in locals, so that they stay in registers.
      std::uint32_t a_row = a.row, a_best = a.best;
      std::uint32_t b_row = b.row, b_best = b.best;
      const unsigned char* const a_at = a.at;
      const unsigned char* const b_at = b.at;
      for (std::size_t j = 0; j < n; ++j) {
        step(a_row, a_best, a_at[j]);
        step(b_row, b_best, b_at[j]);
      }
      a.row = a_row;
      a.best = a_best;
      a.at += n;
      a.left -= n;
      b.row = b_row;
      b.best = b_best;
      b.at += n;
      b.left -= n;
      const bool a_over = over(a);
      const bool b_over = over(b);
      if (a_over & b_over) {
        // The usual case, paths of one length: both take their next.
        finish(a);
        finish(b);
        if (count - next < 2) {
          if (next < count) {
            start(a);
            walk_alone(a);
          }
          return;
        }
        start(a);
        start(b);
        continue;
      }
      // One lane's walk is over: it records its answer and takes the next
      // path; with none left, the other lane finishes alone. The lane is
      // picked by index, not by a branch on which one it is.
      Lane& ended = lanes[a_over ? 0 : 1];
      if (a_over | b_over) {
        finish(ended);
        if (next == count) return walk_alone(lanes[a_over ? 1 : 0]);
        start(ended);
      }
    }
  }
  while (next < count) {
    Lane lane;
    start(lane);
    walk_alone(lane);
  }
}

void RuleDfa::SlotsUnlessStopped(std::span<const std::string_view> paths,
                                 const std::array<bool, 256>* stop,
                                 std::size_t must_read, std::uint32_t* slots,
                                 bool* decided) const {
  if (stop == nullptr) {
    WalkMany<false>(paths, nullptr, 0, byte_class_, slots, decided);
    return;
  }
  // The byte classes, but every stop byte in the stop column. Classes are
  // bytes, so with 256 of them (every byte named by some rule) there is no
  // room for the column: the careful walk answers alone.
  if (class_count_ >= 256) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      decided[i] = Walk<true>(paths[i], stop, must_read, &slots[i]);
    }
    return;
  }
  std::uint8_t classes[256];
  for (std::size_t c = 0; c < 256; ++c) {
    classes[c] =
        (*stop)[c] ? static_cast<std::uint8_t>(class_count_) : byte_class_[c];
  }
  WalkMany<true>(paths, stop, must_read, classes, slots, decided);
}

void RuleDfa::BestRulesUnlessStopped(std::span<const std::string_view> paths,
                                     const std::array<bool, 256>* stop,
                                     std::size_t must_read,
                                     std::uint32_t* rules,
                                     bool* decided) const {
  SlotsUnlessStopped(paths, stop, must_read, rules, decided);
  for (std::size_t i = 0; i < paths.size(); ++i) {
    rules[i] = decided[i] ? rule_of_rank_[rules[i]] : kNoRule;
  }
}

void RuleDfa::VerdictsUnlessStopped(std::span<const std::string_view> paths,
                                    const std::array<bool, 256>* stop,
                                    std::size_t must_read, bool* allowed,
                                    bool* decided) const {
  constexpr std::size_t kChunk = 256;
  std::uint32_t slots[kChunk];
  for (std::size_t begin = 0; begin < paths.size(); begin += kChunk) {
    const std::size_t size = std::min(kChunk, paths.size() - begin);
    SlotsUnlessStopped(paths.subspan(begin, size), stop, must_read, slots,
                       decided + begin);
    for (std::size_t i = 0; i < size; ++i) {
      // An undecided walk's slot is still an index (WalkMany sets it).
      allowed[begin + i] = allow_of_rank_[slots[i]] != 0;
    }
  }
}

std::uint32_t RuleDfa::BestRule(std::string_view path) const {
  std::uint32_t slot = no_rule_slot_;
  Walk<false>(path, nullptr, 0, &slot);
  return rule_of_rank_[slot];
}

bool RuleDfa::BestRuleUnlessStopped(std::string_view path,
                                    const std::array<bool, 256>& stop,
                                    std::uint32_t* rule,
                                    std::size_t must_read) const {
  std::uint32_t slot = no_rule_slot_;
  const bool decided = Walk<true>(path, &stop, must_read, &slot);
  *rule = rule_of_rank_[slot];
  return decided;
}

}  // namespace robotscan::robots::internal
