#include "segment_finder.h"

#include <algorithm>
#include <utility>

namespace robotscan::robots::internal {

std::uint32_t SegmentFinder::Add(std::string_view segment) {
  if (build_.empty()) build_.push_back(BuildNode{});  // The root.
  std::uint32_t node = 0;
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    // A node has at most 256 children; the list is only walked while
    // segments are added, never while scanning.
    std::uint32_t child = build_[node].first_child;
    while (child != 0 && build_[child].byte != c) {
      child = build_[child].next_sibling;
    }
    if (child == 0) {
      child = static_cast<std::uint32_t>(build_.size());
      BuildNode added;
      added.byte = c;
      added.next_sibling = build_[node].first_child;
      build_.push_back(added);
      build_[node].first_child = child;
    }
    node = child;
  }
  if (build_[node].segment == kAbsent) {
    build_[node].segment = static_cast<std::uint32_t>(lengths_.size());
    lengths_.push_back(static_cast<std::uint32_t>(segment.size()));
  }
  return build_[node].segment;
}

void SegmentFinder::Build() {
  if (build_.empty()) build_.push_back(BuildNode{});
  // Renumber breadth-first (so every failure link points to a node numbered
  // lower) and store each node's edges sorted, for binary search.
  nodes_.assign(build_.size(), Node{});
  std::vector<std::uint32_t> order;  // Build ids in breadth-first order.
  order.reserve(build_.size());
  order.push_back(0);
  std::vector<std::pair<unsigned char, std::uint32_t>> children;
  for (std::size_t id = 0; id < order.size(); ++id) {
    const BuildNode& from = build_[order[id]];
    children.clear();
    for (std::uint32_t c = from.first_child; c != 0;
         c = build_[c].next_sibling) {
      children.emplace_back(build_[c].byte, c);
    }
    std::sort(children.begin(), children.end());
    Node& node = nodes_[id];
    node.segment = from.segment;
    node.first_edge = static_cast<std::uint32_t>(edge_bytes_.size());
    node.edge_count = static_cast<std::uint32_t>(children.size());
    for (const auto& [byte, child] : children) {
      edge_bytes_.push_back(byte);
      edge_targets_.push_back(static_cast<std::uint32_t>(order.size()));
      order.push_back(child);
    }
  }
  build_.clear();
  build_.shrink_to_fit();

  // Failure links, parents before children: the link of a child of `u` by
  // byte c is the deepest node reachable by c from u's failure chain.
  for (std::size_t u = 0; u < nodes_.size(); ++u) {
    const Node parent = nodes_[u];
    for (std::uint32_t e = 0; e < parent.edge_count; ++e) {
      const unsigned char c = edge_bytes_[parent.first_edge + e];
      const std::uint32_t v = edge_targets_[parent.first_edge + e];
      const std::uint32_t fail = u == 0 ? 0 : Next(parent.fail, c);
      nodes_[v].fail = fail;
      nodes_[v].output =
          nodes_[fail].segment != kAbsent ? fail : nodes_[fail].output;
    }
  }
}

std::uint32_t SegmentFinder::Child(const Node& node, unsigned char c) const {
  const unsigned char* begin = edge_bytes_.data() + node.first_edge;
  const unsigned char* end = begin + node.edge_count;
  const unsigned char* it = std::lower_bound(begin, end, c);
  if (it == end || *it != c) return 0;
  return edge_targets_[static_cast<std::size_t>(it - edge_bytes_.data())];
}

std::uint32_t SegmentFinder::Next(std::uint32_t state, unsigned char c) const {
  while (true) {
    if (const std::uint32_t next = Child(nodes_[state], c); next != 0) {
      return next;
    }
    if (state == 0) return 0;
    state = nodes_[state].fail;
  }
}

bool SegmentFinder::Scan(std::string_view text,
                         std::vector<Occurrences>* found) const {
  found->assign(lengths_.size(), Occurrences{});
  if (text.size() >= kAbsent) return false;  // Offsets would not fit.
  if (nodes_.empty()) return true;
  std::uint32_t state = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    state = Next(state, c);
    // Every segment that ends at i: this node's, then its output chain's.
    std::uint32_t n =
        nodes_[state].segment != kAbsent ? state : nodes_[state].output;
    while (n != 0) {
      const std::uint32_t id = nodes_[n].segment;
      const auto start = static_cast<std::uint32_t>(i + 1 - lengths_[id]);
      Occurrences& o = (*found)[id];
      if (o.first == kAbsent) o.first = start;
      o.last = start;
      n = nodes_[n].output;
    }
  }
  return true;
}

}  // namespace robotscan::robots::internal
