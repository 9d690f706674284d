#include "urllib/reading.h"

#include <string>

#include "robotscan/base/ascii.h"
#include "urllib/python_str.h"
#include "urllib/python_urlparse.h"

namespace robotscan::robots::urllib {
namespace {

namespace py = python;

// One "key: value" line as parse() splits it: key stripped and
// lower-cased, value stripped, then percent-decoded.
struct KeyValue {
  std::string_view key;      // Stripped, as written.
  std::string_view written;  // Value stripped, before unquote.
  std::string value;         // urllib.parse.unquote(written).
};

// parse(): comment removed, stripped, split at the first ':'.
std::optional<KeyValue> SplitLine(std::string_view line) {
  line = line.substr(0, line.find('#'));
  line = py::Strip(line);
  if (line.empty()) return std::nullopt;
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  KeyValue kv;
  kv.key = py::Strip(line.substr(0, colon));
  kv.written = py::Strip(line.substr(colon + 1));
  kv.value = py::Unquote(kv.written);
  return kv;
}

// key.lower() == name: no non-ASCII character lower-cases to the letters of
// these keys (U+212A gives 'k', which none has), so ASCII comparison is
// exact.
bool KeyIs(std::string_view key, std::string_view name) {
  return AsciiEqualsIgnoreCase(key, name);
}

// RuleLine's path: quote(urlunparse(urlparse(path))). False where urlparse
// raises ValueError.
bool RulePath(const std::string& path, std::string* quoted) {
  py::ParsedUrl parts;
  if (!py::UrlParse(path, &parts)) return false;
  *quoted = py::Quote(py::UrlUnparse(parts));
  return true;
}

class UrllibParser {
 public:
  explicit UrllibParser(File* file) : file_(file) {}

  void Parse(std::string_view body) {
    const std::string text = py::DecodeUtf8Replace(body);
    const std::vector<std::string_view> lines = py::SplitLines(text);
    file_->line_count = static_cast<int>(lines.size());
    int number = 0;
    for (std::string_view line : lines) {
      ++number;
      if (line.empty()) {
        // Only a line with nothing at all ends a group (not one of spaces
        // or a comment).
        if (state_ == State::kAgents) {
          entry_ = Group();
        } else if (state_ == State::kRules) {
          AddEntry();
        }
        state_ = State::kStart;
      }
      const std::optional<KeyValue> kv = SplitLine(line);
      if (!kv) continue;
      if (!ReadLine(*kv, number)) {
        file_->error_line = number;  // parse() raises; nothing more is read.
        return;
      }
    }
    if (state_ == State::kRules) AddEntry();
  }

 private:
  enum class State : std::uint8_t { kStart, kAgents, kRules };

  // False where CPython raises ValueError.
  bool ReadLine(const KeyValue& kv, int number) {
    if (KeyIs(kv.key, "user-agent")) {
      if (state_ == State::kRules) AddEntry();
      if (entry_.agents.empty()) entry_.first_line = number;
      entry_.agents.emplace_back(kv.written);
      entry_.tokens.push_back(py::LowerForMatching(kv.value));
      state_ = State::kAgents;
    } else if (KeyIs(kv.key, "disallow") || KeyIs(kv.key, "allow")) {
      Rule rule;
      rule.kind =
          KeyIs(kv.key, "allow") ? RuleKind::kAllow : RuleKind::kDisallow;
      rule.line = number;
      rule.pattern = std::string(kv.written);
      if (state_ == State::kStart) {
        file_->ignored_rules.push_back(std::move(rule));
        return true;
      }
      if (!RulePath(kv.value, &rule.match_pattern)) return false;
      entry_.rules.push_back(std::move(rule));
      state_ = State::kRules;
    } else if (KeyIs(kv.key, "crawl-delay")) {
      if (state_ == State::kStart) return true;
      if (py::IsDigits(py::Strip(kv.value))) {
        const std::optional<double> delay = py::ParseDigits(kv.value);
        if (!delay) return false;  // int('²'), or too many digits.
        entry_.crawl_delay = delay;
        entry_.crawl_delay_line = number;
      }
      state_ = State::kRules;
    } else if (KeyIs(kv.key, "request-rate")) {
      if (state_ == State::kStart) return true;
      const std::string_view value = kv.value;
      const std::size_t slash = value.find('/');
      if (slash != std::string_view::npos &&
          value.find('/', slash + 1) == std::string_view::npos &&
          py::IsDigits(py::Strip(value.substr(0, slash))) &&
          py::IsDigits(py::Strip(value.substr(slash + 1)))) {
        const std::optional<double> requests =
            py::ParseDigits(value.substr(0, slash));
        if (!requests) return false;
        const std::optional<double> seconds =
            py::ParseDigits(value.substr(slash + 1));
        if (!seconds) return false;
        entry_.request_rate = RequestRate{*requests, *seconds, number};
      }
      state_ = State::kRules;
    } else if (KeyIs(kv.key, "sitemap")) {
      // Independent of groups; the state does not change.
      file_->sitemaps.push_back(Sitemap{kv.value, number});
    }
    return true;
  }

