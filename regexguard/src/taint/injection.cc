// FindRegexInjections (injection.h): request values followed through one
// function's variables to the regex calls, over the tokens of the
// language's own lexer (extract_*.cc) and the tables of taint_rules.cc.
//
// One pass in source order. A scope stack holds what each variable last
// received (a request value and where it was read, or nothing); a scope is
// a function (or class) body, so a value assigned in one function is never
// seen in a sibling, while a nested function (a callback) sees its
// enclosing function's values, as closures do. Control blocks (if, for,
// ...) are no scopes: what they assign is the function's. An anonymous
// function passed to a call (`xs.map(x -> ...)`, `.each { |x| ... }`)
// takes as its parameters' value what the call is given: its receiver and
// its other arguments. Object fields (`this.x`, `self.x`, `$this->x`,
// `@x`) are known by name across the file's methods; a table written as a
// literal in the file and indexed by a request value gives a clean value.
#include "robotscan/regexguard/injection.h"

#include <algorithm>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "extract/extract_internal.h"
#include "taint/taint_rules.h"

namespace robotscan::regexguard {
namespace {

using internal::CodeToken;
using internal::CodeTokenKind;
using internal::ParameterName;
using internal::ScopeStyle;
using internal::SinkRule;
using internal::TaintRules;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// An assignment's right-hand side, an argument: read at most this far.
constexpr std::size_t kMaxExpressionTokens = 512;
// Strings inside interpolation holes inside strings: this deep at most.
constexpr int kMaxHoleDepth = 3;
constexpr std::size_t kMaxExpressionText = 200;

std::vector<CodeToken> LexCode(std::string_view text, SourceLanguage language) {
  switch (language) {
    case SourceLanguage::kPython:
      return internal::LexPython(text);
    case SourceLanguage::kJavaScript:
      return internal::LexJavaScript(text);
    case SourceLanguage::kGo:
      return internal::LexGo(text);
    case SourceLanguage::kJava:
      return internal::LexJava(text);
    case SourceLanguage::kKotlin:
      return internal::LexKotlin(text);
    case SourceLanguage::kRuby:
      return internal::LexRuby(text);
    case SourceLanguage::kPhp:
      // PHP code starts after its opening tag.
      return internal::LexPhp("<?php " + std::string(text));
    case SourceLanguage::kCSharp:
      return internal::LexCSharp(text);
    default:
      return {};
  }
}

bool IsCode(const CodeToken& token) {
  return token.kind == CodeTokenKind::kName ||
         token.kind == CodeTokenKind::kPunct;
}

bool IsPunct(const std::vector<CodeToken>& tokens, std::size_t i,
             std::string_view text) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kPunct &&
         tokens[i].text == text;
}

// The closing `|` of a Ruby block's parameters (`{ |a, b| ...`, `do |x|`)
// whose first parameter token is tokens[begin], or kNone within 30 tokens.
std::size_t BlockParametersEnd(const std::vector<CodeToken>& tokens,
                               std::size_t begin) {
  for (std::size_t bar = begin; bar < tokens.size() && bar < begin + 30;
       ++bar) {
    if (IsPunct(tokens, bar, "|")) return bar;
  }
  return kNone;
}

bool IsName(const std::vector<CodeToken>& tokens, std::size_t i) {
  return i < tokens.size() && tokens[i].kind == CodeTokenKind::kName;
}

bool IsOpen(const CodeToken& token) {
  return token.kind == CodeTokenKind::kPunct &&
         (token.text == "(" || token.text == "[" || token.text == "{");
}
bool IsClose(const CodeToken& token) {
  return token.kind == CodeTokenKind::kPunct &&
         (token.text == ")" || token.text == "]" || token.text == "}");
}

// A source, sink or sanitizer as the tokens of its spelling.
struct Spelled {
  std::vector<CodeToken> tokens;
  std::string text;  // as written in the table
};

bool SpellsAt(const std::vector<CodeToken>& tokens, std::size_t i,
              const Spelled& spelled) {
  if (spelled.tokens.empty() || i + spelled.tokens.size() > tokens.size()) {
    return false;
  }
  for (std::size_t k = 0; k < spelled.tokens.size(); ++k) {
    const CodeToken& have = tokens[i + k];
    if (!IsCode(have) || have.kind != spelled.tokens[k].kind ||
        have.text != spelled.tokens[k].text) {
      return false;
    }
  }
  return true;
}

std::vector<Spelled> SpellAll(std::span<const std::string_view> texts,
                              SourceLanguage language) {
  std::vector<Spelled> out;
  for (std::string_view text : texts) {
    out.push_back({LexCode(text, language), std::string(text)});
  }
  return out;
}

// Hashes strings and string views alike (heterogeneous lookup).
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const {
    return std::hash<std::string_view>{}(text);
  }
};
using TextSet = std::unordered_set<std::string, TextHash, std::equal_to<>>;

// A language's tables as tokens, lexed once per process (immutable after).
struct SpelledRules {
  std::vector<Spelled> sources;
  std::vector<Spelled> sanitizers;
  std::vector<Spelled> members;
  std::vector<Spelled> parameter_sources;
  std::vector<Spelled> sinks;  // in the order of TaintRules::sinks
  // The first token of every source and sanitizer, and of every sink: most
  // tokens are none, and are dismissed with one lookup.
  TextSet evaluate_heads;
  TextSet sink_heads;
  // The longest name of each sink ("compile", "RegExp", "preg_match"): a
  // file that holds none of them as text has no sink call, and needs no
  // lexing.
  std::vector<std::string> sink_words;
  // The first token of every source and parameter annotation, and the
  // longest name of each (for the holes of interpolated strings).
  TextSet request_heads;
  std::vector<std::string> request_words;
};

SpelledRules SpellRules(SourceLanguage language, const TaintRules& rules) {
  SpelledRules out;
  out.sources = SpellAll(rules.sources, language);
  out.sanitizers = SpellAll(rules.sanitizers, language);
  out.members = SpellAll(rules.sanitizing_members, language);
  out.parameter_sources = SpellAll(rules.parameter_sources, language);
  for (const SinkRule& sink : rules.sinks) {
    out.sinks.push_back(
        {LexCode(sink.spelling, language), std::string(sink.spelling)});
  }
  for (const auto* list : {&out.sources, &out.sanitizers}) {
    for (const Spelled& spelled : *list) {
      if (!spelled.tokens.empty()) {
        out.evaluate_heads.insert(spelled.tokens[0].text);
      }
    }
  }
  const auto longest_name = [](const Spelled& spelled) {
    std::string word;
    for (const CodeToken& token : spelled.tokens) {
      if (token.kind == CodeTokenKind::kName &&
          token.text.size() > word.size()) {
        word = token.text;
      }
    }
    return word;
  };
  for (const Spelled& sink : out.sinks) {
    if (!sink.tokens.empty()) out.sink_heads.insert(sink.tokens[0].text);
    if (std::string word = longest_name(sink); !word.empty()) {
      out.sink_words.push_back(std::move(word));
    }
  }
  for (const auto* list : {&out.sources, &out.parameter_sources}) {
    for (const Spelled& spelled : *list) {
      if (spelled.tokens.empty()) continue;
      out.request_heads.insert(spelled.tokens[0].text);
      if (std::string word = longest_name(spelled); !word.empty()) {
        out.request_words.push_back(std::move(word));
      }
    }
  }
  return out;
}

template <SourceLanguage kLanguage>
const SpelledRules& CachedSpelledRules(const TaintRules& rules) {
  // Built on first use (thread-safe), never changed afterwards.
  static const SpelledRules spelled = SpellRules(kLanguage, rules);
  return spelled;
}

const SpelledRules& SpelledRulesFor(SourceLanguage language,
                                    const TaintRules& rules) {
  switch (language) {
    case SourceLanguage::kPython:
      return CachedSpelledRules<SourceLanguage::kPython>(rules);
    case SourceLanguage::kJavaScript:
      return CachedSpelledRules<SourceLanguage::kJavaScript>(rules);
    case SourceLanguage::kGo:
      return CachedSpelledRules<SourceLanguage::kGo>(rules);
    case SourceLanguage::kJava:
      return CachedSpelledRules<SourceLanguage::kJava>(rules);
    case SourceLanguage::kKotlin:
      return CachedSpelledRules<SourceLanguage::kKotlin>(rules);
    case SourceLanguage::kRuby:
      return CachedSpelledRules<SourceLanguage::kRuby>(rules);
    case SourceLanguage::kPhp:
      return CachedSpelledRules<SourceLanguage::kPhp>(rules);
    case SourceLanguage::kCSharp:
      return CachedSpelledRules<SourceLanguage::kCSharp>(rules);
    default:
      return CachedSpelledRules<SourceLanguage::kCpp>(rules);
  }
}

// A request value and where it was read.
struct Origin {
  std::string source;
  std::size_t offset = 0;
  // Not a request value but the enclosing function's parameter of this
  // index (counting from 0, without self/cls): a sink it reaches is that
  // function's summary, reported where a caller passes a request value.
  int parameter = -1;
  std::string function;  // whose parameter
};

Origin RequestValue(std::string source, std::size_t offset) {
  Origin origin;
  origin.source = std::move(source);
  origin.offset = offset;
  return origin;
}
using Taint = std::optional<Origin>;

struct Scope {
  std::size_t end = kNone;  // index of the first token after it
  bool hard = false;        // Ruby def: enclosing variables are not seen
  // An anonymous function's: where assignments declare (Python, Ruby), one
  // to an enclosing variable still changes that variable.
  bool block = false;
  std::map<std::string, Taint, std::less<>> names;
};

// Tokens with the text they were lexed from (the file, or a string's
// interpolation hole) and their bracket structure.
struct TokenView {
  const std::vector<CodeToken>* tokens = nullptr;
  std::string_view text;
  std::vector<std::size_t> partner;  // matching bracket, or kNone

  explicit TokenView(const std::vector<CodeToken>& all, std::string_view t)
      : tokens(&all), text(t), partner(all.size(), kNone) {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (IsOpen(all[i])) {
        open.push_back(i);
      } else if (IsClose(all[i]) && !open.empty()) {
        const char want = all[i].text[0] == ')'   ? '('
                          : all[i].text[0] == ']' ? '['
                                                  : '{';
        if (all[open.back()].text[0] != want) continue;
        partner[open.back()] = i;
        partner[i] = open.back();
        open.pop_back();
      }
    }
  }
  std::size_t size() const { return tokens->size(); }
  const CodeToken& operator[](std::size_t i) const { return (*tokens)[i]; }
  // Past the bracket that closes the one opening at i (the end of the view
  // when it is never closed).
  std::size_t After(std::size_t open) const {
    return partner[open] == kNone ? size() : partner[open] + 1;
  }
};

