// `robotscan agents`: the agent registry in use (report/agent_registry.h),
// as a table, JSON (robotscan's registry format, which --agents-from reads
// back) or CSV.
#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "agent_source.h"
#include "commands.h"

namespace robotscan::cli {
namespace {

struct AgentsFlags {
  std::string from;
  std::string format = "text";
  std::string purpose;
};

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string Joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) {
    if (!out.empty()) out += "; ";
    out += name;
  }
  return out;
}

void PrintCsv(const std::vector<const report::RegisteredAgent*>& agents) {
  std::printf(
      "token,purpose,operator,name,aliases,respects_robots,source,"
      "token_reason,function\n");
  for (const report::RegisteredAgent* a : agents) {
    std::printf("%s,%s,%s,%s,%s,%s,%s,%s,%s\n", CsvField(a->token).c_str(),
                std::string(report::AgentPurposeName(a->purpose)).c_str(),
                CsvField(a->operator_name).c_str(), CsvField(a->name).c_str(),
                CsvField(Joined(a->aliases)).c_str(),
                a->respects_robots.c_str(), CsvField(a->source).c_str(),
                CsvField(a->token_reason).c_str(),
                CsvField(a->function).c_str());
  }
}

void PrintText(const report::AgentRegistry& registry,
               const std::vector<const report::RegisteredAgent*>& agents) {
  std::array<int, report::kAgentPurposeNames.size()> per_purpose{};
  for (const report::RegisteredAgent* a : agents) {
    ++per_purpose[static_cast<std::size_t>(a->purpose)];
  }
  std::printf("%zu agents from %s\n", agents.size(), registry.origin.c_str());
  for (std::size_t p = 0; p < per_purpose.size(); ++p) {
    std::printf("  %-15s %d\n",
                std::string(report::kAgentPurposeNames[p]).c_str(),
                per_purpose[p]);
  }
  for (const std::string& skipped : registry.skipped) {
    std::printf("  skipped: %s\n", skipped.c_str());
  }
  std::printf("\n%-30s %-15s %-26s %s\n", "TOKEN", "PURPOSE", "OPERATOR",
              "NAMES IN THE REGISTRY");
  for (const report::RegisteredAgent* a : agents) {
    std::string names = a->name;
    for (const std::string& alias : a->aliases) names += ", " + alias;
    std::printf("%-30s %-15s %-26s %s\n", a->token.c_str(),
                std::string(report::AgentPurposeName(a->purpose)).c_str(),
                a->operator_name.empty() ? "-" : a->operator_name.c_str(),
                names.c_str());
  }
}

int RunAgentsCommand(const AgentsFlags& flags) {
  std::optional<report::AgentPurpose> only;
  if (!flags.purpose.empty()) {
    only = report::AgentPurposeFromName(flags.purpose);
    if (!only) {
      std::fprintf(stderr,
                   "robotscan agents: --purpose must be training, search, "
                   "user-triggered, agent or other, not '%s'\n",
                   flags.purpose.c_str());
      return kExitUsage;
    }
  }
  Result<report::AgentRegistry> registry = LoadAgentRegistry(flags.from);
  if (!registry.ok()) {
    std::fprintf(stderr, "robotscan agents: %s\n",
                 registry.status().message().c_str());
    return ExitCodeFor(registry.status());
  }
  std::vector<const report::RegisteredAgent*> agents;
  for (const report::RegisteredAgent& agent : registry->agents) {
    if (!only || agent.purpose == *only) agents.push_back(&agent);
  }
  if (flags.format == "json") {
    report::AgentRegistry selected;
    selected.origin = registry->origin;
    selected.skipped = registry->skipped;
    for (const report::RegisteredAgent* a : agents) {
      selected.agents.push_back(*a);
    }
    std::fputs(report::FormatAgentRegistryJson(selected).c_str(), stdout);
  } else if (flags.format == "csv") {
    PrintCsv(agents);
  } else {
    PrintText(*registry, agents);
  }
  return std::fflush(stdout) == 0 ? kExitOk : kExitInput;
}

}  // namespace

void AddAgentsCommand(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<AgentsFlags>();
  CLI::App* cmd = app.add_subcommand(
      "agents",
      "List the agent registry in use: each crawler's product token, purpose "
      "class and operator (ai.robots.txt snapshot + robotscan's 17)");
  cmd->add_option("--agents-from", flags->from,
                  "Read this registry instead of the built-in one: a file or "
                  "an http(s) URL, in ai.robots.txt's robots.json format or "
                  "robotscan's (--format json)");
  cmd->add_option("--format", flags->format, "text, json or csv")
      ->check(CLI::IsMember({"text", "json", "csv"}))
      ->capture_default_str();
  cmd->add_option("--purpose", flags->purpose,
                  "Only this class: training, search, user-triggered, agent "
                  "or other");
  cmd->callback([flags, exit_code] { *exit_code = RunAgentsCommand(*flags); });
}

}  // namespace robotscan::cli
