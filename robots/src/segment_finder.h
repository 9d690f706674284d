// Finds where each of a fixed set of literal strings first and last starts
// in a text, in one pass (an Aho–Corasick automaton). Private.
//
// RuleIndex uses it to reject wildcard rules without scanning the path once
// per rule: a rule "/*ab*cd" can only match a path in which "ab" occurs and
// "cd" occurs after it. Verifying each rule with memmem costs O(|path|) per
// rule, so a hostile file of 40,000 such rules made one check of an 8 KB
// URL take 150 ms; one pass here answers for all of them.
#ifndef ROBOTSCAN_ROBOTS_SRC_SEGMENT_FINDER_H_
#define ROBOTSCAN_ROBOTS_SRC_SEGMENT_FINDER_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <vector>

namespace robotscan::robots::internal {

class SegmentFinder {
 public:
  static constexpr std::uint32_t kAbsent =
      std::numeric_limits<std::uint32_t>::max();

  // Start offsets of a segment's leftmost and rightmost occurrences.
  struct Occurrences {
    std::uint32_t first = kAbsent;  // kAbsent: the segment does not occur.
    std::uint32_t last = 0;
  };

  // Adds a non-empty segment (equal segments share one id) and returns its
  // id, numbered from 0. Only before Build().
  std::uint32_t Add(std::string_view segment);

  // Freezes the set: computes the automaton's failure and output links.
  void Build();

  std::size_t segment_count() const { return lengths_.size(); }
  std::uint32_t length(std::uint32_t id) const { return lengths_[id]; }

  // Sets found[id] for every segment (resized to segment_count()). Time is
  // O(|text| + reported occurrences); the latter is at most |text| times
  // the number of distinct segment lengths. False (and nothing found) for
  // a text of 4 GiB or more. Read-only: safe to call from many threads.
  bool Scan(std::string_view text, std::vector<Occurrences>* found) const;

 private:
  struct Node {
    std::uint32_t first_edge = 0;  // Into edge_bytes_/edge_targets_.
    std::uint32_t edge_count = 0;
    std::uint32_t fail = 0;    // Longest proper suffix that is a trie node.
    std::uint32_t output = 0;  // Nearest node on the fail chain that ends
                               // a segment; 0 (the root) for none.
    std::uint32_t segment = kAbsent;  // Segment ending at this node.
  };

  // The child of `node` for byte `c`, or 0 (the root is nobody's child).
  std::uint32_t Child(const Node& node, unsigned char c) const;
  // The automaton's move on `c`: the child for `c` of `state` or of the
  // first node on its failure chain that has one; else the root.
  std::uint32_t Next(std::uint32_t state, unsigned char c) const;

  // The trie while segments are added: first-child/next-sibling lists, so
  // adding costs no allocation per node. Dropped by Build().
  struct BuildNode {
    std::uint32_t first_child = 0;
    std::uint32_t next_sibling = 0;
    std::uint32_t segment = kAbsent;
    unsigned char byte = 0;
  };
  std::vector<BuildNode> build_;

  std::vector<Node> nodes_;  // Breadth-first order; 0 is the root.
  std::vector<unsigned char> edge_bytes_;  // Sorted within each node.
  std::vector<std::uint32_t> edge_targets_;
  std::vector<std::uint32_t> lengths_;  // By segment id.
};

}  // namespace robotscan::robots::internal

#endif  // ROBOTSCAN_ROBOTS_SRC_SEGMENT_FINDER_H_
