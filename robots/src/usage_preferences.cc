#include "usage_preferences.h"

#include <string>

#include "robotscan/base/ascii.h"
#include "robotscan/robots/url.h"

namespace robotscan::robots {

LabelStatus AiprefLabelStatus(std::string_view label) {
  // draft-ietf-aipref-vocab-08, "Usage Category Labels".
  for (std::string_view current : {"train-ai", "search"}) {
    if (label == current) return LabelStatus::kCurrent;
  }
  // vocab-00 to -02: tdm, ai, genai (and search); later drafts: train-genai
  // and ai-use, since dropped.
  for (std::string_view old : {"tdm", "ai", "genai", "train-genai", "ai-use"}) {
    if (label == old) return LabelStatus::kObsolete;
  }
  return LabelStatus::kUnknown;
}

LabelStatus ContentSignalKeyStatus(std::string_view key) {
  for (std::string_view current : {"search", "ai-input", "ai-train"}) {
    if (key == current) return LabelStatus::kCurrent;
  }
  return LabelStatus::kUnknown;
}

namespace internal {
namespace {

bool IsLcAlpha(char c) { return c >= 'a' && c <= 'z'; }
bool IsAlpha(char c) { return IsLcAlpha(c) || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// RFC 9110 tchar.
bool IsTchar(char c) {
  if (IsAlpha(c) || IsDigit(c)) return true;
  for (char t : std::string_view("!#$%&'*+-.^_`|~")) {
    if (c == t) return true;
  }
  return false;
}

// A cursor over the input of RFC 9651's parsing algorithms (§4.2); every
// Parse* consumes what it reads and returns false on a parse failure.
class SfParser {
 public:
  explicit SfParser(std::string_view input) : in_(input) {}

  bool Dictionary(std::vector<DictionaryMember>* members) {
    members->clear();
    DiscardSpaces();
    while (!AtEnd()) {
      DictionaryMember member;
      if (!Key(&member.key)) return false;
      if (Peek() == '=') {
        ++pos_;
        if (!ItemOrInnerList(&member)) return false;
      } else if (!Parameters()) {  // Boolean true: not a token.
        return false;
      }
      bool seen = false;
      for (DictionaryMember& existing : *members) {
        if (existing.key == member.key) {
          existing = member;  // Last value, first position.
          seen = true;
        }
      }
      if (!seen) members->push_back(member);
      DiscardOws();
      if (AtEnd()) return true;
      if (Peek() != ',') return false;
      ++pos_;
      DiscardOws();
      if (AtEnd()) return false;  // Trailing comma.
    }
    return true;
  }

 private:
  bool AtEnd() const { return pos_ >= in_.size(); }
  char Peek() const { return AtEnd() ? '\0' : in_[pos_]; }
  void DiscardSpaces() {
    while (Peek() == ' ') ++pos_;
  }
  void DiscardOws() {
    while (Peek() == ' ' || Peek() == '\t') ++pos_;
  }

  bool Key(std::string_view* key) {
    const std::size_t start = pos_;
    if (!IsLcAlpha(Peek()) && Peek() != '*') return false;
    ++pos_;
    while (!AtEnd()) {
      const char c = Peek();
      if (!IsLcAlpha(c) && !IsDigit(c) && c != '_' && c != '-' && c != '.' &&
          c != '*') {
        break;
      }
      ++pos_;
    }
    *key = in_.substr(start, pos_ - start);
    return true;
  }

  bool ItemOrInnerList(DictionaryMember* member) {
    if (Peek() == '(') return InnerList();
    return Item(member);
  }

  bool InnerList() {
    ++pos_;  // '('
    while (!AtEnd()) {
      DiscardSpaces();
      if (Peek() == ')') {
        ++pos_;
        return Parameters();
      }
      DictionaryMember ignored;
      if (!Item(&ignored)) return false;
      if (Peek() != ' ' && Peek() != ')') return false;
    }
    return false;  // No closing parenthesis.
  }

  bool Item(DictionaryMember* member) {
    const std::size_t start = pos_;
    bool is_token = false;
    if (!BareItem(&is_token)) return false;
    member->is_token = is_token;
    member->token = is_token ? in_.substr(start, pos_ - start) : "";
    return Parameters();
  }

  bool Parameters() {
    while (Peek() == ';') {
      ++pos_;
      DiscardSpaces();
      std::string_view key;
      if (!Key(&key)) return false;
      if (Peek() == '=') {
        ++pos_;
        bool is_token = false;
        if (!BareItem(&is_token)) return false;
      }
    }
    return true;
  }

  bool BareItem(bool* is_token) {
    *is_token = false;
    const char c = Peek();
    if (c == '-' || IsDigit(c)) return Number(/*integer_only=*/false);
    if (c == '"') return String();
    if (c == '*' || IsAlpha(c)) {
      *is_token = true;
      ++pos_;
      while (IsTchar(Peek()) || Peek() == ':' || Peek() == '/') ++pos_;
      return true;
    }
    if (c == ':') return ByteSequence();
    if (c == '?') {
      ++pos_;
      if (Peek() != '0' && Peek() != '1') return false;
      ++pos_;
      return true;
    }
    if (c == '@') {
      ++pos_;
      return Number(/*integer_only=*/true);
    }
    if (c == '%') return DisplayString();
    return false;
  }

  // RFC 9651 §4.2.4: at most 15 integer digits, or 12 then 1 to 3 decimals.
  bool Number(bool integer_only) {
    if (Peek() == '-') ++pos_;
    if (!IsDigit(Peek())) return false;
    const std::size_t start = pos_;
    std::size_t dot = std::string_view::npos;
    while (!AtEnd()) {
      const char c = Peek();
      if (IsDigit(c)) {
        ++pos_;
      } else if (c == '.' && dot == std::string_view::npos && !integer_only) {
        if (pos_ - start > 12) return false;
        dot = pos_++;
      } else {
        break;
      }
      const std::size_t length = pos_ - start;
      if (dot == std::string_view::npos ? length > 15 : length > 16) {
        return false;
      }
    }
    if (dot == std::string_view::npos) return true;
    const std::size_t decimals = pos_ - dot - 1;
    return decimals >= 1 && decimals <= 3;
  }

  bool String() {
    ++pos_;  // '"'
    while (!AtEnd()) {
      const char c = in_[pos_++];
      if (c == '\\') {
        if (Peek() != '"' && Peek() != '\\') return false;
        ++pos_;
      } else if (c == '"') {
        return true;
      } else if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return false;
  }

  bool ByteSequence() {
    ++pos_;  // ':'
    while (!AtEnd()) {
      const char c = in_[pos_++];
      if (c == ':') return true;
      if (!IsAlpha(c) && !IsDigit(c) && c != '+' && c != '/' && c != '=') {
        return false;
      }
    }
    return false;
  }

  bool DisplayString() {
    ++pos_;  // '%'
    if (Peek() != '"') return false;
    ++pos_;
    auto is_lower_hex = [](char c) {
      return IsDigit(c) || (c >= 'a' && c <= 'f');
    };
    while (!AtEnd()) {
      const char c = in_[pos_++];
      if (c == '%') {
        if (pos_ + 2 > in_.size() || !is_lower_hex(in_[pos_]) ||
            !is_lower_hex(in_[pos_ + 1])) {
          return false;
        }
        pos_ += 2;
      } else if (c == '"') {
        return true;
      } else if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return false;
  }

  std::string_view in_;
  std::size_t pos_ = 0;
};

}  // namespace

bool ParseStructuredDictionary(std::string_view input,
                               std::vector<DictionaryMember>* members) {
  return SfParser(input).Dictionary(members);
}

ContentUsage ParseContentUsage(std::string_view value, int line,
                               Compat compat) {
  ContentUsage usage;
  usage.line = line;
  std::string_view statement = value;
  // attach-05 §3.2: a value that starts with '/' has a path, which ends
  // before the first SP or HTAB; any other value is all statement.
  if (!statement.empty() && statement.front() == '/') {
    const std::size_t end = statement.find_first_of(" \t");
    usage.path = std::string(statement.substr(0, end));
    statement = end == std::string_view::npos
                    ? std::string_view()
                    : StripAsciiWhitespace(statement.substr(end));
    usage.match_path =
        compat == Compat::kGoogle
            ? EscapePatternGoogle(usage.path)
            : NormalizedForMatching(usage.path, PathRole::kRulePattern);
  }
  usage.statement = std::string(statement);
  std::vector<DictionaryMember> members;
  usage.is_dictionary = ParseStructuredDictionary(statement, &members);
  if (!usage.is_dictionary) return usage;
  for (const DictionaryMember& member : members) {
    if (member.is_token && (member.token == "y" || member.token == "n")) {
      usage.preferences.push_back(
          UsagePreference{std::string(member.key), member.token == "y"});
    } else {
      usage.malformed_keys.emplace_back(member.key);
    }
  }
  return usage;
}

ContentSignal ParseContentSignal(std::string_view value, int line) {
  ContentSignal signal;
  signal.line = line;
  signal.value = std::string(value);
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    const std::string_view entry = StripAsciiWhitespace(value.substr(0, comma));
    value = comma == std::string_view::npos ? std::string_view()
                                            : value.substr(comma + 1);
    if (entry.empty()) continue;
    const std::size_t eq = entry.find('=');
    const std::string_view key =
        eq == std::string_view::npos
            ? std::string_view()
            : StripAsciiWhitespace(entry.substr(0, eq));
    const std::string_view answer =
        eq == std::string_view::npos
            ? std::string_view()
            : StripAsciiWhitespace(entry.substr(eq + 1));
    const bool yes = AsciiEqualsIgnoreCase(answer, "yes");
    if (key.empty() || (!yes && !AsciiEqualsIgnoreCase(answer, "no"))) {
      signal.malformed_entries.emplace_back(entry);
      continue;
    }
    std::string lower_key(key);
    for (char& c : lower_key) c = ToAsciiLower(c);
    bool seen = false;
    for (UsagePreference& existing : signal.signals) {
      if (existing.key == lower_key) {
        existing.allowed = yes;
        seen = true;
      }
    }
    if (!seen) signal.signals.push_back(UsagePreference{lower_key, yes});
  }
  return signal;
}

}  // namespace internal
}  // namespace robotscan::robots
