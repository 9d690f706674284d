#include "syntax/pcre2_text.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace robotscan::regexguard {
namespace internal {
namespace {

void AppendCodePoint(char32_t c, std::string* out) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
      (c >= 'A' && c <= 'Z')) {
    out->push_back(static_cast<char>(c));
    return;
  }
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "\\x{%x}", static_cast<unsigned>(c));
  out->append(buffer);
}

// Ranges for a class body, skipping the surrogates PCRE2 refuses in UTF mode.
void AppendRanges(const CodePointSet& set, std::string* out) {
  for (const CodePointRange& range : set.ranges()) {
    const auto append = [out](char32_t first, char32_t last) {
      AppendCodePoint(first, out);
      if (last != first) {
        if (last != first + 1) out->push_back('-');
        AppendCodePoint(last, out);
      }
    };
    if (range.last < 0xD800 || range.first > 0xDFFF) {
      append(range.first, range.last);
      continue;
    }
    if (range.first < 0xD800) append(range.first, 0xD7FF);
    if (range.last > 0xDFFF) append(0xE000, range.last);
  }
}

}  // namespace

std::string ClassWithPropertiesToPcre2(
    const CodePointSet& plain, const std::vector<std::string>& property_items,
    bool negated) {
  std::string out = negated ? "[^" : "[";
  for (const std::string& item : property_items) out += item;
  AppendRanges(plain, &out);
  out += "]";
  return out;
}

std::string SetToPcre2(const CodePointSet& set) {
  if (set.empty()) return "(?!)";
  const auto& ranges = set.ranges();
  if (ranges.size() == 1 && ranges[0].first == ranges[0].last) {
    std::string out;
    AppendCodePoint(ranges[0].first, &out);
    return out;
  }
  // Prefer the shorter spelling: sets containing the top of the code space
  // are written as the negation of their complement.
  std::string out;
  if (set.Contains(kMaxCodePoint)) {
    const CodePointSet complement = set.Complement();
    bool only_surrogates = true;
    for (const CodePointRange& r : complement.ranges()) {
      if (r.first < 0xD800 || r.last > 0xDFFF) only_surrogates = false;
    }
    if (complement.empty() || only_surrogates) return "(?s:.)";
    out = "[^";
    AppendRanges(complement, &out);
  } else {
    out = "[";
    AppendRanges(set, &out);
  }
  out += "]";
  return out;
}

}  // namespace internal

