// Engine versions and defences (engine_versions.h): the `--engine-version`
// settings, each defence's reach from tables (one row per rule, with the
// engine's own source or documentation for it), and the verdicts the
// analyzer then gives per version (analyzer.h: AnalysisReport::versions,
// defended_by).
//
// What can run here is also checked on the engine itself: V8's reach and
// linearity on Node 20 (engine_attacks/v8_linear_engine_test.py), Ruby
// 3.1's super-linear verdicts by the per-engine test. Ruby >= 3.2 and .NET
// cannot run here; their rows cite the rule they follow.
#include "robotscan/regexguard/engine_versions.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "robotscan/regexguard/analyzer.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {
namespace {

TEST(EngineVersionsTest, ReadsEngineVersionSettings) {
  EngineVersions versions;
  ASSERT_TRUE(AddEngineVersion("ruby=3.3", &versions).ok());
  ASSERT_TRUE(AddEngineVersion("node=22", &versions).ok());
  ASSERT_TRUE(AddEngineVersion("dotnet=8.0.1", &versions).ok());
  EXPECT_EQ(versions.ruby, (EngineVersion{3, 3}));
  EXPECT_EQ(versions.node, (EngineVersion{22, 0}));
  EXPECT_EQ(versions.dotnet, (EngineVersion{8, 0}));
  EXPECT_EQ(EngineVersionsText(versions), "dotnet=8.0,node=22.0,ruby=3.3");
  EXPECT_EQ(EngineVersionText(EngineVersion{22, 0}), "22");
  EXPECT_EQ(EngineVersionText(EngineVersion{3, 2}), "3.2");
  EXPECT_TRUE(EngineVersions{}.empty());
  EXPECT_EQ(EngineVersionsText(EngineVersions{}), "");
}

TEST(EngineVersionsTest, RefusesBadSettingsAsValues) {
  for (const char* bad : {"ruby", "ruby=", "ruby=x", "ruby=3.", "v8=11",
                          "python=3.11", "=3", "ruby=3.2.x", "node=-1"}) {
    EngineVersions versions;
    const Status status = AddEngineVersion(bad, &versions);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(status.message().find(bad), std::string::npos) << bad;
    EXPECT_TRUE(versions.empty()) << bad;
  }
}

struct ReachCase {
  const char* id;
  const char* pattern;
  const char* flags;
  // "3.2", "3.3", "7", "16": the first version that reaches it; "" none.
  const char* reached_from;
  const char* obstacle;  // a part of the obstacle's words, or ""
};

DefenceReach ReachOf(const ReachCase& c, Dialect dialect) {
  ParseOptions options;
  options.dialect = dialect;
  Result<PatternFlags> flags = ParseFlagLetters(c.flags);
  EXPECT_TRUE(flags.ok()) << c.id;
  options.flags = *flags;
  Result<ParsedPattern> parsed = ParsePattern(c.pattern, options);
  EXPECT_TRUE(parsed.ok()) << c.id << ": " << parsed.status().message();
  const std::vector<DefenceReach> reaches =
      JudgeEngineDefences(*parsed->root, dialect, options.flags);
  EXPECT_EQ(reaches.size(), 1u) << c.id;
  return reaches.front();
}

void ExpectReach(const ReachCase& c, const DefenceReach& reach) {
  if (*c.reached_from == '\0') {
    EXPECT_FALSE(reach.reached_from) << c.id;
  } else {
    ASSERT_TRUE(reach.reached_from) << c.id << ": " << reach.obstacle;
    EXPECT_EQ(EngineVersionText(*reach.reached_from), c.reached_from) << c.id;
  }
  EXPECT_NE(reach.obstacle.find(c.obstacle), std::string::npos)
      << c.id << ": " << reach.obstacle;
}

// Ruby's match cache: regexec.c count_num_cache_opcodes (3.3) and its 3.2
// form, which refused every lookaround and atomic group (Ruby NEWS 3.2.0:
// Feature #19104; 3.3.0: Feature #19725, "supports lookarounds and atomic
// groupings").
TEST(EngineVersionsTest, RubyMemoizationReach) {
  const ReachCase cases[] = {
      {"nested-loops", "^(a+)+$", "", "3.2", ""},
      {"alternation-loop", "^(a|ab)*c$", "", "3.2", ""},
      {"counted-alone", "\\d{1,3}", "", "3.2", ""},
      {"loop-in-counted", "(?:a+){2,5}", "", "3.2", ""},
      {"back-reference", "(a+)+\\1", "", "", "a back reference"},
      {"lookahead", "(?=a)(a+)+$", "", "3.3", "a lookahead"},
      {"negative-lookbehind", "(?<!x)(a+)+", "", "3.3",
       "a negative lookbehind"},
      {"atomic", "(?>a+)+b", "", "3.3", "an atomic group"},
      {"possessive", "a++b", "", "3.3", "a possessive quantifier"},
      {"capture-in-lookaround", "(?=(a))a", "", "",
       "a capture group inside a lookaround"},
      {"lookaround-in-atomic", "(?>(?=a)a)", "", "",
       "a lookahead inside an atomic group"},
      {"atomic-in-lookaround", "(?=(?>a))a", "", "",
       "an atomic group inside a lookaround"},
      {"atomic-in-atomic", "(?>a(?>b))", "", "",
       "an atomic group inside a lookaround or atomic group"},
      // Onigmo compiles a counted repeat of a class as OP_REPEAT, and
      // inside another loop as OP_REPEAT_INC_SG: no cache.
      {"counted-in-loop", "(?:\\d{1,3}\\.)+", "", "",
       "a counted repetition inside a repetition"},
      {"counted-in-counted", "(?:a{2}){3}", "", "",
       "a counted repetition inside a repetition"},
  };
  for (const ReachCase& c : cases) {
    const DefenceReach reach = ReachOf(c, Dialect::kRuby);
    EXPECT_EQ(reach.defence, EngineDefence::kRubyMemoization) << c.id;
    EXPECT_FALSE(reach.opt_in) << c.id;
    EXPECT_EQ(reach.available_from, (EngineVersion{3, 2})) << c.id;
    ExpectReach(c, reach);
  }
}

// .NET 7's RegexOptions.NonBacktracking refuses atomic groups, back
// references, lookarounds and \G (learn.microsoft.com, "Regular expression
// options", Nonbacktracking mode).
TEST(EngineVersionsTest, DotNetNonBacktrackingReach) {
  const ReachCase cases[] = {
      {"nested-loops", "^(a+)+$", "", "7", ""},
      {"lazy", "^(a+?)+$", "", "7", ""},
      {"back-reference", "(a)\\1", "", "", "refuses a back reference"},
      {"lookahead", "(?=a)a", "", "", "refuses a lookahead"},
      {"lookbehind", "(?<=a)b", "", "", "refuses a lookbehind"},
      {"atomic", "(?>a+)b", "", "", "refuses an atomic group"},
      {"start-of-search", "\\Ga+", "", "", "refuses \\G"},
  };
  for (const ReachCase& c : cases) {
    const DefenceReach reach = ReachOf(c, Dialect::kDotNet);
    EXPECT_EQ(reach.defence, EngineDefence::kDotNetNonBacktracking) << c.id;
    EXPECT_TRUE(reach.opt_in) << c.id;
    ExpectReach(c, reach);
  }
}

// V8's linear engine, each row as Node 20 (V8 11.3) answers new RegExp(p,
// flags + "l") under --enable-experimental-regexp-engine; the same rows
// and more are asked of Node itself by regexguard.V8LinearEngine.
TEST(EngineVersionsTest, V8LinearEngineReach) {
  const ReachCase cases[] = {
      {"nested-loops", "(a+)+$", "", "16", ""},
      {"lazy", "(a+?)+$", "", "16", ""},
      {"word-boundary", "\\bfoo", "", "16", ""},
      {"multiline-dotall", "^a.b$", "ms", "16", ""},
      {"named-group", "(?<n>a)", "", "16", ""},
      {"open-count", "a{3,}", "", "16", ""},
      {"open-count-16", "a{16,}", "", "",
       "counted repetitions copied more than 16 times"},
      {"copies-16", "(a{0,4}){0,4}", "", "16", ""},
      {"four-plus", "(((a+)+)+)+", "", "16", ""},
      {"ignore-case", "(a+)+$", "i", "", "the i flag"},
      {"unicode", "(a+)+$", "u", "", "the u (or v) flag"},
      {"back-reference", "(a)\\1", "", "", "a back reference"},
      {"lookahead", "(?=a)a", "", "", "a lookahead"},
      {"lookbehind", "(?<=a)b", "", "", "a lookbehind"},
      {"count-20", "a{2,20}", "", "", "a repetition counted beyond 16"},
      {"count-17", "a{0,17}", "", "", "a repetition counted beyond 16"},
      {"open-count-20", "a{20,}", "", "", "a repetition counted beyond 16"},
      {"copies-20", "(a{0,4}){0,5}", "", "",
       "counted repetitions copied more than 16 times"},
      {"copies-25", "(?:a{2,5}){2,5}", "", "",
       "counted repetitions copied more than 16 times"},
      {"five-plus", "((((a+)+)+)+)+", "", "",
       "counted repetitions copied more than 16 times"},
  };
  for (const ReachCase& c : cases) {
    const DefenceReach reach = ReachOf(c, Dialect::kJavaScript);
    EXPECT_EQ(reach.defence, EngineDefence::kV8LinearEngine) << c.id;
    EXPECT_TRUE(reach.opt_in) << c.id;
    ExpectReach(c, reach);
  }
}

// Java's loop memo (JDK 9 and later; jit_model.h: JavaLoopMemo) reaches a
// pattern when some loop has it; the verdict is then measured with it.
TEST(EngineVersionsTest, JavaLoopMemoReach) {
  const ReachCase cases[] = {
      {"group-loop", "^(a|a)*$", "", "9", ""},
      {"nested-loops", "^(a+)+$", "", "9", ""},
      {"no-group-loop", "^a*a*$", "", "", "no loop has the memo"},
      {"back-reference", "^(a|a)*\\1$", "", "", "no loop has the memo"},
  };
  for (const ReachCase& c : cases) {
    const DefenceReach reach = ReachOf(c, Dialect::kJava);
    EXPECT_EQ(reach.defence, EngineDefence::kJavaLoopMemo) << c.id;
    EXPECT_FALSE(reach.opt_in) << c.id;
    ExpectReach(c, reach);
  }
  EngineVersions versions;
  ASSERT_TRUE(AddEngineVersion("java=1.8", &versions).ok());
  EXPECT_EQ(versions.java, (EngineVersion{8, 0}));
}

TEST(EngineVersionsTest, OtherDialectsHaveNoDefence) {
  for (const Dialect dialect :
       {Dialect::kPcre, Dialect::kPython, Dialect::kGo}) {
    ParseOptions options;
    options.dialect = dialect;
    Result<ParsedPattern> parsed = ParsePattern("^(a+)+$", options);
    ASSERT_TRUE(parsed.ok());
    EXPECT_TRUE(
        JudgeEngineDefences(*parsed->root, dialect, options.flags).empty())
        << DialectName(dialect);
  }
}

AnalysisReport Analyze(const char* pattern, Dialect dialect,
                       const char* flags = "",
                       const char* engine_version = nullptr) {
  AnalyzeOptions options;
  options.parse.dialect = dialect;
  options.parse.flags = *ParseFlagLetters(flags);
  if (engine_version != nullptr) {
    EXPECT_TRUE(
        AddEngineVersion(engine_version, &options.engine_versions).ok());
  }
  return AnalyzePattern(pattern, options);
}

struct VersionVerdictCase {
  const char* id;
  const char* pattern;
  Dialect dialect;
  const char* flags;
  const char* engine_version;  // nullptr: every version
  Verdict verdict;
  const char* versions;
};

// The verdict per engine version. Ruby 3.1 (what Debian runs, and what the
// per-engine test measures) stays super-linear where it is; only a Ruby
// whose memoization covers one match's work makes it linear.
TEST(EngineVersionsTest, VerdictsNameTheVersionsTheyHoldFor) {
  const VersionVerdictCase cases[] = {
      {"ruby-any", "^(a+)+$", Dialect::kRuby, "", nullptr,
       Verdict::kExponential,
       "exponential on Ruby < 3.2; linear on Ruby >= 3.2 (memoization)"},
      {"ruby-3.1", "^(a+)+$", Dialect::kRuby, "", "ruby=3.1",
       Verdict::kExponential,
       "exponential on Ruby 3.1 (linear from Ruby 3.2 on: memoization)"},
      {"ruby-3.3", "^(a+)+$", Dialect::kRuby, "", "ruby=3.3", Verdict::kSafe,
       "linear on Ruby 3.3 (memoization); exponential on Ruby < 3.2"},
      {"ruby-back-reference", "^(a+)+\\1$", Dialect::kRuby, "", "ruby=3.3",
       Verdict::kExponential,
       "exponential on Ruby 3.3 (memoization does not apply: a back "
       "reference)"},
      {"ruby-lookahead-3.2", "^(?=a)(a+)+$", Dialect::kRuby, "", "ruby=3.2",
       Verdict::kExponential,
       "exponential on Ruby 3.2 (linear from Ruby 3.3 on: memoization)"},
      {"ruby-search-restart", "\\s*#", Dialect::kRuby, "", "ruby=3.3",
       Verdict::kPolynomial,
       "polynomial (degree 2) on Ruby < 3.2; not claimed linear on Ruby 3.3 "
       "(the work comes from the search restarting at every position, "
       "which memoization is not claimed to remove)"},
      {"ruby-global", "^(a+)+$", Dialect::kRuby, "g", nullptr,
       Verdict::kExponential,
       "exponential on Ruby < 3.2; not claimed linear on Ruby >= 3.2 (global "
       "use runs one search per match, and memoization is only claimed "
       "within one)"},
      {"javascript-any", "^(a+)+$", Dialect::kJavaScript, "", nullptr,
       Verdict::kExponential,
       "exponential with V8's backtracking engine (every Node version); "
       "linear with V8's linear engine (Node >= 16: the l flag, under "
       "--enable-experimental-regexp-engine)"},
      {"javascript-node-14", "^(a+)+$", Dialect::kJavaScript, "", "node=14",
       Verdict::kExponential,
       "exponential with V8's backtracking engine (Node 14); V8's linear "
       "engine needs Node >= 16"},
      {"javascript-ignore-case", "^(a+)+$", Dialect::kJavaScript, "i",
       "node=22", Verdict::kExponential,
       "exponential with V8's backtracking engine (Node 22); V8's linear "
       "engine refuses the i flag"},
      {"dotnet-any", "^(a+)+$", Dialect::kDotNet, "", nullptr,
       Verdict::kExponential,
       "exponential with .NET's backtracking engines (every .NET version); "
       "linear with RegexOptions.NonBacktracking (.NET >= 7)"},
      {"dotnet-6", "^(a+)+$", Dialect::kDotNet, "", "dotnet=6",
       Verdict::kExponential,
       "exponential with .NET's backtracking engines (.NET 6); "
       "RegexOptions.NonBacktracking needs .NET >= 7"},
      {"dotnet-lookahead", "^(?=a)(a+)+$", Dialect::kDotNet, "", nullptr,
       Verdict::kExponential,
       "exponential with .NET's backtracking engines (every .NET version); "
       "RegexOptions.NonBacktracking refuses a lookahead"},
      // PCRE2's JIT early fail (already modelled): the verdict says which
      // of its two engines it holds for.
      {"pcre-interpreter-only", "\\s*\\n\\s*", Dialect::kPcre, "", nullptr,
       Verdict::kPolynomial,
       "polynomial (degree 2) with the PCRE2 interpreter (pcre2_match); "
       "linear with the PCRE2 JIT (early fail)"},
      {"pcre-both", "^(a+)+$", Dialect::kPcre, "", nullptr,
       Verdict::kExponential, ""},
      {"python-none", "^(a+)+$", Dialect::kPython, "", "ruby=3.3",
       Verdict::kExponential, ""},
      // Java: measured with the memo (9 and later) unless java=8 is asked.
      {"java-any", "^(a+)+$", Dialect::kJava, "", nullptr, Verdict::kPolynomial,
       "polynomial (degree 2) on Java >= 9 (with its loop memo); at least "
       "that on Java < 9, which has none"},
      {"java-8", "^(a+)+$", Dialect::kJava, "", "java=8", Verdict::kExponential,
       "exponential on Java 8 (no loop memo before Java 9)"},
      {"java-8-alternation", "^(a|a)*$", Dialect::kJava, "", "java=8",
       Verdict::kExponential,
       "exponential on Java 8 (no loop memo before Java 9)"},
      {"java-17-alternation", "^(a|a)*$", Dialect::kJava, "", "java=17",
       Verdict::kUnknown,
       "no attack confirmed on Java 17 (with its loop memo); Java < 9 has "
       "none: --engine-version java=8 judges it"},
      {"safe-says-nothing", "abc", Dialect::kRuby, "", nullptr, Verdict::kSafe,
       ""},
  };
  for (const VersionVerdictCase& c : cases) {
    const AnalysisReport report =
        Analyze(c.pattern, c.dialect, c.flags, c.engine_version);
    EXPECT_EQ(report.verdict, c.verdict)
        << c.id << ": " << FormatTextReport(report);
    EXPECT_EQ(report.versions, c.versions) << c.id;
  }
}

TEST(EngineVersionsTest, ADefendedVerdictIsSafeAndKeepsTheBacktrackersWork) {
  const AnalysisReport report =
      Analyze("^(a+)+$", Dialect::kRuby, "", "ruby=3.2");
  EXPECT_EQ(report.verdict, Verdict::kSafe);
  EXPECT_EQ(report.defended_by, EngineDefence::kRubyMemoization);
  EXPECT_FALSE(report.attack);
  EXPECT_EQ(report.cause, Cause::kNone);
  EXPECT_TRUE(report.culprits.empty());
  bool backtracker_explodes = false;
  for (const ConfigVerdict& config : report.configs) {
    backtracker_explodes = backtracker_explodes || config.Explodes();
  }
  EXPECT_TRUE(backtracker_explodes);
  EXPECT_NE(report.explanation.find("Regexp.linear_time?"), std::string::npos);
  EXPECT_NE(FormatTextReport(report).find(
                "versions: linear on Ruby 3.2 (memoization); exponential on "
                "Ruby < 3.2\n"),
            std::string::npos);
}

TEST(EngineVersionsTest, TheLinearFlagRunsOnV8sLinearEngineOrIsRefused) {
  const AnalysisReport linear = Analyze("^(a+)+$", Dialect::kJavaScript, "l");
  EXPECT_EQ(linear.verdict, Verdict::kSafe);
  EXPECT_EQ(linear.defended_by, EngineDefence::kV8LinearEngine);
  EXPECT_FALSE(linear.error);

  const AnalysisReport refused =
      Analyze("^(a+)+\\1$", Dialect::kJavaScript, "l");
  ASSERT_TRUE(refused.error);
  EXPECT_EQ(refused.error->code(), StatusCode::kInvalidInput);
  EXPECT_NE(refused.error->message().find(
                "Cannot be executed in linear time (V8's linear engine "
                "refuses a back reference)"),
            std::string::npos);
  ASSERT_TRUE(refused.error->span());
  EXPECT_EQ(refused.error->span()->begin, 6u);  // at the \1

  const AnalysisReport old_node =
      Analyze("^(a+)+$", Dialect::kJavaScript, "l", "node=14");
  ASSERT_TRUE(old_node.error);
  EXPECT_NE(old_node.error->message().find("Node 14 has no l flag"),
            std::string::npos);

  const AnalysisReport not_javascript = Analyze("^(a+)+$", Dialect::kRuby, "l");
  ASSERT_TRUE(not_javascript.error);
  EXPECT_NE(not_javascript.error->message().find("only in JavaScript"),
            std::string::npos);
}

}  // namespace
}  // namespace robotscan::regexguard
