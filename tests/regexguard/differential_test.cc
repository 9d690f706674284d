// Differential tests of the parser against PCRE2 and RE2:
//  1. validity: for the corpus patterns and a hand-written list, the PCRE
//     dialect accepts exactly what pcre2_compile accepts (syntax reported as
//     unsupported is excluded: it is valid, regexguard just declines it), and
//     the Go dialect accepts what RE2 accepts;
//  2. semantics: the PCRE2 spelling produced by ToPcre2Pattern matches the
//     same spans as the original pattern on sample inputs.
// Known PCRE2/RE2 semantic differences are listed in kKnownDifferences.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <gtest/gtest.h>
#include <pcre2.h>
#include <re2/re2.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {
namespace {

using Code = std::unique_ptr<pcre2_code, decltype(&pcre2_code_free)>;

Code CompilePcre2(const std::string& pattern) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  return Code(
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()),
                    pattern.size(), PCRE2_UTF, &error, &offset, nullptr),
      pcre2_code_free);
}

// Span of the first match, or {-1, -1}.
std::pair<long, long> FirstMatch(const pcre2_code* code,
                                 const std::string& subject) {
  std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
      pcre2_match_data_create_from_pattern(code, nullptr),
      pcre2_match_data_free);
  const int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(subject.data()),
                             subject.size(), 0, 0, data.get(), nullptr);
  if (rc < 0) return {-1, -1};
  const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
  return {static_cast<long>(ovector[0]), static_cast<long>(ovector[1])};
}

std::vector<std::string> CorpusPatterns() {
  std::ifstream in(std::string(ROBOTSCAN_TEST_DATA_DIR) +
                   "/redos/corpus.jsonl");
  std::vector<std::string> patterns;
  std::string line;
  while (std::getline(in, line)) {
    const auto row = nlohmann::json::parse(line, nullptr, false);
    if (row.is_object() && row.value("flags", "").empty()) {
      patterns.push_back(row.value("pattern", ""));
    }
  }
  return patterns;
}

const std::vector<std::string>& HandWritten() {
  static const std::vector<std::string> patterns = {
      "a{,3}",
      "a{3",
      "x{2}{3}",
      "[]a]",
      "[^]a]",
      "[a-]",
      "[-a]",
      "[\\d-z]",
      "\\8",
      "(a)\\2",
      "\\k<n>(?<n>a)",
      "(?<n>a)(?<n>b)",
      "a++b",
      "a?+",
      "(?i)a(?-i)b",
      "(?i:a|b)c",
      "\\Qa+\\E",
      "[[:alpha:]-]",
      "[[:foo:]]",
      "\\x{110000}",
      "\\p{Greek}+",
      "\\p{Nope}",
      "(?#c)x",
      "(?x) a b #c",
      "a|*",
      "()",
      "(|a)",
      "[\\w-.]",
      "\\cA",
      "\\o{101}",
      "\\e\\a\\f",
      "\\z\\Z\\A\\G",
      "(?=a)*",
      "a{65536}",
      "a{2,1}",
      "\\",
      "[",
      "(?P<n>a)(?P=n)",
      "(?'n'a)\\k{n}",
      "\\g{-1}(a)",
      "(a)\\g{-1}",
      "(a)\\g1",
      "\\R+",
      "\\h\\v",
  };
  return patterns;
}

// Patterns where PCRE2 and regexguard's PCRE dialect knowingly differ.
const std::set<std::string> kKnownDifferences = {
    // PCRE2 accepts a forward reference to a group defined later with the
    // same name only in some contexts; regexguard resolves names globally.
    "\\k<n>(?<n>a)",
    // PCRE2 allows duplicate names only with (?J); regexguard accepts them
    // in the PCRE dialect (Perl semantics: the reference tries each group).
    "(?<n>a)(?<n>b)",
};

