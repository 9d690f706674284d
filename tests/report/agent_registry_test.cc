// The agent registry (report/agent_registry.h): the shipped file is the
// conversion of the shipped ai.robots.txt snapshot, every entry normalises to
// a product token a matcher reads, and the conversion's rules hold one by
// one.
#include "robotscan/report/agent_registry.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "robotscan/base/ascii.h"
#include "robotscan/report/report.h"
#include "robotscan/robots/url.h"

namespace robotscan::report {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string kSnapshot = std::string(ROBOTSCAN_SOURCE_DIR) +
                              "/report/data/ai-robots-txt/robots.json";

AgentRegistry MustParse(std::string_view text) {
  Result<AgentRegistry> registry = ParseAgentRegistry(text, "test");
  EXPECT_TRUE(registry.ok()) << registry.status().ToString();
  return registry.ok() ? *registry : AgentRegistry{};
}

const RegisteredAgent* Find(const AgentRegistry& registry,
                            std::string_view token) {
  for (const RegisteredAgent& agent : registry.agents) {
    if (AsciiEqualsIgnoreCase(agent.token, token)) return &agent;
  }
  return nullptr;
}

TEST(AgentRegistryTest, BuiltInIsTheConversionOfTheShippedSnapshot) {
  const AgentRegistry& built_in = BuiltInAgentRegistry();
  ASSERT_FALSE(built_in.agents.empty()) << built_in.origin;
  EXPECT_NE(built_in.origin.find("83485effdb4a31ea010e99cf5dddf14656a998b8"),
            std::string::npos)
      << built_in.origin;
  AgentRegistry converted = MustParse(ReadFile(kSnapshot));
  AgentRegistry shipped = built_in;
  converted.origin = shipped.origin = "";
  EXPECT_EQ(FormatAgentRegistryJson(converted),
            FormatAgentRegistryJson(shipped))
      << "report/data/agent_registry.json is not `robotscan agents "
         "--agents-from report/data/ai-robots-txt/robots.json --format json` "
         "(docs/report.md says how to regenerate it)";
}

TEST(AgentRegistryTest, EverySnapshotEntryNormalisesToAMatcherToken) {
  const nlohmann::json snapshot = nlohmann::json::parse(ReadFile(kSnapshot));
  const AgentRegistry& registry = BuiltInAgentRegistry();
  std::set<std::string> names;
  std::set<std::string> tokens;
  for (const RegisteredAgent& agent : registry.agents) {
    EXPECT_TRUE(robots::IsValidUserAgentToObey(agent.token)) << agent.token;
    EXPECT_EQ(agent.token, robots::ExtractProductToken(agent.name))
        << agent.name;
    EXPECT_EQ(agent.token_reason.empty(), agent.token == agent.name)
        << agent.name << ": " << agent.token_reason;
    EXPECT_TRUE(tokens.insert(ToAsciiLower(agent.token)).second)
        << "two entries for " << agent.token;
    names.insert(agent.name);
    for (const std::string& alias : agent.aliases) {
      EXPECT_TRUE(AsciiEqualsIgnoreCase(robots::ExtractProductToken(alias),
                                        agent.token))
          << alias << " is an alias of " << agent.token;
      names.insert(alias);
    }
    EXPECT_TRUE(agent.respects_robots == "yes" ||
                agent.respects_robots == "no" ||
                agent.respects_robots == "unclear")
        << agent.respects_robots;
  }
  int entries = 0;
  for (auto it = snapshot.begin(); it != snapshot.end(); ++it) {
    ++entries;
    EXPECT_EQ(names.count(it.key()), 1u) << it.key() << " is in no entry";
  }
  EXPECT_EQ(entries, 130);
  EXPECT_TRUE(registry.skipped.empty());
}

TEST(AgentRegistryTest, TheReportsSeventeenCrawlersAreMergedIn) {
  const AgentRegistry& registry = BuiltInAgentRegistry();
  for (const std::string& crawler : DefaultCrawlers()) {
    const RegisteredAgent* agent =
        Find(registry, robots::ExtractProductToken(crawler));
    ASSERT_NE(agent, nullptr) << crawler;
    EXPECT_NE(agent->source.find("robotscan"), std::string::npos)
        << crawler << ": " << agent->source;
  }
  // In both: the registry's data stays, and says robotscan names it too.
  EXPECT_EQ(Find(registry, "GPTBot")->source, "ai.robots.txt+robotscan");
  EXPECT_EQ(Find(registry, "Googlebot")->source, "robotscan");
  EXPECT_EQ(Find(registry, "Googlebot")->purpose, AgentPurpose::kSearch);
  EXPECT_EQ(Find(registry, "MJ")->name, "MJ12bot");
}

TEST(AgentRegistryTest, TokensAsAFileWouldNameThem) {
  const AgentRegistry registry = MustParse(R"json({
    "ChatGPT Agent": {"function": "AI Agents"},
    "iaskspider/2.0": {"function": "x"},
    "bigsur.ai": {"function": "x"},
    "Crawl4AI": {"function": "x"},
    "4chanbot": {"function": "x"}
  })json");
  const RegisteredAgent* chatgpt = Find(registry, "ChatGPT");
  ASSERT_NE(chatgpt, nullptr);
  EXPECT_EQ(chatgpt->name, "ChatGPT Agent");
  EXPECT_NE(chatgpt->token_reason.find("a space ends a product token"),
            std::string::npos);
  EXPECT_NE(Find(registry, "iaskspider")
                ->token_reason.find("'/' begins a "
                                    "version"),
            std::string::npos);
  EXPECT_NE(Find(registry, "bigsur")->token_reason.find("'.' cannot be part"),
            std::string::npos);
  EXPECT_EQ(Find(registry, "Crawl")->name, "Crawl4AI");
  ASSERT_EQ(registry.skipped.size(), 1u);
  EXPECT_EQ(registry.skipped[0].rfind("4chanbot: no product token", 0), 0u);
}

