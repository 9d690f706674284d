#include "pattern.h"

#include <string.h>  // memmem (glibc: linear worst case, SIMD when short)

#include <algorithm>
#include <utility>

namespace robotscan::robots::internal {
namespace {

// Leftmost occurrence of `needle` in `hay` at or after `from`, or npos.
std::size_t FindFrom(std::string_view hay, std::string_view needle,
                     std::size_t from) {
  if (needle.empty()) return from;
  if (from >= hay.size() || hay.size() - from < needle.size()) {
    return std::string_view::npos;
  }
  const void* hit = memmem(hay.data() + from, hay.size() - from, needle.data(),
                           needle.size());
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
    : policy_(policy) {
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
  const auto rules_with_segments = static_cast<std::size_t>(
      std::count_if(rules_.begin(), rules_.end(),
                    [](const IndexedRule& r) { return r.has_segments; }));
  if (rules_with_segments != 0 && rules_with_segments >= policy_.min_rules) {
    filter_ = std::make_unique<SegmentFilter>();
  }
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
  const unsigned char* end = begin + node.edge_count;
  const unsigned char* it = std::lower_bound(begin, end, c);
  if (it == end || *it != c) return -1;
  return static_cast<std::int64_t>(it - edge_bytes_.data());
}

const IndexedRule* RuleIndex::BestMatch(std::string_view path) const {
  const std::uint64_t path_bytes = ByteSetOf(path);
  const IndexedRule* best = nullptr;
  // The segment filter's state for this lookup (see SegmentFilterPolicy).
  std::size_t verifications = 0;
  const SegmentFilter* filter = nullptr;  // Set once the path is scanned.
  bool filter_unusable = false;           // The path is too long to scan.
  std::vector<SegmentFinder::Occurrences> found;
  std::uint32_t node_id = 0;
  std::size_t depth = 0;
  while (true) {
    const Node& node = nodes_[node_id];
    for (std::uint32_t i = node.rules_begin; i < node.rules_end; ++i) {
      const IndexedRule& rule = rules_[i];
      if (best != nullptr && !Beats(rule, *best)) break;  // Sorted best-first.
      if ((rule.required_bytes & ~path_bytes) != 0) continue;
      if (rule.has_segments && filter_ != nullptr) {
        if (filter == nullptr &&
            ++verifications > policy_.verifications_before_scan) {
          filter = &BuiltSegmentFilter();
          if (!filter->finder.Scan(path, &found)) filter_unusable = true;
        }
        if (filter != nullptr && !filter_unusable &&
            !SegmentsFitIn(*filter, rule, path, found)) {
          continue;
        }
      }
      if (PatternMatches(rule.pattern, path)) {
        best = &rule;
        break;  // The rest of this node's run cannot beat it.
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
