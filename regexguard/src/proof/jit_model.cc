#include "proof/jit_model.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace robotscan::regexguard::internal {
namespace {

// The JIT's EARLY_FAIL_ENHANCE_MAX: the count at which a walk stops.
constexpr int kEnhanceMax = 4;
// Brackets entered at most this deep.
constexpr int kMaxDepth = 4;

void CollectReferencedGroups(const Node& node, std::set<int>* groups) {
  if (node.kind == NodeKind::kBackReference) groups->insert(node.group_index);
  for (const auto& child : node.children) {
    CollectReferencedGroups(*child, groups);
  }
}

bool IsClassText(const Node& node, std::string_view pattern) {
  return node.span.begin < pattern.size() && pattern[node.span.begin] == '[';
}

bool IsNewlineOrCluster(const Node& node) { return node.pcre2_text == "\\R"; }

class Walker {
 public:
  Walker(std::string_view pattern, const std::set<int>& referenced)
      : pattern_(pattern), referenced_(referenced) {}

  // detect_early_fail over one bracket's body: returns the count reached,
  // kEnhanceMax when a walk stopped before the end of an alternative.
  int Bracket(const Node& body, int depth, int start, bool fast_forward) {
    std::vector<const Node*> alternatives;
    if (body.kind == NodeKind::kAlternation) {
      for (const auto& child : body.children)
        alternatives.push_back(child.get());
    } else {
      alternatives.push_back(&body);
    }
    if (alternatives.size() > 1) fast_forward = false;
    int result = 0;
    for (const Node* alternative : alternatives) {
      std::vector<const Node*> items;
      if (alternative->kind == NodeKind::kSequence) {
        for (const auto& child : alternative->children) {
          items.push_back(child.get());
        }
      } else {
        items.push_back(alternative);
      }
      int count = start;
      bool allowed = fast_forward;
      bool reached_end = true;
      for (const Node* item : items) {
        if (!Item(*item, depth, &count, &allowed)) {
          reached_end = false;
          break;
        }
      }
      result = reached_end ? std::max(result, count) : kEnhanceMax;
    }
    return result;
  }

  std::vector<EarlyFailRepeat> repeats;

 private:
  // One item of an alternative; false where the JIT's walk stops.
  bool Item(const Node& item, int depth, int* count, bool* fast_forward) {
    switch (item.kind) {
      case NodeKind::kEmpty:
      case NodeKind::kAssertion:
        return true;
      case NodeKind::kCharacters:
        *fast_forward = false;
        if (IsNewlineOrCluster(item) && *count == 0) *count = 1;
        return true;
      case NodeKind::kRepeat:
        return Repeat(item, count, fast_forward);
      case NodeKind::kGroup: {
        const bool outer_fast_forward = *fast_forward;
        *fast_forward = false;
        if (depth >= kMaxDepth) return false;
        if (item.group_kind == GroupKind::kCapturing &&
            referenced_.count(item.capture_index) > 0) {
          return false;
        }
        if (item.children.empty()) return true;
        *count = Bracket(*item.children.front(), depth + 1, *count,
                         outer_fast_forward);
        return *count < kEnhanceMax;
      }
      default:
        return false;  // lookaround, back reference: the walk ends
    }
  }

  bool Repeat(const Node& item, int* count, bool* fast_forward) {
    const Node& child = *item.children.front();
    if (child.kind != NodeKind::kCharacters) return false;  // a group repeat
    const bool unbounded = item.max == kUnbounded;
    if (IsNewlineOrCluster(child)) {
      *fast_forward = false;
      if (*count == 0) *count = 1;
      return true;
    }
    const bool is_class = IsClassText(child, pattern_);
    int exact = 0;
    if (!unbounded || (item.min >= 2 && is_class)) {
      // `?`, `{n}`, `{n,m}` (and a class's `{n,}`) are walked over.
      *fast_forward = false;
      if (*count == 0) *count = 1;
      return true;
    }
    if (item.min >= 2) {
      // A character's `{n,}` is compiled as `{n}` followed by `*`.
      *fast_forward = false;
      if (*count == 0) *count = 1;
      exact = item.min;
    } else {
      exact = item.min;  // `+` matches one character before the check
    }
    EarlyFailRepeat repeat;
    repeat.pattern_offset = item.span.begin;
    repeat.next_offset = item.span.end;
    repeat.lazy = item.greediness == Greediness::kLazy;
    if (*count == 0) {
      repeat.ranged = false;
      repeat.exact = 0;
      *count = 1;
    } else {
      repeat.ranged = true;
      repeat.exact = exact;
    }
    repeats.push_back(repeat);
    ++*count;
    return *count < kEnhanceMax;
  }

  std::string_view pattern_;
  const std::set<int>& referenced_;
};

}  // namespace

std::vector<EarlyFailRepeat> JitEarlyFailRepeats(const Node& root,
                                                 std::string_view pattern,
                                                 bool compiled_anchored) {
  if (compiled_anchored) return {};
  std::set<int> referenced;
  CollectReferencedGroups(root, &referenced);
  Walker walker(pattern, referenced);
  walker.Bracket(root, 0, 0, true);
  std::vector<EarlyFailRepeat> repeats = std::move(walker.repeats);
  std::sort(repeats.begin(), repeats.end(),
            [](const EarlyFailRepeat& a, const EarlyFailRepeat& b) {
              return a.pattern_offset < b.pattern_offset;
            });
  return repeats;
}

namespace {

bool HasBackReferenceIn(const Node& node) {
  if (node.kind == NodeKind::kBackReference) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [](const auto& c) { return HasBackReferenceIn(*c); });
}

// Pattern's TreeInfo.deterministic, as its study() methods set it: false
// below an alternation (Branch), an optional or variable repeat (Ques,
// Curly with cmin != cmax) or a nested loop. A repeated group whose body is
// deterministic becomes a GroupCurly, which has no memo.
bool Deterministic(const Node& node) {
  if (node.kind == NodeKind::kAlternation) return false;
  if (node.kind == NodeKind::kRepeat && node.min != node.max) return false;
  if (node.kind == NodeKind::kLookaround) return true;
  return std::all_of(node.children.begin(), node.children.end(),
                     [](const auto& c) { return Deterministic(*c); });
}

void FindTopLoops(const Node& node, bool inside_repeat,
                  std::map<const Node*, int>* loops) {
  if (node.kind == NodeKind::kRepeat) {
    const Node& body = *node.children[0];
    if (!inside_repeat && node.greediness == Greediness::kGreedy &&
        node.max == kUnbounded && body.kind == NodeKind::kGroup &&
        body.group_kind != GroupKind::kAtomic && !Deterministic(body) &&
        loops->size() < 254) {
      loops->emplace(&node, static_cast<int>(loops->size()) + 1);
    }
    // Closures inside a quantified group lose the memo (Pattern.group0:
    // "no backtracking stopper optimization for inner").
    for (const auto& child : node.children) FindTopLoops(*child, true, loops);
    return;
  }
  for (const auto& child : node.children) {
    FindTopLoops(*child, inside_repeat, loops);
  }
}

}  // namespace

std::map<const Node*, int> JavaLoopMemo(const Node& root) {
  std::map<const Node*, int> loops;
  if (HasBackReferenceIn(root)) return loops;
  FindTopLoops(root, false, &loops);
  return loops;
}

}  // namespace robotscan::regexguard::internal