TEST(AgentRegistryTest, NamesAMatcherCannotTellApartAreOneEntry) {
  const AgentRegistry registry = MustParse(R"json({
    "iaskspider": {"operator": "Unclear at this time.",
                   "function": "Undocumented AI Agents"},
    "iaskspider/2.0": {"operator": "iAsk", "respect": "No",
                       "function": "Crawls sites to provide answers to user queries."},
    "meta-externalagent": {"operator": "[Meta](https://x)", "respect": "Yes",
                           "function": "Used to train models and improve products."},
    "Meta-ExternalAgent": {
  "function" : "AI Data Scrapers"
}
})json");
  const RegisteredAgent* iask = Find(registry, "iaskspider");
  ASSERT_NE(iask, nullptr);
  EXPECT_EQ(iask->name, "iaskspider");  // The name that is its own token.
  EXPECT_EQ(iask->aliases, std::vector<std::string>{"iaskspider/2.0"});
  // The lead knew nothing; the alias fills operator, purpose and respect.
  EXPECT_EQ(iask->operator_name, "iAsk");
  EXPECT_EQ(iask->purpose, AgentPurpose::kUserTriggered);
  EXPECT_EQ(iask->respects_robots, "no");
  const RegisteredAgent* meta = Find(registry, "meta-externalagent");
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->name, "meta-externalagent");
  EXPECT_EQ(meta->aliases, std::vector<std::string>{"Meta-ExternalAgent"});
  EXPECT_EQ(meta->operator_name, "Meta");
  // Four names, two tokens, plus robotscan's 17.
  EXPECT_EQ(registry.agents.size(), 2u + RobotscanCrawlers().size());
}

