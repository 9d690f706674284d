#include "pcre2_text.h"

#include <cstdio>
#include <string>

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

void Print(const Node& node, std::string* out) {
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
          Print(*child, out);
          out->append(")");
        } else {
          Print(*child, out);
        }
      }
      return;
    case NodeKind::kAlternation:
      for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i > 0) out->push_back('|');
        Print(*node.children[i], out);
      }
      return;
    case NodeKind::kRepeat: {
      const Node& child = *node.children[0];
      if (IsSingleAtom(child) &&
          !(child.kind == NodeKind::kCharacters && child.pcre2_text == "\\R")) {
        Print(child, out);
      } else {
        out->append("(?:");
        Print(child, out);
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
      Print(*node.children[0], out);
      out->push_back(')');
      return;
    case NodeKind::kLookaround:
      out->append(node.lookbehind ? "(?<" : "(?");
      out->push_back(node.negated ? '!' : '=');
      Print(*node.children[0], out);
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
          out->append("\\Z");
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

}  // namespace robotscan::regexguard