class InjectionFinder {
 public:
  InjectionFinder(std::string_view source, SourceLanguage language,
                  const TaintRules& rules)
      : source_(source),
        language_(language),
        rules_(rules),
        // A PHP file starts in HTML: its lexer finds the opening tag.
        tokens_(language == SourceLanguage::kPhp ? internal::LexPhp(source)
                                                 : LexCode(source, language)),
        view_(tokens_, source),
        spelled_(SpelledRulesFor(language, rules)),
        sources_(spelled_.sources),
        sanitizers_(spelled_.sanitizers),
        members_(spelled_.members),
        parameter_sources_(spelled_.parameter_sources),
        sinks_(spelled_.sinks) {}

  std::vector<RegexInjection> Run();

 private:
  void FindLines();
  void FindScopes();
  void FindBraceScopes();
  void FindIndentedScopes();
  void FindRubyScopes();
  void FindEscaperImports();
  bool IsControlBlock(std::size_t brace) const;
  std::string FunctionNameBefore(std::size_t open) const;

  bool MayReadRequestValues() const;
  void FindLambdas();
  void FindClassesOfConstructors();
  void FindConstantTables();
  std::size_t ChainBegin(std::size_t end) const;
  Taint LambdaFeed(std::size_t begin, std::size_t end) const;

  void OpenScope(std::size_t i);
  std::vector<std::string> DefineParameters(std::size_t begin, std::size_t end,
                                            bool routed,
                                            const std::string& function);
  void HandleCall(std::size_t i);
  void Walk();
  void Report(RegexInjection found, const Origin& origin);
  void HandleAssignment(std::size_t i);
  void HandleSinks(std::size_t i);
  void HandleLoop(std::size_t i);
  std::vector<std::string> TargetsBefore(std::size_t op, bool* declared) const;
  std::size_t ExpressionEnd(std::size_t begin) const;

  Taint Evaluate(const TokenView& view, std::size_t begin, std::size_t end,
                 int depth) const;
  // Past the postfix chain (.name, [..], (..), ->name) from `at`; *clean
  // when a member on the way escapes or converts the value.
  std::size_t ChainEnd(const TokenView& view, std::size_t at,
                       bool* clean) const;
  bool IsSanitizerCall(const TokenView& view, std::size_t i,
                       std::size_t* call_open) const;
  bool IsMemberName(const TokenView& view, std::size_t i) const;
  Taint EvaluateHoles(const TokenView& view, std::size_t i, int depth) const;
  std::vector<std::string> HolesOf(std::string_view raw, bool regex) const;

  Taint Lookup(std::string_view name) const;
  // The scope's entry for the name (clean or not); nullptr when no scope
  // in sight has one.
  const Taint* Find(std::string_view name) const;
  void Assign(const std::string& name, const Taint& taint, bool declare);
  // A field read or written at i (`this.x`, `self.x`, `$this->x`, `@x`):
  // its key (".x", "@x") and the index past it; empty when none.
  std::string FieldAt(const std::vector<CodeToken>& tokens, std::size_t i,
                      std::size_t* after) const;
  Taint LookupField(const std::string& key) const;
  void RecordField(const std::string& key, const Origin& origin);
  bool IsTableLiteral(std::size_t begin) const;

  bool LineStartAt(std::size_t i) const { return line_start_[i]; }
  // 1-based; binary search in the line starts found once.
  std::size_t LineOf(std::size_t offset) const {
    if (line_starts_.empty()) {
      line_starts_.push_back(0);
      for (std::size_t k = 0; k < source_.size(); ++k) {
        if (source_[k] == '\n') line_starts_.push_back(k + 1);
      }
    }
    return static_cast<std::size_t>(
        std::upper_bound(line_starts_.begin(), line_starts_.end(),
                         std::min(offset, source_.size())) -
        line_starts_.begin());
  }

  std::string_view source_;
  SourceLanguage language_;
  const TaintRules& rules_;
  std::vector<CodeToken> tokens_;
  TokenView view_;
  const SpelledRules& spelled_;
  const std::vector<Spelled>& sources_;
  const std::vector<Spelled>& sanitizers_;
  const std::vector<Spelled>& members_;
  const std::vector<Spelled>& parameter_sources_;
  const std::vector<Spelled>& sinks_;
  std::set<std::string, std::less<>> escapers_;  // imported escape functions
  bool imports_regex_module_ = false;            // Python: `import regex`

  mutable std::vector<std::size_t> line_starts_;  // offsets, for LineOf
  std::vector<bool> line_start_;                  // first token of its line
  std::vector<std::size_t> indent_;     // column of a line's first token
  std::vector<std::size_t> enclosing_;  // innermost open bracket, or kNone
  // Scopes by their first token: (end, hard, routed parameters).
  struct ScopeSpan {
    std::size_t end = kNone;
    bool hard = false;
    std::size_t parameters_begin = kNone;  // the parameter list's tokens
    std::size_t parameters_end = kNone;
    bool routed = false;   // Flask route: every parameter is a request value
    std::string function;  // the function's name, when it has one
    // An anonymous function: where it starts (its parameters, or the
    // brace of a block) and ends, for the call that is passed it.
    bool lambda = false;
    std::size_t lambda_begin = kNone;
    std::string implicit_parameter;  // Kotlin's `it`
  };
  struct ClassSpan {
    std::size_t begin = 0;
    std::size_t end = 0;
    std::string name;
  };
  std::vector<ClassSpan> classes_;
  // Fields of the file's objects that received a request value (or a
  // constructor's parameter), by key; and the keys read before any
  // assignment was seen (a second walk then reads them again).
  std::map<std::string, Origin, std::less<>> fields_;
  mutable std::set<std::string, std::less<>> fields_read_unknown_;
  // Names assigned only table literals in the file: indexing them yields a
  // constant.
  std::set<std::string, std::less<>> constant_tables_;
  // A sink one of a function's parameters reaches.
  struct SinkSummary {
    int parameter = 0;
    RegexInjection injection;  // without its source
  };
  std::map<std::string, std::vector<SinkSummary>, std::less<>> summaries_;
  bool calls_only_ = false;  // the second pass: call sites of summaries
  std::set<std::size_t> reported_offsets_;
  std::map<std::size_t, ScopeSpan> scope_at_;

  std::vector<Scope> scopes_;
  std::vector<RegexInjection> found_;
};

void InjectionFinder::FindLines() {
  const std::size_t n = tokens_.size();
  line_start_.assign(n, false);
  indent_.assign(n, 0);
  enclosing_.assign(n, kNone);
  std::vector<std::size_t> open;
  // Tokens come in source order: one forward scan finds each one's line
  // (a minified file's one long line stays linear).
  std::size_t scanned = 0;
  std::size_t line_begin = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t offset = std::min(tokens_[i].offset, source_.size());
    for (; scanned < offset; ++scanned) {
      if (source_[scanned] == '\n') line_begin = scanned + 1;
    }
    line_start_[i] = i == 0 || tokens_[i - 1].offset < line_begin;
    indent_[i] = offset - line_begin;
    enclosing_[i] = open.empty() ? kNone : open.back();
    if (IsOpen(tokens_[i])) open.push_back(i);
    if (IsClose(tokens_[i]) && !open.empty()) open.pop_back();
  }
}

bool InjectionFinder::IsControlBlock(std::size_t brace) const {
  // The statement whose block this is, read backwards over balanced
  // brackets; Go and JavaScript statements end at line breaks, Go's
  // `if x := f(); x {` has a `;` inside.
  std::size_t j = brace;
  for (std::size_t steps = 0; j > 0 && steps < 64; ++steps) {
    // The statement started at the line's first token, already read.
    if (rules_.statements_end_at_line_breaks && j != brace && LineStartAt(j)) {
      return false;
    }
    --j;
    const CodeToken& token = tokens_[j];
    if (IsClose(token) && view_.partner[j] != kNone) {
      j = view_.partner[j];
      continue;
    }
    if (token.kind == CodeTokenKind::kPunct &&
        (IsOpen(token) || IsClose(token) || token.text == "," ||
         (token.text == ";" && language_ != SourceLanguage::kGo))) {
      return false;
    }
    if (token.kind == CodeTokenKind::kName) {
      for (std::string_view keyword : rules_.control_keywords) {
        if (token.text == keyword) return true;
      }
    }
  }
  return false;
}

// The name a parameter list at `open` belongs to: `name(`, `name = (` (an
// arrow function); empty for anonymous functions and keywords.
std::string InjectionFinder::FunctionNameBefore(std::size_t open) const {
  std::size_t at = open;
  if (at >= 2 && IsPunct(tokens_, at - 1, "=") && IsName(tokens_, at - 2)) {
    --at;
  }
  if (at == 0 || !IsName(tokens_, at - 1)) return "";
  const std::string& name = tokens_[at - 1].text;
  for (std::string_view keyword :
       {"function", "func", "fn", "if", "for", "while", "switch", "catch",
        "foreach", "using", "lock", "return", "new"}) {
    if (name == keyword) return "";
  }
  return name;
}

