// Parser fuzzer: never crashes, every span lies inside the pattern, and the
// PCRE2 spelling of an accepted pattern can be produced.
#include <cstdlib>

#include "fuzz_input.h"
#include "robotscan/regexguard/syntax.h"

namespace {

using robotscan::regexguard::Node;

void CheckSpans(const Node& node, std::size_t size, int depth) {
  if (node.span.begin > node.span.end || node.span.end > size) std::abort();
  if (depth > 1000) std::abort();  // the parser bounds nesting
  for (const auto& child : node.children) {
    if (!child) std::abort();
    CheckSpans(*child, size, depth + 1);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data,
                                      std::size_t size) {
  const auto input = robotscan::regexguard::fuzz::DecodeFuzzInput(data, size);
  auto parsed =
      robotscan::regexguard::ParsePattern(input.pattern, input.options);
  if (!parsed) {
    const auto& error = parsed.status();
    if (error.message().empty()) std::abort();
    if (error.span() && error.span()->end > input.pattern.size()) std::abort();
    return 0;
  }
  CheckSpans(*parsed->root, input.pattern.size(), 0);
  const std::string spelled =
      robotscan::regexguard::ToPcre2Pattern(*parsed->root);
  if (spelled.size() > 64 * input.pattern.size() + 64 &&
      input.pattern.size() > 0) {
    // Class spellings grow, but never without bound.
    std::abort();
  }
  return 0;
}