namespace {

bool IsSingleAtom(const Node& node) {
  return node.kind == NodeKind::kCharacters || node.kind == NodeKind::kGroup ||
         node.kind == NodeKind::kBackReference ||
         node.kind == NodeKind::kLookaround;
}

// `callouts` (may be null): repeats whose every iteration starts with an
// explicit callout (ToPcre2PatternWithCallouts).
using IterationCallouts = std::map<const Node*, int>;
void Print(const Node& node, std::string* out,
           const IterationCallouts* callouts = nullptr);

std::string Printed(const Node& node) {
  std::string out;
  Print(node, &out);
  return out;
}

// The length in characters every match of `node` has, if they all have
// the same one: what PCRE2 (10.42) requires of each top-level branch of a
// lookbehind (inner alternatives of one length included).
std::optional<long> FixedLength(const Node& node) {
  switch (node.kind) {
    case NodeKind::kEmpty:
    case NodeKind::kAssertion:
    case NodeKind::kLookaround:
      return 0;
    case NodeKind::kCharacters:
      if (node.pcre2_text == "\\R") return std::nullopt;  // \r\n or one
      return 1;
    case NodeKind::kSequence: {
      long total = 0;
      for (const auto& child : node.children) {
        const std::optional<long> l = FixedLength(*child);
        if (!l) return std::nullopt;
        total += *l;
      }
      return total;
    }
    case NodeKind::kAlternation: {
      std::optional<long> length;
      for (const auto& child : node.children) {
        const std::optional<long> l = FixedLength(*child);
        if (!l || (length && *l != *length)) return std::nullopt;
        length = l;
      }
      return length.value_or(0);
    }
    case NodeKind::kGroup:
      return FixedLength(*node.children[0]);
    case NodeKind::kRepeat: {
      if (node.min != node.max) return std::nullopt;
      const std::optional<long> l = FixedLength(*node.children[0]);
      if (!l) return std::nullopt;
      return *l * node.min;
    }
    case NodeKind::kBackReference:
      return std::nullopt;
  }
  return std::nullopt;
}

bool IsFixedLength(const Node& node) { return FixedLength(node).has_value(); }

// The spellings of every fixed length `node` can take, at most `cap` of
// them; nullopt when some length is unbounded or there are too many.
// Capturing groups are kept only when the pattern has no back reference,
// where duplicating one changes nothing a match depends on.
std::optional<std::vector<std::string>> FixedLengthVariants(const Node& node,
                                                            bool keep_captures,
                                                            std::size_t cap) {
  if (IsFixedLength(node)) return std::vector<std::string>{Printed(node)};
  auto product = [&](const std::vector<std::string>& a,
                     const std::vector<std::string>& b)
      -> std::optional<std::vector<std::string>> {
    if (a.size() * b.size() > cap) return std::nullopt;
    std::vector<std::string> out;
    for (const std::string& x : a) {
      for (const std::string& y : b) out.push_back(x + y);
    }
    return out;
  };
  switch (node.kind) {
    case NodeKind::kSequence: {
      std::vector<std::string> variants{""};
      for (const auto& child : node.children) {
        auto child_variants = FixedLengthVariants(*child, keep_captures, cap);
        if (!child_variants) return std::nullopt;
        auto combined = product(variants, *child_variants);
        if (!combined) return std::nullopt;
        variants = std::move(*combined);
      }
      return variants;
    }
    case NodeKind::kAlternation: {
      std::vector<std::string> variants;
      for (const auto& child : node.children) {
        auto child_variants = FixedLengthVariants(*child, keep_captures, cap);
        if (!child_variants) return std::nullopt;
        variants.insert(variants.end(), child_variants->begin(),
                        child_variants->end());
        if (variants.size() > cap) return std::nullopt;
      }
      return variants;
    }
    case NodeKind::kGroup: {
      if (node.group_kind == GroupKind::kCapturing && !keep_captures) {
        return std::nullopt;
      }
      auto body = FixedLengthVariants(*node.children[0], keep_captures, cap);
      if (!body) return std::nullopt;
      const char* open = node.group_kind == GroupKind::kCapturing ? "("
                         : node.group_kind == GroupKind::kAtomic  ? "(?>"
                                                                  : "(?:";
      for (std::string& v : *body) v = open + v + ")";
      return body;
    }
    case NodeKind::kRepeat: {
      if (node.max == kUnbounded) return std::nullopt;
      auto one = FixedLengthVariants(*node.children[0], keep_captures, cap);
      if (!one) return std::nullopt;
      // Greedy repeats try the longest first; the order matters only for
      // which of several successful branches sets the captures.
      std::vector<std::string> variants;
      for (int count = node.max; count >= node.min; --count) {
        std::vector<std::string> repeated{""};
        for (int i = 0; i < count; ++i) {
          auto combined = product(repeated, *one);
          if (!combined) return std::nullopt;
          repeated = std::move(*combined);
        }
        variants.insert(variants.end(), repeated.begin(), repeated.end());
        if (variants.size() > cap) return std::nullopt;
      }
      return variants;
    }
    default:
      return std::nullopt;
  }
}

bool HasBackReference(const Node& node) {
  if (node.kind == NodeKind::kBackReference) return true;
  return std::any_of(node.children.begin(), node.children.end(),
                     [](const auto& c) { return HasBackReference(*c); });
}

// PCRE2 10.42 refuses a lookbehind whose branches vary in length, which
// JavaScript, .NET and Python's regex module allow (`(?<=^v?|\sv?)`). When
// the lengths are bounded the same lookbehind is spelled as one fixed-length
// branch per length, which PCRE2 accepts and which matches the same
// positions; otherwise it is printed as it is and PCRE2 refuses it.
void PrintLookbehindBody(const Node& body, std::string* out) {
  constexpr std::size_t kMaxBranches = 64;
  std::vector<const Node*> branches;
  if (body.kind == NodeKind::kAlternation) {
    for (const auto& child : body.children) branches.push_back(child.get());
  } else {
    branches.push_back(&body);
  }
  const bool all_fixed =
      std::all_of(branches.begin(), branches.end(),
                  [](const Node* b) { return IsFixedLength(*b); });
  if (all_fixed) {
    Print(body, out);
    return;
  }
  std::vector<std::string> spelled;
  const bool keep_captures = !HasBackReference(body);
  for (const Node* branch : branches) {
    auto variants = FixedLengthVariants(*branch, keep_captures, kMaxBranches);
    if (!variants || spelled.size() + variants->size() > kMaxBranches) {
      Print(body, out);
      return;
    }
    spelled.insert(spelled.end(), variants->begin(), variants->end());
  }
  for (std::size_t i = 0; i < spelled.size(); ++i) {
    if (i > 0) out->push_back('|');
    out->append(spelled[i]);
  }
}

void Print(const Node& node, std::string* out,
           const IterationCallouts* callouts) {
  switch (node.kind) {
    case NodeKind::kEmpty:
      return;
    case NodeKind::kCharacters:
      out->append(node.pcre2_text);
      return;
    case NodeKind::kSequence:
      for (const auto& child : node.children) {
        // Keep each item separate from a following quantifier or digit.
        if (child->kind == NodeKind::kAlternation) {
          out->append("(?:");
          Print(*child, out, callouts);
          out->append(")");
        } else {
          Print(*child, out, callouts);
        }
      }
      return;
    case NodeKind::kAlternation:
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->push_back('|');
        Print(*node.children[i], out, callouts);
      }
      return;
    case NodeKind::kRepeat: {
      const Node& child = *node.children[0];
      const int callout = [&] {
        if (callouts == nullptr) return 0;
        const auto it = callouts->find(&node);
        return it == callouts->end() ? 0 : it->second;
      }();
      if (callout != 0) {
        out->append("(?:(?C" + std::to_string(callout) + ")");
        Print(child, out, callouts);
        out->append(")");
      } else if (IsSingleAtom(child) && !(child.kind == NodeKind::kCharacters &&
                                          child.pcre2_text == "\\R")) {
        Print(child, out, callouts);
      } else {
        out->append("(?:");
        Print(child, out, callouts);
        out->append(")");
      }
      if (node.min == 0 && node.max == kUnbounded) {
        out->push_back('*');
      } else if (node.min == 1 && node.max == kUnbounded) {
        out->push_back('+');
      } else if (node.min == 0 && node.max == 1) {
        out->push_back('?');
      } else {
        out->append("{" + std::to_string(node.min));
        if (node.max != node.min) {
          out->push_back(',');
          if (node.max != kUnbounded) out->append(std::to_string(node.max));
        }
        out->push_back('}');
      }
      if (node.greediness == Greediness::kLazy) out->push_back('?');
      if (node.greediness == Greediness::kPossessive) out->push_back('+');
      return;
    }
    case NodeKind::kGroup:
      switch (node.group_kind) {
        case GroupKind::kCapturing:
          out->append("(");
          break;
        case GroupKind::kNonCapturing:
          out->append("(?:");
          break;
        case GroupKind::kAtomic:
          out->append("(?>");
          break;
      }
      Print(*node.children[0], out, callouts);
      out->push_back(')');
      return;
    case NodeKind::kLookaround:
      out->append(node.lookbehind ? "(?<" : "(?");
      out->push_back(node.negated ? '!' : '=');
      if (node.lookbehind) {
        PrintLookbehindBody(*node.children[0], out);
      } else {
        Print(*node.children[0], out, callouts);
      }
      out->push_back(')');
      return;
    case NodeKind::kBackReference:
      out->append("\\g{" + std::to_string(node.group_index) + "}");
      return;
    case NodeKind::kAssertion:
      switch (node.assertion) {
        case AssertionKind::kStartOfText:
          out->append("\\A");
          break;
        case AssertionKind::kStartOfLine:
          // PCRE2 knows only \n as a line break; other terminators need an
          // explicit "at start or after a terminator".
          if (node.chars.empty() || node.chars == CodePointSet::Single('\n')) {
            out->append("(?m:^)");
          } else {
            out->append("(?<!" + internal::SetToPcre2(node.chars.Complement()) +
                        ")");
          }
          break;
        case AssertionKind::kEndOfText:
          out->append("\\z");
          break;
        case AssertionKind::kEndOfTextOrFinalNewline:
          if (node.chars.empty() || node.chars == CodePointSet::Single('\n')) {
            out->append("\\Z");
          } else {
            // Before one final terminator (or \r\n), or at the end.
            out->append("(?=(?:\\r\\n|" + internal::SetToPcre2(node.chars) +
                        ")?\\z)");
          }
          break;
        case AssertionKind::kEndOfLine:
          if (node.chars.empty() || node.chars == CodePointSet::Single('\n')) {
            out->append("(?m:$)");
          } else {
            out->append("(?!" + internal::SetToPcre2(node.chars.Complement()) +
                        ")");
          }
          break;
        case AssertionKind::kWordBoundary:
          out->append("\\b");
          break;
        case AssertionKind::kNotWordBoundary:
          out->append("\\B");
          break;
        case AssertionKind::kStartOfSearch:
          out->append("\\G");
          break;
      }
      return;
  }
}

}  // namespace

