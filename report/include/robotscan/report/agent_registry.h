// robotscan::report agent registry — which crawlers the report asks about,
// what each is for, and the name a robots.txt file would give it.
//
// The registry robotscan ships is a pinned snapshot of the community registry
// ai.robots.txt (`robots.json`, MIT licence; report/data/ai-robots-txt/ holds
// the snapshot and its commit) converted into robotscan's own format
// (report/data/agent_registry.json) and merged with the 17 search, AI and
// SEO crawlers the report's blocking matrix has always named. A newer
// registry is read with ParseAgentRegistry, in either format.
//
// Each entry says:
//   - its product token, as an RFC 9309 matcher reads the name in a
//     `User-agent:` line (§2.2.1: letters, '_' and '-' only), with the reason
//     when that differs from the registry's name: "ChatGPT Agent" is matched
//     as "ChatGPT", "iaskspider/2.0" as "iaskspider";
//   - its purpose class, mapped from the registry's free-text `function`
//     field by PurposeFromFunction (training, search, user-triggered, agent,
//     other);
//   - its operator, without the registry's Markdown link.
// Names that reach the same token case-insensitively ("Meta-ExternalAgent"
// and "meta-externalagent", "MistralAI-User" and "MistralAI-User/1.0") are
// one entry with the others as aliases: a matcher cannot tell them apart.
//
// Usage:
//   const robotscan::report::AgentRegistry& registry =
//       robotscan::report::BuiltInAgentRegistry();
//   for (const auto& agent : registry.agents) {
//     std::printf("%s %s\n", agent.token.c_str(),
//                 robotscan::report::AgentPurposeName(agent.purpose).data());
//   }
//
// Thread-safety: pure functions; BuiltInAgentRegistry's value is built once
// (thread-safe static initialisation) and never changes.
#ifndef ROBOTSCAN_REPORT_AGENT_REGISTRY_H_
#define ROBOTSCAN_REPORT_AGENT_REGISTRY_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "robotscan/base/status.h"

namespace robotscan::report {

// What a crawler fetches for. The order is the report's grouping order.
enum class AgentPurpose : std::uint8_t {
  kTraining,       // Collects data to train models (GPTBot, CCBot).
  kSearch,         // Builds a search index, AI or classic (Googlebot,
                   // OAI-SearchBot, PerplexityBot).
  kUserTriggered,  // Fetches a page because a user asked (ChatGPT-User).
  kAgent,          // Browses and acts for a user (ChatGPT Agent, Operator).
  kOther,          // Anything else or undocumented (SEO tools, archives).
};
inline constexpr std::array<std::string_view, 5> kAgentPurposeNames = {
    "training", "search", "user-triggered", "agent", "other"};
std::string_view AgentPurposeName(AgentPurpose purpose);
std::optional<AgentPurpose> AgentPurposeFromName(std::string_view name);

// Maps ai.robots.txt's `function` field to a purpose class. The newer
// entries use Dark Visitors' categories ("AI Data Scrapers" -> training,
// "AI Search Crawlers" -> search, "AI Assistants" -> user-triggered,
// "AI Agents" -> agent, "Undocumented AI Agents" -> other); the older ones
// are free text, read by cue words in this order: a user's request
// ("user prompts", "queries", "users") -> user-triggered; training ("train",
// "LLM", "language model", "machine learning", "dataset") -> training;
// "search" -> search; "agent" -> agent; anything else -> other.
AgentPurpose PurposeFromFunction(std::string_view function);

// "[OpenAI](https://openai.com)" -> "OpenAI"; "Unclear at this time." and
// "Unknown" -> "" (the registry does not know); other text as is.
std::string OperatorFromRegistryText(std::string_view text);

// The registry's `respect` field, reduced: "yes", "no" or "unclear".
std::string_view RespectFromRegistryText(std::string_view text);

struct RegisteredAgent {
  std::string name;   // As the registry spells it ("ChatGPT Agent").
  std::string token;  // What a matcher reads of it ("ChatGPT").
  // Why token differs from name; empty when they are equal.
  std::string token_reason;
  // Other registry names with the same token (case-insensitively).
  std::vector<std::string> aliases;
  std::string operator_name;  // Empty: not known.
  AgentPurpose purpose = AgentPurpose::kOther;
  std::string function;         // The registry's words `purpose` came from.
  std::string respects_robots;  // "yes", "no" or "unclear".
  std::string source;           // "ai.robots.txt" or "robotscan".
};

struct AgentRegistry {
  // Where the entries came from: "ai.robots.txt robots.json at commit ...,
  // merged with robotscan's 17 crawlers", or the path/URL read.
  std::string origin;
  // Entries skipped because no product token can be read from their name
  // (a name that starts with a digit, say), each as "name: reason".
  std::vector<std::string> skipped;
  // Ordered by purpose (kAgentPurposeNames order), then by token
  // case-insensitively.
  std::vector<RegisteredAgent> agents;
};

// The registry robotscan ships (see the file comment).
const AgentRegistry& BuiltInAgentRegistry();

// Reads a registry: either ai.robots.txt's robots.json (an object whose keys
// are agent names and whose values hold `operator`, `function` and
// `respect`) or robotscan's own format (an object with "format":
// "robotscan-agent-registry/1" and an "agents" list, as
// FormatAgentRegistryJson writes it). ai.robots.txt's entries are converted
// and merged with robotscan's 17 crawlers (RobotscanCrawlers); robotscan's
// format is taken as it is. kInvalidInput, with what and where, for text
// that is not such JSON or an entry of the wrong shape.
Result<AgentRegistry> ParseAgentRegistry(std::string_view json_text,
                                         std::string_view origin);

// robotscan's format, which ParseAgentRegistry reads back unchanged:
// {"format", "origin", "skipped", "agents": [{"name", "token",
// "token_reason", "aliases", "operator", "purpose", "function",
// "respects_robots", "source"}]}, two-space indented, one entry per agent.
std::string FormatAgentRegistryJson(const AgentRegistry& registry);

// The 17 crawlers of the report's default blocking matrix (DefaultCrawlers
// in report.h) with their purpose and operator, as robotscan names them.
std::vector<RegisteredAgent> RobotscanCrawlers();

}  // namespace robotscan::report

#endif  // ROBOTSCAN_REPORT_AGENT_REGISTRY_H_