TEST(DifferentialTest, PcreDialectAcceptsWhatPcre2Accepts) {
  std::vector<std::string> patterns = CorpusPatterns();
  ASSERT_GT(patterns.size(), 700u);
  for (const std::string& p : HandWritten()) patterns.push_back(p);
  ParseOptions options;
  options.dialect = Dialect::kPcre;
  std::size_t compared = 0, disagreements = 0;
  for (const std::string& pattern : patterns) {
    if (kKnownDifferences.count(pattern) != 0) continue;
    Result<ParsedPattern> ours = ParsePattern(pattern, options);
    if (!ours && ours.status().code() == StatusCode::kUnsupported) continue;
    const bool pcre2_valid = CompilePcre2(pattern) != nullptr;
    ++compared;
    if (ours.ok() != pcre2_valid) {
      ++disagreements;
      ADD_FAILURE() << "validity differs for /" << pattern << "/: PCRE2 "
                    << (pcre2_valid ? "accepts" : "rejects") << ", regexguard "
                    << (ours ? "accepts"
                             : "rejects: " + ours.status().message());
    }
  }
  EXPECT_GT(compared, 700u);
  EXPECT_EQ(disagreements, 0u);
}

TEST(DifferentialTest, Pcre2SpellingMatchesTheSameSpans) {
  std::vector<std::string> patterns = CorpusPatterns();
  for (const std::string& p : HandWritten()) patterns.push_back(p);
  const std::vector<std::string> subjects = {"",
                                             "a",
                                             "abc 123",
                                             "  hello world  ",
                                             "x@y.com",
                                             "http://example.com/a?b=c",
                                             "1.2.3.4",
                                             "AAAAaaaa!",
                                             "line1\nline2\r\n",
                                             "<a href=\"x\">t</a>",
                                             "2024-01-31T12:00:00Z",
                                             "\xe2\x80\x8c spaces \xc2\xa0",
                                             "foo=bar; baz=qux",
                                             "__init__.py"};
  ParseOptions options;
  options.dialect = Dialect::kPcre;
  std::size_t compared = 0;
  for (const std::string& pattern : patterns) {
    Result<ParsedPattern> ours = ParsePattern(pattern, options);
    if (!ours) continue;
    const Code original = CompilePcre2(pattern);
    if (!original) continue;
    const std::string spelled = ToPcre2Pattern(*ours->root);
    const Code translated = CompilePcre2(spelled);
    ASSERT_TRUE(translated) << pattern << " -> " << spelled;
    for (const std::string& subject : subjects) {
      EXPECT_EQ(FirstMatch(original.get(), subject),
                FirstMatch(translated.get(), subject))
          << "/" << pattern << "/ vs /" << spelled << "/ on \"" << subject
          << "\"";
      ++compared;
    }
  }
  EXPECT_GT(compared, 5000u);
}

TEST(DifferentialTest, GoDialectAcceptsWhatRe2Accepts) {
  std::vector<std::string> patterns = CorpusPatterns();
  for (const std::string& p : HandWritten()) patterns.push_back(p);
  ParseOptions options;
  options.dialect = Dialect::kGo;
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  std::size_t compared = 0, agreements = 0;
  std::vector<std::string> differences;
  for (const std::string& pattern : patterns) {
    // Debian 12's RE2 predates the (?<name>...) spelling that Go 1.22 and
    // later RE2 accept: a known difference, excluded.
    if (pattern.find("(?<") != std::string::npos) continue;
    Result<ParsedPattern> ours = ParsePattern(pattern, options);
    if (!ours && ours.status().code() == StatusCode::kUnsupported) continue;
    const RE2 re2(pattern, re2_options);
    ++compared;
    if (ours.ok() == re2.ok()) {
      ++agreements;
    } else {
      differences.push_back(pattern);
    }
  }
  // The Go dialect is parsed leniently (regexguard never needs to reject a
  // Go pattern to stay sound: Go cannot backtrack); require broad agreement
  // and print the differences for the record.
  for (const std::string& d : differences) {
    std::cout << "[go/re2 validity differs] " << d << "\n";
  }
  EXPECT_GT(compared, 700u);
  EXPECT_GE(static_cast<double>(agreements) / compared, 0.98);
}

}  // namespace
}  // namespace robotscan::regexguard
