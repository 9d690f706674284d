#include "pattern.h"

#include "rule_dfa.h"

#include <string.h>  // memmem (glibc: linear worst case, SIMD when short)

#include <algorithm>
#include <utility>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace robotscan::robots::internal {
namespace {

// Below this many byte comparisons in the worst case, a first-byte scan
// with a compare at each candidate beats memmem, whose set-up (a hash of
// the needle, or two-way factorisation) costs more than a short path's
// search; above it memmem keeps the search linear on hostile input.
constexpr std::size_t kNaiveSearchBound = 2048;

// Leftmost occurrence of `needle` in `hay` at or after `from`, or npos.
std::size_t FindFrom(std::string_view hay, std::string_view needle,
                     std::size_t from) {
  if (needle.empty()) return from;
  if (from >= hay.size() || hay.size() - from < needle.size()) {
    return std::string_view::npos;
  }
  const std::size_t room = hay.size() - from;
  if (room * needle.size() <= kNaiveSearchBound) {
    const char first = needle[0];
    const std::string_view rest = needle.substr(1);
    const std::size_t last_start = hay.size() - needle.size();
    for (std::size_t i = from; i <= last_start; ++i) {
      if (hay[i] == first && hay.substr(i + 1, rest.size()) == rest) return i;
    }
    return std::string_view::npos;
  }
  const void* hit =
      memmem(hay.data() + from, room, needle.data(), needle.size());
  if (hit == nullptr) return std::string_view::npos;
  return static_cast<std::size_t>(static_cast<const char*>(hit) - hay.data());
}

}  // namespace

CompiledPattern CompilePattern(std::string_view pattern) {
  CompiledPattern compiled;
  if (!pattern.empty() && pattern.back() == '$') {
    compiled.anchored = true;
    pattern.remove_suffix(1);
  }
  compiled.text = pattern;
  const std::size_t star = pattern.find('*');
  compiled.has_wildcard = star != std::string_view::npos;
  compiled.prefix_len =
      static_cast<std::uint32_t>(compiled.has_wildcard ? star : pattern.size());
  return compiled;
}

std::uint64_t RequiredBytesOf(const CompiledPattern& pattern) {
  std::uint64_t set = 0;
  for (char c : pattern.text.substr(pattern.prefix_len)) {
    if (c != '*') set |= ByteSetOf(std::string_view(&c, 1));
  }
  return set;
}

namespace {

// Sets a pair bucket's bit in the low or high word. Masks, not
// `bucket < 64 ? bit : 0`, which GCC 12 compiles to a branch taken for
// half the pairs at random: a misprediction every other byte was a fifth
// of a lookup's time (bench/RESULTS.md, 2026-12-02 afternoon).
inline void AddBucket(unsigned bucket, std::uint64_t* low,
                      std::uint64_t* high) {
  const std::uint64_t bit = std::uint64_t{1} << (bucket & 63);
  const std::uint64_t in_high = 0 - std::uint64_t{bucket >> 6};
  *low |= bit & ~in_high;
  *high |= bit & in_high;
}

}  // namespace

PairSet PairSetOf(std::string_view text) {
  // Two independent accumulators and no indexed store, so that the loop
  // carries only two ORs from one pair to the next.
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    const unsigned bucket =
        PairSet::BucketOf(static_cast<unsigned char>(text[i - 1]),
                          static_cast<unsigned char>(text[i]));
    AddBucket(bucket, &low, &high);
  }
  PairSet set;
  set.bits[0] = low;
  set.bits[1] = high;
  return set;
}

PairSet RequiredPairsOf(const CompiledPattern& pattern) {
  PairSet set;
  const std::string_view rest = pattern.text.substr(pattern.prefix_len);
  for (std::size_t i = 1; i < rest.size(); ++i) {
    if (rest[i - 1] != '*' && rest[i] != '*') {
      set.Add(static_cast<unsigned char>(rest[i - 1]),
              static_cast<unsigned char>(rest[i]));
    }
  }
  return set;
}

