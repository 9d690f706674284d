#include "robotscan/report/agent_registry.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "agent_registry_data.h"
#include "robotscan/base/ascii.h"
#include "robotscan/robots/url.h"

namespace robotscan::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kFormat = "robotscan-agent-registry/1";

bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

bool ContainsAny(std::string_view haystack,
                 std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return Contains(haystack, n); });
}

Status Malformed(std::string_view origin, const std::string& what) {
  return Status(StatusCode::kInvalidInput,
                std::string(origin) + ": not an agent registry: " + what);
}

// Why a matcher reads `name` as `token` (token is a proper prefix of name).
std::string TokenReason(std::string_view name, std::string_view token) {
  const char stop = name[token.size()];
  const std::string quoted = "\"" + std::string(name) + "\" is matched as \"" +
                             std::string(token) + "\"";
  if (stop == ' ') {
    return "a space ends a product token (RFC 9309 2.2.1): " + quoted;
  }
  if (stop == '/') return "'/' begins a version, not the token: " + quoted;
  return std::string("'") + stop +
         "' cannot be part of a product token (letters, '_' and '-' "
         "only): " +
         quoted;
}

bool LessByToken(const RegisteredAgent& a, const RegisteredAgent& b) {
  if (a.purpose != b.purpose) return a.purpose < b.purpose;
  const int order = CompareIgnoreAsciiCase(a.token, b.token);
  if (order != 0) return order < 0;
  return a.name < b.name;
}

// Entries whose tokens agree case-insensitively become one: the entry whose
// name is its token (else the first) leads; the others fill what it lacks.
void MergeSameToken(std::vector<RegisteredAgent>* agents) {
  std::vector<RegisteredAgent> merged;
  std::map<std::string, std::size_t> index_of;  // lower-case token
  for (RegisteredAgent& agent : *agents) {
    const std::string key = ToAsciiLower(agent.token);
    auto [it, inserted] = index_of.emplace(key, merged.size());
    if (inserted) {
      merged.push_back(std::move(agent));
      continue;
    }
    RegisteredAgent& lead = merged[it->second];
    if (agent.name == agent.token && lead.name != lead.token) {
      std::swap(lead, agent);
    }
    lead.aliases.push_back(agent.name);
    for (std::string& alias : agent.aliases) {
      lead.aliases.push_back(std::move(alias));
    }
    if (lead.operator_name.empty()) lead.operator_name = agent.operator_name;
    if (lead.purpose == AgentPurpose::kOther &&
        agent.purpose != AgentPurpose::kOther) {
      lead.purpose = agent.purpose;
      lead.function = agent.function;
    }
    if (lead.respects_robots == "unclear") {
      lead.respects_robots = agent.respects_robots;
    }
  }
  *agents = std::move(merged);
}