void InjectionFinder::FindBraceScopes() {
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (!IsPunct(tokens_, i, "{") || IsControlBlock(i)) continue;
    ScopeSpan span;
    span.end = view_.After(i);
    // The parameters: `(...) {`, `(...) => {`, `x => {`, before Java's
    // `throws A, B`.
    std::size_t j = i;
    for (std::size_t k = i; k > 0 && i - k < 16; --k) {
      if (IsName(tokens_, k - 1) && tokens_[k - 1].text == "throws") {
        j = k - 1;
        break;
      }
      if (!IsName(tokens_, k - 1) && !IsPunct(tokens_, k - 1, ",") &&
          !IsPunct(tokens_, k - 1, ".")) {
        break;
      }
    }
    // Kotlin and TypeScript: `fun f(p: String): List<String> {`,
    // `function f(req: Request): Promise<void> {`.
    if (language_ == SourceLanguage::kKotlin ||
        language_ == SourceLanguage::kJavaScript) {
      std::size_t k = j;
      while (k > 0 && j - k < 16 &&
             (IsName(tokens_, k - 1) || IsPunct(tokens_, k - 1, ".") ||
              IsPunct(tokens_, k - 1, "<") || IsPunct(tokens_, k - 1, ">") ||
              IsPunct(tokens_, k - 1, ",") || IsPunct(tokens_, k - 1, "?") ||
              IsPunct(tokens_, k - 1, "[") || IsPunct(tokens_, k - 1, "]") ||
              IsPunct(tokens_, k - 1, "|"))) {
        --k;
      }
      if (k < j && k >= 2 && IsPunct(tokens_, k - 1, ":") &&
          IsPunct(tokens_, k - 2, ")")) {
        j = k - 1;
      }
    }
    // Go: `func f(p string) *regexp.Regexp {`, `func f(p T) (int, error) {`
    if (language_ == SourceLanguage::kGo) {
      std::size_t k = j;
      while (k > 0 && j - k < 12 &&
             (IsName(tokens_, k - 1) || IsPunct(tokens_, k - 1, ".") ||
              IsPunct(tokens_, k - 1, "*") || IsPunct(tokens_, k - 1, "[") ||
              IsPunct(tokens_, k - 1, "]"))) {
        --k;
      }
      if (k == j && k >= 1 && IsPunct(tokens_, k - 1, ")") &&
          view_.partner[k - 1] != kNone) {
        const std::size_t result = view_.partner[k - 1];
        if (result >= 1 && IsPunct(tokens_, result - 1, ")")) k = result;
      }
      if (k >= 1 && IsPunct(tokens_, k - 1, ")")) j = k;
    }
    if (j >= 2 && IsPunct(tokens_, j - 1, ">") &&
        IsPunct(tokens_, j - 2, "=")) {
      j -= 2;
      if (IsName(tokens_, j - 1)) {
        span.parameters_begin = j - 1;
        span.parameters_end = j;
      }
    }
    if (j >= 1 && IsPunct(tokens_, j - 1, ")") &&
        view_.partner[j - 1] != kNone) {
      std::size_t open = view_.partner[j - 1];
      // PHP `function ($row) use ($q) {`: the `use` names are the
      // enclosing function's values, the parameters come before.
      if (open >= 2 && IsName(tokens_, open - 1) &&
          tokens_[open - 1].text == "use" && IsPunct(tokens_, open - 2, ")") &&
          view_.partner[open - 2] != kNone) {
        j = open - 1;
        open = view_.partner[open - 2];
      }
      span.parameters_begin = open + 1;
      span.parameters_end = j - 1;
      span.function = FunctionNameBefore(open);
    }
    scope_at_[i] = span;
  }
  // Expression bodies: `(p) => new RegExp(p)`, C#'s `Regex Build(string p)
  // => new Regex(p);`, from the arrow to the expression's end.
  if (language_ != SourceLanguage::kJavaScript &&
      language_ != SourceLanguage::kCSharp) {
    return;
  }
  for (std::size_t i = 1; i + 2 < tokens_.size(); ++i) {
    if (!IsPunct(tokens_, i, "=") || !IsPunct(tokens_, i + 1, ">") ||
        tokens_[i].offset + 1 != tokens_[i + 1].offset ||
        IsPunct(tokens_, i + 2, "{")) {
      continue;
    }
    ScopeSpan span;
    span.end = ExpressionEnd(i + 2);
    if (IsPunct(tokens_, i - 1, ")") && view_.partner[i - 1] != kNone) {
      const std::size_t open = view_.partner[i - 1];
      span.parameters_begin = open + 1;
      span.parameters_end = i - 1;
      span.function = FunctionNameBefore(open);
    } else if (IsName(tokens_, i - 1)) {
      span.parameters_begin = i - 1;
      span.parameters_end = i;
    }
    scope_at_[i] = span;
  }
}

void InjectionFinder::FindIndentedScopes() {
  const std::size_t n = tokens_.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!IsName(tokens_, i) ||
        (tokens_[i].text != "def" && tokens_[i].text != "class")) {
      continue;
    }
    const bool at_line_start =
        LineStartAt(i) ||
        (i > 0 && LineStartAt(i - 1) && tokens_[i - 1].text == "async");
    if (!at_line_start || enclosing_[i] != kNone) continue;
    const std::size_t indent = indent_[LineStartAt(i) ? i : i - 1];
    ScopeSpan span;
    if (IsName(tokens_, i + 1) && IsPunct(tokens_, i + 2, "(")) {
      span.parameters_begin = i + 3;
      span.parameters_end = view_.After(i + 2) - 1;
      if (tokens_[i].text == "def") span.function = tokens_[i + 1].text;
    }
    std::size_t end = i + 1;
    while (end < n && !(LineStartAt(end) && enclosing_[end] == kNone &&
                        indent_[end] <= indent)) {
      ++end;
    }
    span.end = end;
    // Flask and similar: @app.route("/<name>") gives the view function its
    // URL's values as parameters.
    const std::size_t first = LineStartAt(i) ? i : i - 1;
    std::size_t line_end = first;  // the decorator line's end
    for (std::size_t k = first; k > 0 && first - k < 128;) {
      --k;
      if (!LineStartAt(k) || enclosing_[k] != kNone) continue;
      if (!IsPunct(tokens_, k, "@")) break;
      for (std::size_t p = k; p + 2 < line_end; ++p) {
        if (!IsPunct(tokens_, p, ".") || !IsName(tokens_, p + 1) ||
            !IsPunct(tokens_, p + 2, "(")) {
          continue;
        }
        for (std::string_view verb :
             {"route", "get", "post", "put", "delete", "patch", "api_route"}) {
          if (tokens_[p + 1].text == verb) span.routed = true;
        }
      }
      line_end = k;
    }
    scope_at_[i] = span;
  }
}

void InjectionFinder::FindRubyScopes() {
  struct Opener {
    std::size_t index;
    bool scope;
  };
  std::vector<Opener> open;
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    if (!IsName(tokens_, i)) continue;
    // `x.end`, `:end`, `end:` are names, not keywords.
    if (i > 0 &&
        (IsPunct(tokens_, i - 1, ".") || IsPunct(tokens_, i - 1, ":"))) {
      continue;
    }
    if (IsPunct(tokens_, i + 1, ":") && !IsPunct(tokens_, i + 2, ":")) continue;
    const std::string& word = tokens_[i].text;
    const bool statement_start =
        LineStartAt(i) || IsPunct(tokens_, i - 1, ";") ||
        IsPunct(tokens_, i - 1, "=") || IsPunct(tokens_, i - 1, "(");
    if (word == "def" || word == "class" || word == "module") {
      open.push_back({i, true});
    } else if (word == "do" || word == "begin" || word == "case") {
      // `while x do`: the loop's own optional `do` opens nothing.
      if (word == "do" && !open.empty() && !open.back().scope) {
        const std::string& opener = tokens_[open.back().index].text;
        bool same_line = true;
        // Bounded: a loop header is short.
        if (i - open.back().index > 64) same_line = false;
        for (std::size_t k = open.back().index + 1; same_line && k <= i; ++k) {
          if (LineStartAt(k)) same_line = false;
        }
        if (same_line &&
            (opener == "while" || opener == "until" || opener == "for")) {
          continue;
        }
      }
      open.push_back({i, false});
    } else if ((word == "if" || word == "unless" || word == "while" ||
                word == "until" || word == "for") &&
               statement_start) {
      open.push_back({i, false});
    } else if (word == "end" && !open.empty()) {
      const Opener opener = open.back();
      open.pop_back();
      // `do |x| ... end`: a block whose parameters FindLambdas reads.
      if (!opener.scope && tokens_[opener.index].text == "do" &&
          IsPunct(tokens_, opener.index + 1, "|")) {
        ScopeSpan span;
        span.end = i + 1;
        scope_at_[opener.index] = span;
      }
      if (!opener.scope) continue;
      ScopeSpan span;
      span.end = i + 1;
      span.hard = true;
      const std::size_t name = opener.index + 1;
      if (IsPunct(tokens_, name + 1, "(")) {
        span.parameters_begin = name + 2;
        span.parameters_end = view_.After(name + 1) - 1;
        if (tokens_[opener.index].text == "def" && IsName(tokens_, name)) {
          span.function = tokens_[name].text;
        }
      }
      scope_at_[opener.index] = span;
    }
  }
}

void InjectionFinder::FindScopes() {
  switch (rules_.scopes) {
    case ScopeStyle::kBraces:
      FindBraceScopes();
      break;
    case ScopeStyle::kIndentation:
      FindIndentedScopes();
      break;
    case ScopeStyle::kRubyEnd:
      FindRubyScopes();
      break;
  }
}

void InjectionFinder::FindLambdas() {
  const std::size_t n = tokens_.size();
  // Anonymous functions the scope finders saw: JavaScript and C# arrow
  // functions, function expressions, PHP closures, Go function literals,
  // Ruby's `do |x|` blocks.
  for (auto& [at, span] : scope_at_) {
    if (!span.function.empty() || span.hard) continue;
    if (rules_.ruby_blocks && IsName(tokens_, at) && tokens_[at].text == "do") {
      const std::size_t bar = BlockParametersEnd(tokens_, at + 2);
      if (bar == kNone) continue;
      span.parameters_begin = at + 2;
      span.parameters_end = bar;
      span.lambda = true;
      span.lambda_begin = at;
      continue;
    }
    if (span.parameters_begin == kNone) continue;
    std::size_t begin = span.parameters_begin;
    // `(a, b) =>`: from the parameter list's own bracket (`x =>` has none:
    // a bracket before it is the call's).
    if (begin > 0 && IsPunct(tokens_, begin - 1, "(") &&
        view_.partner[begin - 1] == span.parameters_end) {
      --begin;
    }
    while (begin > 0 && IsName(tokens_, begin - 1) &&
           (tokens_[begin - 1].text == "function" ||
            tokens_[begin - 1].text == "func" ||
            tokens_[begin - 1].text == "async" ||
            tokens_[begin - 1].text == "static")) {
      --begin;
    }
    span.lambda = true;
    span.lambda_begin = begin;
  }
  for (std::size_t i = 0; i < n; ++i) {
    ScopeSpan span;
    span.lambda = true;
    if (rules_.arrow_lambdas && IsPunct(tokens_, i, "-") &&
        IsPunct(tokens_, i + 1, ">") &&
        tokens_[i].offset + 1 == tokens_[i + 1].offset && i > 0) {
      // Java: `x -> ...`, `(a, b) -> ...`, `x -> { ... }`.
      if (IsName(tokens_, i - 1)) {
        span.parameters_begin = i - 1;
        span.parameters_end = i;
        span.lambda_begin = i - 1;
      } else if (IsPunct(tokens_, i - 1, ")") &&
                 view_.partner[i - 1] != kNone) {
        span.parameters_begin = view_.partner[i - 1] + 1;
        span.parameters_end = i - 1;
        span.lambda_begin = view_.partner[i - 1];
      } else {
        continue;
      }
      span.end = IsPunct(tokens_, i + 2, "{") ? view_.After(i + 2)
                                              : ExpressionEnd(i + 2);
      scope_at_[i] = span;
    } else if (rules_.python_lambdas && IsName(tokens_, i) &&
               tokens_[i].text == "lambda") {
      // Python: `lambda x, y=1: ...`.
      std::size_t colon = i + 1;
      while (colon < n && colon < i + 64 && !IsPunct(tokens_, colon, ":")) {
        colon = IsOpen(tokens_[colon]) ? view_.After(colon) : colon + 1;
      }
      if (!IsPunct(tokens_, colon, ":")) continue;
      span.parameters_begin = i + 1;
      span.parameters_end = colon;
      span.lambda_begin = i;
      span.end = ExpressionEnd(colon + 1);
      scope_at_[i] = span;
    } else if (rules_.php_arrow_functions && IsName(tokens_, i) &&
               tokens_[i].text == "fn" && IsPunct(tokens_, i + 1, "(") &&
               view_.partner[i + 1] != kNone) {
      // PHP: `fn ($x) => ...`.
      const std::size_t close = view_.partner[i + 1];
      if (!IsPunct(tokens_, close + 1, "=") ||
          !IsPunct(tokens_, close + 2, ">")) {
        continue;
      }
      span.parameters_begin = i + 2;
      span.parameters_end = close;
      span.lambda_begin = i;
      span.end = ExpressionEnd(close + 3);
      scope_at_[i] = span;
    } else if (rules_.ruby_blocks && IsPunct(tokens_, i, "{") &&
               IsPunct(tokens_, i + 1, "|")) {
      // Ruby: `{ |x| ... }` (`do |x| ... end` came with the scopes).
      const std::size_t bar = BlockParametersEnd(tokens_, i + 2);
      if (bar == kNone) continue;
      span.parameters_begin = i + 2;
      span.parameters_end = bar;
      span.lambda_begin = i;
      span.end = view_.After(i);
      scope_at_[i] = span;
    }
  }
  if (!rules_.brace_lambdas) return;
  // Kotlin: a brace that is no function's body is a lambda, `{ a, b -> }`
  // naming its parameters, `{ ... }` after a call or as an argument
  // calling its one parameter `it`.
  for (auto& [at, span] : scope_at_) {
    if (!IsPunct(tokens_, at, "{") || !span.function.empty() ||
        span.parameters_begin != kNone) {
      continue;
    }
    std::size_t arrow = at + 1;
    while (arrow < n && arrow < at + 16 &&
           (IsName(tokens_, arrow) || IsPunct(tokens_, arrow, ","))) {
      ++arrow;
    }
    if (arrow > at + 1 && IsPunct(tokens_, arrow, "-") &&
        IsPunct(tokens_, arrow + 1, ">")) {
      span.parameters_begin = at + 1;
      span.parameters_end = arrow;
    } else {
      const bool argument = at > 0 && (IsPunct(tokens_, at - 1, "(") ||
                                       IsPunct(tokens_, at - 1, ","));
      std::size_t call = at;
      if (at > 0 && IsPunct(tokens_, at - 1, ")") &&
          view_.partner[at - 1] != kNone) {
        call = view_.partner[at - 1];
      }
      const bool member_call = call >= 2 && IsName(tokens_, call - 1) &&
                               IsPunct(tokens_, call - 2, ".");
      if (!argument && !member_call) continue;
      span.implicit_parameter = "it";
    }
    span.lambda = true;
    span.lambda_begin = at;
  }
}

