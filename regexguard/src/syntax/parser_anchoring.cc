// Facts about a parsed tree that the parser needs: whether every match is
// anchored at the start, fixed lengths for lookbehind, the leading line
// anchor (parser_internal.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"

namespace robotscan::regexguard::internal::parsing {

bool Parser::StartsAnchored(const Node& node) const {
  switch (node.kind) {
    case NodeKind::kAssertion:
      return node.assertion == AssertionKind::kStartOfText ||
             node.assertion == AssertionKind::kStartOfSearch;
    case NodeKind::kSequence:
      for (const auto& child : node.children) {
        if (StartsAnchored(*child)) return true;
        if (!IsZeroWidth(*child)) return false;
        // A lookaround before the anchor still runs at every start
        // position of a search.
        if (child->kind == NodeKind::kLookaround &&
            !Has(Feature::kAnchorLooksThroughLookaround)) {
          return false;
        }
      }
      return false;
    case NodeKind::kAlternation:
      for (const auto& child : node.children) {
        if (!StartsAnchored(*child)) return false;
      }
      return true;
    case NodeKind::kGroup:
      return StartsAnchored(*node.children[0]);
    case NodeKind::kRepeat:
      return node.min >= 1 && StartsAnchored(*node.children[0]);
    default:
      return false;
  }
}

std::optional<long> Parser::FixedLength(const Node& node) {
  switch (node.kind) {
    case NodeKind::kCharacters:
      return node.pcre2_text == "\\R" ? std::nullopt : std::optional<long>(1);
    case NodeKind::kEmpty:
    case NodeKind::kAssertion:
    case NodeKind::kLookaround:
      return 0;
    case NodeKind::kBackReference:
      return std::nullopt;
    case NodeKind::kGroup:
      return FixedLength(*node.children[0]);
    case NodeKind::kRepeat: {
      if (node.max != node.min) return std::nullopt;
      const std::optional<long> child = FixedLength(*node.children[0]);
      if (!child) return std::nullopt;
      return *child * node.min;
    }
    case NodeKind::kSequence: {
      long total = 0;
      for (const auto& child : node.children) {
        const std::optional<long> length = FixedLength(*child);
        if (!length) return std::nullopt;
        total += *length;
      }
      return total;
    }
    case NodeKind::kAlternation: {
      std::optional<long> common;
      for (const auto& child : node.children) {
        const std::optional<long> length = FixedLength(*child);
        if (!length || (common && *common != *length)) return std::nullopt;
        common = length;
      }
      return common;
    }
  }
  return std::nullopt;
}

bool Parser::LookbehindLengthAllowed(const Node& body) const {
  if (Has(Feature::kLookbehindBranchesFixed)) {
    if (body.kind == NodeKind::kAlternation) {
      return std::all_of(
          body.children.begin(), body.children.end(),
          [](const auto& child) { return FixedLength(*child).has_value(); });
    }
    return FixedLength(body).has_value();
  }
  if (Has(Feature::kLookbehindFixedLength)) {
    return FixedLength(body).has_value();
  }
  return true;
}

const Node* Parser::LeadingLineAnchor(const Node& node) {
  switch (node.kind) {
    case NodeKind::kAssertion:
      return node.assertion == AssertionKind::kStartOfLine ? &node : nullptr;
    case NodeKind::kSequence:
      return node.children.empty() ? nullptr
                                   : LeadingLineAnchor(*node.children[0]);
    case NodeKind::kAlternation: {
      const Node* first = nullptr;
      for (const auto& child : node.children) {
        const Node* anchor = LeadingLineAnchor(*child);
        if (anchor == nullptr) return nullptr;
        if (first == nullptr) first = anchor;
      }
      return first;
    }
    case NodeKind::kGroup:
      return LeadingLineAnchor(*node.children[0]);
    default:
      return nullptr;
  }
}

bool Parser::IsZeroWidth(const Node& node) {
  switch (node.kind) {
    case NodeKind::kEmpty:
    case NodeKind::kAssertion:
    case NodeKind::kLookaround:
      return true;
    case NodeKind::kGroup:
      return IsZeroWidth(*node.children[0]);
    case NodeKind::kSequence:
      return std::all_of(node.children.begin(), node.children.end(),
                         [](const auto& child) { return IsZeroWidth(*child); });
    default:
      return false;
  }
}

}  // namespace robotscan::regexguard::internal::parsing
