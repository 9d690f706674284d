#include "agent_source.h"

#include <chrono>
#include <utility>

#include "input.h"
#include "robotscan/crawler/crawler.h"
#include "robotscan/crawler/download.h"

namespace robotscan::cli {
namespace {

bool IsUrl(const std::string& from) {
  return from.rfind("http://", 0) == 0 || from.rfind("https://", 0) == 0;
}

Result<std::string> ReadRegistryText(const std::string& from) {
  if (IsUrl(from)) {
    crawler::NetworkLibraries libraries;
    if (!libraries.ok()) {
      return Status(StatusCode::kNetwork, "cannot initialize libcurl");
    }
    crawler::DownloadRequest request;
    request.url = from;
    request.timeout = std::chrono::seconds(60);
    request.max_bytes = kMaxRegistryBytes;
    Result<crawler::Downloaded> file = crawler::Download(request);
    if (!file.ok()) return file.status();
    if (file->http_status != 200) {
      return Status(StatusCode::kIoError,
                    from + ": HTTP " + std::to_string(file->http_status) +
                        " instead of an agent registry");
    }
    return std::move(file->body);
  }
  Result<InputHead> head = ReadInput(from, kMaxRegistryBytes);
  if (!head.ok()) return head.status();
  if (head->bytes.size() > kMaxRegistryBytes) {
    return Status(StatusCode::kInvalidInput,
                  from + ": larger than 16 MiB, not an agent registry");
  }
  return std::move(head->bytes);
}

}  // namespace

Result<report::AgentRegistry> LoadAgentRegistry(const std::string& from) {
  if (from.empty()) return report::BuiltInAgentRegistry();
  Result<std::string> text = ReadRegistryText(from);
  if (!text.ok()) return text.status();
  return report::ParseAgentRegistry(*text, from);
}

}  // namespace robotscan::cli
