// The parser's driver: decoding the pattern, counting groups, resolving
// named references, building nodes and recording the first error
// (parser_internal.h lists the parts).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "syntax/parser_internal.h"
#include "syntax/pcre2_text.h"

namespace robotscan::regexguard {
namespace internal::parsing {

Result<ParsedPattern> Parser::Parse() {
  // Decode once so that every later step works on code points with byte
  // offsets for spans.
  for (std::size_t offset = 0; offset < pattern_.size();) {
    const DecodedCodePoint decoded = DecodeUtf8(pattern_, offset);
    if (decoded.length == 0) {
      return Status{StatusCode::kInvalidInput, "pattern is not valid UTF-8",
                    SourceSpan{offset, offset + 1}};
    }
    chars_.push_back(decoded.code_point);
    offsets_.push_back(offset);
    offset += decoded.length;
  }
  offsets_.push_back(pattern_.size());
  total_captures_ = CountCapturingGroups();

  InlineFlags flags;
  flags.case_insensitive = options_.flags.case_insensitive;
  flags.multiline = options_.flags.multiline;
  flags.dot_all = options_.flags.dot_all;
  flags.extended = options_.flags.extended;
  flags.unicode = options_.flags.unicode;
  flags.ascii = options_.flags.ascii;
  std::unique_ptr<Node> root = ParseAlternation(flags);
  if (error_) return *error_;
  if (pos_ < chars_.size()) {
    // Only an unbalanced ')' stops the top-level alternation early.
    return Failure(StatusCode::kInvalidInput, "unmatched ')'", pos_, pos_ + 1);
  }
  for (const auto& [node, name] : pending_named_references_) {
    auto it = group_names_.find(name);
    if (it == group_names_.end()) {
      return Status{StatusCode::kInvalidInput,
                    "reference to undefined group name '" + name + "'",
                    node->span};
    }
    node->group_index = it->second;
  }
  for (const Node* node : numbered_references_) {
    if (node->group_index > captures_seen_) {
      return Status{StatusCode::kInvalidInput,
                    "reference to non-existent group " +
                        std::to_string(node->group_index),
                    node->span};
    }
  }
  ParsedPattern parsed;
  parsed.root = std::move(root);
  parsed.capture_count = captures_seen_;
  parsed.dialect = dialect_;
  parsed.anchored_at_start = StartsAnchored(*parsed.root);
  if (const Node* anchor = LeadingLineAnchor(*parsed.root)) {
    parsed.line_start_terminators = anchor->chars;
  }
  return parsed;
}

Status Parser::Failure(StatusCode code, std::string message, std::size_t first,
                       std::size_t last) {
  if (code == StatusCode::kUnsupported) {
    message = "cannot analyse: " + message;
  }
  Status error{code, std::move(message), SpanOf(first, last)};
  if (!error_) error_ = error;
  return error;
}

std::nullptr_t Parser::FailNull(StatusCode code, std::string message,
                                std::size_t first, std::size_t last) {
  Fail(code, std::move(message), first, last);
  return nullptr;
}

std::unique_ptr<Node> Parser::MakeNode(NodeKind kind, std::size_t first,
                                       std::size_t last) const {
  auto node = std::make_unique<Node>();
  node->kind = kind;
  node->span = SpanOf(first, last);
  return node;
}

std::optional<CaseFolding> Parser::Fold(const InlineFlags& flags) const {
  if (!flags.case_insensitive) return std::nullopt;
  return CaseFoldingFor(dialect_, flags.unicode, flags.ascii);
}

std::unique_ptr<Node> Parser::MakeCharacters(ClassBuilder cls,
                                             std::optional<CaseFolding> folding,
                                             std::size_t first,
                                             std::size_t last) {
  auto node = MakeNode(NodeKind::kCharacters, first, last);
  if (folding) cls.set = AddCaseVariants(cls.set, *folding);
  CodePointSet members = cls.set;
  members.Add(cls.property_set);
  node->chars = cls.negated ? members.Complement() : members;
  node->approximate = cls.approximate;
  node->pcre2_text = cls.property_items.empty()
                         ? SetToPcre2(node->chars)
                         : ClassWithPropertiesToPcre2(
                               cls.set, cls.property_items, cls.negated);
  return node;
}

std::unique_ptr<Node> Parser::MakeLiteral(char32_t c,
                                          std::optional<CaseFolding> folding,
                                          std::size_t first, std::size_t last) {
  ClassBuilder cls;
  cls.set = CodePointSet::Single(c);
  return MakeCharacters(std::move(cls), folding, first, last);
}

int Parser::CountCapturingGroups() const {
  int count = 0;
  bool in_class = false;
  for (std::size_t i = 0; i < chars_.size(); ++i) {
    const char32_t c = chars_[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < chars_.size() && chars_[i + 1] == '^') ++i;
      if (i + 1 < chars_.size() && chars_[i + 1] == ']' &&
          Has(Feature::kLeadingBracketIsLiteral)) {
        ++i;
      }
      continue;
    }
    if (c != '(') continue;
    if (i + 1 >= chars_.size() || chars_[i + 1] != '?') {
      if (i + 1 < chars_.size() && chars_[i + 1] == '*') continue;
      ++count;
      continue;
    }
    // Named groups: (?<name> (?'name' (?P<name>, but not lookbehind.
    if (i + 2 < chars_.size()) {
      const char32_t k = chars_[i + 2];
      if ((k == '<' && i + 3 < chars_.size() && chars_[i + 3] != '=' &&
           chars_[i + 3] != '!') ||
          k == '\'' ||
          (k == 'P' && i + 3 < chars_.size() && chars_[i + 3] == '<')) {
        ++count;
      }
    }
  }
  return count;
}

void Parser::SkipExtendedWhitespace(const InlineFlags& flags) {
  if (!flags.extended) return;
  while (!AtEnd()) {
    const char32_t c = Peek();
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++pos_;
    } else if (c == '#') {
      while (!AtEnd() && Peek() != '\n') ++pos_;
    } else {
      break;
    }
  }
}

}  // namespace internal::parsing

Result<ParsedPattern> ParsePattern(std::string_view pattern,
                                   const ParseOptions& options) {
  internal::parsing::Parser parser(pattern, options);
  return parser.Parse();
}

}  // namespace robotscan::regexguard