bool PatternMatches(const CompiledPattern& pattern, std::string_view path) {
  const std::string_view text = pattern.text;
  const std::string_view prefix = text.substr(0, pattern.prefix_len);
  if (path.substr(0, prefix.size()) != prefix) return false;
  if (!pattern.has_wildcard) {
    return !pattern.anchored || path.size() == prefix.size();
  }
  std::size_t pos = prefix.size();      // Next unmatched byte of path.
  std::size_t seg = prefix.size() + 1;  // Start of the next segment in text.
  while (true) {
    std::size_t seg_end = text.find('*', seg);
    const bool last = seg_end == std::string_view::npos;
    if (last) seg_end = text.size();
    const std::string_view segment = text.substr(seg, seg_end - seg);
    if (last) {
      if (pattern.anchored) {
        // The last segment must end the path, after what is matched so far.
        return path.size() >= pos + segment.size() &&
               path.substr(path.size() - segment.size()) == segment;
      }
      return FindFrom(path, segment, pos) != std::string_view::npos;
    }
    const std::size_t hit = FindFrom(path, segment, pos);
    if (hit == std::string_view::npos) return false;
    pos = hit + segment.size();
    seg = seg_end + 1;
  }
}

bool ReferencePatternMatches(std::string_view path, std::string_view pattern) {
  // positions[i] is true when pattern's prefix seen so far can end at path[i].
  std::vector<bool> positions(path.size() + 1, false);
  positions[0] = true;
  for (std::size_t p = 0; p < pattern.size(); ++p) {
    const char c = pattern[p];
    if (c == '$' && p + 1 == pattern.size()) return positions[path.size()];
    std::vector<bool> next(path.size() + 1, false);
    bool any = false;
    if (c == '*') {
      bool reached = false;
      for (std::size_t i = 0; i <= path.size(); ++i) {
        reached = reached || positions[i];
        next[i] = reached;
        any = any || reached;
      }
    } else {
      for (std::size_t i = 0; i < path.size(); ++i) {
        if (positions[i] && path[i] == c) {
          next[i + 1] = true;
          any = true;
        }
      }
    }
    if (!any) return false;
    positions.swap(next);
  }
  return true;
}

