// Micro-benchmarks of the robots library (Google Benchmark).
//
//   build/default/bench/robots/robots_bench
//
// Realistic: bench/data/realistic-50k.txt (54 KB of real files) and 100,000
// URLs derived from its rules. Worst cases: 500 KiB of rules full of '*'
// against an 8 KB URL, which is quadratic per rule for a position-set
// matcher such as Google's. Results: bench/RESULTS.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reference_matcher.h"
#include "robotscan/robots/lint.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/tokenizer.h"

namespace {

using robotscan::robots::Compat;
using robotscan::robots::ParseOptions;
using robotscan::robots::RobotsTxt;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string& RealisticBody() {
  static const std::string* body = new std::string(
      ReadFile(std::string(ROBOTSCAN_BENCH_DATA_DIR) + "/realistic-50k.txt"));
  return *body;
}

// 100,000 URLs: half start with a rule's literal prefix (so rules match or
// nearly match), half are ordinary site paths; a third carry a query.
const std::vector<std::string>& RealisticUrls() {
  static const std::vector<std::string>* urls = [] {
    class Prefixes : public robotscan::robots::LineListener {
     public:
      void OnLine(const robotscan::robots::Line& line) override {
        using robotscan::robots::Directive;
        if (line.directive != Directive::kAllow &&
            line.directive != Directive::kDisallow) {
          return;
        }
        std::string p(line.value.substr(0, line.value.find_first_of("*$")));
        if (!p.empty() && p[0] == '/') prefixes.push_back(p);
      }
      std::vector<std::string> prefixes;
    } collector;
    robotscan::robots::TokenizeRobotsTxt(RealisticBody(), collector);
    const char* words[] = {"questions", "profile", "search", "topic", "item",
                           "homes",     "about",   "help",   "ajax",  "api",
                           "answer",    "user",    "b",      "sch",   "itm"};
    std::mt19937 rng(42);
    auto* out = new std::vector<std::string>();
    for (int i = 0; i < 100000; ++i) {
      std::string path;
      if (i % 2 == 0) {
        path = collector.prefixes[rng() % collector.prefixes.size()];
      } else {
        path = "/" + std::string(words[rng() % 15]);
      }
      const int extra = static_cast<int>(rng() % 3);
      for (int k = 0; k < extra; ++k) {
        path +=
            "/" + std::string(words[rng() % 15]) + std::to_string(rng() % 1000);
      }
      if (i % 3 == 0)
        path += "?q=" + std::to_string(rng() % 100000) + "&page=2";
      out->push_back("https://www.example.com" + path);
    }
    return out;
  }();
  return *urls;
}

void BM_ParseRealistic(benchmark::State& state) {
  const std::string& body = RealisticBody();
  ParseOptions options;
  options.compat = static_cast<Compat>(state.range(0));
  for (auto _ : state) {
    RobotsTxt robots = RobotsTxt::Parse(body, options);
    benchmark::DoNotOptimize(robots);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
  state.SetLabel(options.compat == Compat::kGoogle ? "google" : "rfc");
}
BENCHMARK(BM_ParseRealistic)->Arg(0)->Arg(1);

// What the crawl report needs of each distinct body (report/src/
// body_analysis.cc): its file facts (a listener of its own, here one that
// counts lines), the rfc and google readings and the lint. Arg 0: four
// tokenizer passes, as before issue 25; arg 1: one pass through a
// LineFanOut feeding them all.
void BM_ReportReadingsRealistic(benchmark::State& state) {
  using robotscan::robots::BodySummary;
  using robotscan::robots::Line;
  using robotscan::robots::LineListener;
  using robotscan::robots::RobotsTxtBuilder;
  using robotscan::robots::RobotsTxtLinter;
  class CountLines : public LineListener {
   public:
    void OnLine(const Line& line) override { lines += line.is_empty ? 0 : 1; }
    void OnEnd(const BodySummary&) override {}
    int lines = 0;
  };
  const std::string& body = RealisticBody();
  ParseOptions google;
  google.compat = Compat::kGoogle;
  const bool one_pass = state.range(0) == 1;
  for (auto _ : state) {
    CountLines facts;
    if (one_pass) {
      RobotsTxtBuilder rfc_reading(body, {});
      RobotsTxtBuilder google_reading(body, google);
      RobotsTxtLinter linter(body);
      robotscan::robots::LineFanOut all(
          {&facts, &rfc_reading, &google_reading, &linter});
      robotscan::robots::TokenizeRobotsTxt(body, all);
      RobotsTxt rfc = std::move(rfc_reading).Finish();
      RobotsTxt other = std::move(google_reading).Finish();
      auto diagnostics = std::move(linter).Finish();
      benchmark::DoNotOptimize(rfc);
      benchmark::DoNotOptimize(other);
      benchmark::DoNotOptimize(diagnostics);
    } else {
      robotscan::robots::TokenizeRobotsTxt(body, facts);
      RobotsTxt rfc = RobotsTxt::Parse(body);
      RobotsTxt other = RobotsTxt::Parse(body, google);
      auto diagnostics = robotscan::robots::LintRobotsTxt(body);
      benchmark::DoNotOptimize(rfc);
      benchmark::DoNotOptimize(other);
      benchmark::DoNotOptimize(diagnostics);
    }
    benchmark::DoNotOptimize(facts.lines);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
  state.SetLabel(one_pass ? "one pass" : "four passes");
}
BENCHMARK(BM_ReportReadingsRealistic)->Arg(0)->Arg(1);

// Times `is_allowed(url)` over the realistic URLs, round robin, and reports
// checks per second and the share disallowed, labelled "mode/agent" +
// `label_suffix`.
template <typename IsAllowed>
void TimeChecks(benchmark::State& state, Compat compat, const char* agent,
                const std::string& label_suffix, IsAllowed is_allowed) {
  const std::vector<std::string>& urls = RealisticUrls();
  std::size_t i = 0;
  int64_t disallowed = 0;
  for (auto _ : state) {
    disallowed += !is_allowed(urls[i]);
    if (++i == urls.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["disallowed_share"] =
      benchmark::Counter(static_cast<double>(disallowed) /
                         static_cast<double>(state.iterations()));
  state.SetLabel(std::string(compat == Compat::kGoogle ? "google" : "rfc") +
                 "/" + agent + label_suffix);
}

// Checks per second on one core; agent 0 = Googlebot (has its own group),
// 1 = an agent that falls back to '*'.
void BM_CheckRealistic(benchmark::State& state) {
  ParseOptions options;
  options.compat = static_cast<Compat>(state.range(0));
  const RobotsTxt robots = RobotsTxt::Parse(RealisticBody(), options);
  const char* agent = state.range(1) == 0 ? "Googlebot" : "SomeResearchBot";
  TimeChecks(state, options.compat, agent, "", [&](const std::string& url) {
    return robots.IsAllowedFor(agent, url);
  });
}
BENCHMARK(BM_CheckRealistic)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1});

// The same checks through the agent's matcher, looked up once
// (RobotsTxt::MatcherFor): what a batch of URLs for one agent costs.
// Third argument 1: expecting the whole URL list, so the group's automaton
// is compiled where its budget allows (before timing starts).
void BM_CheckRealisticWithMatcher(benchmark::State& state) {
  ParseOptions options;
  options.compat = static_cast<Compat>(state.range(0));
  const RobotsTxt robots = RobotsTxt::Parse(RealisticBody(), options);
  const char* agent = state.range(1) == 0 ? "Googlebot" : "SomeResearchBot";
  const bool automaton = state.range(2) == 1;
  const robotscan::robots::AgentMatcher matcher =
      robots.MatcherFor(agent, automaton ? RealisticUrls().size() : 0);
  TimeChecks(state, options.compat, agent, automaton ? "/automaton" : "/trie",
             [&](const std::string& url) { return matcher.IsAllowed(url); });
}
BENCHMARK(BM_CheckRealisticWithMatcher)
    ->Args({0, 0, 0})
    ->Args({0, 0, 1})
    ->Args({0, 1, 1})
    ->Args({1, 0, 0})
    ->Args({1, 0, 1})
    ->Args({1, 1, 1});

// The same checks as one batch (AgentMatcher::AreAllowed), automaton
// compiled: what check_many does per URL, without Python.
void BM_CheckRealisticBatched(benchmark::State& state) {
  ParseOptions options;
  options.compat = static_cast<Compat>(state.range(0));
  const RobotsTxt robots = RobotsTxt::Parse(RealisticBody(), options);
  const char* agent = state.range(1) == 0 ? "Googlebot" : "SomeResearchBot";
  const std::vector<std::string>& urls = RealisticUrls();
  const std::vector<std::string_view> views(urls.begin(), urls.end());
  const robotscan::robots::AgentMatcher matcher =
      robots.MatcherFor(agent, urls.size());
  std::unique_ptr<bool[]> allowed(new bool[views.size()]);
  for (auto _ : state) {
    matcher.AreAllowed(views.data(), views.size(), allowed.get());
    benchmark::DoNotOptimize(allowed.get());
  }
  state.SetItemsProcessed(state.iterations() *
                          static_cast<int64_t>(views.size()));
  state.SetLabel(
      std::string(options.compat == Compat::kGoogle ? "google" : "rfc") + "/" +
      agent + "/batched");
}
BENCHMARK(BM_CheckRealisticBatched)
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Unit(benchmark::kMillisecond);

// What compiling the Googlebot group's automaton costs (MatcherFor with a
// batch's worth of expected checks, on a fresh parse each time).
void BM_CompileAutomatonRealistic(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    const RobotsTxt robots = RobotsTxt::Parse(RealisticBody());
    state.ResumeTiming();
    benchmark::DoNotOptimize(robots.MatcherFor("Googlebot", 100000));
  }
}
BENCHMARK(BM_CompileAutomatonRealistic)->Unit(benchmark::kMillisecond);

// What a parse-per-query library pays: parse the file again for each check
// (Google's RobotsMatcher design). Reported per check.
void BM_ReparsePerCheckRealistic(benchmark::State& state) {
  const std::vector<std::string>& urls = RealisticUrls();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(robotscan::robots::testing::ReferenceAllowedGoogle(
        RealisticBody(), "Googlebot", urls[i]));
    if (++i == urls.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReparsePerCheckRealistic);

// Worst cases. 0 "many": ~500 KiB of short distinct star rules under one
// group. 1 "long": 30 lines of 16 KiB, each "/*a*a*...*a*b". 2 "adversarial":
// ~40,000 rules "/*ab*N" whose bytes all occur in the URL (so the byte-set
// filter lets every one through) but whose segment "ab" never does, so each
// rule scans the whole 8 KB URL. 3 "misordered": ~25,000 rules "/*ZY*K" where
// every K occurs in the URL, but only before its one "ZY" (a two-byte
// segment: memmem finds a single byte with memchr, far faster).

// 8,180 pseudo-random lowercase letters (a fixed linear congruential
// sequence), the body of the "misordered" URL.
const std::string& MisorderedLetters() {
  static const std::string letters = [] {
    std::string s;
    std::uint32_t x = 12345;
    while (s.size() < 8180) {
      x = x * 1103515245u + 12345u;
      s += static_cast<char>('a' + (x >> 16) % 26);
    }
    return s;
  }();
  return letters;
}

std::string WorstCaseBody(int kind) {
  std::string body = "User-agent: *\n";
  if (kind == 3) {
    const std::string& letters = MisorderedLetters();
    std::set<std::string> seen;
    for (std::size_t length = 4; body.size() < 500 * 1024; ++length) {
      for (std::size_t at = 0;
           at + length <= letters.size() && body.size() < 500 * 1024; ++at) {
        std::string key = letters.substr(at, length);
        if (seen.insert(key).second) body += "Disallow: /*ZY*" + key + "\n";
      }
    }
  } else if (kind == 2) {
    for (int i = 0; body.size() < 500 * 1024; ++i) {
      body += "Disallow: /*ab*" + std::to_string(i) + "\n";
    }
  } else if (kind == 1) {
    while (body.size() < 500 * 1024) {
      std::string rule = "Disallow: /";
      while (rule.size() < 16000) rule += "*a";
      body += rule + "*b\n";
    }
  } else {
    for (int i = 0; body.size() < 500 * 1024; ++i) {
      body += "Disallow: /*a*" + std::to_string(i) + "*b\n";
    }
  }
  return body;
}

const std::string kWorstUrl = "https://e.com/" + std::string(8192, 'a');
const std::string kAdversarialUrl =
    "https://e.com/0123456789b" + std::string(8181, 'a');

const std::string& WorstCaseUrl(int kind) {
  static const std::string misordered =
      "https://e.com/" + MisorderedLetters() + "ZY";
  return kind == 3 ? misordered : kind == 2 ? kAdversarialUrl : kWorstUrl;
}

const char* WorstCaseLabel(int64_t kind) {
  return kind == 3   ? "misordered star rules"
         : kind == 2 ? "adversarial star rules"
         : kind == 1 ? "long star rules"
                     : "many star rules";
}

void BM_WorstCaseParse(benchmark::State& state) {
  const std::string body = WorstCaseBody(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    RobotsTxt robots = RobotsTxt::Parse(body);
    benchmark::DoNotOptimize(robots);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
  state.SetLabel(WorstCaseLabel(state.range(0)));
}
BENCHMARK(BM_WorstCaseParse)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond);

void BM_WorstCaseCheck(benchmark::State& state) {
  const int kind = static_cast<int>(state.range(0));
  const RobotsTxt robots = RobotsTxt::Parse(WorstCaseBody(kind));
  const std::string& url = WorstCaseUrl(kind);
  for (auto _ : state) {
    benchmark::DoNotOptimize(robots.IsAllowedFor("bot", url));
  }
  state.SetLabel(std::string(WorstCaseLabel(kind)) + ", 8 KB URL");
}
BENCHMARK(BM_WorstCaseCheck)
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond);

// The same worst case through the position-set reference (Google's matching
// algorithm): O(|path| x |pattern|) per rule.
void BM_WorstCaseCheckPositionSets(benchmark::State& state) {
  const std::string body = WorstCaseBody(1);
  for (auto _ : state) {
    benchmark::DoNotOptimize(robotscan::robots::testing::ReferenceAllowedGoogle(
        body, "bot", kWorstUrl));
  }
  state.SetLabel("long star rules, 8 KB URL (reference)");
}
BENCHMARK(BM_WorstCaseCheckPositionSets)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
