// The reach of each engine's defence against backtracking blow-up
// (engine_versions.h). Each judge walks the syntax tree once and stops at
// the first construct its engine's rules put out of reach.
#include "robotscan/regexguard/engine_versions.h"

#include <charconv>
#include <string>
#include <utility>

#include "proof/jit_model.h"

namespace robotscan::regexguard {
namespace {

// Ruby's memoization shipped in 3.2 (NEWS for 3.2.0, Feature #19104) and
// reached lookarounds and atomic groups in 3.3 (NEWS for 3.3.0, Feature
// #19725). .NET's NonBacktracking option came with .NET 7; V8's linear
// engine with V8 8.8, first in Node 16.
constexpr EngineVersion kRubyMemoizationFrom{3, 2};
constexpr EngineVersion kRubyLookaroundMemoizationFrom{3, 3};
constexpr EngineVersion kDotNetNonBacktrackingFrom{7, 0};
constexpr EngineVersion kNodeLinearEngineFrom{16, 0};
constexpr EngineVersion kJavaLoopMemoFrom{9, 0};

// V8 compiles a bounded repetition by copying its body; its linear engine
// refuses a pattern whose copies multiply beyond this
// (experimental-compiler.cc, kMaxReplicationFactor).
constexpr int kV8MaxReplication = 16;

std::optional<int> ParseNumber(std::string_view text) {
  int value = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0) {
    return std::nullopt;
  }
  return value;
}

std::optional<EngineVersion> ParseVersion(std::string_view text) {
  EngineVersion version;
  const std::size_t first_dot = text.find('.');
  const std::optional<int> major = ParseNumber(text.substr(0, first_dot));
  if (!major) return std::nullopt;
  version.major = *major;
  if (first_dot == std::string_view::npos) return version;
  std::string_view rest = text.substr(first_dot + 1);
  const std::size_t second_dot = rest.find('.');
  const std::optional<int> minor = ParseNumber(rest.substr(0, second_dot));
  if (!minor) return std::nullopt;
  version.minor = *minor;
  if (second_dot != std::string_view::npos &&
      !ParseNumber(rest.substr(second_dot + 1))) {
    return std::nullopt;
  }
  return version;
}

bool IsLookahead(const Node& node) { return !node.lookbehind; }

std::string LookaroundWords(const Node& node) {
  if (IsLookahead(node))
    return node.negated ? "a negative lookahead" : "a lookahead";
  return node.negated ? "a negative lookbehind" : "a lookbehind";
}

// A repetition other than ?, *, + (and {1}): Onigmo may compile it as a
// counted loop (OP_REPEAT), which its match cache cannot nest.
bool IsCountedRepetition(const Node& node) {
  return node.kind == NodeKind::kRepeat &&
         !(node.min <= 1 && (node.max == 1 || node.max == kUnbounded));
}

bool IsAtomic(const Node& node) {
  return (node.kind == NodeKind::kGroup &&
          node.group_kind == GroupKind::kAtomic) ||
         (node.kind == NodeKind::kRepeat &&
          node.greediness == Greediness::kPossessive);
}

// What stops Ruby's match cache at one node; `from` is raised to 3.3 for
// constructs 3.2 refused and 3.3 accepts.
struct RubyWalk {
  int repetitions = 0;  // enclosing repetitions
  int lookarounds = 0;  // enclosing lookarounds
  int atomics = 0;      // enclosing atomic groups and possessive loops
};

class RubyMemoizationJudge {
 public:
  DefenceReach Judge(const Node& root) {
    DefenceReach reach;
    reach.defence = EngineDefence::kRubyMemoization;
    reach.engine = VersionedEngine::kRuby;
    reach.available_from = kRubyMemoizationFrom;
    from_ = kRubyMemoizationFrom;
    Visit(root, RubyWalk{});
    if (obstacle_.empty()) {
      reach.reached_from = from_;
      reach.obstacle = first_version_obstacle_;
      reach.obstacle_span = first_version_span_;
    } else {
      reach.obstacle = obstacle_;
      reach.obstacle_span = obstacle_span_;
    }
    return reach;
  }

 private:
  void Never(const Node& node, std::string why) {
    if (!obstacle_.empty()) return;
    obstacle_ = std::move(why);
    obstacle_span_ = node.span;
  }
  // Out of reach in 3.2, within it from 3.3.
  void From33(const Node& node, std::string why) {
    if (from_ < kRubyLookaroundMemoizationFrom) {
      from_ = kRubyLookaroundMemoizationFrom;
      first_version_obstacle_ = std::move(why);
      first_version_span_ = node.span;
    }
  }