RuleIndex::RuleIndex(std::vector<IndexedRule> rules, SegmentFilterPolicy policy)
    : policy_(policy), automaton_(std::make_unique<Automaton>()) {
  rules.erase(
      std::remove_if(rules.begin(), rules.end(),
                     [](const IndexedRule& r) { return r.priority == 0; }),
      rules.end());
  // Sort by literal prefix; within one prefix, best first. The trie below
  // then attaches each node's rules as one contiguous, best-first run.
  std::stable_sort(rules.begin(), rules.end(),
                   [](const IndexedRule& a, const IndexedRule& b) {
                     const std::string_view pa =
                         a.pattern.text.substr(0, a.pattern.prefix_len);
                     const std::string_view pb =
                         b.pattern.text.substr(0, b.pattern.prefix_len);
                     if (pa != pb) return pa < pb;
                     return Beats(a, b);
                   });
  rules_ = std::move(rules);
  for (IndexedRule& r : rules_) {
    max_priority_ = std::max(max_priority_, r.priority);
    r.required_bytes = RequiredBytesOf(r.pattern);
    r.required_pairs = RequiredPairsOf(r.pattern);
    filters_.push_back(Filter{r.required_bytes, r.required_pairs, r.priority,
                              r.allow, !r.pattern.has_wildcard,
                              r.pattern.anchored});
    any_required_bytes_ = any_required_bytes_ || r.required_bytes != 0;
    r.has_segments = r.pattern.has_wildcard &&
                     r.pattern.text.find_first_not_of(
                         '*', r.pattern.prefix_len) != std::string_view::npos;
  }

  // Build a compressed trie over the sorted prefixes. Each work item is a
  // node covering rules_[lo, hi) whose prefixes all share `depth` bytes.
  struct Work {
    std::uint32_t node;
    std::uint32_t lo;
    std::uint32_t hi;
    std::uint32_t depth;
  };
  auto prefix_of = [this](std::uint32_t i) {
    return rules_[i].pattern.text.substr(0, rules_[i].pattern.prefix_len);
  };
  nodes_.push_back(Node{});
  std::vector<Work> stack;
  stack.push_back({0, 0, static_cast<std::uint32_t>(rules_.size()), 0});
  while (!stack.empty()) {
    const Work w = stack.back();
    stack.pop_back();
    std::uint32_t lo = w.lo;
    // Rules whose prefix ends exactly here sort first.
    while (lo < w.hi && prefix_of(lo).size() == w.depth) ++lo;
    nodes_[w.node].rules_begin = w.lo;
    nodes_[w.node].rules_end = lo;
    nodes_[w.node].first_edge = static_cast<std::uint32_t>(edge_bytes_.size());
    // Group the rest by their byte at `depth`; one child per group.
    std::vector<Work> children;
    while (lo < w.hi) {
      const unsigned char c =
          static_cast<unsigned char>(prefix_of(lo)[w.depth]);
      std::uint32_t end = lo + 1;
      while (end < w.hi &&
             static_cast<unsigned char>(prefix_of(end)[w.depth]) == c) {
        ++end;
      }
      // Sorted input: the common prefix of the group is that of its first
      // and last members.
      const std::string_view first = prefix_of(lo);
      const std::string_view last = prefix_of(end - 1);
      std::uint32_t lcp = w.depth + 1;
      while (lcp < first.size() && lcp < last.size() &&
             first[lcp] == last[lcp]) {
        ++lcp;
      }
      const auto child = static_cast<std::uint32_t>(nodes_.size());
      nodes_.push_back(Node{});
      edge_bytes_.push_back(c);
      edge_targets_.push_back(child);
      edge_labels_.push_back(first.substr(w.depth, lcp - w.depth));
      children.push_back({child, lo, end, lcp});
      lo = end;
    }
    nodes_[w.node].edge_count = static_cast<std::uint32_t>(
        edge_bytes_.size() - nodes_[w.node].first_edge);
    for (const Work& child : children) stack.push_back(child);
  }
  // Padding, so that Child may read 16 bytes from any node's first edge.
  edge_bytes_.resize(edge_bytes_.size() + 16, 0);
  for (Node& node : nodes_) BuildBlocks(&node);
  const auto rules_with_segments = static_cast<std::size_t>(
      std::count_if(rules_.begin(), rules_.end(),
                    [](const IndexedRule& r) { return r.has_segments; }));
  if (rules_with_segments != 0 && rules_with_segments >= policy_.min_rules) {
    filter_ = std::make_unique<SegmentFilter>();
  }
}

RuleIndex::RuleIndex(RuleIndex&&) noexcept = default;
RuleIndex& RuleIndex::operator=(RuleIndex&&) noexcept = default;
RuleIndex::~RuleIndex() = default;

namespace {

// More than one '*' before the last literal byte: "/a*b" has one, "/b/*x*/"
// two ("*" at the end do not count, see RuleDfa).
bool HasSeveralSegments(const CompiledPattern& pattern) {
  std::string_view text = pattern.text;
  while (!text.empty() && text.back() == '*') text.remove_suffix(1);
  return std::count(text.begin(), text.end(), '*') > 1;
}

}  // namespace

