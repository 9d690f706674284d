// One agent's rules compiled into a deterministic automaton over the path's
// bytes. Private.
//
// The RuleIndex answers a lookup by walking a prefix trie and then checking
// candidate wildcard rules one by one; on files with dozens of "/*/word"
// rules per group that costs ~1,000 instructions per path. Here every rule
// runs at once: a state is the set of (rule, position in its pattern)
// threads still alive after the bytes read so far, so a lookup is one table
// step per path byte (and usually fewer: the walk stops as soon as nothing
// alive can beat the best match found). Patterns only have `*` and a final
// `$`, so a thread never needs more than its position.
//
// The answer equals RuleIndex::BestMatch's, including which of several
// equally ranked rules is reported: rules are ranked by priority, then allow
// over disallow, then their order in the index (the order the trie walk
// meets them).
//
// Subset construction can blow up (patterns such as "*a*b*c" multiply
// states), so Build gives up past a state budget and the caller keeps the
// trie; building is also the expensive part (milliseconds for a few hundred
// states), which is why only AgentMatcher, made for many lookups, asks for
// it.
#ifndef ROBOTSCAN_ROBOTS_SRC_RULE_DFA_H_
#define ROBOTSCAN_ROBOTS_SRC_RULE_DFA_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "pattern.h"

namespace robotscan::robots::internal {

class RuleDfa {
 public:
  struct Limits {
    std::size_t max_states = 4096;
    // Transition table entries (states x byte classes), 4 bytes each.
    std::size_t max_table_entries = std::size_t{1} << 18;
    // Construction work, in 64-bit set operations (about 1 ns each).
    std::size_t max_work = std::size_t{1} << 24;
  };

  static constexpr std::uint32_t kNoRule = 0xFFFFFFFFu;

  // Compiles `rules` (priority 0 rules must already be gone). Null when the
  // automaton would exceed `limits`.
  static std::unique_ptr<RuleDfa> Build(std::span<const IndexedRule> rules,
                                        const Limits& limits);

  // The index into `rules` of the deciding rule for `path`, or kNoRule.
  std::uint32_t BestRule(std::string_view path) const;

  // BestRule, except that the walk gives up (returns false) at the first
  // byte marked in `stop` it reaches. RFC mode marks the bytes that
  // percent-normalisation may change: since normalisation maps bytes one by
  // one (an escape starts with '%', itself marked), a path is then decided
  // without normalising it whenever the answer is known before such a byte.
  // The first `must_read` bytes are checked for stop bytes even when the
  // answer is known before them.
  bool BestRuleUnlessStopped(std::string_view path,
                             const std::array<bool, 256>& stop,
                             std::uint32_t* rule,
                             std::size_t must_read = 0) const;

  // BestRuleUnlessStopped (stop set) or BestRule (stop null) for each of
  // `paths`: decided[i] is whether the walk got through, and then rules[i]
  // its answer. Two paths are walked at once: one walk is a chain of
  // dependent table loads, and the branch that ends it, mispredicted once
  // per path, throws away what the processor had begun of the next; two
  // chains side by side keep both moving between such stalls. A step tests
  // nothing (WalkMany), so it is five instructions.
  void BestRulesUnlessStopped(std::span<const std::string_view> paths,
                              const std::array<bool, 256>* stop,
                              std::size_t must_read, std::uint32_t* rules,
                              bool* decided) const;

  // BestRulesUnlessStopped's walk, answering only whether each path is
  // allowed (no rule matched, or the deciding rule is an allow).
  void VerdictsUnlessStopped(std::span<const std::string_view> paths,
                             const std::array<bool, 256>* stop,
                             std::size_t must_read, bool* allowed,
                             bool* decided) const;

  std::size_t state_count() const { return state_count_; }
  std::size_t work() const { return work_; }  // What Build spent.

 private:
  struct State {
    // Best rank matched on entering this state (a rule without `$` whose
    // pattern just ended), or kNoRank.
    std::uint32_t done = kNoRank;
    // Best rank of a `$` rule whose pattern ends exactly here.
    std::uint32_t at_end = kNoRank;
    // Best rank of a thread that may still match (including at_end's);
    // kNoRank: none.
    std::uint32_t alive = kNoRank;
  };
  static constexpr std::uint32_t kNoRank = 0xFFFFFFFFu;  // Worse than all.

