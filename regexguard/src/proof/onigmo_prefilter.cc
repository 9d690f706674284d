#include "proof/onigmo_prefilter.h"

#include <algorithm>
#include <bitset>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "syntax/unicode.h"

namespace robotscan::regexguard::internal {
namespace {

using Item = OnigmoPrefilter::Item;

char LowerAscii(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool IsAsciiLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// A node that always matches one ASCII character, either exactly or in
// either case (`a` under (?i) is the set {A, a}).
struct LiteralChar {
  char c = 0;  // lower case when folded
  bool folded = false;
};

std::optional<LiteralChar> AsLiteralChar(const Node& node) {
  if (node.kind != NodeKind::kCharacters || node.approximate) {
    return std::nullopt;
  }
  const auto& ranges = node.chars.ranges();
  if (ranges.size() == 1 && ranges[0].first == ranges[0].last &&
      ranges[0].first > 0 && ranges[0].first < 0x80) {
    return LiteralChar{static_cast<char>(ranges[0].first), false};
  }
  if (ranges.size() == 2 && ranges[0].first == ranges[0].last &&
      ranges[1].first == ranges[1].last && ranges[0].first >= 'A' &&
      ranges[0].first <= 'Z' && ranges[1].first == ranges[0].first + 32) {
    return LiteralChar{static_cast<char>(ranges[1].first), true};
  }
  return std::nullopt;
}

void AddItem(Item item, std::vector<Item>* out) {
  for (const Item& have : *out) {
    if (have.alternatives.empty() && item.alternatives.empty() &&
        have.literal == item.literal && have.fold_case == item.fold_case &&
        have.chars == item.chars) {
      return;
    }
  }
  out->push_back(std::move(item));
}

// A run of literal characters that must appear together. Letters of
// different case sensitivity do not share a run: a folded run admits what
// the case-sensitive one would not.
class Run {
 public:
  explicit Run(std::vector<Item>* out) : out_(out) {}
  ~Run() { Flush(); }

  void Add(LiteralChar lc) {
    if (IsAsciiLetter(lc.c)) {
      if (letters_ && lc.folded != folded_) Flush();
      letters_ = true;
      folded_ = lc.folded;
    }
    text_.push_back(lc.c);
  }

  void Flush() {
    if (!text_.empty()) {
      Item item;
      item.literal = std::move(text_);
      item.fold_case = letters_ && folded_;
      AddItem(std::move(item), out_);
    }
    text_.clear();
    letters_ = false;
    folded_ = false;
  }

 private:
  std::vector<Item>* out_;
  std::string text_;
  bool letters_ = false;
  bool folded_ = false;
};

void Collect(const Node& node, std::vector<Item>* out) {
  switch (node.kind) {
    case NodeKind::kCharacters: {
      if (node.approximate || node.chars.empty()) return;
      if (const auto lc = AsLiteralChar(node)) {
        Run run(out);
        run.Add(*lc);
        return;
      }
      Item item;
      item.chars = node.chars;
      AddItem(std::move(item), out);
      return;
    }
    case NodeKind::kSequence: {
      Run run(out);
      for (const auto& child : node.children) {
        if (const auto lc = AsLiteralChar(*child)) {
          run.Add(*lc);
          continue;
        }
        run.Flush();
        Collect(*child, out);
      }
      return;
    }
    case NodeKind::kGroup:
      Collect(*node.children[0], out);
      return;
    case NodeKind::kRepeat:
      if (node.min >= 1) Collect(*node.children[0], out);
      return;
    case NodeKind::kAlternation: {
      Item item;
      for (const auto& child : node.children) {
        std::vector<Item> branch;
        Collect(*child, &branch);
        // A branch that needs nothing makes the alternation need nothing.
        if (branch.empty()) return;
        item.alternatives.push_back(std::move(branch));
      }
      if (!item.alternatives.empty()) out->push_back(std::move(item));
      return;
    }
    case NodeKind::kLookaround:
      // Onigmo takes a positive lookahead's string or map as a candidate
      // too (measured: `(?=.*[A-Za-z])(?=.*[!@#$%^&*])` is flat on digits
      // until a letter and a `!` follow them).
      if (!node.lookbehind && !node.negated) {
        Collect(*node.children[0], out);
      }
      return;
    default:
      return;  // assertions, back references, empty
  }
}

// A greedy unbounded repeat of `.`: whether `.` takes newlines (dotall).
std::optional<bool> AnyCharStar(const Node& node) {
  if (node.kind != NodeKind::kRepeat || node.max != kUnbounded ||
      node.greediness != Greediness::kGreedy) {
    return std::nullopt;
  }
  const Node& body = *node.children[0];
  if (body.kind != NodeKind::kCharacters || body.approximate) {
    return std::nullopt;
  }
  const CodePointSet rest = body.chars.Complement();
  if (rest.empty()) return true;
  if (rest == CodePointSet::Single('\n')) return false;
  return std::nullopt;
}

// Where a match of `node` must begin, as Onigmo derives it from the left
// end of the pattern (its "left anchor"), and whether zero-width items
// come before that point.
struct Lead {
  OnigmoStart start = OnigmoStart::kAnywhere;
  bool after_zero_width = false;
};

Lead LeadOf(const Node& node) {
  switch (node.kind) {
    case NodeKind::kSequence: {
      bool zero_width = false;
      for (const auto& child : node.children) {
        if (child->kind == NodeKind::kLookaround ||
            (child->kind == NodeKind::kAssertion &&
             child->assertion != AssertionKind::kStartOfLine &&
             child->assertion != AssertionKind::kStartOfText &&
             child->assertion != AssertionKind::kStartOfSearch)) {
          zero_width = true;
          continue;
        }
        Lead lead = LeadOf(*child);
        lead.after_zero_width = lead.after_zero_width || zero_width;
        return lead;
      }
      return Lead{};
    }
    case NodeKind::kGroup:
      return LeadOf(*node.children[0]);
    case NodeKind::kAlternation: {
      // Onigmo keeps only what every branch has.
      std::optional<Lead> common;
      for (const auto& child : node.children) {
        const Lead lead = LeadOf(*child);
        if (!common) {
          common = lead;
        } else if (common->start != lead.start) {
          return Lead{};
        } else {
          common->after_zero_width |= lead.after_zero_width;
        }
      }
      return common.value_or(Lead{});
    }
    case NodeKind::kAssertion:
      switch (node.assertion) {
        case AssertionKind::kStartOfLine:
          return Lead{OnigmoStart::kLineStart, false};
        case AssertionKind::kStartOfText:
          return Lead{OnigmoStart::kTextStart, false};
        case AssertionKind::kStartOfSearch:
          return Lead{OnigmoStart::kSearchStart, false};
        default:
          return Lead{};
      }
    case NodeKind::kRepeat: {
      const std::optional<bool> dotall = AnyCharStar(node);
      if (!dotall) return Lead{};
      Lead lead{*dotall ? OnigmoStart::kSearchStart : OnigmoStart::kLineStart,
                false};
      // `.*` first is PCRE2's own anchoring; `.+` and `.{2,}` are not.
      lead.after_zero_width = node.min > 0;
      return lead;
    }
    default:
      return Lead{};
  }
}

// What a subject holds, computed once per subject: its distinct code
// points, and its text in lower case for the folded literals.
class SubjectProfile {
 public:
  explicit SubjectProfile(std::string_view subject) : subject_(subject) {
    for (std::size_t i = 0; i < subject.size();) {
      const unsigned char byte = static_cast<unsigned char>(subject[i]);
      if (byte < 0x80) {
        ascii_.set(byte);
        ++i;
        continue;
      }
      const DecodedCodePoint decoded = DecodeUtf8(subject, i);
      if (decoded.length == 0) {
        ++i;
        continue;
      }
      others_.push_back(decoded.code_point);
      i += decoded.length;
    }
    std::sort(others_.begin(), others_.end());
    others_.erase(std::unique(others_.begin(), others_.end()), others_.end());
  }

  bool HoldsOneOf(const CodePointSet& set) const {
    for (const CodePointRange& range : set.ranges()) {
      for (char32_t c = range.first; c <= range.last && c < 0x80; ++c) {
        if (ascii_.test(c)) return true;
      }
      if (range.last < 0x80) continue;
      const auto it = std::lower_bound(others_.begin(), others_.end(),
                                       std::max<char32_t>(range.first, 0x80));
      if (it != others_.end() && *it <= range.last) return true;
    }
    return false;
  }

  bool HoldsLiteral(const Item& item) const {
    if (!item.fold_case) {
      return subject_.find(item.literal) != std::string_view::npos;
    }
    if (!lower_) {
      lower_.emplace(subject_);
      for (char& c : *lower_) c = LowerAscii(c);
    }
    return lower_->find(item.literal) != std::string::npos;
  }

 private:
  std::string_view subject_;
  std::bitset<128> ascii_;
  std::vector<char32_t> others_;
  mutable std::optional<std::string> lower_;
};

bool Holds(const Item& item, const SubjectProfile& profile) {
  if (!item.alternatives.empty()) {
    return std::any_of(item.alternatives.begin(), item.alternatives.end(),
                       [&](const std::vector<Item>& branch) {
                         return std::all_of(
                             branch.begin(), branch.end(),
                             [&](const Item& i) { return Holds(i, profile); });
                       });
  }
  if (!item.literal.empty()) return profile.HoldsLiteral(item);
  return profile.HoldsOneOf(item.chars);
}

// One character of `set` for an attack to carry: a letter or digit when
// the set has one, else printable ASCII, else any ASCII but a newline
// (which would add a line start), else the first encodable code point.
std::string OneCharacterOf(const CodePointSet& set) {
  const auto pick = [&](auto wanted) -> std::optional<char> {
    for (int c = 1; c < 0x80; ++c) {
      if (wanted(static_cast<char>(c)) && set.Contains(c)) {
        return static_cast<char>(c);
      }
    }
    return std::nullopt;
  };
  auto c =
      pick([](char x) { return IsAsciiLetter(x) || (x >= '0' && x <= '9'); });
  if (!c) c = pick([](char x) { return x > ' ' && x < 0x7f; });
  if (!c) c = pick([](char x) { return x != '\n' && x != '\r'; });
  if (c) return std::string(1, *c);
  std::string out;
  for (const CodePointRange& range : set.ranges()) {
    for (char32_t cp = std::max<char32_t>(range.first, 0x80); cp <= range.last;
         ++cp) {
      if (IsEncodable(cp)) {
        AppendUtf8(cp, &out);
        return out;
      }
    }
  }
  // Only line terminators are left.
  return std::string(1, pick([](char) { return true; }).value_or('\n'));
}

std::string MissingItems(const std::vector<Item>& items, std::string have);

std::string Witness(const Item& item, const std::string& have) {
  if (!item.alternatives.empty()) {
    std::optional<std::string> best;
    for (const auto& branch : item.alternatives) {
      std::string missing = MissingItems(branch, have);
      if (!best || missing.size() < best->size()) best = std::move(missing);
    }
    return best.value_or("");
  }
  if (!item.literal.empty()) return item.literal;
  return OneCharacterOf(item.chars);
}

std::string MissingItems(const std::vector<Item>& items, std::string have) {
  std::string added;
  for (const Item& item : items) {
    if (Holds(item, SubjectProfile(have))) continue;
    const std::string witness = Witness(item, have);
    have += witness;
    added += witness;
  }
  return added;
}

void DescribeItems(const std::vector<Item>& items, std::string* out);

void DescribeItem(const Item& item, std::string* out) {
  if (!item.alternatives.empty()) {
    out->push_back('(');
    for (std::size_t i = 0; i < item.alternatives.size(); ++i) {
      if (i > 0) out->push_back('|');
      DescribeItems(item.alternatives[i], out);
    }
    out->push_back(')');
    return;
  }
  if (!item.literal.empty()) {
    *out += '"' + item.literal + '"';
    if (item.fold_case) *out += 'i';
    return;
  }
  out->push_back('[');
  for (const CodePointRange& range : item.chars.ranges()) {
    const auto show = [&](char32_t c) {
      if (c > 0x20 && c < 0x7f) {
        out->push_back(static_cast<char>(c));
      } else {
        char hex[16];
        std::snprintf(hex, sizeof hex, "\\x{%x}", static_cast<unsigned>(c));
        *out += hex;
      }
    };
    show(range.first);
    if (range.last != range.first) {
      out->push_back('-');
      show(range.last);
    }
  }
  out->push_back(']');
}

void DescribeItems(const std::vector<Item>& items, std::string* out) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->push_back(' ');
    DescribeItem(items[i], out);
  }
}

}  // namespace