bool RuleIndex::PrepareAutomaton(std::size_t max_work) const {
  Automaton& automaton = *automaton_;
  if (automaton.ready.load(std::memory_order_acquire) != nullptr) return true;
  std::lock_guard<std::mutex> lock(automaton.mutex);
  if (automaton.dfa != nullptr) return true;
  if (rules_.empty() || max_work <= automaton.work_tried) return false;
  std::vector<IndexedRule> in_dfa;
  std::vector<IndexedRule> rest;
  for (std::uint32_t i = 0; i < rules_.size(); ++i) {
    IndexedRule copy = rules_[i];
    copy.rule_id = i;
    (HasSeveralSegments(copy.pattern) ? rest : in_dfa).push_back(copy);
  }
  RuleDfa::Limits limits;
  limits.max_work = max_work;
  std::unique_ptr<RuleDfa> dfa =
      in_dfa.empty() ? nullptr : RuleDfa::Build(in_dfa, limits);
  if (dfa == nullptr) {
    automaton.work_tried = max_work;
    return false;
  }
  automaton.in_dfa = std::move(in_dfa);
  if (!rest.empty()) {
    automaton.rest = std::make_unique<RuleIndex>(std::move(rest), policy_);
  }
  automaton.dfa = std::move(dfa);
  automaton.ready.store(automaton.dfa.get(), std::memory_order_release);
  return true;
}

const IndexedRule* RuleIndex::CombinedBest(const Automaton& automaton,
                                           std::uint32_t dfa_rule,
                                           std::string_view path) const {
  const IndexedRule* from_dfa =
      dfa_rule == RuleDfa::kNoRule
          ? nullptr
          : &rules_[automaton.in_dfa[dfa_rule].rule_id];
  if (automaton.rest == nullptr) return from_dfa;
  const IndexedRule* copy = automaton.rest->BestMatch(path);
  const IndexedRule* from_rest =
      copy == nullptr ? nullptr : &rules_[copy->rule_id];
  if (from_dfa == nullptr) return from_rest;
  if (from_rest == nullptr) return from_dfa;
  if (Beats(*from_dfa, *from_rest)) return from_dfa;
  if (Beats(*from_rest, *from_dfa)) return from_rest;
  return from_dfa < from_rest ? from_dfa : from_rest;
}

const IndexedRule* RuleIndex::BestMatchByAutomaton(
    std::string_view path) const {
  const RuleDfa* dfa = automaton_->ready.load(std::memory_order_acquire);
  if (dfa == nullptr) return BestMatch(path);
  return CombinedBest(*automaton_, dfa->BestRule(path), path);
}

bool RuleIndex::BestMatchByAutomatonUnlessStopped(
    std::string_view path, const std::array<bool, 256>& stop,
    const IndexedRule** best, std::size_t must_read) const {
  const RuleDfa* dfa = automaton_->ready.load(std::memory_order_acquire);
  if (dfa == nullptr) return false;
  std::uint32_t rule = RuleDfa::kNoRule;
  if (automaton_->rest != nullptr) {
    // The second trie reads the whole path, so all of it must be final.
    for (const char c : path) {
      if (stop[static_cast<unsigned char>(c)]) return false;
    }
    rule = dfa->BestRule(path);
  } else if (!dfa->BestRuleUnlessStopped(path, stop, &rule, must_read)) {
    return false;
  }
  *best = CombinedBest(*automaton_, rule, path);
  return true;
}

void RuleIndex::BestMatchesByAutomaton(std::span<const std::string_view> paths,
                                       const std::array<bool, 256>* stop,
                                       std::size_t must_read,
                                       const IndexedRule** best,
                                       bool* decided) const {
  const RuleDfa* dfa = automaton_->ready.load(std::memory_order_acquire);
  if (dfa == nullptr) {
    std::fill(decided, decided + paths.size(), false);
    return;
  }
  // The second trie reads the whole path, so with one all of it must be
  // final (as in BestMatchByAutomatonUnlessStopped).
  if (automaton_->rest != nullptr) must_read = static_cast<std::size_t>(-1);
  constexpr std::size_t kChunk = 256;
  std::uint32_t rules[kChunk];
  for (std::size_t begin = 0; begin < paths.size(); begin += kChunk) {
    const std::span<const std::string_view> chunk =
        paths.subspan(begin, std::min(kChunk, paths.size() - begin));
    dfa->BestRulesUnlessStopped(chunk, stop, must_read, rules, decided + begin);
    for (std::size_t i = 0; i < chunk.size(); ++i) {
      if (decided[begin + i]) {
        best[begin + i] = CombinedBest(*automaton_, rules[i], chunk[i]);
      }
    }
  }
}