Result<AgentRegistry> ReadRegistryJson(const Json& root,
                                       std::string_view origin) {
  AgentRegistry registry;
  registry.origin = root.value("origin", std::string(origin));
  if (root.contains("skipped")) {
    if (!root["skipped"].is_array()) {
      return Malformed(origin, "\"skipped\" is not a list");
    }
    for (const Json& s : root["skipped"]) {
      if (!s.is_string()) return Malformed(origin, "a skipped entry");
      registry.skipped.push_back(s.get<std::string>());
    }
  }
  if (!root.contains("agents") || !root["agents"].is_array()) {
    return Malformed(origin, "no \"agents\" list");
  }
  for (const Json& entry : root["agents"]) {
    const std::size_t at = registry.agents.size();
    auto text = [&](const char* key, std::string* out) -> Status {
      if (!entry.contains(key)) return Status::Ok();
      if (!entry[key].is_string()) {
        return Malformed(origin, "agent " + std::to_string(at) + ": \"" + key +
                                     "\" is not a string");
      }
      *out = entry[key].get<std::string>();
      return Status::Ok();
    };
    if (!entry.is_object()) {
      return Malformed(origin,
                       "agent " + std::to_string(at) + " is not an object");
    }
    RegisteredAgent agent;
    std::string purpose;
    for (auto [key, out] :
         std::initializer_list<std::pair<const char*, std::string*>>{
             {"name", &agent.name},
             {"token", &agent.token},
             {"token_reason", &agent.token_reason},
             {"operator", &agent.operator_name},
             {"purpose", &purpose},
             {"function", &agent.function},
             {"respects_robots", &agent.respects_robots},
             {"source", &agent.source}}) {
      if (Status s = text(key, out); !s.ok()) return s;
    }
    if (!robots::IsValidUserAgentToObey(agent.token)) {
      return Malformed(origin, "agent " + std::to_string(at) + " (\"" +
                                   agent.name + "\"): token \"" + agent.token +
                                   "\" is not a product token");
    }
    if (agent.name.empty()) agent.name = agent.token;
    const std::optional<AgentPurpose> parsed = AgentPurposeFromName(purpose);
    if (!parsed) {
      return Malformed(origin, "agent \"" + agent.name + "\": purpose \"" +
                                   purpose +
                                   "\" is none of training, search, "
                                   "user-triggered, agent, other");
    }
    agent.purpose = *parsed;
    if (agent.respects_robots.empty()) agent.respects_robots = "unclear";
    if (entry.contains("aliases")) {
      if (!entry["aliases"].is_array()) {
        return Malformed(
            origin, "agent \"" + agent.name + "\": \"aliases\" is not a list");
      }
      for (const Json& alias : entry["aliases"]) {
        if (!alias.is_string()) {
          return Malformed(origin, "agent \"" + agent.name + "\": an alias");
        }
        agent.aliases.push_back(alias.get<std::string>());
      }
    }
    registry.agents.push_back(std::move(agent));
  }
  MergeSameToken(&registry.agents);
  std::stable_sort(registry.agents.begin(), registry.agents.end(), LessByToken);
  return registry;
}

Result<AgentRegistry> ConvertAiRobotsTxt(const Json& root,
                                         std::string_view origin) {
  AgentRegistry registry;
  registry.origin = std::string(origin) +
                    " (ai.robots.txt robots.json), merged with robotscan's " +
                    std::to_string(RobotscanCrawlers().size()) + " crawlers";
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string& name = it.key();
    const Json& fields = it.value();
    if (!fields.is_object()) {
      return Malformed(origin, "\"" + name + "\" is not an object");
    }
    auto field = [&](const char* key) -> std::string {
      auto f = fields.find(key);
      return f != fields.end() && f->is_string() ? f->get<std::string>() : "";
    };
    RegisteredAgent agent;
    agent.name = name;
    agent.token = std::string(robots::ExtractProductToken(name));
    if (agent.token.empty()) {
      registry.skipped.push_back(
          name +
          ": no product token (a token starts with a letter, '_' or "
          "'-')");
      continue;
    }
    if (agent.token != name)
      agent.token_reason = TokenReason(name, agent.token);
    agent.function = field("function");
    agent.purpose = PurposeFromFunction(agent.function);
    agent.operator_name = OperatorFromRegistryText(field("operator"));
    agent.respects_robots =
        std::string(RespectFromRegistryText(field("respect")));
    agent.source = "ai.robots.txt";
    registry.agents.push_back(std::move(agent));
  }
  MergeSameToken(&registry.agents);
  // robotscan's crawlers: a registry entry keeps its data and notes that
  // robotscan names it too; the others join as robotscan's.
  for (RegisteredAgent& ours : RobotscanCrawlers()) {
    auto same =
        std::find_if(registry.agents.begin(), registry.agents.end(),
                     [&](const RegisteredAgent& a) {
                       return AsciiEqualsIgnoreCase(a.token, ours.token);
                     });
    if (same == registry.agents.end()) {
      registry.agents.push_back(std::move(ours));
      continue;
    }
    same->source += "+robotscan";
    if (same->operator_name.empty()) same->operator_name = ours.operator_name;
  }
  std::stable_sort(registry.agents.begin(), registry.agents.end(), LessByToken);
  return registry;
}

