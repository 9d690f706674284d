// Groups: capturing, named, atomic, lookarounds, comments and inline flags
// (parser_internal.h).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"

namespace robotscan::regexguard::internal::parsing {

std::optional<std::string> Parser::ReadName(char32_t terminator) {
  std::string name;
  while (!AtEnd() && Peek() != terminator) {
    if (!IsNameChar(Peek())) return std::nullopt;
    // Java's group names are ASCII letters and digits only: `(?<a_b>x)` is
    // "named capturing group is missing trailing '>'" there.
    if (Has(Feature::kAlphanumericGroupNames) &&
        !(IsAsciiLetter(Peek()) || IsAsciiDigit(Peek()))) {
      return std::nullopt;
    }
    AppendUtf8(Peek(), &name);
    ++pos_;
  }
  if (AtEnd() || name.empty() || IsAsciiDigit(static_cast<char32_t>(name[0]))) {
    return std::nullopt;
  }
  ++pos_;  // terminator
  return name;
}

bool Parser::ParseFlagLettersInline(InlineFlags* target, bool* scoped) {
  // At the letters after "(?": [a-zA-Z]* ('-' [a-zA-Z]*)? then ')' or ':'.
  bool on = true;
  InlineFlags flags = *target;
  while (!AtEnd()) {
    const char32_t c = Peek();
    if (c == ')' || c == ':') {
      *scoped = c == ':';
      ++pos_;
      *target = flags;
      return true;
    }
    if (c == '-') {
      on = false;
    } else if (c == 'i') {
      flags.case_insensitive = on;
    } else if (c == 'm') {
      if (Has(Feature::kMIsDotAll)) {
        flags.dot_all = on;  // Ruby's m is dot-all
      } else {
        flags.multiline = on;
      }
    } else if (c == 's') {
      flags.dot_all = on;
    } else if (c == 'x' && Has(Feature::kExtendedFlag)) {
      flags.extended = on;
    } else if (c == 'u' && Has(Feature::kInlineUnicodeFlag)) {
      // Java (?u): UNICODE_CASE; Python (?u): Unicode matching.
      flags.unicode = on;
      if (on) flags.ascii = false;
    } else if (c == 'a' && Has(Feature::kInlineAsciiFlag)) {
      flags.ascii = on;
    } else if (c == 'u' || c == 'a' || c == 'L' || c == 'U' || c == 'n' ||
               c == 'J' || c == 'd') {
      // Unicode/ASCII/locale/ungreedy/no-capture modes. Ungreedy changes
      // backtracking order: refuse it rather than analyze the wrong thing.
      if (c == 'U' && !Has(Feature::kUFlagIsUnicode)) return false;
      if (c == 'n' || c == 'J') return false;
    } else {
      return false;
    }
    ++pos_;
  }
  return false;
}

std::unique_ptr<Node> Parser::ParseGroup(InlineFlags* outer_flags) {
  const std::size_t start = pos_;
  const bool at_pattern_start = nothing_but_global_flags_yet_ && depth_ == 0;
  ++pos_;  // '('
  if (++depth_ > options_.max_nesting) {
    return FailNull(
        StatusCode::kUnsupported,
        "groups nested deeper than " + std::to_string(options_.max_nesting),
        start, pos_);
  }
  InlineFlags flags = *outer_flags;
  NodeKind kind = NodeKind::kGroup;
  GroupKind group_kind = GroupKind::kCapturing;
  bool lookbehind = false, negated = false;
  std::string name;
  if (Peek() == '*' && Has(Feature::kBacktrackingVerbs)) {
    return FailNull(StatusCode::kUnsupported,
                    "backtracking control verbs like (*SKIP)", start, pos_ + 1);
  }
  if (Peek() == '?') {
    ++pos_;
    const char32_t k = Peek();
    if (k == ':') {
      ++pos_;
      group_kind = GroupKind::kNonCapturing;
    } else if (k == '>' && Has(Feature::kAtomicGroups)) {
      ++pos_;
      group_kind = GroupKind::kAtomic;
    } else if (k == '=' || k == '!') {
      if (!Has(Feature::kLookaround)) {
        return FailNull(StatusCode::kInvalidInput,
                        "lookahead is not supported by Go", start, pos_ + 1);
      }
      ++pos_;
      kind = NodeKind::kLookaround;
      negated = k == '!';
    } else if (k == '<' && (Peek(1) == '=' || Peek(1) == '!')) {
      if (!Has(Feature::kLookaround)) {
        return FailNull(StatusCode::kInvalidInput,
                        "lookbehind is not supported by Go", start, pos_);
      }
      kind = NodeKind::kLookaround;
      lookbehind = true;
      negated = Peek(1) == '!';
      pos_ += 2;
    } else if (k == '<' && !Has(Feature::kAngleGroupNames)) {
      // Go 1.19's regexp: "invalid or unsupported Perl syntax: `(?<`"
      // (Go 1.22 added the form).
      return FailNull(StatusCode::kInvalidInput,
                      "invalid or unsupported Perl syntax: (?<", start,
                      pos_ + 1);
    } else if (k == '<' || (k == '\'' && Has(Feature::kQuotedGroupNames)) ||
               (k == 'P' && Peek(1) == '<' &&
                Has(Feature::kPythonGroupNames))) {
      if (k == 'P') ++pos_;
      const char32_t terminator = Peek() == '\'' ? '\'' : '>';
      ++pos_;
      std::optional<std::string> read = ReadName(terminator);
      if (!read) {
        return FailNull(StatusCode::kInvalidInput, "bad group name", start,
                        pos_);
      }
      name = *read;
    } else if (k == 'P' && Peek(1) == '=' &&
               Has(Feature::kPythonNamedBackrefs)) {
      pos_ += 2;
      std::optional<std::string> read = ReadName(')');
      if (!read) {
        return FailNull(StatusCode::kInvalidInput, "bad group name", start,
                        pos_);
      }
      --depth_;
      auto node = MakeNode(NodeKind::kBackReference, start, pos_);
      pending_named_references_.emplace_back(node.get(), *read);
      return node;
    } else if (k == '#' && Has(Feature::kInlineComments)) {
      while (!AtEnd() && Peek() != ')') ++pos_;
      if (AtEnd()) {
        return FailNull(StatusCode::kInvalidInput, "missing ) after comment",
                        start, pos_);
      }
      ++pos_;
      --depth_;
      return nullptr;  // a comment matches nothing and adds no node
    } else if (k == '|' || k == '(' || k == 'R' || k == '&' || k == 'C' ||
               IsAsciiDigit(k) || k == '+' || (k == 'P' && Peek(1) == '>') ||
               (k == '-' && IsAsciiDigit(Peek(1)))) {
      return FailNull(StatusCode::kUnsupported,
                      k == '|'   ? "branch reset groups (?|...)"
                      : k == '(' ? "conditional groups (?(...)...)"
                      : k == 'C' ? "callouts (?C...)"
                                 : "recursion and subroutine calls",
                      start, pos_ + 1);
    } else {
      bool scoped = false;
      if (!ParseFlagLettersInline(&flags, &scoped)) {
        // Java's (?U) is UNICODE_CHARACTER_CLASS: valid there, refused here.
        const bool known_mode =
            !AtEnd() && Peek() == 'U' && Has(Feature::kUFlagIsUnicodeClasses);
        return FailNull(Has(Feature::kUnknownGroupIsInvalid) && !known_mode
                            ? StatusCode::kInvalidInput
                            : StatusCode::kUnsupported,
                        "unrecognised group syntax after (?", start,
                        std::min(pos_ + 1, chars_.size()));
      }
      if (!scoped) {
        if (Has(Feature::kGlobalFlagsOnlyAtStart) && !at_pattern_start) {
          // CPython 3.11's re.error, word for word: its flags are global,
          // so they may only open the pattern.
          return FailNull(StatusCode::kInvalidInput,
                          "global flags not at the start of the expression",
                          start, pos_);
        }
        // (?i) applies to the rest of the enclosing group.
        *outer_flags = flags;
        --depth_;
        return nullptr;
      }
      group_kind = GroupKind::kNonCapturing;
    }
  }
  int capture_index = 0;
  if (kind == NodeKind::kGroup && group_kind == GroupKind::kCapturing) {
    capture_index = ++captures_seen_;
    if (!name.empty()) {
      if (group_names_.count(name) != 0 &&
          !Has(Feature::kDuplicateGroupNames)) {
        return FailNull(StatusCode::kInvalidInput,
                        "duplicate group name '" + name + "'", start, pos_);
      }
      group_names_.emplace(name, capture_index);
    }
  }
  std::unique_ptr<Node> body = ParseAlternation(flags);
  if (error_) return nullptr;
  if (AtEnd() || Peek() != ')') {
    return FailNull(StatusCode::kInvalidInput, "missing )", start, pos_);
  }
  ++pos_;
  --depth_;
  if (lookbehind && !LookbehindLengthAllowed(*body)) {
    return FailNull(StatusCode::kInvalidInput,
                    "lookbehind assertion is not fixed length", start, pos_);
  }
  auto node = MakeNode(kind, start, pos_);
  node->group_kind = group_kind;
  node->capture_index = capture_index;
  node->name = name;
  node->lookbehind = lookbehind;
  node->negated = negated;
  node->children.push_back(std::move(body));
  return node;
}

}  // namespace robotscan::regexguard::internal::parsing
