// JSON: every number of the Report, unrounded, each share as
// {"count", "denominator", "percent"} so that no figure lacks its base.
#include <nlohmann/json.hpp>
#include <string>

#include "render_internal.h"

namespace robotscan::report {
namespace {

using nlohmann::ordered_json;

ordered_json ShareJson(const Share& share) {
  return {{"count", share.count},
          {"denominator", share.denominator},
          {"percent", share.percent()}};
}

ordered_json BucketsJson(const std::vector<Bucket>& buckets) {
  ordered_json out = ordered_json::array();
  for (const Bucket& bucket : buckets) {
    ordered_json item = ShareJson(bucket.share);
    item["label"] = bucket.label;
    out.push_back(std::move(item));
  }
  return out;
}

ordered_json KeysJson(const std::vector<KeyCount>& keys, std::int64_t files) {
  ordered_json out = ordered_json::array();
  for (const KeyCount& key : keys) {
    ordered_json item = ShareJson({key.count, files});
    item["key"] = key.key;
    if (!key.written_as.empty()) item["written_as"] = key.written_as;
    out.push_back(std::move(item));
  }
  return out;
}

ordered_json AgentsJson(const std::vector<AgentRestriction>& agents) {
  ordered_json out = ordered_json::array();
  for (const AgentRestriction& agent : agents) {
    ordered_json item = {{"token", agent.token},
                         {"full_ban", ShareJson(agent.full_ban)},
                         {"partial", ShareJson(agent.partial)},
                         {"files_naming", agent.named}};
    if (!agent.written_as.empty()) item["written_as"] = agent.written_as;
    out.push_back(std::move(item));
  }
  return out;
}

ordered_json OutcomesJson(const OutcomeTable& table) {
  ordered_json strata = ordered_json::array();
  const auto no_response = static_cast<std::size_t>(Outcome::kNoResponse);
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    ordered_json categories = ordered_json::object();
    for (std::size_t o = 0; o < kOutcomeCount; ++o) {
      categories[std::string(OutcomeName(static_cast<Outcome>(o)))] =
          ShareJson({table.counts[s][o], table.domains[s]});
    }
    ordered_json errors = ordered_json::object();
    for (std::size_t e = 0; e < kNetworkErrorCount; ++e) {
      errors[std::string(NetworkErrorName(static_cast<NetworkError>(e)))] =
          ShareJson(
              {table.no_response_by_error[s][e], table.counts[s][no_response]});
    }
    strata.push_back({{"stratum", StratumName(s)},
                      {"max_rank", s < kStratumLimits.size()
                                       ? ordered_json(kStratumLimits[s])
                                       : ordered_json(nullptr)},
                      {"domains", table.domains[s]},
                      {"missing_ranks", table.missing_ranks[s]},
                      {"categories", std::move(categories)},
                      {"no_response_by_error", std::move(errors)}});
  }
  return strata;
}

std::string ReadingName(std::size_t reading) {
  return std::string(robots::CompatName(kReadings[reading]));
}

ordered_json ByReading(const std::array<Share, kReadingCount>& shares) {
  ordered_json out = ordered_json::object();
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    out[ReadingName(r)] = ShareJson(shares[r]);
  }
  return out;
}

ordered_json SensitivityJson(const ParserSensitivity& sensitivity) {
  ordered_json crawlers = ordered_json::array();
  for (const ParserSensitivity::Crawler& crawler : sensitivity.crawlers) {
    crawlers.push_back(
        {{"agent", crawler.agent},
         {"full", ByReading(crawler.full)},
         {"full_files_differ", crawler.full_differ},
         {"singled_out", ByReading(crawler.singled_out)},
         {"singled_out_files_differ", crawler.singled_out_differ}});
  }
  ordered_json banned = ordered_json::object();
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    banned[ReadingName(r)] = AgentsJson(sensitivity.most_banned[r]);
  }
  ordered_json changes = ordered_json::array();
  for (const ReadingChange& change : sensitivity.changes) {
    ordered_json findings = ordered_json::array();
    for (const ReadingChange::Finding& finding : change.findings) {
      ordered_json answers = ordered_json::object();
      for (std::size_t r = 0; r < kReadingCount; ++r) {
        answers[ReadingName(r)] = finding.by_reading[r];
      }
      findings.push_back(
          {{"finding", finding.what}, {"by_reading", std::move(answers)}});
    }
    changes.push_back({{"domain", change.domain},
                       {"rank", change.rank},
                       {"findings", std::move(findings)}});
  }
  return {{"files", sensitivity.files},
          {"files_differ", sensitivity.files_differ},
          {"walled_gardens", ByReading(sensitivity.walled_gardens)},
          {"walled_gardens_files_differ", sensitivity.walled_gardens_differ},
          {"crawlers", std::move(crawlers)},
          {"most_banned", std::move(banned)},
          {"changes", std::move(changes)}};
}