// Whether the file reads any request value: a source or a request
// parameter's annotation spelled in its code, a source's name inside an
// interpolated string, or a routed view. A file that reads none has no
// finding, whatever its functions' summaries say, and needs no walk.
bool InjectionFinder::MayReadRequestValues() const {
  for (const auto& [at, span] : scope_at_) {
    if (span.routed) return true;
  }
  const std::size_t n = tokens_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const CodeToken& token = tokens_[i];
    if (IsCode(token)) {
      if (!spelled_.request_heads.contains(token.text)) continue;
      for (const auto* list : {&sources_, &parameter_sources_}) {
        for (const Spelled& spelled : *list) {
          if (SpellsAt(tokens_, i, spelled)) return true;
        }
      }
    } else if (!token.constant && (token.kind == CodeTokenKind::kString ||
                                   token.kind == CodeTokenKind::kTemplate ||
                                   token.kind == CodeTokenKind::kRegex)) {
      const std::size_t begin = std::min(token.offset, source_.size());
      const std::size_t end =
          i + 1 < n
              ? std::max(begin, std::min(tokens_[i + 1].offset, source_.size()))
              : source_.size();
      const std::string_view written = source_.substr(begin, end - begin);
      for (const std::string& word : spelled_.request_words) {
        if (written.find(word) != std::string_view::npos) return true;
      }
      // A regex token's text is its decoded source, which holds the holes.
      if (token.kind == CodeTokenKind::kRegex) {
        for (const std::string& word : spelled_.request_words) {
          if (token.text.find(word) != std::string::npos) return true;
        }
      }
    }
  }
  return false;
}

// A constructor not named after its class ("constructor", "__init__",
// "__construct", "initialize") is summarised under its class's name.
void InjectionFinder::FindClassesOfConstructors() {
  if (rules_.constructor_names.empty()) return;
  for (std::size_t i = 0; i + 1 < tokens_.size(); ++i) {
    if (!IsName(tokens_, i) || tokens_[i].text != "class" ||
        !IsName(tokens_, i + 1) || IsMemberName(view_, i)) {
      continue;
    }
    ClassSpan found{i, kNone, tokens_[i + 1].text};
    if (const auto it = scope_at_.find(i); it != scope_at_.end()) {
      found.end = it->second.end;  // Python, Ruby
    } else {
      for (std::size_t k = i + 2; k < tokens_.size() && k < i + 64;) {
        if (IsPunct(tokens_, k, "{")) {
          found.end = view_.After(k);
          break;
        }
        if (IsPunct(tokens_, k, ";")) break;
        k = IsOpen(tokens_[k]) ? view_.After(k) : k + 1;
      }
    }
    if (found.end != kNone) classes_.push_back(std::move(found));
  }
  for (auto& [at, span] : scope_at_) {
    if (span.function.empty() ||
        std::find(rules_.constructor_names.begin(),
                  rules_.constructor_names.end(),
                  span.function) == rules_.constructor_names.end()) {
      continue;
    }
    const ClassSpan* innermost = nullptr;
    for (const ClassSpan& c : classes_) {
      if (c.begin < at && at < c.end &&
          (innermost == nullptr || c.begin > innermost->begin)) {
        innermost = &c;
      }
    }
    if (innermost != nullptr) span.function = innermost->name;
  }
}

// A table literal at `begin`: `{...}`, `[...]`, PHP `array(...)`, Go
// `map[K]V{...}`, of strings, numbers and keys only, ending its statement
// (after Ruby's `.freeze`).
bool InjectionFinder::IsTableLiteral(std::size_t begin) const {
  const std::size_t n = tokens_.size();
  std::size_t open = begin;
  if (language_ == SourceLanguage::kGo && IsName(tokens_, begin) &&
      tokens_[begin].text == "map" && IsPunct(tokens_, begin + 1, "[")) {
    open = view_.After(begin + 1);
    while (open < n && open < begin + 16 &&
           (IsName(tokens_, open) || IsPunct(tokens_, open, ".") ||
            IsPunct(tokens_, open, "*") || IsPunct(tokens_, open, "[") ||
            IsPunct(tokens_, open, "]"))) {
      ++open;
    }
    if (!IsPunct(tokens_, open, "{")) return false;
  } else if (language_ == SourceLanguage::kPhp && IsName(tokens_, begin) &&
             tokens_[begin].text == "array" &&
             IsPunct(tokens_, begin + 1, "(")) {
    open = begin + 1;
  } else if (!IsPunct(tokens_, begin, "{") && !IsPunct(tokens_, begin, "[")) {
    return false;
  }
  const std::size_t close = view_.partner[open];
  if (close == kNone || close - open > kMaxExpressionTokens) return false;
  for (std::size_t k = open + 1; k < close; ++k) {
    const CodeToken& token = tokens_[k];
    switch (token.kind) {
      case CodeTokenKind::kPunct:
      case CodeTokenKind::kNumber:
        break;
      case CodeTokenKind::kString:
      case CodeTokenKind::kTemplate:
      case CodeTokenKind::kRegex:
        if (!token.constant) return false;
        break;
      case CodeTokenKind::kName: {
        const std::string& name = token.text;
        const bool key =
            IsPunct(tokens_, k + 1, ":") || IsPunct(tokens_, k + 1, "=");
        const bool symbol =
            language_ == SourceLanguage::kRuby && IsPunct(tokens_, k - 1, ":");
        const bool constant = name == "true" || name == "false" ||
                              name == "null" || name == "nil" ||
                              name == "None" || name == "True" ||
                              name == "False" || name == "undefined";
        if (!key && !symbol && !constant) return false;
        break;
      }
    }
  }
  std::size_t after = close + 1;
  if (IsPunct(tokens_, after, ".") && IsName(tokens_, after + 1) &&
      tokens_[after + 1].text == "freeze") {
    after += 2;
  }
  return after >= n || IsPunct(tokens_, after, ";") || LineStartAt(after) ||
         IsClose(tokens_[after]);
}

// Names the file assigns table literals only (not an element, not another
// value, anywhere): indexing them gives one of their constants.
void InjectionFinder::FindConstantTables() {
  std::set<std::string, std::less<>> literal;
  std::set<std::string, std::less<>> other;
  for (std::size_t i = 1; i + 1 < tokens_.size(); ++i) {
    if (!IsPunct(tokens_, i, "=")) continue;
    const bool joined_after = tokens_[i].offset + 1 == tokens_[i + 1].offset;
    if (joined_after &&
        (IsPunct(tokens_, i + 1, "=") || IsPunct(tokens_, i + 1, ">") ||
         IsPunct(tokens_, i + 1, "~"))) {
      continue;  // == => =~
    }
    std::size_t op = i;
    bool plain = true;
    if (tokens_[i - 1].kind == CodeTokenKind::kPunct &&
        tokens_[i - 1].offset + 1 == tokens_[i].offset) {
      const char before = tokens_[i - 1].text[0];
      if (std::string_view("=!<>").find(before) != std::string_view::npos) {
        continue;
      }
      if (before == ':') {
        op = i - 1;
      } else if (std::string_view("+-*/%|&^.?").find(before) !=
                 std::string_view::npos) {
        op = i - 1;
        plain = false;
      }
    }
    if (op == 0) continue;
    const std::size_t t = op - 1;
    if (IsPunct(tokens_, t, "]") && view_.partner[t] != kNone &&
        view_.partner[t] > 0 && IsName(tokens_, view_.partner[t] - 1)) {
      other.insert(tokens_[view_.partner[t] - 1].text);  // t[k] = ...
      continue;
    }
    if (!IsName(tokens_, t) || IsMemberName(view_, t)) continue;
    if (plain && IsTableLiteral(i + 1)) {
      literal.insert(tokens_[t].text);
    } else {
      other.insert(tokens_[t].text);
    }
  }
  for (const std::string& name : literal) {
    if (!other.contains(name)) constant_tables_.insert(name);
  }
}