  // One path's walk in a batch: its bytes not yet read, the state's row,
  // the best rank so far, and which path it is.
  struct Lane {
    const unsigned char* at = nullptr;
    std::size_t left = 0;
    std::uint32_t row = 0;
    std::uint32_t best = kNoRank;
    std::size_t index = 0;
  };
  // The batch walk (BestRulesUnlessStopped): the lanes read their bytes
  // with no test per byte. A stop byte leads to the sink state instead of
  // ending the walk, and a walk whose answer is known goes on to the end
  // of its stretch of bytes; the lanes check whether they are over (at
  // their end, or decided) only between stretches. `classes` maps each
  // byte to its column (stop bytes to the sink's).
  // The walks of both batch functions: slots[i] is a rank, or
  // no_rule_slot_.
  void SlotsUnlessStopped(std::span<const std::string_view> paths,
                          const std::array<bool, 256>* stop,
                          std::size_t must_read, std::uint32_t* slots,
                          bool* decided) const;
  template <bool kStopping>
  void WalkMany(std::span<const std::string_view> paths,
                const std::array<bool, 256>* stop, std::size_t must_read,
                const std::uint8_t* classes, std::uint32_t* slots,
                bool* decided) const;
  // WalkMany for one block of paths, in `order`.
  template <bool kStopping, typename Entry>
  void WalkBlock(const Entry* table, std::span<const std::string_view> paths,
                 std::span<const std::uint16_t> order,
                 const std::array<bool, 256>* stop, std::size_t must_read,
                 const std::uint8_t* classes, std::uint32_t* slots,
                 bool* decided) const;
  // A lane's answer once it is over: as Walk's, which answers a path that
  // reached the sink.
  template <bool kStopping>
  bool FinishLane(const Lane& lane, std::string_view path,
                  const std::array<bool, 256>* stop, std::size_t must_read,
                  std::uint32_t* slot) const;

  // The walk of both Best* functions: *slot is the deciding rule's rank, or
  // no_rule_slot_; with kStopping, gives up (false) at the first byte
  // marked in *stop.
  template <bool kStopping>
  bool Walk(std::string_view path, const std::array<bool, 256>* stop,
            std::size_t must_read, std::uint32_t* slot) const;
  // Walk on `table` (table16_ or table_, which have the same layout).
  template <bool kStopping, typename Entry>
  bool WalkWith(const Entry* table, std::string_view path,
                const std::array<bool, 256>* stop, std::size_t must_read,
                std::uint32_t* slot) const;

  // The walk's table: one row per state, its State fields first, then the
  // row offset of the next state for each byte class, then for the stop
  // column (the batch walk's stop bytes); rows are kRowHeader +
  // class_count_ + 1 long, state 0 (the start) first, the sink last. One
  // array and premultiplied offsets keep a step to three dependent loads.
  static constexpr std::uint32_t kDone = 0;  // Offsets in a row.
  static constexpr std::uint32_t kAlive = 1;
  static constexpr std::uint32_t kAtEnd = 2;
  static constexpr std::uint32_t kRowHeader = 3;
  std::uint8_t byte_class_[256] = {};
  std::uint32_t class_count_ = 1;
  // The sink's row: the batch walk's state after a stop byte, which it
  // never leaves and which matches nothing (its path is then walked again
  // by Walk).
  std::uint32_t sink_row_ = 0;
  std::vector<State> states_;        // During Build only.
  std::vector<std::uint32_t> next_;  // [state * class_count_ + class]
  std::vector<std::uint32_t> table_;
  // table_ in 16-bit entries, if every offset and rank fits (0xFFFF for
  // no rank): the walks use it then.
  std::vector<std::uint16_t> table16_;
  // Rank -> index into rules, and whether that rule allows; one more
  // entry (no_rule_slot_, the number of rules) for no rule: kNoRule, true.
  std::vector<std::uint32_t> rule_of_rank_;
  std::vector<std::uint8_t> allow_of_rank_;
  std::uint32_t no_rule_slot_ = 0;
  std::size_t work_ = 0;
  std::size_t state_count_ = 0;
};

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_RULE_DFA_H_