RegisteredAgent Ours(std::string token, AgentPurpose purpose,
                     std::string operator_name, std::string function) {
  RegisteredAgent agent;
  agent.name = token;
  // "MJ12bot" is matched as "MJ", as the report has always matched it.
  agent.token = std::string(robots::ExtractProductToken(token));
  if (agent.token != agent.name) {
    agent.token_reason = TokenReason(agent.name, agent.token);
  }
  agent.purpose = purpose;
  agent.operator_name = std::move(operator_name);
  agent.function = std::move(function);
  agent.respects_robots = "yes";
  agent.source = "robotscan";
  return agent;
}

}  // namespace

std::string_view AgentPurposeName(AgentPurpose purpose) {
  return kAgentPurposeNames[static_cast<std::size_t>(purpose)];
}

std::optional<AgentPurpose> AgentPurposeFromName(std::string_view name) {
  for (std::size_t i = 0; i < kAgentPurposeNames.size(); ++i) {
    if (kAgentPurposeNames[i] == name) return static_cast<AgentPurpose>(i);
  }
  return std::nullopt;
}

AgentPurpose PurposeFromFunction(std::string_view function) {
  const std::string text = ToAsciiLower(StripAsciiWhitespace(function));
  // Dark Visitors' categories, which the newer entries use verbatim.
  if (text == "ai data scrapers") return AgentPurpose::kTraining;
  if (text == "ai search crawlers") return AgentPurpose::kSearch;
  if (text == "ai assistants") return AgentPurpose::kUserTriggered;
  if (text == "ai agents") return AgentPurpose::kAgent;
  if (text == "undocumented ai agents") return AgentPurpose::kOther;
  // Free text. A user's request comes first: "answers to user queries" is
  // a fetch for that user even when the words mention search or models.
  if (ContainsAny(text,
                  {"user prompt", "user-initiated", "user queries",
                   "request of users", "individuals ask", "on behalf of"})) {
    return AgentPurpose::kUserTriggered;
  }
  if (ContainsAny(text, {"train", "llm", "language model", "machine learning",
                         "dataset", "data set", "ai data scraper"})) {
    return AgentPurpose::kTraining;
  }
  if (Contains(text, "search")) return AgentPurpose::kSearch;
  if (Contains(text, "agent")) return AgentPurpose::kAgent;
  return AgentPurpose::kOther;
}

std::string OperatorFromRegistryText(std::string_view text) {
  text = StripAsciiWhitespace(text);
  const std::string lower = ToAsciiLower(text);
  if (lower.rfind("unclear", 0) == 0 || lower == "unknown" ||
      lower.rfind("no information", 0) == 0) {
    return "";
  }
  // "[OpenAI](https://openai.com)": the link's text.
  if (!text.empty() && text.front() == '[') {
    const std::size_t close = text.find("](");
    if (close != std::string_view::npos && text.back() == ')') {
      return std::string(text.substr(1, close - 1));
    }
  }
  return std::string(text);
}

std::string_view RespectFromRegistryText(std::string_view text) {
  std::string lower = ToAsciiLower(StripAsciiWhitespace(text));
  if (!lower.empty() && lower.front() == '[') lower.erase(0, 1);
  auto starts_with_word = [&](std::string_view word) {
    return lower.rfind(word, 0) == 0 &&
           (lower.size() == word.size() || !IsAsciiAlpha(lower[word.size()]));
  };
  if (starts_with_word("yes")) return "yes";
  if (starts_with_word("no")) return "no";
  return "unclear";
}

