#include "proof/engine_shortcuts.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/unicode.h"

namespace robotscan::regexguard::internal {
namespace {

constexpr char32_t kLatin1Last = 0xFF;

// Whether some character set of the pattern (lookaround bodies included)
// holds no Latin-1 code point: V8's one-byte code can never match it.
bool NeedsTwoByteSubject(const Node& node) {
  if (node.kind == NodeKind::kCharacters && !node.chars.empty() &&
      !node.chars.Intersects(CodePointSet::Range(0, kLatin1Last))) {
    return true;
  }
  for (const auto& child : node.children) {
    if (NeedsTwoByteSubject(*child)) return true;
  }
  return false;
}

// Whether some character set of the pattern matches `c`.
bool PatternMatches(const Node& node, char32_t c) {
  if (node.kind == NodeKind::kCharacters && node.chars.Contains(c)) {
    return true;
  }
  for (const auto& child : node.children) {
    if (PatternMatches(*child, c)) return true;
  }
  return false;
}

// The characters a match can read first at the start of `node` (the union
// over an alternation's branches), or nullopt when that cannot be told
// without an automaton (an optional part) or `node` reads nothing.
std::optional<CodePointSet> FirstReadBy(const Node& node) {
  switch (node.kind) {
    case NodeKind::kCharacters:
      if (node.chars.empty()) return std::nullopt;
      return node.chars;
    case NodeKind::kSequence:
      for (const auto& child : node.children) {
        if (child->kind == NodeKind::kAssertion ||
            child->kind == NodeKind::kLookaround) {
          continue;
        }
        return FirstReadBy(*child);
      }
      return std::nullopt;
    case NodeKind::kAlternation: {
      CodePointSet all;
      for (const auto& child : node.children) {
        const std::optional<CodePointSet> first = FirstReadBy(*child);
        if (!first) return std::nullopt;
        all.Add(*first);
      }
      if (all.empty()) return std::nullopt;
      return all;
    }
    case NodeKind::kGroup:
      if (node.children.size() != 1) return std::nullopt;
      return FirstReadBy(*node.children[0]);
    case NodeKind::kRepeat:
      if (node.min < 1 || node.children.size() != 1) return std::nullopt;
      return FirstReadBy(*node.children[0]);
    default:
      return std::nullopt;
  }
}

// What a match reads right after a node: the nodes that follow it in each
// enclosing sequence, innermost first (a node that ends an alternative or a
// group is followed by what follows the enclosing construct). A repetition
// may also read its own body again; that is left out, as V8's quick check
// for the loop exit looks at what follows the loop.
struct Continuation {
  std::optional<CodePointSet> first;   // what is read next
  std::optional<CodePointSet> second;  // what is read after that
};

// Whether `node` holds an unbounded repetition: a lookahead that scans
// (`(?!.+mirror)`), whose work an attack can multiply. A lookahead of fixed
// length costs the same whatever follows, and its attacks are left alone.
bool ScansUnboundedly(const Node& node) {
  if (node.kind == NodeKind::kRepeat && node.max == kUnbounded) return true;
  for (const auto& child : node.children) {
    if (ScansUnboundedly(*child)) return true;
  }
  return false;
}

// Fills `out` for each scanning negative lookahead below `node`; `after` lists,
// outermost first, the sequences (and the index in each) that enclose `node`.
void FindLookaheadContinuations(
    const Node& node, std::vector<std::pair<const Node*, std::size_t>>* after,
    std::vector<Continuation>* out) {
  // Only negative lookaheads that scan: a positive one must itself match
  // what comes next, so the characters after it are already the pump's.
  if (node.kind == NodeKind::kLookaround && !node.lookbehind && node.negated &&
      ScansUnboundedly(node)) {
    Continuation continuation;
    // The nodes after the lookahead, innermost sequence first.
    std::vector<const Node*> following;
    for (auto level = after->rbegin(); level != after->rend(); ++level) {
      const Node& sequence = *level->first;
      for (std::size_t i = level->second + 1; i < sequence.children.size();
           ++i) {
        following.push_back(sequence.children[i].get());
      }
    }
    for (const Node* next : following) {
      if (next->kind == NodeKind::kAssertion ||
          next->kind == NodeKind::kLookaround) {
        continue;
      }
      std::optional<CodePointSet> first = FirstReadBy(*next);
      if (!first) break;
      if (continuation.first) {
        continuation.second = std::move(first);
        break;
      }
      continuation.first = first;
      // A repetition may read its set again next: the second character
      // must be one it cannot read.
      if (next->kind == NodeKind::kRepeat) {
        continuation.second = std::move(first);
        break;
      }
    }
    if (continuation.first) out->push_back(std::move(continuation));
    return;
  }
  if (node.kind == NodeKind::kSequence) {
    for (std::size_t i = 0; i < node.children.size(); ++i) {
      after->emplace_back(&node, i);
      FindLookaheadContinuations(*node.children[i], after, out);
      after->pop_back();
    }
    return;
  }
  for (const auto& child : node.children) {
    FindLookaheadContinuations(*child, after, out);
  }
}

// A printable ASCII member of `set` (the first), else its first code point.
char32_t RepresentativeOf(const CodePointSet& set) {
  for (char32_t c = 0x21; c < 0x7F; ++c) {
    if (set.Contains(c)) return c;
  }
  return set.ranges().front().first;
}

// A printable ASCII character outside `set`, preferring `preferred`.
std::optional<char32_t> OutsideOf(const CodePointSet& set, char32_t preferred) {
  if (!set.Contains(preferred) && preferred >= 0x20 && preferred < 0x7F) {
    return preferred;
  }
  for (const char32_t c : U" /-#!~=,;:") {
    if (c != 0 && !set.Contains(c)) return c;
  }
  return std::nullopt;
}

bool IsLatin1(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const DecodedCodePoint decoded = DecodeUtf8(text, i);
    if (decoded.length == 0 || decoded.code_point > kLatin1Last) return false;
    i += decoded.length;
  }
  return true;
}

}  // namespace