std::string ToPcre2Pattern(const Node& root) {
  std::string out;
  Print(root, &out);
  return out;
}

namespace internal {

namespace {

std::unique_ptr<Node> CopyWithCountsCapped(const Node& node, int cap) {
  auto copy = std::make_unique<Node>();
  copy->kind = node.kind;
  copy->span = node.span;
  copy->chars = node.chars;
  copy->approximate = node.approximate;
  copy->pcre2_text = node.pcre2_text;
  copy->min = node.min;
  copy->max = node.max;
  copy->greediness = node.greediness;
  copy->group_kind = node.group_kind;
  copy->capture_index = node.capture_index;
  copy->name = node.name;
  copy->lookbehind = node.lookbehind;
  copy->negated = node.negated;
  copy->group_index = node.group_index;
  copy->assertion = node.assertion;
  if (node.kind == NodeKind::kRepeat) {
    copy->min = std::min(node.min, cap);
    if (node.max != kUnbounded) {
      copy->max = std::max(copy->min, std::min(node.max, cap));
    }
  }
  for (const auto& child : node.children) {
    copy->children.push_back(CopyWithCountsCapped(*child, cap));
  }
  return copy;
}

}  // namespace

std::string ToPcre2PatternWithCountsCapped(const Node& root, int cap) {
  return ToPcre2Pattern(*CopyWithCountsCapped(root, cap));
}

std::string ToPcre2PatternWithCallouts(
    const Node& root, const std::map<const Node*, int>& iteration_callouts) {
  std::string out;
  Print(root, &out, &iteration_callouts);
  return out;
}

}  // namespace internal

}  // namespace robotscan::regexguard