TEST(AgentRegistryTest, PurposeFromTheRegistrysFunctionField) {
  struct Case {
    const char* function;
    AgentPurpose purpose;
  };
  const Case cases[] = {
      {"AI Data Scrapers", AgentPurpose::kTraining},
      {"AI Search Crawlers", AgentPurpose::kSearch},
      {"AI Assistants", AgentPurpose::kUserTriggered},
      {"AI Agents", AgentPurpose::kAgent},
      {"Undocumented AI Agents", AgentPurpose::kOther},
      {"  ai data scrapers ", AgentPurpose::kTraining},
      {"Takes action based on user prompts.", AgentPurpose::kUserTriggered},
      {"Retrieves data to provide responses to user-initiated prompts.",
       AgentPurpose::kUserTriggered},
      // A user's request wins over the words about models or search.
      {"Crawls sites to provide answers to user queries.",
       AgentPurpose::kUserTriggered},
      {"Used to answer queries at the request of users.",
       AgentPurpose::kUserTriggered},
      {"Scrapes data to train OpenAI's products.", AgentPurpose::kTraining},
      {"LLM training.", AgentPurpose::kTraining},
      {"Provides open crawl dataset, used for many purposes, including "
       "Machine Learning/AI.",
       AgentPurpose::kTraining},
      {"Scrapes data for search engine and LLMs.", AgentPurpose::kTraining},
      {"Search result generation.", AgentPurpose::kSearch},
      {"Claude-SearchBot navigates the web to improve search result quality "
       "for users.",
       AgentPurpose::kSearch},
      {"Company offers AI agents and other related products",
       AgentPurpose::kAgent},
      {"Data is sold.", AgentPurpose::kOther},
      {"", AgentPurpose::kOther},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PurposeFromFunction(c.function), c.purpose) << c.function;
  }
  for (std::string_view name : kAgentPurposeNames) {
    ASSERT_TRUE(AgentPurposeFromName(name).has_value()) << name;
    EXPECT_EQ(AgentPurposeName(*AgentPurposeFromName(name)), name);
  }
  EXPECT_FALSE(AgentPurposeFromName("Training").has_value());
}

TEST(AgentRegistryTest, OperatorAndRespectFields) {
  EXPECT_EQ(OperatorFromRegistryText("[OpenAI](https://openai.com)"), "OpenAI");
  EXPECT_EQ(OperatorFromRegistryText("Unclear at this time."), "");
  EXPECT_EQ(OperatorFromRegistryText("Unknown"), "");
  EXPECT_EQ(OperatorFromRegistryText("Meta/Facebook"), "Meta/Facebook");
  EXPECT_EQ(OperatorFromRegistryText("[broken"), "[broken");
  EXPECT_EQ(RespectFromRegistryText("Yes"), "yes");
  EXPECT_EQ(RespectFromRegistryText("[Yes](https://x)"), "yes");
  EXPECT_EQ(RespectFromRegistryText("[No](https://x)"), "no");
  EXPECT_EQ(RespectFromRegistryText("Not documented"), "unclear");
  EXPECT_EQ(RespectFromRegistryText("Unclear at this time."), "unclear");
  EXPECT_EQ(RespectFromRegistryText("At the discretion of users."), "unclear");
}

TEST(AgentRegistryTest, OwnFormatReadsBackUnchanged) {
  const AgentRegistry& built_in = BuiltInAgentRegistry();
  const std::string text = FormatAgentRegistryJson(built_in);
  Result<AgentRegistry> again = ParseAgentRegistry(text, "again");
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(FormatAgentRegistryJson(*again), text);
}

TEST(AgentRegistryTest, WhatIsNotARegistryIsRefusedWithWhereAndWhat) {
  struct Case {
    const char* text;
    const char* says;
  };
  const Case cases[] = {
      {"", "the text is not JSON"},
      {"{\"a\": ", "the text is not JSON"},
      {"[1, 2]", "not a JSON object"},
      {"{\"GPTBot\": 5}", "\"GPTBot\" is not an object"},
      {"{\"format\": \"other/9\", \"agents\": []}", "unknown \"format\""},
      {"{\"format\": \"robotscan-agent-registry/1\"}", "no \"agents\" list"},
      {"{\"format\": \"robotscan-agent-registry/1\", \"agents\": "
       "[{\"token\": \"A B\", \"purpose\": \"search\"}]}",
       "is not a product token"},
      {"{\"format\": \"robotscan-agent-registry/1\", \"agents\": "
       "[{\"token\": \"AB\", \"purpose\": \"spying\"}]}",
       "purpose \"spying\""},
      {"{\"format\": \"robotscan-agent-registry/1\", \"agents\": "
       "[{\"token\": 7, \"purpose\": \"search\"}]}",
       "\"token\" is not a string"},
  };
  for (const Case& c : cases) {
    Result<AgentRegistry> r = ParseAgentRegistry(c.text, "where.json");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidInput) << c.text;
    EXPECT_EQ(r.status().message().rfind("where.json: ", 0), 0u)
        << r.status().message();
    EXPECT_NE(r.status().message().find(c.says), std::string::npos)
        << r.status().message();
  }
}

}  // namespace
}  // namespace robotscan::report