std::optional<Attack> TwoByteAttackForV8(const Node& root,
                                         const Attack& attack) {
  if (!NeedsTwoByteSubject(root) || !IsLatin1(attack.prefix) ||
      !IsLatin1(attack.pump) || !IsLatin1(attack.suffix)) {
    return std::nullopt;
  }
  // Letters of scripts rarely in a pattern, then symbols: the first no set
  // matches (case folding is already in the sets). None is a line
  // terminator, so `^` and `$` read them as any other character.
  static constexpr char32_t kCandidates[] = {0x3042, 0x4E00, 0x2603, 0x0100};
  char32_t chosen = kCandidates[0];
  for (const char32_t candidate : kCandidates) {
    if (!PatternMatches(root, candidate)) {
      chosen = candidate;
      break;
    }
  }
  Attack out = attack;
  AppendUtf8(chosen, &out.suffix);
  return out;
}

std::vector<Attack> QuickCheckAttacksForV8(const Node& root,
                                           const Attack& attack) {
  std::vector<std::pair<const Node*, std::size_t>> after;
  std::vector<Continuation> continuations;
  FindLookaheadContinuations(root, &after, &continuations);
  std::vector<Attack> out;
  auto add = [&](std::string pump) {
    for (const Attack& known : out) {
      if (known.pump == pump) return;
    }
    Attack variant = attack;
    variant.pump = std::move(pump);
    out.push_back(std::move(variant));
  };
  for (const Continuation& continuation : continuations) {
    const char32_t first = RepresentativeOf(*continuation.first);
    std::string pump = attack.pump;
    AppendUtf8(first, &pump);
    if (continuation.second) {
      if (const std::optional<char32_t> stop =
              OutsideOf(*continuation.second, first)) {
        std::string stopped = pump;
        AppendUtf8(*stop, &stopped);
        add(std::move(stopped));
      }
    }
    add(std::move(pump));
  }
  return out;
}

}  // namespace robotscan::regexguard::internal
