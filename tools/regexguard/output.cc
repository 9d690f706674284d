#include "output.h"

#include <algorithm>
#include <cstdio>

#include "robotscan/base/version.h"

namespace robotscan::regexguard::cli {
namespace {

nlohmann::json AttackToJson(const std::optional<Attack>& attack) {
  if (!attack) return nullptr;
  return {{"prefix", attack->prefix},
          {"pump", attack->pump},
          {"suffix", attack->suffix}};
}

std::string GrowthName(Growth growth) {
  switch (growth) {
    case Growth::kLinear:
      return "linear";
    case Growth::kPolynomial:
      return "polynomial";
    case Growth::kExponential:
      return "exponential";
    case Growth::kUndetermined:
      return "undetermined";
  }
  return "undetermined";
}

// The defences of the dialect's engine and their reach (engine_versions.h).
nlohmann::json DefencesToJson(const std::vector<DefenceReach>& defences) {
  nlohmann::json out = nlohmann::json::array();
  for (const DefenceReach& reach : defences) {
    nlohmann::json span = nullptr;
    if (reach.obstacle_span) {
      span = {{"begin", reach.obstacle_span->begin},
              {"end", reach.obstacle_span->end}};
    }
    out.push_back(
        {{"engine", std::string(VersionedEngineName(reach.engine))},
         {"defence", std::string(EngineDefenceName(reach.defence))},
         {"available_from", EngineVersionText(reach.available_from)},
         {"opt_in", reach.opt_in},
         {"reached_from", reach.reached_from ? nlohmann::json(EngineVersionText(
                                                   *reach.reached_from))
                                             : nlohmann::json(nullptr)},
         {"obstacle", reach.obstacle.empty() ? nlohmann::json(nullptr)
                                             : nlohmann::json(reach.obstacle)},
         {"obstacle_span", std::move(span)}});
  }
  return out;
}

bool IsFinding(const AnalysisReport& report) {
  return report.verdict == Verdict::kExponential ||
         report.verdict == Verdict::kPolynomial;
}

// RFC 3986 percent-encoding of a path, keeping '/' and unreserved bytes.
std::string EncodeUriPath(const std::string& path) {
  std::string out;
  for (const unsigned char c : path) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
        (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof(escaped), "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

// The rules of both `check` and `scan` SARIF output (the library's
// catalogue, ScanRules): one id per finding kind, so that code-scanning
// alerts match whichever command made them.
nlohmann::json SarifRules() {
  nlohmann::json rules = nlohmann::json::array();
  for (const RuleDescription& rule : ScanRules()) {
    rules.push_back({{"id", rule.id},
                     {"name", rule.name},
                     {"shortDescription", {{"text", rule.summary}}},
                     {"defaultConfiguration",
                      {{"level", SeverityName(rule.default_severity)}}}});
  }
  return rules;
}

nlohmann::json SarifLog(nlohmann::json results) {
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs",
           nlohmann::json::array({{{"tool",
                                    {{"driver",
                                      {{"name", "regexguard"},
                                       {"version", ROBOTSCAN_VERSION_STRING},
                                       {"rules", SarifRules()}}}}},
                                   {"results", std::move(results)}}})}};
}

}  // namespace

nlohmann::json FindingsToSarif(const std::vector<Finding>& findings) {
  const nlohmann::json rules = SarifRules();
  nlohmann::json out = nlohmann::json::array();
  for (const Finding& finding : findings) {
    if (!finding.reported) continue;
    std::string path = finding.path;
    while (path.rfind("./", 0) == 0) path.erase(0, 2);
    const std::string uri = !path.empty() && path.front() == '/'
                                ? "file://" + EncodeUriPath(path)
                                : EncodeUriPath(path);
    const auto rule = std::find_if(
        rules.begin(), rules.end(),
        [&](const nlohmann::json& r) { return r["id"] == finding.rule; });
    nlohmann::json region = {
        {"startLine", std::max<std::size_t>(finding.line, 1)},
        {"startColumn", std::max<std::size_t>(finding.column, 1)}};
    const std::string attack = DescribeAttack(finding);
    nlohmann::json& result = out.emplace_back(nlohmann::json{
        {"ruleId", finding.rule},
        {"ruleIndex", rule - rules.begin()},
        {"level", SeverityName(finding.severity)},
        {"message",
         {{"text", finding.message + (attack.empty() ? "" : "; " + attack)}}},
        {"locations",
         nlohmann::json::array(
             {{{"physicalLocation",
                {{"artifactLocation", {{"uri", uri}}}, {"region", region}}}}})},
        {"partialFingerprints",
         {{"regexguardFinding/v1", finding.fingerprint}}}});
    // SARIF's property bag: the engine versions the finding holds for.
    if (finding.verdict && !finding.verdict->versions.empty()) {
      result["properties"] = {{"versions", finding.verdict->versions}};
    }
  }
  return SarifLog(std::move(out));
}

nlohmann::json FindingToJson(const Finding& finding, bool with_baseline) {
  const RegexLiteral& literal = finding.literal;
  nlohmann::json out = {
      {"path", finding.path},
      {"line", finding.line},
      {"column", finding.column},
      {"pattern", literal.pattern},
      {"flags", PatternFlagLetters(literal.flags)},
      {"dialect", DialectName(literal.dialect)},
      {"call", literal.call},
      {"severity", SeverityName(finding.severity)},
      {"rule", finding.rule.empty() ? nlohmann::json(nullptr)
                                    : nlohmann::json(finding.rule)},
      {"suppressed", literal.suppression ? nlohmann::json(*literal.suppression)
                                         : nlohmann::json(nullptr)},
  };
  if (with_baseline) out["baselined"] = finding.baselined;
  if (finding.injection) {
    // Regex injection: the pattern is the sink's argument as written.
    out["injection"] = {{"source", finding.injection->source},
                        {"source_line", finding.injection->source_line},
                        {"linear_engine", finding.injection->linear_engine}};
  }
  if (!finding.verdict) return out;
  const PatternVerdict& verdict = *finding.verdict;
  out["verdict"] = VerdictName(verdict.verdict);
  out["degree"] = verdict.verdict == Verdict::kPolynomial
                      ? nlohmann::json(verdict.degree)
                      : nlohmann::json(nullptr);
  out["cause"] = CauseName(verdict.cause);
  out["attack"] = AttackToJson(verdict.attack);
  if (verdict.verdict == Verdict::kUnknown) out["reason"] = verdict.reason;
  if (!verdict.versions.empty()) out["versions"] = verdict.versions;
  return out;
}

nlohmann::json ReportToJson(const AnalysisReport& report,
                            const PatternInput& input) {
  nlohmann::json out;
  if (input.id) out["id"] = *input.id;
  if (input.line > 0) out["line"] = input.line;
  out["pattern"] = report.pattern;
  out["dialect"] = std::string(DialectName(report.dialect));
  out["verdict"] = std::string(VerdictName(report.verdict));
  out["degree"] = report.verdict == Verdict::kPolynomial
                      ? nlohmann::json(report.degree)
                      : nlohmann::json(nullptr);
  // One word for the growth class: "exponential", "polynomial(2)",
  // "linear" (safe) or "unknown".
  switch (report.verdict) {
    case Verdict::kExponential:
      out["complexity"] = "exponential";
      break;
    case Verdict::kPolynomial:
      out["complexity"] = "polynomial(" + std::to_string(report.degree) + ")";
      break;
    case Verdict::kSafe:
      out["complexity"] = "linear";
      break;
    case Verdict::kUnknown:
      out["complexity"] = "unknown";
      break;
  }
  out["cause"] = report.cause == Cause::kNone
                     ? nlohmann::json(nullptr)
                     : nlohmann::json(std::string(CauseName(report.cause)));
  out["attack"] = AttackToJson(report.attack);
  nlohmann::json steps = nlohmann::json::object();
  nlohmann::json engines = nlohmann::json::object();
  for (const EngineMeasurement& m : report.measurements) {
    const std::string name(EngineConfigName(m.config));
    nlohmann::json points = nlohmann::json::array();
    for (const GrowthPoint& p : m.points) {
      points.push_back({{"n", p.pump_count},
                        {"length", p.subject_length},
                        {"steps", p.steps},
                        {"exceeded", p.step_budget_exceeded},
                        {"matched", p.matched},
                        {"seconds", p.seconds}});
    }
    steps[name] = std::move(points);
    engines[name] = {
        {"available", m.available},
        {"growth", GrowthName(m.growth)},
        {"degree", m.growth == Growth::kPolynomial ? nlohmann::json(m.degree)
                                                   : nlohmann::json(nullptr)},
        {"exponent", m.fitted_exponent}};
  }
  out["steps"] = std::move(steps);
  out["engines"] = std::move(engines);
  nlohmann::json exploding = nlohmann::json::array();
  for (const EngineConfig config : report.exploding_configs) {
    exploding.push_back(std::string(EngineConfigName(config)));
  }
  out["exploding_configs"] = std::move(exploding);
  // Each configuration's own verdict and what it rests on (coverage
  // "exhausted": its own attack search measured every promising shape;
  // "cut-short"; "other-attack": only the reported attack was measured;
  // "unavailable").
  nlohmann::json configs = nlohmann::json::object();
  for (const ConfigVerdict& v : report.configs) {
    configs[std::string(EngineConfigName(v.config))] = {
        {"growth", GrowthName(v.growth)},
        {"degree", v.growth == Growth::kPolynomial ? nlohmann::json(v.degree)
                                                   : nlohmann::json(nullptr)},
        {"explodes", v.Explodes()},
        {"coverage", std::string(SearchCoverageName(v.coverage))},
        {"shapes_measured", v.shapes_measured},
        {"attack", AttackToJson(v.attack)}};
  }
  out["configs"] = std::move(configs);
  if (report.attack) {
    out["re2"] = {
        {"accepted", report.re2.accepted},
        {"refusal", report.re2.refusal},
        {"same_result", report.re2.same_result},
        {"inputs_compared", report.re2.inputs_compared},
        {"microseconds_at_longest", report.re2.microseconds_at_longest}};
  } else {
    out["re2"] = nullptr;
  }
  nlohmann::json culprits = nlohmann::json::array();
  for (const Culprit& c : report.culprits) {
    culprits.push_back(
        {{"begin", c.span.begin}, {"end", c.span.end}, {"role", c.role}});
  }
  out["culprits"] = std::move(culprits);
  out["explanation"] = report.explanation;
  out["fix_hints"] = report.fix_hints;
  if (report.verdict == Verdict::kUnknown)
    out["reason"] = report.unknown_reason;
  // Engine versions (added fields): for which versions the verdict holds,
  // the defence that made it safe, and each defence's reach.
  out["versions"] = report.versions.empty() ? nlohmann::json(nullptr)
                                            : nlohmann::json(report.versions);
  out["defended_by"] =
      report.defended_by
          ? nlohmann::json(std::string(EngineDefenceName(*report.defended_by)))
          : nlohmann::json(nullptr);
  out["defences"] = DefencesToJson(report.defences);
  if (report.error) {
    out["error"] = {
        {"message", report.error->message()},
        {"begin", report.error->span() ? report.error->span()->begin : 0},
        {"end", report.error->span() ? report.error->span()->end : 0}};
  }
  return out;
}

nlohmann::json ReportsToSarif(const std::vector<AnalysisReport>& reports,
                              const std::vector<PatternInput>& inputs,
                              const std::string& artifact_uri) {
  nlohmann::json results = nlohmann::json::array();
  for (std::size_t i = 0; i < reports.size(); ++i) {
    const AnalysisReport& report = reports[i];
    if (!IsFinding(report)) continue;
    const Classification classification =
        ClassifyVerdict(VerdictOf(report), Severity::kWarning);
    std::string text = std::string(VerdictName(report.verdict));
    if (report.verdict == Verdict::kPolynomial) {
      text += " (degree " + std::to_string(report.degree) + ")";
    }
    text += " backtracking in `" + report.pattern + "`";
    if (report.attack) {
      text += "; attack: prefix " +
              nlohmann::json(report.attack->prefix).dump() + " + pump " +
              nlohmann::json(report.attack->pump).dump() + " * n + suffix " +
              nlohmann::json(report.attack->suffix).dump();
    }
    if (!report.explanation.empty()) text += ". " + report.explanation;
    nlohmann::json region = {{"startLine", std::max(inputs[i].line, 1)}};
    if (!report.culprits.empty()) {
      region["startColumn"] = report.culprits.front().span.begin + 1;
      region["endColumn"] = report.culprits.front().span.end + 1;
    }
    nlohmann::json result = {
        {"ruleId", classification.rule},
        {"level", SeverityName(classification.severity)},
        {"message", {{"text", text}}},
        {"locations", nlohmann::json::array(
                          {{{"physicalLocation",
                             {{"artifactLocation", {{"uri", artifact_uri}}},
                              {"region", region}}}}})}};
    // SARIF's property bag: the engine versions the finding holds for.
    if (!report.versions.empty()) {
      result["properties"] = {{"versions", report.versions},
                              {"defences", DefencesToJson(report.defences)}};
    }
    results.push_back(std::move(result));
  }
  return SarifLog(std::move(results));
}

}  // namespace robotscan::regexguard::cli