void RuleIndex::VerdictsByAutomaton(std::span<const std::string_view> paths,
                                    const std::array<bool, 256>* stop,
                                    std::size_t must_read, bool* allowed,
                                    bool* decided) const {
  const RuleDfa* dfa = automaton_->ready.load(std::memory_order_acquire);
  if (dfa != nullptr && automaton_->rest == nullptr) {
    dfa->VerdictsUnlessStopped(paths, stop, must_read, allowed, decided);
    return;
  }
  constexpr std::size_t kChunk = 256;
  const IndexedRule* best[kChunk];
  for (std::size_t begin = 0; begin < paths.size(); begin += kChunk) {
    const std::size_t size = std::min(kChunk, paths.size() - begin);
    BestMatchesByAutomaton(paths.subspan(begin, size), stop, must_read, best,
                           decided + begin);
    for (std::size_t i = 0; i < size; ++i) {
      allowed[begin + i] =
          decided[begin + i] && (best[i] == nullptr || best[i]->allow);
    }
  }
}

void RuleIndex::BuildBlocks(Node* node) {
  std::uint32_t wildcard_rules = 0;
  for (std::uint32_t i = node->rules_begin; i < node->rules_end; ++i) {
    wildcard_rules += filters_[i].literal ? 0 : 1;
  }
  if (wildcard_rules < kMinRunForBlocks) return;
  node->blocks_begin = static_cast<std::uint32_t>(blocks_.size());
  for (std::uint32_t base = node->rules_begin; base < node->rules_end;
       base += 64) {
    const std::uint32_t end = std::min(base + 64, node->rules_end);
    // How many rules of the block need each pair: a rule is filed under
    // its least needed pair, so that each list stays short.
    std::uint32_t needed_by[128] = {};
    auto for_each_bucket = [](const PairSet& set, auto visit) {
      for (unsigned word = 0; word < 2; ++word) {
        for (std::uint64_t bits = set.bits[word]; bits != 0; bits &= bits - 1) {
          visit(word * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
        }
      }
    };
    for (std::uint32_t i = base; i < end; ++i) {
      for_each_bucket(filters_[i].required_pairs,
                      [&](unsigned bucket) { ++needed_by[bucket]; });
    }
    RuleBlock& block = blocks_.emplace_back();
    for (std::uint32_t i = base; i < end; ++i) {
      const std::uint64_t bit = std::uint64_t{1} << (i - base);
      unsigned key = 128;
      for_each_bucket(filters_[i].required_pairs, [&](unsigned bucket) {
        if (key == 128 || needed_by[bucket] < needed_by[key]) key = bucket;
      });
      if (filters_[i].literal || key == 128) {
        block.always |= bit;
      } else {
        block.keyed[key] |= bit;
      }
    }
  }
  node->blocks_count =
      static_cast<std::uint32_t>(blocks_.size()) - node->blocks_begin;
}

namespace {

// Calls `visit` with each non-empty segment after the pattern's prefix.
template <typename Visit>
void ForEachSegment(const CompiledPattern& pattern, Visit visit) {
  if (!pattern.has_wildcard) return;
  std::string_view rest = pattern.text.substr(pattern.prefix_len + 1);
  while (true) {
    const std::size_t star = rest.find('*');
    const std::string_view segment = rest.substr(0, star);
    if (!segment.empty()) visit(segment);
    if (star == std::string_view::npos) return;
    rest.remove_prefix(star + 1);
  }
}

}  // namespace

const RuleIndex::SegmentFilter& RuleIndex::BuiltSegmentFilter() const {
  SegmentFilter& filter = *filter_;
  std::call_once(filter.built, [this, &filter] {
    filter.begin.reserve(rules_.size() + 1);
    for (const IndexedRule& rule : rules_) {
      filter.begin.push_back(static_cast<std::uint32_t>(filter.ids.size()));
      ForEachSegment(rule.pattern, [&filter](std::string_view segment) {
        filter.ids.push_back(filter.finder.Add(segment));  // Adds once.
      });
    }
    filter.begin.push_back(static_cast<std::uint32_t>(filter.ids.size()));
    filter.finder.Build();
  });
  return filter;
}

bool RuleIndex::SegmentsFitIn(
    const SegmentFilter& filter, const IndexedRule& rule, std::string_view path,
    const std::vector<SegmentFinder::Occurrences>& found) const {
  // The greedy match places each segment at its leftmost occurrence at or
  // after `pos`. `low` is a lower bound of `pos`: a segment whose last
  // occurrence starts before it cannot be placed, and once placed, `pos`
  // passes both `low` and the segment's first occurrence.
  std::size_t low = rule.pattern.prefix_len;
  const bool ends_path =
      rule.pattern.anchored && rule.pattern.text.back() != '*';
  const auto index = static_cast<std::size_t>(&rule - rules_.data());
  const std::uint32_t end = filter.begin[index + 1];
  for (std::uint32_t i = filter.begin[index]; i < end; ++i) {
    const std::uint32_t id = filter.ids[i];
    const SegmentFinder::Occurrences& at = found[id];
    if (at.first == SegmentFinder::kAbsent || at.last < low) return false;
    const std::size_t length = filter.finder.length(id);
    if (ends_path && i + 1 == end && at.last != path.size() - length) {
      return false;  // "...segment$" needs the path to end with it.
    }
    low = std::max<std::size_t>(low, at.first) + length;
  }
  return true;
}

std::int64_t RuleIndex::Child(const Node& node, unsigned char c) const {
  const unsigned char* begin = edge_bytes_.data() + node.first_edge;
#if defined(__SSE2__)
  // Up to 16 edges (nearly every node) in one compare: the bytes are
  // distinct, and the array has 16 bytes of padding at its end. A binary
  // search's branches mispredict on most trie steps.
  if (node.edge_count <= 16) {
    const __m128i edges =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(begin));
    const unsigned hits =
        static_cast<unsigned>(_mm_movemask_epi8(
            _mm_cmpeq_epi8(edges, _mm_set1_epi8(static_cast<char>(c))))) &
        ((1u << node.edge_count) - 1);
    if (hits == 0) return -1;
    return static_cast<std::int64_t>(node.first_edge) + __builtin_ctz(hits);
  }
#endif
  const unsigned char* end = begin + node.edge_count;
  const unsigned char* it = std::lower_bound(begin, end, c);
  if (it == end || *it != c) return -1;
  return static_cast<std::int64_t>(it - edge_bytes_.data());
}

