// Compiled rule patterns and the per-agent rule index. Private.
//
// A pattern is a literal prefix, then zero or more `*`-separated literal
// segments, then an optional end anchor `$`. With only `*` as a wildcard,
// matching the segments greedily left to right is exact (the leftmost
// occurrence of each segment leaves the most room for the rest), so a
// pattern is verified in O(|path| + |pattern|) using memmem (linear worst
// case in glibc) instead of the O(|path| × |pattern|) position sets of
// Google's matcher.
//
// The RuleIndex keeps the rules of one merged group in a trie keyed by their
// literal prefixes. A lookup walks the path through the trie once and only
// verifies the rules whose prefix is a prefix of the path, highest priority
// first, stopping as soon as no remaining candidate can beat the best match.
// When many wildcard rules must be verified for one path, a single
// Aho–Corasick pass over the path (SegmentFinder) then tells which rules
// have all their segments present and in a possible order; only those are
// verified. That bounds hostile files of thousands of rules whose segments
// the path lacks; a rule that passes is still verified exactly.
#ifndef ROBOTSCAN_ROBOTS_SRC_PATTERN_H_
#define ROBOTSCAN_ROBOTS_SRC_PATTERN_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "segment_finder.h"

namespace robotscan::robots::internal {

struct CompiledPattern {
  std::string_view text;         // Without the end anchor.
  std::uint32_t prefix_len = 0;  // Bytes before the first '*'.
  bool anchored = false;         // Pattern ended with '$'.
  bool has_wildcard = false;
};

// Splits `pattern` (already escaped/normalised; it must outlive the result).
CompiledPattern CompilePattern(std::string_view pattern);

// The hashed byte set used by IndexedRule::required_bytes.
inline std::uint64_t ByteSetOf(std::string_view s) {
  std::uint64_t set = 0;
  for (char c : s)
    set |= std::uint64_t{1} << (static_cast<unsigned char>(c) & 63);
  return set;
}

// Bytes of `pattern` after its literal prefix, '*' excluded, as a byte set.
std::uint64_t RequiredBytesOf(const CompiledPattern& pattern);

// A hashed set of byte pairs (bigrams), 128 buckets. A rule's segments
// (the literal runs between its '*'s) must each occur in the path, so every
// pair inside a segment occurs in the path too. Pairs tell paths apart far
// better than single bytes: "/*/about" needs "/a ab bo ou ut", which a path
// such as "/questions/item12" lacks although it has every one of the bytes.
struct PairSet {
  std::uint64_t bits[2] = {0, 0};

