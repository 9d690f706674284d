#include "proof/engine_shortcuts.h"

#include <string>
#include <string_view>

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

}  // namespace robotscan::regexguard::internal