namespace {

// The byte set and pair set of `path`, in one pass.
void PathSetsOf(std::string_view path, std::uint64_t* bytes, PairSet* pairs) {
  std::uint64_t byte_set = 0;
  std::uint64_t low = 0;
  std::uint64_t high = 0;
  if (!path.empty()) {
    auto previous = static_cast<unsigned char>(path[0]);
    byte_set = std::uint64_t{1} << (previous & 63);
    for (std::size_t i = 1; i < path.size(); ++i) {
      const auto c = static_cast<unsigned char>(path[i]);
      byte_set |= std::uint64_t{1} << (c & 63);
      const unsigned bucket = PairSet::BucketOf(previous, c);
      AddBucket(bucket, &low, &high);
      previous = c;
    }
  }
  *bytes = byte_set;
  pairs->bits[0] = low;
  pairs->bits[1] = high;
}

}  // namespace

const IndexedRule* RuleIndex::BestMatch(std::string_view path) const {
  // The path's byte and pair sets: every lookup of an index with wildcard
  // rules needs them, since most paths reach a node that has some.
  std::uint64_t path_bytes = 0;
  PairSet path_pairs;
  if (any_required_bytes_) PathSetsOf(path, &path_bytes, &path_pairs);
  // The buckets of path_pairs, listed when a node with blocks needs them.
  std::uint8_t path_buckets[128];
  int path_buckets_count = -1;
  const IndexedRule* best = nullptr;
  std::uint32_t best_priority = 0;
  bool best_allow = false;
  // The segment filter's state for this lookup (see SegmentFilterPolicy).
  std::size_t verifications = 0;
  const SegmentFilter* filter = nullptr;  // Set once the path is scanned.
  bool filter_unusable = false;           // The path is too long to scan.
  std::vector<SegmentFinder::Occurrences> found;
  std::uint32_t node_id = 0;
  std::size_t depth = 0;
  while (true) {
    const Node& node = nodes_[node_id];
    // Tries rule i of this node's run: false once nothing left in the run
    // can beat the best match (the run is sorted best-first).
    auto try_rule = [&](std::uint32_t i) __attribute__((always_inline)) {
      const Filter& needs = filters_[i];
      if (best != nullptr &&
          (needs.priority < best_priority ||
           (needs.priority == best_priority && (!needs.allow || best_allow)))) {
        return false;
      }
      if (needs.literal) {
        // The walk matched the whole pattern; only "$" can still fail.
        if (needs.anchored && path.size() != depth) return true;
      } else {
        if (((needs.required_bytes & ~path_bytes) |
             (needs.required_pairs.bits[0] & ~path_pairs.bits[0]) |
             (needs.required_pairs.bits[1] & ~path_pairs.bits[1])) != 0) {
          return true;
        }
        const IndexedRule& rule = rules_[i];
        if (rule.has_segments && filter_ != nullptr) {
          if (filter == nullptr &&
              ++verifications > policy_.verifications_before_scan) {
            filter = &BuiltSegmentFilter();
            if (!filter->finder.Scan(path, &found)) filter_unusable = true;
          }
          if (filter != nullptr && !filter_unusable &&
              !SegmentsFitIn(*filter, rule, path, found)) {
            return true;
          }
        }
        if (!PatternMatches(rule.pattern, path)) return true;
      }
      best = &rules_[i];
      best_priority = needs.priority;
      best_allow = needs.allow;
      return false;  // The rest of this node's run cannot beat it.
    };
    if (node.blocks_count == 0) {
      for (std::uint32_t i = node.rules_begin; i < node.rules_end; ++i) {
        if (!try_rule(i)) break;
      }
    } else {
      if (path_buckets_count < 0) {
        path_buckets_count = 0;
        for (unsigned word = 0; word < 2; ++word) {
          for (std::uint64_t bits = path_pairs.bits[word]; bits != 0;
               bits &= bits - 1) {
            path_buckets[path_buckets_count++] = static_cast<std::uint8_t>(
                word * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
          }
        }
      }
      bool more = true;
      for (std::uint32_t k = 0; more && k < node.blocks_count; ++k) {
        const RuleBlock& block = blocks_[node.blocks_begin + k];
        std::uint64_t candidates = block.always;
        for (int b = 0; b < path_buckets_count; ++b) {
          candidates |= block.keyed[path_buckets[b]];
        }
        const std::uint32_t base = node.rules_begin + 64 * k;
        for (; more && candidates != 0; candidates &= candidates - 1) {
          more = try_rule(
              base + static_cast<std::uint32_t>(__builtin_ctzll(candidates)));
        }
      }
    }
    if (depth >= path.size() || node.edge_count == 0) break;
    const std::int64_t edge =
        Child(node, static_cast<unsigned char>(path[depth]));
    if (edge < 0) break;
    const std::string_view label = edge_labels_[static_cast<std::size_t>(edge)];
    if (path.substr(depth, label.size()) != label) break;
    depth += label.size();
    node_id = edge_targets_[static_cast<std::size_t>(edge)];
  }
  return best;
}

}  // namespace robotscan::robots::internal