void InjectionFinder::FindEscaperImports() {
  if (language_ == SourceLanguage::kPython) {
    for (std::size_t i = 0; i + 1 < tokens_.size(); ++i) {
      if (IsName(tokens_, i) && tokens_[i].text == "import" &&
          IsName(tokens_, i + 1) && tokens_[i + 1].text == "regex") {
        imports_regex_module_ = true;
      }
    }
  }
  if (language_ != SourceLanguage::kJavaScript) return;
  for (std::size_t i = 0; i + 1 < tokens_.size(); ++i) {
    if (tokens_[i].kind != CodeTokenKind::kString ||
        !internal::IsRegexEscapeModule(tokens_[i].text)) {
      continue;
    }
    // const NAME = require('m')   import NAME from 'm'
    if (i >= 4 && IsPunct(tokens_, i - 1, "(") && IsName(tokens_, i - 2) &&
        tokens_[i - 2].text == "require" && IsPunct(tokens_, i - 3, "=") &&
        IsName(tokens_, i - 4)) {
      escapers_.insert(tokens_[i - 4].text);
    }
    if (i >= 3 && IsName(tokens_, i - 1) && tokens_[i - 1].text == "from" &&
        IsName(tokens_, i - 2) && IsName(tokens_, i - 3) &&
        tokens_[i - 3].text == "import") {
      escapers_.insert(tokens_[i - 2].text);
    }
  }
}

const Taint* InjectionFinder::Find(std::string_view name) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    const auto it = scope->names.find(name);
    if (it != scope->names.end()) return &it->second;
    if (scope->hard) break;
  }
  return nullptr;
}

Taint InjectionFinder::Lookup(std::string_view name) const {
  const Taint* taint = Find(name);
  return taint ? *taint : std::nullopt;
}

void InjectionFinder::Assign(const std::string& name, const Taint& taint,
                             bool declare) {
  if (declare && rules_.assignment_declares && scopes_.back().block) {
    declare = Find(name) == nullptr;
  }
  if (!declare) {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
      const auto it = scope->names.find(name);
      if (it != scope->names.end()) {
        it->second = taint;
        return;
      }
      if (scope->hard) break;
    }
  }
  scopes_.back().names[name] = taint;
}

std::string InjectionFinder::FieldAt(const std::vector<CodeToken>& tokens,
                                     std::size_t i, std::size_t* after) const {
  if (!IsName(tokens, i)) return "";
  const std::string& text = tokens[i].text;
  if (rules_.fields_start_with_at) {
    if (text.size() < 2 || text[0] != '@') return "";
    *after = i + 1;
    return text;
  }
  if (rules_.object_name.empty() || text != rules_.object_name) return "";
  if (i > 0 && IsPunct(tokens, i - 1, ".") && !rules_.dot_is_concatenation) {
    return "";  // a.this.x
  }
  std::size_t member = 0;
  if (rules_.dot_is_concatenation) {  // PHP $this->x
    if (!IsPunct(tokens, i + 1, "-") || !IsPunct(tokens, i + 2, ">") ||
        !IsName(tokens, i + 3)) {
      return "";
    }
    member = i + 3;
  } else {
    if (!IsPunct(tokens, i + 1, ".") || !IsName(tokens, i + 2)) return "";
    member = i + 2;
  }
  if (IsPunct(tokens, member + 1, "(")) return "";  // a method
  *after = member + 1;
  return "." + tokens[member].text;
}

// A field's value: the function's own assignment, when it made one, else
// what any method of the file assigned it.
Taint InjectionFinder::LookupField(const std::string& key) const {
  if (const Taint* local = Find(key)) return *local;
  const auto it = fields_.find(key);
  if (it != fields_.end()) return it->second;
  fields_read_unknown_.insert(key);
  return std::nullopt;
}

void InjectionFinder::RecordField(const std::string& key,
                                  const Origin& origin) {
  const auto [it, inserted] = fields_.emplace(key, origin);
  // A request value wins over a constructor parameter's.
  if (!inserted && it->second.parameter >= 0 && origin.parameter < 0) {
    it->second = origin;
  }
}

// The first token of the postfix chain that ends just before `end`:
// `a.b(c)[d]` before `.e(`, `xs.map` before `(`.
std::size_t InjectionFinder::ChainBegin(std::size_t end) const {
  std::size_t begin = end;
  for (std::size_t steps = 0; begin > 0 && steps < 64; ++steps) {
    const CodeToken& before = tokens_[begin - 1];
    if (IsClose(before) && view_.partner[begin - 1] != kNone) {
      begin = view_.partner[begin - 1];
    } else if (before.kind != CodeTokenKind::kPunct) {
      --begin;
    } else {
      break;
    }
    if (begin > 0 && IsPunct(tokens_, begin - 1, ".")) {
      --begin;
      if (begin > 0 && IsPunct(tokens_, begin - 1, "?")) --begin;
      continue;
    }
    // A call or an index on what comes before: `f(x)`, `a[0]`.
    if (begin > 0 && IsOpen(tokens_[begin]) &&
        (IsName(tokens_, begin - 1) || IsClose(tokens_[begin - 1]))) {
      continue;
    }
    break;
  }
  return begin;
}

// What an anonymous function from `begin` to `end` is given: a block's
// call chain (`params[:tags].map { |t| ... }`), or the receiver and the
// other arguments of the call it is an argument of (`cache.computeIfAbsent(
// key, k -> ...)`, `array_map(fn ($w) => ..., $words)`). Each part is read
// for a bounded number of tokens, so that a call with many callbacks stays
// linear.
Taint InjectionFinder::LambdaFeed(std::size_t begin, std::size_t end) const {
  const auto bounded = [&](std::size_t from, std::size_t to) -> Taint {
    if (to <= from) return std::nullopt;
    if (to - from > kMaxExpressionTokens) from = to - kMaxExpressionTokens;
    return Evaluate(view_, from, to, 0);
  };
  const bool block = IsPunct(tokens_, begin, "{") ||
                     (IsName(tokens_, begin) && tokens_[begin].text == "do");
  if (block && begin > 0 && !IsPunct(tokens_, begin - 1, "(") &&
      !IsPunct(tokens_, begin - 1, ",")) {
    if (!IsName(tokens_, begin - 1) && !IsClose(tokens_[begin - 1])) {
      return std::nullopt;
    }
    return bounded(ChainBegin(begin), begin);
  }
  const std::size_t open = enclosing_[begin];
  if (open == kNone || open == 0 || !IsPunct(tokens_, open, "(") ||
      !(IsName(tokens_, open - 1) || IsClose(tokens_[open - 1]))) {
    return std::nullopt;
  }
  const std::size_t close =
      view_.partner[open] == kNone ? tokens_.size() : view_.partner[open];
  if (Taint taint = bounded(ChainBegin(open), open)) return taint;
  if (Taint taint = bounded(open + 1, begin)) return taint;
  const std::size_t rest = std::min(end, close);
  return bounded(rest, std::min(close, rest + kMaxExpressionTokens));
}

void InjectionFinder::OpenScope(std::size_t i) {
  const auto it = scope_at_.find(i);
  if (it == scope_at_.end()) return;
  const ScopeSpan& span = it->second;
  // Read in the enclosing function, before the lambda's scope opens.
  Taint feed;
  if (span.lambda) feed = LambdaFeed(span.lambda_begin, span.end);
  Scope scope;
  scope.end = span.end;
  scope.hard = span.hard;
  scope.block = span.lambda;
  scopes_.push_back(std::move(scope));
  std::vector<std::string> names;
  if (span.parameters_begin != kNone &&
      span.parameters_begin <= span.parameters_end) {
    names = DefineParameters(span.parameters_begin, span.parameters_end,
                             span.routed, span.function);
  }
  if (!span.implicit_parameter.empty()) {
    names.push_back(span.implicit_parameter);
    scopes_.back().names[span.implicit_parameter] = std::nullopt;
  }
  if (!feed) return;
  for (const std::string& name : names) scopes_.back().names[name] = feed;
}

// Each parameter is a new variable of the function (hiding an enclosing
// one of the same name): clean, unless an annotation or a route makes it a
// request value.
std::vector<std::string> InjectionFinder::DefineParameters(
    std::size_t begin, std::size_t end, bool routed,
    const std::string& function) {
  std::vector<std::string> names;
  int index = 0;
  std::size_t k = begin;
  while (k < end) {
    std::size_t stop = k;
    int depth = 0;
    while (stop < end) {
      if (IsOpen(tokens_[stop])) ++depth;
      if (IsClose(tokens_[stop])) --depth;
      if (depth == 0 && IsPunct(tokens_, stop, ",")) break;
      ++stop;
    }
    // The declaration's name, and whether it is annotated as a request
    // value.
    std::string name;
    Taint taint;
    int level = 0;
    for (std::size_t p = k; p < stop; ++p) {
      if (IsOpen(tokens_[p])) ++level;
      if (IsClose(tokens_[p])) --level;
      for (const Spelled& annotation : parameter_sources_) {
        if (SpellsAt(tokens_, p, annotation)) {
          taint = RequestValue(annotation.text.substr(annotation.text[0] == '[')
                                   .append(" parameter"),
                               tokens_[p].offset);
        }
      }
      if (level != 0 || !IsName(tokens_, p)) continue;
      if (p > k &&
          (IsPunct(tokens_, p - 1, "@") || IsPunct(tokens_, p - 1, "."))) {
        continue;
      }
      if (IsPunct(tokens_, p + 1, "=") || IsPunct(tokens_, p + 1, ":")) {
        if (name.empty()) name = tokens_[p].text;
        break;
      }
      switch (rules_.parameter_name) {
        case ParameterName::kFirst:
          if (name.empty()) name = tokens_[p].text;
          break;
        case ParameterName::kLast:
          name = tokens_[p].text;
          break;
        case ParameterName::kDollar:
          if (tokens_[p].text[0] == '$') name = tokens_[p].text;
          break;
      }
    }
    if (routed && name != "self" && name != "cls" && name != "request") {
      taint = RequestValue("route parameter",
                           k < tokens_.size() ? tokens_[k].offset : 0);
    }
    if (!name.empty() && name != "self" && name != "cls") {
      if (!taint && !function.empty()) {
        taint = Origin{"parameter", tokens_[k].offset, index, function};
      }
      ++index;
    }
    if (!name.empty()) {
      scopes_.back().names[name] = taint;
      names.push_back(name);
    }
    k = stop + 1;
  }
  return names;
}

bool InjectionFinder::IsMemberName(const TokenView& view, std::size_t i) const {
  if (i == 0) return false;
  const std::vector<CodeToken>& tokens = *view.tokens;
  if (IsPunct(tokens, i - 1, ".") && !rules_.dot_is_concatenation) return true;
  if (IsPunct(tokens, i - 1, ">") && i >= 2 && IsPunct(tokens, i - 2, "-")) {
    return true;  // PHP ->
  }
  return IsPunct(tokens, i - 1, ":") && i >= 2 && IsPunct(tokens, i - 2, ":");
}