ordered_json DomainsJson(const std::vector<RankedDomain>& domains) {
  ordered_json out = ordered_json::array();
  for (const RankedDomain& domain : domains) {
    out.push_back({{"domain", domain.domain}, {"rank", domain.rank}});
  }
  return out;
}

ordered_json ComparisonJson(const Comparison& comparison) {
  ordered_json transitions = ordered_json::array();
  for (std::size_t from = 0; from < kOutcomeCount; ++from) {
    for (std::size_t to = 0; to < kOutcomeCount; ++to) {
      const std::int64_t n = comparison.transitions[from][to];
      if (n == 0) continue;
      transitions.push_back(
          {{"from", OutcomeName(static_cast<Outcome>(from))},
           {"to", OutcomeName(static_cast<Outcome>(to))},
           {"domains", ShareJson({n, comparison.domains_in_both})}});
    }
  }
  ordered_json crawlers = ordered_json::array();
  for (const Comparison::Crawler& crawler : comparison.crawlers) {
    crawlers.push_back(
        {{"agent", crawler.agent},
         {"full_before",
          ShareJson({crawler.full_before, comparison.domains_in_both})},
         {"full_now",
          ShareJson({crawler.full_after, comparison.domains_in_both})},
         {"started", ShareJson(crawler.started)},
         {"stopped", ShareJson(crawler.stopped)},
         {"started_by", DomainsJson(crawler.started_by)},
         {"stopped_by", DomainsJson(crawler.stopped_by)}});
  }
  ordered_json changed = ordered_json::array();
  for (const ChangedFile& file : comparison.changed_files) {
    changed.push_back({{"domain", file.domain},
                       {"rank", file.rank},
                       {"bytes_before", file.bytes_before},
                       {"bytes_now", file.bytes_after},
                       {"rules_before", file.rules_before},
                       {"rules_now", file.rules_after}});
  }
  ordered_json sitemaps = ordered_json::array();
  for (const SitemapChange& change : comparison.sitemap_changes) {
    sitemaps.push_back({{"domain", change.domain},
                        {"rank", change.rank},
                        {"added", change.added},
                        {"removed", change.removed},
                        {"example_added", change.example_added},
                        {"example_removed", change.example_removed}});
  }
  return {{"older", comparison.older},
          {"older_first_fetched_at", comparison.older_first_fetched_at},
          {"older_last_fetched_at", comparison.older_last_fetched_at},
          {"older_domains", comparison.older_domains},
          {"domains_in_both", comparison.domains_in_both},
          {"new_domains", comparison.new_domains},
          {"gone_domains", comparison.gone_domains},
          {"outcome_transitions", std::move(transitions)},
          {"files_in_both", comparison.files_in_both},
          {"files_changed", ShareJson(comparison.files_changed)},
          {"changed_files", std::move(changed)},
          {"crawlers", std::move(crawlers)},
          {"sitemaps_added", ShareJson(comparison.sitemaps_added)},
          {"sitemaps_removed", ShareJson(comparison.sitemaps_removed)},
          {"sitemap_urls_added", comparison.sitemap_urls_added},
          {"sitemap_urls_removed", comparison.sitemap_urls_removed},
          {"sitemap_changes", std::move(sitemaps)}};
}

}  // namespace