  // _add_entry: the first entry naming `*` becomes the default; later ones
  // are dropped.
  void AddEntry() {
    bool names_star = false;
    for (const std::string& token : entry_.tokens) {
      names_star = names_star || token == "*";
    }
    const auto index = static_cast<std::uint32_t>(file_->groups.size());
    if (names_star) {
      if (!file_->default_entry) {
        file_->default_entry = index;
        file_->groups.push_back(std::move(entry_));
      }
    } else {
      file_->entries.push_back(index);
      file_->groups.push_back(std::move(entry_));
    }
    entry_ = Group();
  }

  File* file_;
  State state_ = State::kStart;
  Group entry_;
};

// Entry.applies_to: the caller's agent cut at '/', lower-cased, contains
// one of the entry's names.
bool AppliesTo(const Group& group, std::string_view caller) {
  for (const std::string& token : group.tokens) {
    if (caller.find(token) != std::string_view::npos) return true;
  }
  return false;
}

std::string CallerName(std::string_view agent) {
  const std::string text = py::DecodeUtf8Replace(agent);
  return py::LowerForMatching(std::string_view(text).substr(0, text.find('/')));
}

}  // namespace

File Read(std::string_view body) {
  File file;
  UrllibParser(&file).Parse(body);
  return file;
}

bool RuleAllows(const Rule& rule) {
  return rule.kind == RuleKind::kAllow || rule.pattern.empty();
}

const Group* EntryFor(const File& file, std::string_view agent) {
  const std::string caller = CallerName(agent);
  for (std::uint32_t index : file.entries) {
    if (AppliesTo(file.groups[index], caller)) return &file.groups[index];
  }
  return nullptr;
}

const Group* GroupFor(const File& file, std::string_view agent,
                      bool* used_default) {
  *used_default = false;
  if (const Group* entry = EntryFor(file, agent)) return entry;
  if (!file.default_entry) return nullptr;
  *used_default = true;
  return &file.groups[*file.default_entry];
}

MatchResult Match(const File& file, std::string_view agent,
                  std::string_view url) {
  MatchResult result;
  // can_fetch: unquote, urlparse, keep path;params?query#fragment, quote.
  py::ParsedUrl parts;
  if (!py::UrlParse(py::Unquote(py::DecodeUtf8Replace(url)), &parts)) {
    result.allowed = false;
    result.decision = Decision::kInvalidUrl;
    return result;
  }
  parts.scheme.clear();
  parts.netloc.clear();
  std::string path = py::Quote(py::UrlUnparse(parts));
  if (path.empty()) path = "/";

  const Group* group = GroupFor(file, agent, &result.used_global_group);
  if (group == nullptr) {
    result.decision = Decision::kNoGroupForAgent;
    return result;
  }
  for (const Rule& rule : group->rules) {
    // (RuleLine also matches a path of exactly "*", but quote() has made
    // every "*" "%2A" by then.)
    if (path.compare(0, rule.match_pattern.size(), rule.match_pattern) != 0) {
      continue;
    }
    result.allowed = RuleAllows(rule);
    result.decision = Decision::kRuleMatched;
    result.line = rule.line;
    result.kind = rule.kind;
    result.pattern = rule.pattern;
    return result;
  }
  result.decision = Decision::kNoMatchingRule;
  return result;
}

}  // namespace robotscan::robots::urllib