  static constexpr unsigned BucketOf(unsigned char a, unsigned char b) {
    // Multiplicative hash of the 16-bit pair; the top 7 bits pick a bucket.
    return ((static_cast<std::uint32_t>(a) << 8 | b) * 0x9E3779B1u) >> 25;
  }
  void Add(unsigned char a, unsigned char b) {
    const unsigned bucket = BucketOf(a, b);
    bits[bucket >> 6] |= std::uint64_t{1} << (bucket & 63);
  }
  // True if every pair of `required` may be in this set.
  bool MayContainAll(const PairSet& required) const {
    return ((required.bits[0] & ~bits[0]) | (required.bits[1] & ~bits[1])) == 0;
  }
};

// Every adjacent pair of `text`.
PairSet PairSetOf(std::string_view text);

// The pairs inside the segments of `pattern` after its literal prefix.
PairSet RequiredPairsOf(const CompiledPattern& pattern);

// Full match of `pattern` against `path` (prefix match unless anchored).
bool PatternMatches(const CompiledPattern& pattern, std::string_view path);

// Google's robots.txt pattern semantics, implemented the simple way (position
// sets, O(|path| × |pattern|)). Used by tests as the reference matcher.
bool ReferencePatternMatches(std::string_view path, std::string_view pattern);

// One candidate rule in an index.
struct IndexedRule {
  CompiledPattern pattern;
  // Hashed set (byte % 64) of the literal bytes the pattern needs after its
  // prefix. A path lacking any of them cannot match, whatever the '*'s do;
  // this rejects most wildcard rules without scanning the path.
  std::uint64_t required_bytes = 0;
  // The same for the byte pairs inside its segments (see PairSet).
  PairSet required_pairs;
  std::uint32_t priority = 0;  // Length of the full match pattern (octets).
  std::uint32_t rule_id = 0;   // Caller's identifier (position of the rule).
  bool allow = false;
  // Set by RuleIndex: the pattern has a non-empty segment after a '*'.
  bool has_segments = false;
};

class RuleDfa;  // rule_dfa.h

// When RuleIndex builds and uses its segment filter. The defaults keep
// ordinary files (a few wildcard rules) and ordinary lookups off it; tests
// lower them to exercise the filter on small inputs.
struct SegmentFilterPolicy {
  // Indexes with at least this many rules that have segments after a '*'
  // get a filter, built on first use (so parsing never pays for it).
  std::size_t min_rules = 64;
  // In one lookup, scan the path once this many such rules have needed
  // verifying (each verification is itself a pass over the path).
  std::size_t verifications_before_scan = 16;
};

// Rules of one agent's merged groups, indexed by literal prefix.
class RuleIndex {
 public:
  // `rules` with priority 0 (empty patterns) never decide anything and are
  // dropped, as in Google's matcher.
  explicit RuleIndex(std::vector<IndexedRule> rules,
                     SegmentFilterPolicy policy = {});
  RuleIndex(RuleIndex&&) noexcept;
  RuleIndex& operator=(RuleIndex&&) noexcept;
  ~RuleIndex();

  // The deciding rule for `path`, or nullptr when no rule matches.
  const IndexedRule* BestMatch(std::string_view path) const;

  // Builds the rules' automaton (rule_dfa.h) for BestMatchByAutomaton,
  // spending at most `max_work` (RuleDfa::Limits::max_work); thread-safe.
  // Once built it stays; after a failure, only a larger budget tries again.
  // False when it would be too large for the budget.
  bool PrepareAutomaton(std::size_t max_work) const;
  // BestMatch through the automaton when one was built; the same answer,
  // one table step per path byte.
  const IndexedRule* BestMatchByAutomaton(std::string_view path) const;
  // The same, giving up (false) at the first byte marked in `stop` that
  // the walk reaches (RuleDfa::BestRuleUnlessStopped), or when no
  // automaton was built. The first `must_read` bytes are checked for stop
  // bytes even when the answer is known before them.
  bool BestMatchByAutomatonUnlessStopped(std::string_view path,
                                         const std::array<bool, 256>& stop,
                                         const IndexedRule** best,
                                         std::size_t must_read = 0) const;
  // BestMatchByAutomatonUnlessStopped (stop set) or BestMatchByAutomaton
  // (stop null; then every path is decided) for each of `paths`, walked
  // side by side (RuleDfa::BestRulesUnlessStopped). All undecided when no
  // automaton was built.
  void BestMatchesByAutomaton(std::span<const std::string_view> paths,
                              const std::array<bool, 256>* stop,
                              std::size_t must_read, const IndexedRule** best,
                              bool* decided) const;

  // BestMatchesByAutomaton, answering only whether each path is allowed
  // (when decided): without a second trie, straight from the automaton.
  void VerdictsByAutomaton(std::span<const std::string_view> paths,
                           const std::array<bool, 256>* stop,
                           std::size_t must_read, bool* allowed,
                           bool* decided) const;

  std::size_t rule_count() const { return rules_.size(); }
  bool has_segment_filter() const { return filter_ != nullptr; }
  std::size_t block_count() const { return blocks_.size(); }