std::string RenderJson(const Report& report) {
  ordered_json root;
  root["domains"] = report.domains;
  // report --period: each domain's newest capture in this period.
  if (!report.period.empty()) root["period"] = report.period;
  root["first_fetched_at"] = report.first_fetched_at;
  root["last_fetched_at"] = report.last_fetched_at;
  root["compat"] = robots::CompatName(report.compat);
  root["generic_agent"] = report.generic_agent;
  // What the denominators of the shares below are, by name.
  root["denominators"] = {
      {"domains", "rows of latest_fetch (per stratum in outcomes)"},
      {"robots_txt_files",
       "2xx answers that are not HTML or a non-text MIME type: " +
           std::to_string(report.facts.files)},
      {"two_xx_bodies", "domains with a 2xx body (shared_files): " +
                            std::to_string(report.facts.two_xx_bodies)}};
  root["outcomes"] = OutcomesJson(report.outcomes);
  root["missing_rank_examples"] = report.outcomes.missing_rank_examples;

  const WalledGardens& walled = report.walled_gardens;
  ordered_json gardens = ordered_json::array();
  for (const WalledGarden& garden : walled.best_ranked) {
    gardens.push_back({{"domain", garden.domain},
                       {"rank", garden.rank},
                       {"bingbot_allowed", garden.bingbot_allowed},
                       {"duckduckbot_allowed", garden.duckduckbot_allowed}});
  }
  root["walled_gardens"] = {
      {"sites", ShareJson(walled.sites)},
      {"bingbot_allowed", ShareJson(walled.bingbot_allowed)},
      {"duckduckbot_allowed", ShareJson(walled.duckduckbot_allowed)},
      {"best_ranked", std::move(gardens)}};

  const BannedAgents& banned = report.banned_agents;
  root["banned_agents"] = {
      {"files", banned.files},
      {"distinct_tokens", banned.distinct_tokens},
      {"untracked_mentions", banned.untracked_mentions},
      {"most_banned", AgentsJson(banned.most_banned)},
      {"most_restricted", AgentsJson(banned.most_restricted)}};

  ordered_json crawlers = ordered_json::array();
  for (const CrawlerBlocking& crawler : report.blocking.crawlers) {
    crawlers.push_back({{"agent", crawler.agent},
                        {"full", ShareJson(crawler.full)},
                        {"partial", ShareJson(crawler.partial)},
                        {"singled_out", ShareJson(crawler.singled_out)},
                        {"named", ShareJson(crawler.named)}});
  }
  root["blocking_matrix"] = {{"files", report.blocking.files},
                             {"crawlers", std::move(crawlers)}};

  const RegistryMatrix& matrix = report.registry_blocking;
  ordered_json purposes = ordered_json::array();
  for (const PurposeBlocking& p : matrix.purposes) {
    purposes.push_back({{"purpose", AgentPurposeName(p.purpose)},
                        {"agents", p.agents},
                        {"any_full", ShareJson(p.any_full)},
                        {"all_full", ShareJson(p.all_full)},
                        {"any_named", ShareJson(p.any_named)}});
  }
  ordered_json registry_agents = ordered_json::array();
  for (const RegistryAgentBlocking& agent : matrix.agents) {
    registry_agents.push_back({{"token", agent.token},
                               {"name", agent.name},
                               {"operator", agent.operator_name},
                               {"purpose", AgentPurposeName(agent.purpose)},
                               {"full", ShareJson(agent.full)},
                               {"partial", ShareJson(agent.partial)},
                               {"singled_out", ShareJson(agent.singled_out)},
                               {"named", ShareJson(agent.named)}});
  }
  const AiPreferences& ai = report.ai_preferences;
  ordered_json presence = ordered_json::array();
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    ordered_json row = {{"stratum", StratumName(stratum)},
                        {"files", ai.presence[stratum][0].denominator}};
    for (std::size_t k = 0; k < kAiSignalNames.size(); ++k) {
      row[std::string(kAiSignalNames[k])] = ShareJson(ai.presence[stratum][k]);
    }
    presence.push_back(std::move(row));
  }
  ordered_json ai_purposes = ordered_json::array();
  for (const AiPreferences::PurposeOut& p : ai.purposes) {
    ai_purposes.push_back({{"purpose", AgentPurposeName(p.purpose)},
                           {"by_rules", ShareJson(p.by_rules)},
                           {"by_preference", ShareJson(p.by_preference)},
                           {"by_either", ShareJson(p.by_either)},
                           {"by_both", ShareJson(p.by_both)}});
  }
  ordered_json contradictions = ordered_json::array();
  for (const AiPreferences::Contradiction& c : ai.contradictions) {
    ordered_json listed = ordered_json::array();
    for (const RankedDomain& d : c.domains) {
      listed.push_back({{"domain", d.domain}, {"rank", d.rank}});
    }
    contradictions.push_back(
        {{"kind", kAiContradictionNames[static_cast<std::size_t>(c.kind)]},
         {"files", ShareJson(c.files)},
         {"domains", std::move(listed)}});
  }
  // Signals outside robots.txt (crawl --signals): by stratum, each a share
  // of the stratum's domains whose signals were fetched.
  ordered_json signal_domains = ordered_json::object();
  ordered_json outside = ordered_json::object();
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    const std::string name(StratumName(stratum));
    signal_domains[name] = ai.signal_domains[stratum];
    ordered_json row = ordered_json::object();
    for (std::size_t k = 0; k < kOutsideSignalNames.size(); ++k) {
      row[std::string(kOutsideSignalNames[k])] =
          ShareJson(ai.outside[stratum][k]);
    }
    outside[name] = std::move(row);
  }
  root["ai_preferences"] = {{"files", ai.files},
                            {"presence", std::move(presence)},
                            {"purposes", std::move(ai_purposes)},
                            {"contradictions", std::move(contradictions)},
                            {"domains_listed_cap", ai.domains_listed_cap},
                            {"signals",
                             {{"domains", std::move(signal_domains)},
                              {"presence", std::move(outside)}}}};

  root["registry_matrix"] = {{"origin", matrix.origin},
                             {"files", matrix.files},
                             {"purposes", std::move(purposes)},
                             {"agents", std::move(registry_agents)}};

  const CommentFindings& comments = report.comments;
  ordered_json findings = ordered_json::array();
  for (const CommentFinding& finding : comments.findings) {
    findings.push_back({{"text", finding.text},
                        {"domain", finding.domain},
                        {"rank", finding.rank},
                        {"domains", finding.domains}});
  }
  root["comment_findings"] = {
      {"files_with_comments", ShareJson(comments.files_with_comments)},
      {"files_with_findings", ShareJson(comments.files_with_findings)},
      {"distinct_findings", comments.distinct_findings},
      {"untracked_findings", comments.untracked_findings},
      {"findings", std::move(findings)}};

  const FileFacts& facts = report.facts;
  ordered_json shared = ordered_json::array();
  for (const SharedFile& file : facts.shared_files) {
    shared.push_back({{"sha256", file.sha256},
                      {"domains", ShareJson(file.domains)},
                      {"bytes", file.bytes},
                      {"example_domain", file.example_domain},
                      {"example_rank", file.example_rank},
                      {"excerpt", file.excerpt}});
  }
  root["file_facts"] = {
      {"files", facts.files},
      {"size_bytes",
       {{"p50", facts.size_p50},
        {"p90", facts.size_p90},
        {"p99", facts.size_p99},
        {"max", facts.size_max}}},
      {"size_buckets", BucketsJson(facts.size_buckets)},
      {"truncated", ShareJson(facts.truncated)},
      {"line_endings",
       {{"lf", ShareJson(facts.lf)},
        {"crlf", ShareJson(facts.crlf)},
        {"cr", ShareJson(facts.cr)},
        {"mixed", ShareJson(facts.mixed_endings)},
        {"none", ShareJson(facts.no_line_end)}}},
      {"bom", ShareJson(facts.bom)},
      {"not_utf8", ShareJson(facts.not_utf8)},
      {"crawl_delay", ShareJson(facts.crawl_delay)},
      {"crawl_delay_outside_group", ShareJson(facts.crawl_delay_outside_group)},
      {"crawl_delay_not_a_number", ShareJson(facts.crawl_delay_not_a_number)},
      {"crawl_delay_values", BucketsJson(facts.crawl_delay_values)},
      {"sitemap", ShareJson(facts.sitemap)},
      {"sitemap_lines", facts.sitemap_lines},
      {"sitemaps_per_file", BucketsJson(facts.sitemaps_per_file)},
      {"host", ShareJson(facts.host)},
      {"clean_param", ShareJson(facts.clean_param)},
      {"unknown_directive", ShareJson(facts.unknown_directive)},
      {"unknown_keys", KeysJson(facts.unknown_keys, facts.files)},
      {"untracked_unknown_keys", facts.untracked_unknown_keys},
      {"lint_error", ShareJson(facts.lint_error)},
      {"lint_codes", KeysJson(facts.lint_codes, facts.files)},
      {"agent_tokens", KeysJson(facts.agent_tokens, facts.files)},
      {"two_xx_bodies", facts.two_xx_bodies},
      {"shared_files", std::move(shared)}};
  if (report.sensitivity.computed) {
    root["parser_sensitivity"] = SensitivityJson(report.sensitivity);
  }
  if (report.comparison.computed) {
    root["comparison"] = ComparisonJson(report.comparison);
  }
  // Crawled text need not be UTF-8; invalid bytes become U+FFFD instead of
  // an exception.
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) +
         "\n";
}

}  // namespace robotscan::report