bool InjectionFinder::IsSanitizerCall(const TokenView& view, std::size_t i,
                                      std::size_t* call_open) const {
  const std::vector<CodeToken>& tokens = *view.tokens;
  const bool head =
      IsCode(tokens[i]) && spelled_.evaluate_heads.contains(tokens[i].text);
  for (const Spelled& sanitizer : sanitizers_) {
    if (!head) break;
    if (SpellsAt(tokens, i, sanitizer)) {
      *call_open = i + sanitizer.tokens.size() - 1;
      return true;
    }
  }
  if (IsName(tokens, i) && IsPunct(tokens, i + 1, "(") &&
      (internal::IsRegexEscapeName(tokens[i].text) ||
       escapers_.contains(tokens[i].text))) {
    *call_open = i + 1;
    return true;
  }
  return false;
}

std::size_t InjectionFinder::ChainEnd(const TokenView& view, std::size_t at,
                                      bool* clean) const {
  const std::vector<CodeToken>& tokens = *view.tokens;
  std::size_t p = at;
  for (std::size_t steps = 0; p < tokens.size() && steps < 64; ++steps) {
    for (const Spelled& member : members_) {
      if (SpellsAt(tokens, p, member)) *clean = true;
    }
    // JavaScript's escape idiom:
    // s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    if (IsPunct(tokens, p, ".") && IsName(tokens, p + 1) &&
        (tokens[p + 1].text == "replace" ||
         tokens[p + 1].text == "replaceAll") &&
        IsPunct(tokens, p + 2, "(") && p + 5 < tokens.size() &&
        tokens[p + 3].kind == CodeTokenKind::kRegex &&
        tokens[p + 3].text.starts_with("[") && IsPunct(tokens, p + 4, ",") &&
        tokens[p + 5].kind == CodeTokenKind::kString &&
        tokens[p + 5].text.find('\\') != std::string::npos) {
      std::size_t specials = 0;
      for (char c : std::string_view(".*+?()|[{\\")) {
        if (tokens[p + 3].text.find(c) != std::string::npos) ++specials;
      }
      if (specials >= 6) *clean = true;
    }
    // xs.map(escapeRegExp): every element escaped.
    if (IsPunct(tokens, p, ".") && IsName(tokens, p + 1) &&
        tokens[p + 1].text == "map" && IsPunct(tokens, p + 2, "(")) {
      const std::size_t close = view.After(p + 2) - 1;
      if (close == p + 4 && IsName(tokens, p + 3) &&
          (internal::IsRegexEscapeName(tokens[p + 3].text) ||
           escapers_.contains(tokens[p + 3].text))) {
        *clean = true;
      }
    }
    if ((IsPunct(tokens, p, ".") ||
         (IsPunct(tokens, p, ":") && IsPunct(tokens, p + 1, ":"))) &&
        !rules_.dot_is_concatenation) {
      const std::size_t name = IsPunct(tokens, p, ".") ? p + 1 : p + 2;
      if (!IsName(tokens, name)) break;
      p = name + 1;
    } else if (IsPunct(tokens, p, "-") && IsPunct(tokens, p + 1, ">") &&
               IsName(tokens, p + 2)) {
      p += 3;
    } else if (IsPunct(tokens, p, "(") || IsPunct(tokens, p, "[")) {
      p = view.After(p);
    } else {
      break;
    }
  }
  return p;
}

std::vector<std::string> InjectionFinder::HolesOf(std::string_view raw,
                                                  bool regex) const {
  std::vector<std::string> holes;
  const auto braced = [&](std::size_t open) {
    // From the `{` at `open` to its `}`; npos when unclosed.
    int depth = 0;
    for (std::size_t k = open; k < raw.size() && k < open + 512; ++k) {
      if (raw[k] == '{') ++depth;
      if (raw[k] == '}' && --depth == 0) return k;
    }
    return std::string_view::npos;
  };
  for (std::size_t i = 0; i < raw.size() && holes.size() < 32; ++i) {
    switch (language_) {
      case SourceLanguage::kPython:
      case SourceLanguage::kCSharp: {
        if (raw[i] != '{') break;
        if (i + 1 < raw.size() && raw[i + 1] == '{') {
          ++i;
          break;
        }
        const std::size_t close = braced(i);
        if (close == std::string_view::npos) return holes;
        holes.emplace_back(raw.substr(i + 1, close - i - 1));
        i = close;
        break;
      }
      case SourceLanguage::kKotlin: {
        if (raw[i] == '\\') {
          ++i;
          break;
        }
        if (raw[i] != '$' || i + 1 >= raw.size()) break;
        if (raw[i + 1] == '{') {
          const std::size_t close = braced(i + 1);
          if (close == std::string_view::npos) return holes;
          holes.emplace_back(raw.substr(i + 2, close - i - 2));
          i = close;
        } else if (internal::IsIdentifierByte(raw[i + 1])) {
          std::size_t end = i + 1;
          while (end < raw.size() && internal::IsIdentifierByte(raw[end])) {
            ++end;
          }
          holes.emplace_back(raw.substr(i + 1, end - i - 1));
          i = end - 1;
        }
        break;
      }
      case SourceLanguage::kRuby: {
        if (raw[i] == '\\') {
          ++i;
          break;
        }
        if (raw[i] != '#' || i + 1 >= raw.size()) break;
        if (raw[i + 1] == '{') {
          const std::size_t close = braced(i + 1);
          if (close == std::string_view::npos) return holes;
          holes.emplace_back(raw.substr(i + 2, close - i - 2));
          i = close;
        } else if (raw[i + 1] == '@' || raw[i + 1] == '$') {
          std::size_t end = i + 2;
          while (end < raw.size() && internal::IsIdentifierByte(raw[end]))
            ++end;
          holes.emplace_back(raw.substr(i + 1, end - i - 1));
          i = end - 1;
        }
        break;
      }
      case SourceLanguage::kPhp: {
        if (raw[i] == '\\') {
          ++i;
          break;
        }
        if (raw[i] == '{' && i + 1 < raw.size() && raw[i + 1] == '$') {
          const std::size_t close = braced(i);
          if (close == std::string_view::npos) return holes;
          holes.emplace_back(raw.substr(i + 1, close - i - 1));
          i = close;
        } else if (raw[i] == '$' && i + 1 < raw.size() && raw[i + 1] == '{') {
          const std::size_t close = braced(i + 1);
          if (close == std::string_view::npos) return holes;
          holes.push_back("$" + std::string(raw.substr(i + 2, close - i - 2)));
          i = close;
        } else if (raw[i] == '$' && i + 1 < raw.size() &&
                   internal::IsIdentifierByte(raw[i + 1])) {
          // "$name", "$name[key]", "$name->prop"
          std::size_t end = i + 1;
          while (end < raw.size() && internal::IsIdentifierByte(raw[end]))
            ++end;
          if (end < raw.size() && raw[end] == '[') {
            const std::size_t close = raw.find(']', end);
            if (close != std::string_view::npos) end = close + 1;
          }
          holes.emplace_back(raw.substr(i, end - i));
          i = end - 1;
        }
        break;
      }
      default:
        return holes;
    }
  }
  (void)regex;
  return holes;
}

Taint InjectionFinder::EvaluateHoles(const TokenView& view, std::size_t i,
                                     int depth) const {
  const std::vector<CodeToken>& tokens = *view.tokens;
  const CodeToken& token = tokens[i];
  std::string_view raw;
  if (token.kind == CodeTokenKind::kRegex) {
    raw = token.text;
  } else if (!view.text.empty() && token.offset < view.text.size()) {
    const std::size_t end =
        i + 1 < tokens.size() ? tokens[i + 1].offset : view.text.size();
    raw = view.text.substr(token.offset,
                           end > token.offset ? end - token.offset : 0);
  } else {
    return std::nullopt;
  }
  Taint parameter;  // a parameter's value, when no request value is found
  for (const std::string& hole :
       HolesOf(raw, token.kind == CodeTokenKind::kRegex)) {
    const std::vector<CodeToken> hole_tokens = LexCode(hole, language_);
    const TokenView hole_view(hole_tokens, language_ == SourceLanguage::kPhp
                                               ? std::string_view()
                                               : std::string_view(hole));
    Taint taint = Evaluate(hole_view, 0, hole_tokens.size(), depth + 1);
    if (!taint) continue;
    // A request value read inside the hole is read where the string is.
    if (taint->offset == kNone && depth == 0) taint->offset = token.offset;
    if (taint->parameter < 0) return taint;
    if (!parameter) parameter = std::move(taint);
  }
  return parameter;
}