std::vector<RegisteredAgent> RobotscanCrawlers() {
  using P = AgentPurpose;
  std::vector<RegisteredAgent> crawlers;
  crawlers.push_back(
      Ours("Googlebot", P::kSearch, "Google", "Web search index."));
  crawlers.push_back(
      Ours("Bingbot", P::kSearch, "Microsoft", "Web search index."));
  crawlers.push_back(
      Ours("DuckDuckBot", P::kSearch, "DuckDuckGo", "Web search index."));
  crawlers.push_back(
      Ours("Baiduspider", P::kSearch, "Baidu", "Web search index."));
  crawlers.push_back(
      Ours("YandexBot", P::kSearch, "Yandex", "Web search index."));
  crawlers.push_back(Ours("GPTBot", P::kTraining, "OpenAI", "Model training."));
  crawlers.push_back(Ours("ChatGPT-User", P::kUserTriggered, "OpenAI",
                          "Fetches pages a ChatGPT user asks about."));
  crawlers.push_back(Ours("CCBot", P::kTraining, "Common Crawl Foundation",
                          "Open crawl dataset, widely used for training."));
  crawlers.push_back(
      Ours("ClaudeBot", P::kTraining, "Anthropic", "Model training."));
  crawlers.push_back(
      Ours("anthropic-ai", P::kTraining, "Anthropic", "Model training."));
  crawlers.push_back(Ours("Google-Extended", P::kTraining, "Google",
                          "Opt-out token for training Gemini models."));
  crawlers.push_back(Ours("PerplexityBot", P::kSearch, "Perplexity",
                          "AI answer engine's search index."));
  crawlers.push_back(
      Ours("Bytespider", P::kTraining, "ByteDance", "Model training."));
  crawlers.push_back(
      Ours("AhrefsBot", P::kOther, "Ahrefs", "SEO backlink index."));
  crawlers.push_back(Ours("SemrushBot", P::kOther, "Semrush", "SEO tools."));
  crawlers.push_back(
      Ours("MJ12bot", P::kOther, "Majestic", "SEO backlink index."));
  crawlers.push_back(Ours("ia_archiver", P::kOther, "Alexa Internet",
                          "Web archive (Wayback Machine) and Alexa ranks."));
  return crawlers;
}

Result<AgentRegistry> ParseAgentRegistry(std::string_view json_text,
                                         std::string_view origin) {
  Json root = Json::parse(json_text.begin(), json_text.end(), nullptr,
                          /*allow_exceptions=*/false);
  if (root.is_discarded()) return Malformed(origin, "the text is not JSON");
  if (!root.is_object()) return Malformed(origin, "not a JSON object");
  auto format = root.find("format");
  if (format != root.end()) {
    if (!format->is_string() || format->get<std::string>() != kFormat) {
      return Malformed(origin, "unknown \"format\" (this robotscan reads " +
                                   std::string(kFormat) + ")");
    }
    return ReadRegistryJson(root, origin);
  }
  return ConvertAiRobotsTxt(root, origin);
}

std::string FormatAgentRegistryJson(const AgentRegistry& registry) {
  Json root;
  root["format"] = kFormat;
  root["origin"] = registry.origin;
  root["skipped"] = registry.skipped;
  Json agents = Json::array();
  for (const RegisteredAgent& agent : registry.agents) {
    Json entry;
    entry["name"] = agent.name;
    entry["token"] = agent.token;
    entry["token_reason"] = agent.token_reason;
    entry["aliases"] = agent.aliases;
    entry["operator"] = agent.operator_name;
    entry["purpose"] = AgentPurposeName(agent.purpose);
    entry["function"] = agent.function;
    entry["respects_robots"] = agent.respects_robots;
    entry["source"] = agent.source;
    agents.push_back(std::move(entry));
  }
  root["agents"] = std::move(agents);
  return root.dump(2) + "\n";
}

const AgentRegistry& BuiltInAgentRegistry() {
  static const AgentRegistry registry = [] {
    Result<AgentRegistry> parsed =
        ParseAgentRegistry(internal::kAgentRegistryJson, "built-in");
    // The file is checked by tests (agent_registry_test.cc); a build whose
    // file does not parse says so rather than reporting on no agents.
    assert(parsed.ok());
    if (!parsed.ok()) {
      AgentRegistry empty;
      empty.origin =
          "built-in registry unreadable: " + parsed.status().ToString();
      return empty;
    }
    return std::move(parsed).value();
  }();
  return registry;
}

}  // namespace robotscan::report