 private:
  struct Node {
    std::uint32_t first_edge = 0;
    std::uint32_t edge_count = 0;
    std::uint32_t rules_begin = 0;  // Into rules_, sorted best-first.
    std::uint32_t rules_end = 0;
    // Into blocks_ (blocks_count == 0: the node's run is scanned rule by
    // rule); block k covers rules_begin + 64k .. + 64.
    std::uint32_t blocks_begin = 0;
    std::uint32_t blocks_count = 0;
  };
  // For a long run of rules at one node (many "/*/word" rules share the
  // prefix "/"), checking every rule's filter costs more than the rest of
  // the lookup. A block instead files each of up to 64 rules under one
  // "key" pair of its segments (the pair the fewest rules of the block
  // need), so the rules that can match are the OR of the lists of the pairs
  // the path has: a few dozen ORs instead of one filter check per rule. The
  // candidates are then checked in their best-first order as before.
  struct RuleBlock {
    std::uint64_t always = 0;  // Rules with no pair to file them under.
    std::uint64_t keyed[128] = {};
  };
  static constexpr std::uint32_t kMinRunForBlocks = 16;
  void BuildBlocks(Node* node);
  // Finds the child of `node` for byte `c`, or -1.
  std::int64_t Child(const Node& node, unsigned char c) const;
  // The segments of every rule, in one automaton, built on first use: a
  // RuleIndex is shared read-only by threads, hence the once_flag.
  struct SegmentFilter {
    std::once_flag built;
    SegmentFinder finder;
    // Rule i's segment ids, in order: ids[begin[i]] .. ids[begin[i + 1]].
    std::vector<std::uint32_t> ids;
    std::vector<std::uint32_t> begin;
  };
  const SegmentFilter& BuiltSegmentFilter() const;
  // False if `rule` cannot match `path` given where its segments occur.
  bool SegmentsFitIn(
      const SegmentFilter& filter, const IndexedRule& rule,
      std::string_view path,
      const std::vector<SegmentFinder::Occurrences>& found) const;

  std::vector<IndexedRule> rules_;
  // What the lookup loop reads for every candidate, parallel to rules_ and
  // kept apart from it so that rejecting a rule touches 24 bytes, not a
  // whole IndexedRule.
  struct Filter {
    std::uint64_t required_bytes = 0;
    PairSet required_pairs;
    std::uint32_t priority = 0;
    bool allow = false;
    // No '*': the trie walk that reached the rule has matched all of it
    // but a possible end anchor.
    bool literal = false;
    bool anchored = false;
  };
  std::vector<Filter> filters_;
  std::vector<RuleBlock> blocks_;
  bool any_required_bytes_ = false;  // Some rule needs the path's sets.
  std::vector<Node> nodes_;
  std::vector<unsigned char> edge_bytes_;
  std::vector<std::uint32_t> edge_targets_;
  std::vector<std::string_view> edge_labels_;  // Into rule pattern texts.
  std::uint32_t max_priority_ = 0;
  SegmentFilterPolicy policy_;
  std::unique_ptr<SegmentFilter> filter_;  // Null: too few rules to need it.
  // Rules with two or more segments between '*'s ("/b/*bed*/") make each
  // state remember which of them have seen their first segment, doubling
  // the states per rule; the automaton leaves them to a second, smaller
  // trie, and a lookup takes the better of the two answers.
  struct Automaton {
    std::mutex mutex;                            // Guards the rest but ready.
    std::atomic<const RuleDfa*> ready{nullptr};  // Set once, after building.
    std::unique_ptr<RuleDfa> dfa;
    // Copies of the rules each part serves; rule_id is the rule's index in
    // rules_.
    std::vector<IndexedRule> in_dfa;
    std::unique_ptr<RuleIndex> rest;  // Null: every rule is in the DFA.
    std::size_t work_tried = 0;       // Largest budget that failed.
  };
  // The better of the automaton's and the second trie's answers, as
  // BestMatch would pick between them (index order breaks ties).
  const IndexedRule* CombinedBest(const Automaton& automaton,
                                  std::uint32_t dfa_rule,
                                  std::string_view path) const;
  std::unique_ptr<Automaton> automaton_;
};

// True if `a` beats `b`: higher priority, or equal priority and allow.
inline bool Beats(const IndexedRule& a, const IndexedRule& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return a.allow && !b.allow;
}

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_PATTERN_H_
