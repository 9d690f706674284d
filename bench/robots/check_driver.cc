// Checks every URL of a file against one robots.txt for one agent, three
// times over, and prints how many were allowed: the fixed workload that
// bench/robots/instructions_per_check.sh counts instructions on (callgrind),
// since wall-clock figures on a shared machine move with its load.
//
//   check_driver ROBOTS_FILE URLS_FILE AGENT rfc|google
//                direct|trie|automaton|batched|checked
//
// direct: RobotsTxt::IsAllowedFor per URL; trie: one AgentMatcher without
// the automaton; automaton: one AgentMatcher expecting every check;
// batched: the same matcher's AreAllowed over all URLs at once; checked:
// AreAllowedUntilMalformed (as Python's check_many calls it).
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/robots/robots.h"

namespace {

std::string ReadFile(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  using robotscan::robots::Compat;
  using robotscan::robots::RobotsTxt;
  if (argc != 6) {
    std::fprintf(stderr,
                 "usage: check_driver ROBOTS_FILE URLS_FILE AGENT rfc|google "
                 "direct|trie|automaton|batched|checked\n");
    return 2;
  }
  const std::string body = ReadFile(argv[1]);
  std::vector<std::string> urls;
  std::istringstream lines(ReadFile(argv[2]));
  for (std::string line; std::getline(lines, line);) urls.push_back(line);
  robotscan::robots::ParseOptions options;
  options.compat =
      std::string(argv[4]) == "google" ? Compat::kGoogle : Compat::kRfc9309;
  const RobotsTxt robots = RobotsTxt::Parse(body, options);
  const std::string agent = argv[3];
  const std::string mode = argv[5];
  constexpr int kRounds = 3;
  long allowed = 0;
  if (mode == "direct") {
    for (int round = 0; round < kRounds; ++round) {
      for (const std::string& url : urls)
        allowed += robots.IsAllowedFor(agent, url);
    }
  } else if (mode == "batched" || mode == "checked") {
    const robotscan::robots::AgentMatcher matcher =
        robots.MatcherFor(agent, urls.size() * kRounds);
    const std::vector<std::string_view> views(urls.begin(), urls.end());
    std::unique_ptr<bool[]> verdicts(new bool[views.size()]);
    for (int round = 0; round < kRounds; ++round) {
      if (mode == "batched") {
        matcher.AreAllowed(views.data(), views.size(), verdicts.get());
      } else if (matcher.AreAllowedUntilMalformed(views.data(), views.size(),
                                                  verdicts.get()) !=
                 views.size()) {
        std::fprintf(stderr, "a URL has a control byte or space\n");
        return 1;
      }
      for (std::size_t i = 0; i < views.size(); ++i) allowed += verdicts[i];
    }
  } else {
    const robotscan::robots::AgentMatcher matcher = robots.MatcherFor(
        agent, mode == "automaton" ? urls.size() * kRounds : 0);
    for (int round = 0; round < kRounds; ++round) {
      for (const std::string& url : urls) allowed += matcher.IsAllowed(url);
    }
  }
  std::printf("%ld\n", allowed);
  return 0;
}