std::string OnigmoStartAnchor(const Node& root) {
  const Lead lead = LeadOf(root);
  // Where PCRE2 derives the same anchoring itself (`^`, `\A`, `\G` or `.*`
  // first), the spelling stays as it is, so that its other start-up
  // optimisations are kept.
  if (!lead.after_zero_width) return "";
  switch (lead.start) {
    case OnigmoStart::kLineStart:
      return "(?m:^)";
    case OnigmoStart::kTextStart:
      return "\\A";
    case OnigmoStart::kSearchStart:
      return "\\G";
    case OnigmoStart::kAnywhere:
      return "";
  }
  return "";
}

OnigmoPrefilter OnigmoPrefilter::For(const Node& root) {
  std::vector<Item> items;
  Collect(root, &items);
  return OnigmoPrefilter(std::move(items));
}

bool OnigmoPrefilter::Admits(std::string_view subject) const {
  if (items_.empty()) return true;
  const SubjectProfile profile(subject);
  return std::all_of(items_.begin(), items_.end(),
                     [&](const Item& item) { return Holds(item, profile); });
}

std::string OnigmoPrefilter::MissingFrom(std::string_view subject) const {
  return MissingItems(items_, std::string(subject));
}

std::string OnigmoPrefilter::Describe() const {
  std::string out;
  DescribeItems(items_, &out);
  return out;
}

}  // namespace robotscan::regexguard::internal