  void Visit(const Node& node, RubyWalk walk) {
    if (!obstacle_.empty()) return;
    switch (node.kind) {
      case NodeKind::kBackReference:
        Never(node, "a back reference");
        return;
      case NodeKind::kLookaround:
        if (walk.atomics > 0) {
          Never(node, LookaroundWords(node) + " inside an atomic group");
          return;
        }
        From33(node, LookaroundWords(node));
        ++walk.lookarounds;
        break;
      case NodeKind::kGroup:
        if (node.group_kind == GroupKind::kCapturing && walk.lookarounds > 0) {
          Never(node, "a capture group inside a lookaround");
          return;
        }
        break;
      case NodeKind::kRepeat:
        if (IsCountedRepetition(node) && walk.repetitions > 0) {
          Never(node, "a counted repetition inside a repetition");
          return;
        }
        break;
      default:
        break;
    }
    if (IsAtomic(node)) {
      if (walk.lookarounds > 0 || walk.atomics > 0) {
        Never(node, node.kind == NodeKind::kGroup
                        ? "an atomic group inside a lookaround or atomic group"
                        : "a possessive quantifier inside a lookaround or "
                          "atomic group");
        return;
      }
      From33(node, node.kind == NodeKind::kGroup ? "an atomic group"
                                                 : "a possessive quantifier");
      ++walk.atomics;
    }
    if (node.kind == NodeKind::kRepeat) ++walk.repetitions;
    for (const auto& child : node.children) Visit(*child, walk);
  }

  EngineVersion from_;
  std::string obstacle_;
  std::optional<SourceSpan> obstacle_span_;
  std::string first_version_obstacle_;
  std::optional<SourceSpan> first_version_span_;
};

// The first construct in `node` that .NET's NonBacktracking refuses
// (RegexOptions docs: no atomic groups, back references, balancing groups,
// conditionals, lookarounds, \G); empty when none.
std::pair<std::string, std::optional<SourceSpan>> NonBacktrackingObstacle(
    const Node& node) {
  switch (node.kind) {
    case NodeKind::kBackReference:
      return {"a back reference", node.span};
    case NodeKind::kLookaround:
      return {LookaroundWords(node), node.span};
    case NodeKind::kAssertion:
      if (node.assertion == AssertionKind::kStartOfSearch) {
        return {"\\G", node.span};
      }
      break;
    default:
      if (IsAtomic(node)) return {"an atomic group", node.span};
      break;
  }
  for (const auto& child : node.children) {
    auto found = NonBacktrackingObstacle(*child);
    if (!found.first.empty()) return found;
  }
  return {};
}

// The first construct V8's linear engine refuses ("Cannot be executed in
// linear time"), following its CanBeHandledVisitor: back references,
// lookarounds, possessive loops, and bounded repetitions that would be
// copied more than 16 times in all. `replication` is the product of the
// enclosing repetitions' copies.
std::pair<std::string, std::optional<SourceSpan>> V8LinearObstacle(
    const Node& node, int replication) {
  switch (node.kind) {
    case NodeKind::kBackReference:
      return {"a back reference", node.span};
    case NodeKind::kLookaround:
      return {LookaroundWords(node), node.span};
    case NodeKind::kRepeat: {
      if (node.greediness == Greediness::kPossessive) {
        return {"a possessive quantifier", node.span};
      }
      if (node.min > kV8MaxReplication ||
          (node.max != kUnbounded && node.max > kV8MaxReplication)) {
        return {"a repetition counted beyond 16", node.span};
      }
      const int copies = node.max == kUnbounded ? node.min + 1 : node.max;
      replication *= copies;
      if (replication > kV8MaxReplication) {
        return {"counted repetitions copied more than 16 times", node.span};
      }
      break;
    }
    default:
      if (IsAtomic(node)) return {"an atomic group", node.span};
      break;
  }
  for (const auto& child : node.children) {
    auto found = V8LinearObstacle(*child, replication);
    if (!found.first.empty()) return found;
  }
  return {};
}

// Java's memo is measured, not assumed: the reach says only whether some
// loop of the pattern has it (JavaLoopMemo), so that the verdict can say
// it was measured with it.
DefenceReach JudgeJavaLoopMemo(const Node& root) {
  DefenceReach reach;
  reach.defence = EngineDefence::kJavaLoopMemo;
  reach.engine = VersionedEngine::kJava;
  reach.available_from = kJavaLoopMemoFrom;
  if (!internal::JavaLoopMemo(root).empty()) {
    reach.reached_from = kJavaLoopMemoFrom;
  } else {
    reach.obstacle =
        "no loop has the memo (none is an unbounded greedy loop of a group "
        "outside quantified groups, or the pattern has a back reference)";
  }
  return reach;
}

DefenceReach JudgeNonBacktracking(const Node& root) {
  DefenceReach reach;
  reach.defence = EngineDefence::kDotNetNonBacktracking;
  reach.engine = VersionedEngine::kDotNet;
  reach.available_from = kDotNetNonBacktrackingFrom;
  reach.opt_in = true;
  auto [obstacle, span] = NonBacktrackingObstacle(root);
  if (obstacle.empty()) {
    reach.reached_from = kDotNetNonBacktrackingFrom;
  } else {
    reach.obstacle = "RegexOptions.NonBacktracking refuses " + obstacle;
    reach.obstacle_span = span;
  }
  return reach;
}

DefenceReach JudgeV8LinearEngine(const Node& root, const PatternFlags& flags) {
  DefenceReach reach;
  reach.defence = EngineDefence::kV8LinearEngine;
  reach.engine = VersionedEngine::kNode;
  reach.available_from = kNodeLinearEngineFrom;
  reach.opt_in = true;
  std::pair<std::string, std::optional<SourceSpan>> obstacle;
  if (flags.case_insensitive) {
    obstacle.first = "the i flag";
  } else if (flags.unicode) {
    obstacle.first = "the u (or v) flag";
  } else {
    obstacle = V8LinearObstacle(root, 1);
  }
  if (obstacle.first.empty()) {
    reach.reached_from = kNodeLinearEngineFrom;
  } else {
    reach.obstacle = "V8's linear engine refuses " + obstacle.first;
    reach.obstacle_span = obstacle.second;
  }
  return reach;
}

}  // namespace

