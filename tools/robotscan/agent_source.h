// Where `robotscan agents` and `robotscan report` take their agent registry
// from: robotscan's built-in one, a file, or a URL (--agents-from).
#ifndef ROBOTSCAN_TOOLS_ROBOTSCAN_AGENT_SOURCE_H_
#define ROBOTSCAN_TOOLS_ROBOTSCAN_AGENT_SOURCE_H_

#include <string>

#include "robotscan/base/status.h"
#include "robotscan/report/agent_registry.h"

namespace robotscan::cli {

// A registry is at most this large (ai.robots.txt's robots.json: ~60 KB).
inline constexpr std::size_t kMaxRegistryBytes = 16u << 20;

// `from` empty: the built-in registry. "http://..." or "https://...": a
// download (errors: kIoError for a failed transfer or a status other than
// 200, exit 3). Else a file ("-" = standard input; kInvalidArgument when it
// cannot be read, exit 2). Text that is not a registry: kInvalidInput
// (exit 3), naming `from`.
Result<report::AgentRegistry> LoadAgentRegistry(const std::string& from);

}  // namespace robotscan::cli

#endif  // ROBOTSCAN_TOOLS_ROBOTSCAN_AGENT_SOURCE_H_