Taint InjectionFinder::Evaluate(const TokenView& view, std::size_t begin,
                                std::size_t end, int depth) const {
  if (depth > kMaxHoleDepth) return std::nullopt;
  const std::vector<CodeToken>& tokens = *view.tokens;
  end = std::min(end, tokens.size());
  // A request value wins over a parameter's value (a summary's) in the
  // same expression.
  Taint parameter;
  std::size_t k = begin;
  while (k < end) {
    const CodeToken& token = tokens[k];
    std::size_t call_open = 0;
    if (IsSanitizerCall(view, k, &call_open)) {
      k = view.After(call_open);
      continue;
    }
    // Python: `"|".join(re.escape(n) for n in names)`: the iterable's
    // elements reach the result only through the element expression; when
    // that escapes, the iterable does not count.
    if (language_ == SourceLanguage::kPython && IsName(tokens, k) &&
        token.text == "for" && k > begin) {
      std::size_t open = k;
      int nesting = 0;
      while (open > begin) {
        --open;
        if (IsClose(tokens[open])) ++nesting;
        if (IsOpen(tokens[open]) && nesting-- == 0) break;
      }
      bool escaped = false;
      for (std::size_t e = open + 1; e < k && !escaped; ++e) {
        std::size_t ignored = 0;
        escaped = IsSanitizerCall(view, e, &ignored);
      }
      if (escaped && IsOpen(tokens[open])) {
        k = view.After(open) - 1;  // the closing bracket
        continue;
      }
    }
    bool matched = false;
    const bool head =
        IsCode(token) && spelled_.evaluate_heads.contains(token.text);
    for (const Spelled& source : sources_) {
      if (!head) break;
      if (!SpellsAt(tokens, k, source)) continue;
      std::size_t primary = k + source.tokens.size();
      if (IsOpen(tokens[primary - 1])) primary = view.After(primary - 1);
      bool clean = false;
      const std::size_t chain = ChainEnd(view, primary, &clean);
      if (!clean) {
        return RequestValue(source.text, depth == 0 ? token.offset : kNone);
      }
      k = chain;
      matched = true;
      break;
    }
    if (matched) continue;
    std::size_t field_end = 0;
    if (const std::string key = FieldAt(tokens, k, &field_end); !key.empty()) {
      if (Taint taint = LookupField(key)) {
        bool clean = false;
        const std::size_t chain = ChainEnd(view, field_end, &clean);
        if (!clean && taint->parameter < 0) return taint;
        if (!clean && !parameter) parameter = std::move(taint);
        k = taint->parameter < 0 ? chain : field_end;
        continue;
      }
      k = field_end;
      continue;
    }
    if (token.kind == CodeTokenKind::kName && !IsMemberName(view, k) &&
        !IsPunct(tokens, k + 1, "(")) {
      if (Taint taint = Lookup(token.text)) {
        bool clean = false;
        const std::size_t chain = ChainEnd(view, k + 1, &clean);
        if (!clean && taint->parameter < 0) return taint;
        if (!clean && !parameter) parameter = std::move(taint);
        // A parameter's chain may still read a request value:
        // `request.getParameter("q")` with `request` a parameter.
        k = taint->parameter < 0 ? chain : k + 1;
        continue;
      }
      // A table of the file's own literals, looked up by whatever key:
      // `ORDERS[req.query.o]`, `$allowed[$key]`, `PATTERNS.get(key)`; a
      // default after the key is still read.
      if (constant_tables_.contains(token.text)) {
        if (IsPunct(tokens, k + 1, "[")) {
          k = k + 1;
          while (IsPunct(tokens, k, "[")) k = view.After(k);
          continue;
        }
        if (IsPunct(tokens, k + 1, ".") && IsName(tokens, k + 2) &&
            (tokens[k + 2].text == "get" || tokens[k + 2].text == "fetch") &&
            IsPunct(tokens, k + 3, "(")) {
          const std::size_t close = view.After(k + 3) - 1;
          std::size_t comma = k + 4;
          while (comma < close && !IsPunct(tokens, comma, ",")) {
            comma = IsOpen(tokens[comma]) ? view.After(comma) : comma + 1;
          }
          if (comma < close) {
            if (Taint taint = Evaluate(view, comma + 1, close, depth)) {
              if (taint->parameter < 0) return taint;
              if (!parameter) parameter = std::move(taint);
            }
          }
          k = close + 1;
          continue;
        }
      }
    }
    if ((token.kind == CodeTokenKind::kString ||
         token.kind == CodeTokenKind::kRegex) &&
        !token.constant) {
      if (Taint taint = EvaluateHoles(view, k, depth)) {
        if (taint->parameter < 0) return taint;
        if (!parameter) parameter = std::move(taint);
      }
    }
    ++k;
  }
  return parameter;
}

std::size_t InjectionFinder::ExpressionEnd(std::size_t begin) const {
  int depth = 0;
  const std::size_t limit =
      std::min(tokens_.size(), begin + kMaxExpressionTokens);
  for (std::size_t k = begin; k < limit; ++k) {
    const CodeToken& token = tokens_[k];
    if (rules_.statements_end_at_line_breaks && depth == 0 && k > begin &&
        LineStartAt(k)) {
      const CodeToken& before = tokens_[k - 1];
      const bool continues =
          (before.kind == CodeTokenKind::kPunct &&
           std::string_view("+-*/%&|.,=(<[{?:\\").find(before.text) !=
               std::string_view::npos) ||
          (token.kind == CodeTokenKind::kPunct &&
           std::string_view(".+-*/%&|?:").find(token.text) !=
               std::string_view::npos) ||
          (before.kind == CodeTokenKind::kName &&
           (before.text == "and" || before.text == "or"));
      if (!continues) return k;
    }
    if (IsOpen(token)) {
      ++depth;
    } else if (IsClose(token)) {
      if (depth == 0) return k;
      --depth;
    } else if (depth == 0 &&
               (IsPunct(tokens_, k, ";") || IsPunct(tokens_, k, ","))) {
      return k;
    }
  }
  return limit;
}

std::vector<std::string> InjectionFinder::TargetsBefore(std::size_t op,
                                                        bool* declared) const {
  std::vector<std::string> names;
  if (op == 0) return names;
  std::size_t t = op - 1;
  // TypeScript: `const q: string = ...` names q, not its type.
  if (language_ == SourceLanguage::kJavaScript) {
    for (std::size_t k = op; k >= 3 && op - k < 12; --k) {
      if (IsPunct(tokens_, k - 1, ";") || IsPunct(tokens_, k - 1, "=") ||
          IsPunct(tokens_, k - 1, "{") || IsPunct(tokens_, k - 1, "}")) {
        break;
      }
      if (IsPunct(tokens_, k - 1, ":") && IsName(tokens_, k - 2) &&
          IsName(tokens_, k - 3) &&
          (tokens_[k - 3].text == "const" || tokens_[k - 3].text == "let" ||
           tokens_[k - 3].text == "var")) {
        t = k - 2;
        break;
      }
    }
  }
  std::size_t first = t;  // the first token of the targets
  if (IsName(tokens_, t)) {
    if (IsMemberName(view_, t) ||
        (rules_.dot_is_concatenation && IsPunct(tokens_, t - 1, "."))) {
      return names;  // obj.x = ...: a member, not followed
    }
    names.push_back(tokens_[t].text);
    // a, b = ...   q, err := ...
    while (t >= 2 && IsPunct(tokens_, t - 1, ",") && IsName(tokens_, t - 2) &&
           !IsMemberName(view_, t - 2)) {
      t -= 2;
      names.push_back(tokens_[t].text);
    }
    first = t;
  } else if ((IsPunct(tokens_, t, "]") || IsPunct(tokens_, t, "}")) &&
             view_.partner[t] != kNone) {
    const std::size_t open = view_.partner[t];
    if (IsPunct(tokens_, open, "[") && open > 0 &&
        (IsName(tokens_, open - 1) || IsClose(tokens_[open - 1]))) {
      return names;  // a[i] = ...: an element, not followed
    }
    // Destructuring: { a, b: c } = ..., [a, b] = ...
    for (std::size_t k = open + 1; k < t; ++k) {
      if (IsName(tokens_, k) && !IsPunct(tokens_, k + 1, ":") &&
          !IsPunct(tokens_, k + 1, "(") && !IsMemberName(view_, k)) {
        names.push_back(tokens_[k].text);
      }
    }
    first = open;
  } else {
    return names;
  }
  if (first > 0) {
    const CodeToken& before = tokens_[first - 1];
    if (before.kind == CodeTokenKind::kName) {
      for (std::string_view keyword : rules_.declaration_keywords) {
        if (before.text == keyword) *declared = true;
      }
      // Java and C#: `String q = ...` (a type before the name).
      if (rules_.parameter_name == ParameterName::kLast &&
          before.text != "return") {
        *declared = true;
      }
    }
    if (rules_.parameter_name == ParameterName::kLast &&
        (IsPunct(tokens_, first - 1, ">") ||
         IsPunct(tokens_, first - 1, "]"))) {
      *declared = true;
    }
  }
  return names;
}

void InjectionFinder::HandleAssignment(std::size_t i) {
  if (!IsPunct(tokens_, i, "=")) return;
  const auto adjacent = [&](std::size_t a, std::size_t b) {
    return tokens_[a].offset + 1 == tokens_[b].offset;
  };
  if (i + 1 < tokens_.size() && adjacent(i, i + 1) &&
      (IsPunct(tokens_, i + 1, "=") || IsPunct(tokens_, i + 1, ">") ||
       IsPunct(tokens_, i + 1, "~"))) {
    return;  // == => =~
  }
  std::size_t op = i;
  bool compound = false;
  bool declared = rules_.assignment_declares;
  if (i > 0 && tokens_[i - 1].kind == CodeTokenKind::kPunct &&
      adjacent(i - 1, i)) {
    const char before = tokens_[i - 1].text[0];
    if (std::string_view("=!<>").find(before) != std::string_view::npos) {
      return;  // == != <= >=
    }
    if (before == ':') {
      op = i - 1;  // Go :=, Python :=
      declared = true;
    } else if (std::string_view("+-*/%|&^.?").find(before) !=
               std::string_view::npos) {
      op = i - 1;
      compound = true;
      if (op > 0 && tokens_[op - 1].kind == CodeTokenKind::kPunct &&
          adjacent(op - 1, op)) {
        --op;  // ||= ??= **=
      }
    }
  }
  // Keyword arguments, default parameters, conditions: not followed.
  const std::size_t enclosing = enclosing_[op];
  if (enclosing != kNone && !IsPunct(tokens_, enclosing, "{")) return;
  // `this.x = ...`: the function's own, and the file's for other methods.
  const std::size_t receiver = rules_.dot_is_concatenation ? 4 : 3;
  if (!rules_.object_name.empty() && op >= receiver) {
    std::size_t field_end = 0;
    const std::string key = FieldAt(tokens_, op - receiver, &field_end);
    if (!key.empty() && field_end == op) {
      Taint taint = Evaluate(view_, i + 1, ExpressionEnd(i + 1), 0);
      if (compound && !taint) taint = LookupField(key);
      Assign(key, taint, false);
      if (taint) RecordField(key, *taint);
      return;
    }
  }
  const std::vector<std::string> targets = TargetsBefore(op, &declared);
  if (targets.empty()) return;
  Taint taint = Evaluate(view_, i + 1, ExpressionEnd(i + 1), 0);
  for (const std::string& target : targets) {
    Taint value = taint;
    if (compound && !value) value = Lookup(target);
    Assign(target, value, declared);
    if (value && rules_.fields_start_with_at && target.size() > 1 &&
        target[0] == '@') {
      RecordField(target, *value);
    }
  }
}

// Loop variables take the values of what they iterate: `for (const x of
// xs)`, `for x in xs:`, `foreach (var x in xs)`, `for (String x : xs)`
// (Go's `range` is an assignment).
void InjectionFinder::HandleLoop(std::size_t i) {
  const CodeToken& token = tokens_[i];
  const bool keyword = token.kind == CodeTokenKind::kName &&
                       (token.text == "in" || token.text == "of");
  const bool colon =
      IsPunct(tokens_, i, ":") && language_ == SourceLanguage::kJava;
  if ((!keyword && !colon) || i == 0) return;
  std::vector<std::string> targets;
  std::size_t end = kNone;
  const std::size_t open = enclosing_[i];
  if (open != kNone && IsPunct(tokens_, open, "(") && open > 0 &&
      IsName(tokens_, open - 1) &&
      (tokens_[open - 1].text == "for" ||
       tokens_[open - 1].text == "foreach")) {
    if (IsName(tokens_, i - 1)) targets.push_back(tokens_[i - 1].text);
    end = view_.partner[open];
  } else if (language_ == SourceLanguage::kPython && token.text == "in") {
    // for a, b in xs:   [... for x in xs]
    std::size_t k = i;
    for (k = i; k > 0 && i - k < 8; --k) {
      if (IsName(tokens_, k - 1) && tokens_[k - 1].text == "for") break;
      if (IsName(tokens_, k - 1)) targets.push_back(tokens_[k - 1].text);
    }
    if (k == 0 || !IsName(tokens_, k - 1) || tokens_[k - 1].text != "for") {
      return;
    }
    int depth = 0;
    for (end = i + 1; end < tokens_.size() && end < i + kMaxExpressionTokens;
         ++end) {
      if (depth == 0 && end > i + 1 && LineStartAt(end) &&
          enclosing_[end] == kNone) {
        break;
      }
      if (IsOpen(tokens_[end])) ++depth;
      if (IsClose(tokens_[end]) && depth-- == 0) break;
      if (depth == 0 &&
          (IsPunct(tokens_, end, ":") ||
           (IsName(tokens_, end) &&
            (tokens_[end].text == "if" || tokens_[end].text == "for")))) {
        break;
      }
    }
  }
  if (targets.empty() || end == kNone) return;
  const Taint taint = Evaluate(view_, i + 1, end, 0);
  for (const std::string& target : targets) Assign(target, taint, true);
}

