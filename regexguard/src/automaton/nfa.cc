// Glushkov construction: each node yields (first, last, nullable) over
// positions, and concatenation/repetition add follow edges last -> first.
#include "automaton/nfa.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace robotscan::regexguard::internal {
namespace {

struct Fragment {
  std::vector<int> first;
  std::vector<int> last;
  bool nullable = true;
};

std::size_t CountPositions(const Node& node) {
  if (node.kind == NodeKind::kCharacters) return 1;
  if (node.kind == NodeKind::kLookaround ||
      node.kind == NodeKind::kBackReference ||
      node.kind == NodeKind::kAssertion) {
    return 0;
  }
  std::size_t total = 0;
  for (const auto& child : node.children) total += CountPositions(*child);
  if (node.kind == NodeKind::kRepeat) {
    const std::size_t copies =
        node.max == kUnbounded ? std::max(node.min, 1) : node.max;
    total *= std::max<std::size_t>(copies, 1);
  }
  return std::min<std::size_t>(total, 1u << 30);
}

bool ContainsUnboundedRepeat(const Node& node) {
  if (node.kind == NodeKind::kRepeat && node.max == kUnbounded) return true;
  for (const auto& child : node.children) {
    if (ContainsUnboundedRepeat(*child)) return true;
  }
  return false;
}

class Builder {
 public:
  explicit Builder(const NfaBudget& budget) : budget_(budget) {
    nfa_.states.emplace_back();  // the initial state
  }

  Result<Nfa> Build(const Node& root) {
    CollectGroups(root);
    Fragment fragment = Visit(root);
    if (error_) return *error_;
    for (const int f : fragment.first) AddEdge(0, f);
    if (error_) return *error_;
    nfa_.accepting.assign(nfa_.states.size(), false);
    for (const int l : fragment.last) nfa_.accepting[l] = true;
    for (const int l : side_branch_ends_) nfa_.accepting[l] = true;
    if (fragment.nullable) nfa_.accepting[0] = true;
    nfa_.edge_count = 0;
    for (NfaState& state : nfa_.states) {
      std::sort(state.next.begin(), state.next.end());
      std::vector<int> unique_next;
      for (const int target : state.next) {
        if (!unique_next.empty() && unique_next.back() == target) {
          state.multiplicity.back() = 2;
        } else {
          unique_next.push_back(target);
          state.multiplicity.push_back(1);
        }
      }
      state.next = std::move(unique_next);
      nfa_.edge_count += state.next.size();
    }
    std::sort(nfa_.approximations.begin(), nfa_.approximations.end());
    nfa_.approximations.erase(
        std::unique(nfa_.approximations.begin(), nfa_.approximations.end()),
        nfa_.approximations.end());
    return std::move(nfa_);
  }

 private:
  void AddEdge(int from, int to) {
    if (error_) return;
    nfa_.states[from].next.push_back(to);
    if (++edges_added_ > budget_.max_edges * 4) {
      error_ = Status{StatusCode::kBudgetExceeded,
                      "automaton has more than " +
                          std::to_string(budget_.max_edges) + " transitions",
                      std::nullopt};
    }
  }

  void Connect(const std::vector<int>& from, const std::vector<int>& to) {
    for (const int f : from) {
      for (const int t : to) AddEdge(f, t);
      if (error_) return;
    }
  }

  static void Append(std::vector<int>* into, const std::vector<int>& from) {
    into->insert(into->end(), from.begin(), from.end());
  }

  Fragment Concat(Fragment a, Fragment b) {
    Connect(a.last, b.first);
    Fragment result;
    result.first = a.first;
    if (a.nullable) Append(&result.first, b.first);
    result.last = b.last;
    if (b.nullable) Append(&result.last, a.last);
    result.nullable = a.nullable && b.nullable;
    return result;
  }