std::string EngineVersionText(const EngineVersion& version) {
  std::string text = std::to_string(version.major);
  if (version.minor != 0) text += "." + std::to_string(version.minor);
  return text;
}

std::string_view VersionedEngineName(VersionedEngine engine) {
  switch (engine) {
    case VersionedEngine::kRuby:
      return "ruby";
    case VersionedEngine::kNode:
      return "node";
    case VersionedEngine::kDotNet:
      return "dotnet";
    case VersionedEngine::kJava:
      return "java";
  }
  return "";
}

Status AddEngineVersion(std::string_view setting, EngineVersions* versions) {
  const std::size_t equals = setting.find('=');
  const std::string_view engine = setting.substr(0, equals);
  const std::optional<EngineVersion> version =
      equals == std::string_view::npos
          ? std::nullopt
          : ParseVersion(setting.substr(equals + 1));
  std::optional<EngineVersion>* slot = nullptr;
  if (engine == "ruby") slot = &versions->ruby;
  if (engine == "node") slot = &versions->node;
  if (engine == "dotnet") slot = &versions->dotnet;
  if (engine == "java") slot = &versions->java;
  if (slot == nullptr || !version) {
    return Status(StatusCode::kInvalidArgument,
                  "bad engine version '" + std::string(setting) +
                      "': expected ruby=X.Y, node=N, dotnet=N or java=N");
  }
  *slot = *version;
  // Java's releases before 9 were named 1.x.
  if (slot == &versions->java && slot->value().major == 1) {
    *slot = EngineVersion{slot->value().minor, 0};
  }
  return Status::Ok();
}

std::string EngineVersionsText(const EngineVersions& versions) {
  std::string text;
  auto add = [&](std::string_view name,
                 const std::optional<EngineVersion>& version) {
    if (!version) return;
    if (!text.empty()) text += ",";
    text += std::string(name) + "=" + std::to_string(version->major) + "." +
            std::to_string(version->minor);
  };
  add("dotnet", versions.dotnet);
  add("java", versions.java);
  add("node", versions.node);
  add("ruby", versions.ruby);
  return text;
}

std::string_view EngineDefenceName(EngineDefence defence) {
  switch (defence) {
    case EngineDefence::kRubyMemoization:
      return "memoization";
    case EngineDefence::kDotNetNonBacktracking:
      return "non-backtracking";
    case EngineDefence::kV8LinearEngine:
      return "linear-engine";
    case EngineDefence::kJavaLoopMemo:
      return "loop-memo";
  }
  return "";
}

std::vector<DefenceReach> JudgeEngineDefences(const Node& root, Dialect dialect,
                                              const PatternFlags& flags) {
  switch (dialect) {
    case Dialect::kRuby:
      return {RubyMemoizationJudge().Judge(root)};
    case Dialect::kDotNet:
      return {JudgeNonBacktracking(root)};
    case Dialect::kJavaScript:
      return {JudgeV8LinearEngine(root, flags)};
    case Dialect::kJava:
      return {JudgeJavaLoopMemo(root)};
    default:
      return {};
  }
}

}  // namespace robotscan::regexguard