void InjectionFinder::HandleSinks(std::size_t i) {
  const CodeToken& token = tokens_[i];
  if (language_ == SourceLanguage::kRuby &&
      token.kind == CodeTokenKind::kRegex && !token.constant) {
    if (Taint taint = EvaluateHoles(view_, i, 0)) {
      RegexInjection found;
      found.offset = token.offset;
      found.sink = "regex literal with #{...}";
      found.expression = token.text;
      Report(std::move(found), *taint);
    }
    return;
  }
  if (!IsCode(token) || !spelled_.sink_heads.contains(token.text)) return;
  for (std::size_t s = 0; s < sinks_.size(); ++s) {
    if (!SpellsAt(tokens_, i, sinks_[s])) continue;
    // `regex.findall(s)` is the regex module's only where it is imported;
    // elsewhere `regex` is a compiled pattern and the argument its subject.
    if (language_ == SourceLanguage::kPython &&
        sinks_[s].text.starts_with("regex.") && !imports_regex_module_) {
      return;
    }
    const SinkRule& rule = rules_.sinks[s];
    const std::size_t open = i + sinks_[s].tokens.size() - 1;
    const std::size_t close = view_.partner[open];
    if (close == kNone) return;
    // The arguments, split at top-level commas.
    std::vector<std::pair<std::size_t, std::size_t>> arguments;
    std::size_t start = open + 1;
    for (std::size_t k = open + 1; k <= close;) {
      if (k == close || IsPunct(tokens_, k, ",")) {
        if (k > start) arguments.emplace_back(start, k);
        start = k + 1;
        ++k;
        continue;
      }
      k = IsOpen(tokens_[k]) ? view_.After(k) : k + 1;
    }
    std::size_t begin = 0;
    std::size_t end = 0;
    if (rule.argument < 0) {
      // The receiver: the postfix chain before the `.` (`q.toRegex()`,
      // `q?.toRegex()`, `("^" + q).toRegex()`).
      end = IsPunct(tokens_, i - 1, "?") ? i - 1 : i;
      begin = ChainBegin(end);
      if (begin == end) return;
    } else {
      if (static_cast<int>(arguments.size()) < rule.min_arguments ||
          static_cast<int>(arguments.size()) <= rule.argument) {
        return;
      }
      begin = arguments[static_cast<std::size_t>(rule.argument)].first;
      end = arguments[static_cast<std::size_t>(rule.argument)].second;
    }
    const Taint taint = Evaluate(view_, begin, end, 0);
    if (!taint) return;
    RegexInjection found;
    found.offset = tokens_[begin].offset;
    found.sink = std::string(rule.name);
    if (rule.name == "RegExp" && i > 0 && IsName(tokens_, i - 1) &&
        tokens_[i - 1].text == "new") {
      found.sink = "new RegExp";
    }
    std::string text;
    const std::string_view written = source_.substr(
        tokens_[begin].offset, tokens_[end].offset - tokens_[begin].offset);
    for (char c : written) {
      const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
      if (space && (text.empty() || text.back() == ' ')) continue;
      text.push_back(space ? ' ' : c);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    if (text.size() > kMaxExpressionText) {
      text.resize(kMaxExpressionText);
      text += "...";
    }
    found.expression = std::move(text);
    Report(std::move(found), *taint);
    return;
  }
}

// A sink reached by a request value is reported; one reached by a
// parameter of the enclosing function is that function's summary.
void InjectionFinder::Report(RegexInjection found, const Origin& origin) {
  if (origin.parameter >= 0) {
    if (!calls_only_) {
      summaries_[origin.function].push_back(
          {origin.parameter, std::move(found)});
    }
    return;
  }
  if (calls_only_ || !reported_offsets_.insert(found.offset).second) return;
  found.source = origin.source;
  found.source_line = LineOf(origin.offset);
  found_.push_back(std::move(found));
}

// A call of a function with a summary: a request value passed to the
// parameter a sink compiles is reported at that sink.
void InjectionFinder::HandleCall(std::size_t i) {
  if (!IsName(tokens_, i) || !IsPunct(tokens_, i + 1, "(")) return;
  // A class's constructor is summarised under the class's name: `new C(`,
  // `C(` (Python, Kotlin), Ruby's `C.new(`.
  const bool ruby_new = tokens_[i].text == "new" && i >= 2 &&
                        IsPunct(tokens_, i - 1, ".") && IsName(tokens_, i - 2);
  const std::string& callee = ruby_new ? tokens_[i - 2].text : tokens_[i].text;
  const auto summary = summaries_.find(callee);
  if (summary == summaries_.end()) return;
  if (i > 0 && !ruby_new) {
    // A definition (`boolean check(`, `def check(`) is no call; a method of
    // this object is (`this.check(`, `self.check(`, `$this->check(`).
    const CodeToken& before = tokens_[i - 1];
    if (before.kind == CodeTokenKind::kName && !LineStartAt(i) &&
        before.text != "return" && before.text != "await" &&
        before.text != "yield" && before.text != "in" &&
        before.text != "else" && before.text != "new") {
      return;
    }
    if (IsMemberName(view_, i)) {
      const std::size_t receiver = IsPunct(tokens_, i - 1, ".") ? i - 2 : i - 3;
      if (receiver >= tokens_.size() || !IsName(tokens_, receiver) ||
          (tokens_[receiver].text != "this" &&
           tokens_[receiver].text != "self" &&
           tokens_[receiver].text != "$this")) {
        return;
      }
    }
  }
  const std::size_t close = view_.partner[i + 1];
  if (close == kNone) return;
  std::vector<std::pair<std::size_t, std::size_t>> arguments;
  std::size_t start = i + 2;
  for (std::size_t k = i + 2; k <= close;) {
    if (k == close || IsPunct(tokens_, k, ",")) {
      if (k > start) arguments.emplace_back(start, k);
      start = k + 1;
      ++k;
      continue;
    }
    k = IsOpen(tokens_[k]) ? view_.After(k) : k + 1;
  }
  for (const SinkSummary& sink : summary->second) {
    const auto index = static_cast<std::size_t>(sink.parameter);
    if (index >= arguments.size()) continue;
    const Taint taint =
        Evaluate(view_, arguments[index].first, arguments[index].second, 0);
    if (!taint || taint->parameter >= 0) continue;
    if (!reported_offsets_.insert(sink.injection.offset).second) continue;
    RegexInjection found = sink.injection;
    found.source = taint->source;
    found.source_line = LineOf(taint->offset);
    found.sink += " (through " + callee + (ruby_new ? ".new" : "") +
                  "(), called on line " +
                  std::to_string(LineOf(tokens_[i].offset)) + ")";
    found_.push_back(std::move(found));
  }
}

void InjectionFinder::Walk() {
  scopes_.clear();
  scopes_.push_back(Scope{tokens_.size(), false, false, {}});
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    while (scopes_.size() > 1 && scopes_.back().end <= i) scopes_.pop_back();
    OpenScope(i);
    HandleAssignment(i);
    HandleLoop(i);
    if (calls_only_) {
      HandleCall(i);
    } else {
      HandleSinks(i);
    }
  }
}

std::vector<RegexInjection> InjectionFinder::Run() {
  if (tokens_.empty()) return {};
  FindLines();
  FindScopes();
  if (!MayReadRequestValues()) return {};
  FindLambdas();
  FindClassesOfConstructors();
  FindConstantTables();
  FindEscaperImports();
  Walk();
  // A field read before the method that assigns it a request value: one
  // more walk, knowing every field's value from the start.
  const bool read_early = std::any_of(
      fields_read_unknown_.begin(), fields_read_unknown_.end(),
      [&](const std::string& key) { return fields_.contains(key); });
  if (read_early) {
    summaries_.clear();
    Walk();
  }
  // One level through the file's own functions: their summaries, applied
  // at their call sites.
  if (!summaries_.empty()) {
    calls_only_ = true;
    Walk();
  }
  std::sort(found_.begin(), found_.end(),
            [](const RegexInjection& a, const RegexInjection& b) {
              return a.offset < b.offset;
            });
  // Findings come sorted: each line's suppression is read once, even when
  // one long (minified) line holds many.
  std::size_t suppression_line = 0;
  std::optional<std::string> suppression;
  for (RegexInjection& found : found_) {
    found.line = LineOf(found.offset);
    const std::size_t line_begin = line_starts_[found.line - 1];
    found.column = found.offset - line_begin + 1;
    found.dialect = rules_.dialect;
    found.linear_engine = rules_.linear_engine;
    found.escape_with = std::string(rules_.escape_with);
    if (found.line != suppression_line) {
      suppression_line = found.line;
      suppression = internal::SuppressionAt(source_, line_begin);
    }
    found.suppression = suppression;
  }
  return std::move(found_);
}

}  // namespace

std::vector<RegexInjection> FindRegexInjections(std::string_view source,
                                                SourceLanguage language) {
  const std::optional<TaintRules> rules = internal::TaintRulesFor(language);
  if (!rules) return {};
  // Most files call no regex constructor at all: a text search settles
  // them without lexing. Exact, since a sink's names are written as they
  // are; Ruby's interpolated regex literals are sinks of their own.
  const SpelledRules& spelled = SpelledRulesFor(language, *rules);
  bool may_hold_sink = language == SourceLanguage::kRuby &&
                       (source.find("#{") != std::string_view::npos ||
                        source.find("#@") != std::string_view::npos ||
                        source.find("#$") != std::string_view::npos);
  for (const std::string& word : spelled.sink_words) {
    if (may_hold_sink) break;
    may_hold_sink = source.find(word) != std::string_view::npos;
  }
  if (!may_hold_sink) return {};
  return InjectionFinder(source, language, *rules).Run();
}

}  // namespace robotscan::regexguard