  Fragment Visit(const Node& node) {
    if (error_) return {};
    switch (node.kind) {
      case NodeKind::kEmpty:
      case NodeKind::kAssertion:
        return {};
      case NodeKind::kLookaround: {
        // The engine runs the body at this point and then carries on from
        // the same place. Model both: a branch into the body that ends the
        // path (its last positions accept), and an empty step past it. The
        // body's own loops then take part in the ambiguity analysis (e.g.
        // `(?=.*\d)` at every start position of a search is quadratic).
        nfa_.approximations.push_back("lookaround modelled as a side branch");
        if (node.lookbehind && ContainsUnboundedRepeat(*node.children[0])) {
          nfa_.has_unmodelled_loops = true;
        }
        Fragment body = Visit(*node.children[0]);
        if (node.lookbehind && !node.negated) {
          // `(?<=X)` needs X in the input just before this point: model it
          // as X read here, so that attacks spell it (the search-restart
          // pump of `(?<=This is).*?(?=sentence)` is "This is...").
          return body;
        }
        side_branch_ends_.insert(side_branch_ends_.end(), body.last.begin(),
                                 body.last.end());
        Fragment result;
        result.first = std::move(body.first);
        result.nullable = true;
        return result;
      }
      case NodeKind::kBackReference: {
        // A back reference repeats a string the group matched, so the
        // group's own language over-approximates it.
        const Node* group = GroupByIndex(node.group_index);
        if (group == nullptr || active_references_ > 4) {
          nfa_.approximations.push_back("back reference treated as empty");
          return {};
        }
        nfa_.approximations.push_back(
            "back reference modelled as its group's language");
        ++active_references_;
        Fragment copy = Visit(*group->children[0]);
        --active_references_;
        // A group that did not take part matches empty (JavaScript).
        copy.nullable = true;
        return copy;
      }
      case NodeKind::kCharacters: {
        if (nfa_.states.size() >= budget_.max_states) {
          error_ = Status{StatusCode::kBudgetExceeded,
                          "automaton has more than " +
                              std::to_string(budget_.max_states) + " states",
                          node.span};
          return {};
        }
        NfaState state;
        state.chars = node.chars;
        state.origin = &node;
        state.loops = loops_;
        nfa_.states.push_back(std::move(state));
        const int id = static_cast<int>(nfa_.states.size() - 1);
        if (node.approximate) {
          nfa_.approximations.push_back("Unicode property approximated");
        }
        return Fragment{{id}, {id}, false};
      }
      case NodeKind::kSequence: {
        Fragment result;
        for (const auto& child : node.children) {
          result = Concat(std::move(result), Visit(*child));
          if (error_) return {};
        }
        return result;
      }
      case NodeKind::kAlternation: {
        Fragment result;
        result.nullable = false;
        for (const auto& child : node.children) {
          Fragment branch = Visit(*child);
          if (error_) return {};
          Append(&result.first, branch.first);
          Append(&result.last, branch.last);
          result.nullable = result.nullable || branch.nullable;
        }
        return result;
      }
      case NodeKind::kGroup:
        return Visit(*node.children[0]);
      case NodeKind::kRepeat:
        return VisitRepeat(node);
    }
    return {};
  }

  Fragment Star(Fragment body) {
    Connect(body.last, body.first);
    body.nullable = true;
    return body;
  }

  Fragment VisitRepeat(const Node& node) {
    const Node& child = *node.children[0];
    int min = node.min;
    int max = node.max;
    const std::size_t size = std::max<std::size_t>(CountPositions(child), 1);
    const std::size_t copies = max == kUnbounded
                                   ? static_cast<std::size_t>(std::max(min, 1))
                                   : static_cast<std::size_t>(max);
    if (copies * size > budget_.max_positions_per_repeat && copies > 2) {
      // Too many copies to expand: keep a few and let the rest loop. This
      // only adds strings, so no real ambiguity is lost.
      const int kept = static_cast<int>(std::max<std::size_t>(
          1, budget_.max_positions_per_repeat / size / 2));
      nfa_.approximations.push_back(
          "large counted repetition approximated as unbounded");
      min = std::min(min, kept);
      max = kUnbounded;
    }
    const bool is_loop = max == kUnbounded || max > 1;
    if (is_loop) loops_.push_back(&node);
    Fragment result;
    // x{n,} is x{n-1} x+, so the loop is the last mandatory copy itself.
    const int mandatory = max == kUnbounded ? std::max(min - 1, 0) : min;
    for (int i = 0; i < mandatory; ++i) {
      result = Concat(std::move(result), Visit(child));
      if (error_) break;
    }
    if (!error_) {
      if (max == kUnbounded) {
        Fragment body = Visit(child);
        const bool body_nullable = body.nullable;
        Fragment loop = Star(std::move(body));
        loop.nullable = min == 0 || body_nullable;
        result = Concat(std::move(result), std::move(loop));
      } else {
        // x{0,k} = (x(x(x)?)?)? nested, so the count is not ambiguous.
        Fragment optional;
        for (int i = min; i < max && !error_; ++i) {
          optional = Concat(Visit(child), std::move(optional));
          optional.nullable = true;
        }
        result = Concat(std::move(result), std::move(optional));
      }
    }
    if (is_loop) loops_.pop_back();
    return result;
  }

  void CollectGroups(const Node& node) {
    if (node.kind == NodeKind::kGroup &&
        node.group_kind == GroupKind::kCapturing) {
      if (groups_.size() <= static_cast<std::size_t>(node.capture_index)) {
        groups_.resize(node.capture_index + 1, nullptr);
      }
      groups_[node.capture_index] = &node;
    }
    for (const auto& child : node.children) CollectGroups(*child);
  }

  const Node* GroupByIndex(int index) const {
    if (index <= 0 || static_cast<std::size_t>(index) >= groups_.size()) {
      return nullptr;
    }
    return groups_[index];
  }

  NfaBudget budget_;
  Nfa nfa_;
  std::vector<const Node*> groups_;
  std::vector<int> side_branch_ends_;  // last positions of lookaround bodies
  int active_references_ = 0;
  std::vector<const Node*> loops_;
  std::size_t edges_added_ = 0;
  std::optional<Status> error_;
};

}  // namespace

Result<Nfa> BuildNfa(const Node& root, const NfaBudget& budget) {
  Builder builder(budget);
  return builder.Build(root);
}

}  // namespace robotscan::regexguard::internal
