#include "document.h"

#include "robotscan/robots/preferences.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

namespace robotscan::report {
namespace {

Cell Text(std::string text) {
  Cell cell;
  cell.raw = text;
  cell.text = std::move(text);
  return cell;
}

Cell Number(std::int64_t value) {
  return Cell{FormatCount(value), true, static_cast<double>(value),
              std::to_string(value), std::nullopt};
}

Cell RankCell(std::int64_t rank) {
  if (rank <= 0) return Cell{"-", true, 1e18, "", std::nullopt};
  return Number(rank);
}

Cell YesNo(bool yes) { return Text(yes ? "yes" : "no"); }

// A token as the matcher reads it, and the name it was cut from.
std::string TokenText(const std::string& token, const std::string& written) {
  return written.empty() ? token : token + " (from " + written + ")";
}

std::string ReadingTitle(std::size_t reading) {
  switch (kReadings[reading]) {
    case robots::Compat::kRfc9309:
      return "RFC 9309";
    case robots::Compat::kGoogle:
      return "Google";
    case robots::Compat::kUrllib:
      return "urllib";
  }
  return "?";
}

std::string Sentence(const Share& share, std::string_view what) {
  std::string text =
      FormatCount(share.count) + " of " + FormatCount(share.denominator);
  if (!what.empty()) text += " " + std::string(what);
  return text + " (" + FormatPercent(share) + ")";
}

Section OutcomesSection(const Report& report) {
  Section section;
  section.id = "outcomes";
  section.title = "1. Outcome categories";
  section.paragraphs.push_back(
      "Each domain falls in exactly one category. Strata are cumulative (top "
      "10k includes top 1k); unranked domains count only in \"all\". "
      "Denominator of each column: the domains in that stratum (last row).");
  const OutcomeTable& table = report.outcomes;
  Table counts;
  counts.name = "outcomes";
  counts.caption = "Outcome per domain, by rank stratum";
  counts.denominator = "domains in the stratum (column)";
  counts.headers.push_back("Category");
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    counts.headers.emplace_back(StratumName(s));
  }
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    std::vector<Cell> row{
        Text(std::string(OutcomeTitle(static_cast<Outcome>(o))))};
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      row.push_back(ShareCell({table.counts[s][o], table.domains[s]}));
    }
    counts.rows.push_back(std::move(row));
  }
  std::vector<Cell> totals{Text("Domains (denominator)")};
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    totals.push_back(Number(table.domains[s]));
  }
  counts.rows.push_back(std::move(totals));
  counts.last_row_is_total = true;

  BarChart chart;
  chart.title = "Outcome shares by rank stratum";
  chart.denominator = counts.denominator;
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    chart.series.emplace_back(OutcomeTitle(static_cast<Outcome>(o)));
  }
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    BarChart::Bar bar{std::string(StratumName(s)), {}};
    for (std::size_t o = 0; o < kOutcomeCount; ++o) {
      bar.percents.push_back(
          Share{table.counts[s][o], table.domains[s]}.percent());
    }
    chart.bars.push_back(std::move(bar));
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(counts));

  Table errors;
  errors.name = "no-response-errors";
  errors.caption = "No response, by error class";
  errors.denominator = "domains with no response in the stratum (column)";
  errors.headers.push_back("Error class");
  for (std::size_t s = 0; s < kStratumCount; ++s) {
    errors.headers.emplace_back(StratumName(s));
  }
  const auto no_response = static_cast<std::size_t>(Outcome::kNoResponse);
  for (std::size_t e = 0; e < kNetworkErrorCount; ++e) {
    std::vector<Cell> row{
        Text(std::string(NetworkErrorName(static_cast<NetworkError>(e))))};
    for (std::size_t s = 0; s < kStratumCount; ++s) {
      row.push_back(ShareCell(
          {table.no_response_by_error[s][e], table.counts[s][no_response]}));
    }
    errors.rows.push_back(std::move(row));
  }
  section.blocks.emplace_back(std::move(errors));

  // Ranks of the list that have no domain: entries the crawl skipped.
  Table skipped;
  skipped.name = "skipped-list-entries";
  skipped.caption = "List ranks without a domain (entries the crawl skipped)";
  skipped.denominator = "none (counts of ranks)";
  skipped.headers = {"Stratum", "Domains", "Ranks without a domain"};
  bool any_missing = false;
  for (std::size_t s = 0; s + 1 < kStratumCount; ++s) {
    any_missing = any_missing || table.missing_ranks[s] > 0;
    skipped.rows.push_back({Text(std::string(StratumName(s))),
                            Number(table.domains[s]),
                            Number(table.missing_ranks[s])});
  }
  if (any_missing) {
    std::string examples;
    for (std::int64_t rank : table.missing_rank_examples) {
      examples += (examples.empty() ? "" : ", ") + FormatCount(rank);
    }
    const std::int64_t missing = table.missing_ranks[kStratumCount - 2];
    section.paragraphs.push_back(
        FormatCount(missing) +
        (missing == 1 ? " rank of the list has" : " ranks of the list have") +
        " no domain in the database (first: " + examples +
        "): the crawl skipped those entries (an IP address or a malformed "
        "line instead of a domain), so a stratum can hold fewer domains "
        "than its name says.");
    section.blocks.emplace_back(std::move(skipped));
  }
  return section;
}

Section WalledGardenSection(const Report& report) {
  const WalledGardens& walled = report.walled_gardens;
  Section section;
  section.id = "walled-gardens";
  section.title = "2. Walled gardens";
  section.paragraphs.push_back(
      Sentence(walled.sites, "robots.txt files") +
      " let Googlebot fetch / but not a generic crawler (token \"" +
      report.generic_agent + "\", governed by the * group).");
  section.paragraphs.push_back(
      "Of these walled gardens, Bingbot may fetch / on " +
      Sentence(walled.bingbot_allowed, "") + " and DuckDuckBot on " +
      Sentence(walled.duckduckbot_allowed, "") + ".");
  Table table;
  table.name = "walled-gardens";
  table.caption = "Best-ranked walled gardens";
  table.denominator = "none (a ranked list)";
  table.headers = {"Rank", "Domain", "Bingbot may fetch /",
                   "DuckDuckBot may fetch /"};
  for (const WalledGarden& garden : walled.best_ranked) {
    table.rows.push_back({RankCell(garden.rank), Text(garden.domain),
                          Text(garden.bingbot_allowed ? "yes" : "no"),
                          Text(garden.duckduckbot_allowed ? "yes" : "no")});
  }
  section.blocks.emplace_back(std::move(table));
  return section;
}

Table AgentTable(std::string name, std::string caption,
                 const std::vector<AgentRestriction>& agents, bool full) {
  Table table;
  table.name = std::move(name);
  table.caption = std::move(caption);
  table.denominator = "robots.txt files";
  table.headers = {
      "#", "User-agent token",
      full ? "Full ban (Disallow: /, no allow)" : "Partial restriction",
      "Files naming it"};
  std::int64_t position = 0;
  for (const AgentRestriction& agent : agents) {
    table.rows.push_back({Number(++position),
                          Text(TokenText(agent.token, agent.written_as)),
                          ShareCell(full ? agent.full_ban : agent.partial),
                          Number(agent.named)});
  }
  return table;
}

Section BannedAgentsSection(const Report& report) {
  const BannedAgents& banned = report.banned_agents;
  Section section;
  section.id = "banned-agents";
  section.title = "3. Most-banned user agents";
  section.paragraphs.push_back(
      "A full ban: the matcher refuses / to the agent and no allow rule of "
      "its groups opens anything. A partial restriction: some disallow "
      "applies, but not a full ban. Denominator: " +
      FormatCount(banned.files) + " robots.txt files. " +
      FormatCount(banned.distinct_tokens) + " distinct tokens tracked" +
      (banned.untracked_mentions > 0
           ? ", " + FormatCount(banned.untracked_mentions) +
                 " mentions beyond the tracking budget."
           : "."));
  section.paragraphs.push_back(
      "Tokens are read as the matcher reads a user-agent line (RFC 9309 "
      "\u00a72.2.1 product tokens: letters, '-' and '_'; the rest of the "
      "name is ignored, as by Google's parser), so \"User-agent: MJ12bot\" "
      "is a group for \"mj\" and \"Googlebot/2.1\" one for "
      "\"googlebot\"; \"(from ...)\" gives the name most often written. "
      "Part 7 shows the same list as CPython's urllib.robotparser reads it, "
      "which keeps whole names.");
  BarChart chart;
  chart.title = "Share of robots.txt files that fully ban the agent";
  chart.denominator = "robots.txt files";
  chart.series = {"Full ban"};
  for (std::size_t i = 0; i < banned.most_banned.size() && i < 15; ++i) {
    chart.bars.push_back({TokenText(banned.most_banned[i].token,
                                    banned.most_banned[i].written_as),
                          {banned.most_banned[i].full_ban.percent()}});
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(AgentTable(
      "most-banned", "Most fully banned agents", banned.most_banned, true));
  section.blocks.emplace_back(AgentTable("most-restricted",
                                         "Most partially restricted agents",
                                         banned.most_restricted, false));
  return section;
}

// Parts 4 and 4b chart full blocks and singled-out agents side by side.
BarChart BlockingChart(std::string title) {
  BarChart chart;
  chart.title = std::move(title);
  chart.denominator = "robots.txt files";
  chart.series = {"Full block",
                  "Singled out (own group refuses /, Googlebot allowed)"};
  chart.grouped = true;
  return chart;
}

Section BlockingSection(const Report& report) {
  const BlockingMatrix& matrix = report.blocking;
  Section section;
  section.id = "blocking";
  section.title = "4. Blocking matrix for named crawlers";
  section.paragraphs.push_back(
      "Computed with the " +
      std::string(ReadingTitle(ReadingIndex(report.compat))) +
      " reading: an agent without a group of its own is governed by the * "
      "group. Full block: / refused and no allow rule applies. Singled out: "
      "a group naming the crawler refuses / while Googlebot may fetch / — "
      "the figure that says a site turns this crawler away. Some paths "
      "disallowed (partial block): any non-empty Disallow governs the "
      "crawler, such as /wp-admin/ in the * group, so it is high for every "
      "crawler and says little about any one of them; it is left out of the "
      "chart. Denominator: " +
      FormatCount(matrix.files) + " robots.txt files.");
  BarChart chart = BlockingChart(
      "Share of robots.txt files that fully block or single out each crawler");
  Table table;
  table.name = "blocking";
  table.caption = "Blocking per crawler";
  table.denominator = "robots.txt files";
  table.headers = {"Crawler", "Full block", "Singled out (Googlebot allowed)",
                   "Named in a group", "Some paths disallowed (partial)"};
  for (const CrawlerBlocking& crawler : matrix.crawlers) {
    chart.bars.push_back(
        {crawler.agent,
         {crawler.full.percent(), crawler.singled_out.percent()}});
    table.rows.push_back({Text(crawler.agent), ShareCell(crawler.full),
                          ShareCell(crawler.singled_out),
                          ShareCell(crawler.named),
                          ShareCell(crawler.partial)});
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
  return section;
}

Section RegistrySection(const Report& report, std::size_t top) {
  const RegistryMatrix& matrix = report.registry_blocking;
  Section section;
  section.id = "registry";
  section.title = "4b. The agent registry by purpose";
  section.paragraphs.push_back(
      "The blocking matrix for every agent of the registry (" + matrix.origin +
      "): " + FormatCount(static_cast<std::int64_t>(matrix.agents.size())) +
      " agents, each under its product token as a file's User-agent line "
      "names it (robotscan agents lists them), in the " +
      std::string(ReadingTitle(ReadingIndex(report.compat))) +
      " reading. Denominator: " + FormatCount(matrix.files) +
      " robots.txt files.");
  Table purposes;
  purposes.name = "blocking-registry-purposes";
  purposes.caption = "Who keeps each purpose class out";
  purposes.denominator = "robots.txt files";
  purposes.headers = {"Purpose", "Agents", "Fully block at least one",
                      "Fully block all", "Name at least one in a group"};
  for (const PurposeBlocking& p : matrix.purposes) {
    purposes.rows.push_back({Text(std::string(AgentPurposeName(p.purpose))),
                             Number(p.agents), ShareCell(p.any_full),
                             ShareCell(p.all_full), ShareCell(p.any_named)});
  }
  // The chart: the agents most often fully blocked, so it stays readable
  // whatever the registry's size; every agent is in the table below.
  std::vector<const RegistryAgentBlocking*> ranked;
  for (const RegistryAgentBlocking& agent : matrix.agents) {
    ranked.push_back(&agent);
  }
  std::stable_sort(
      ranked.begin(), ranked.end(),
      [](const RegistryAgentBlocking* a, const RegistryAgentBlocking* b) {
        return a->full.count > b->full.count;
      });
  if (ranked.size() > top) ranked.resize(top);
  BarChart chart = BlockingChart("The " + std::to_string(ranked.size()) +
                                 " registry agents most often fully blocked");
  chart.label_width = 230;
  for (const RegistryAgentBlocking* agent : ranked) {
    chart.bars.push_back(
        // The registry's name reads better than a cut token ("MJ12bot",
        // not "MJ"); the table gives both.
        {agent->name + " (" + std::string(AgentPurposeName(agent->purpose)) +
             ")",
         {agent->full.percent(), agent->singled_out.percent()}});
  }
  Table table;
  table.name = "blocking-registry";
  table.caption = "Blocking per registry agent, by purpose";
  table.denominator = "robots.txt files";
  table.headers = {"Agent (token)",
                   "Purpose",
                   "Operator",
                   "Full block",
                   "Singled out (Googlebot allowed)",
                   "Named in a group",
                   "Some paths disallowed (partial)"};
  table.text_rows = top;
  for (const RegistryAgentBlocking& agent : matrix.agents) {
    table.rows.push_back(
        {Text(agent.token == agent.name
                  ? agent.token
                  : agent.token + " (from " + agent.name + ")"),
         Text(std::string(AgentPurposeName(agent.purpose))),
         Text(agent.operator_name.empty() ? "-" : agent.operator_name),
         ShareCell(agent.full), ShareCell(agent.singled_out),
         ShareCell(agent.named), ShareCell(agent.partial)});
  }
  section.blocks.emplace_back(std::move(purposes));
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
  return section;
}

std::string ContradictionTitle(AiContradiction kind) {
  switch (kind) {
    case AiContradiction::kAiTrainNoButTrainingAllowed:
      return "Content-Signal ai-train=no, but no training crawler has any "
             "path disallowed";
    case AiContradiction::kTrainAiYesButGptBotBlocked:
      return "Content-Usage train-ai=y, but GPTBot may not fetch /";
    case AiContradiction::kTdmReservationButAiCrawlersAllowed:
      return "A TDMRep reservation, but robots.txt keeps no AI training "
             "crawler out (of domains with signals)";
  }
  return "";
}

Section AiPreferencesSection(const Report& report) {
  const AiPreferences& ai = report.ai_preferences;
  Section section;
  section.id = "ai-preferences";
  section.title = "9. AI preferences";
  section.paragraphs.push_back(
      "The usage-preference lines of robots.txt files: Content-Usage (IETF "
      "aipref, " +
      std::string(robots::kAiprefAttachDraft) + " with " +
      std::string(robots::kAiprefVocabulary) +
      "), Content-Signal (Cloudflare) and License (RSL), and Cloudflare's "
      "managed robots.txt (recognised by its comments), read as " +
      std::string(report.compat == robots::Compat::kGoogle ? "Google"
                                                           : "RFC 9309") +
      " reads the file. A preference applies only where the agent may crawl "
      "(the draft's rule), so a class kept out by rules at / has no "
      "preference there. Denominator: " +
      FormatCount(ai.files) + " robots.txt files.");
  const std::int64_t signal_domains = ai.signal_domains[kStratumCount - 1];
  section.paragraphs.push_back(
      signal_domains == 0
          ? "Signals outside robots.txt (llms.txt, TDMRep, X-Robots-Tag, "
            "Content-Usage and tdm-reservation headers) need a crawl with "
            "--signals; this database has none."
          : "Signals outside robots.txt, fetched by crawl --signals for " +
                FormatCount(signal_domains) +
                " domains: an HTML page or a soft 404 served with 200 counts "
                "as absent, a tdmrep.json only when it is valid TDMRep.");
  Table presence;
  presence.name = "ai-signals";
  presence.caption = "Preference lines by rank stratum";
  presence.denominator = "robots.txt files of the stratum";
  presence.headers = {"Stratum",       "robots.txt files",
                      "Content-Usage", "Content-Signal",
                      "License",       "Cloudflare managed"};
  for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
    std::vector<Cell> row = {Text(std::string(StratumName(stratum))),
                             Number(ai.presence[stratum][0].denominator)};
    for (const Share& share : ai.presence[stratum]) {
      row.push_back(ShareCell(share));
    }
    presence.rows.push_back(std::move(row));
  }
  BarChart chart;
  chart.title = "How files keep each purpose class out";
  chart.denominator = "robots.txt files";
  chart.series = {"By rules (an agent of the class may not fetch /)",
                  "By preference lines (a no for the class's use)"};
  chart.grouped = true;
  Table purposes;
  purposes.name = "ai-purposes";
  purposes.caption = "Rules versus preference lines, per purpose class";
  purposes.denominator = "robots.txt files";
  purposes.headers = {"Purpose", "By rules", "By preference lines", "By either",
                      "By both"};
  for (const AiPreferences::PurposeOut& p : ai.purposes) {
    const std::string name(AgentPurposeName(p.purpose));
    chart.bars.push_back(
        {name, {p.by_rules.percent(), p.by_preference.percent()}});
    purposes.rows.push_back({Text(name), ShareCell(p.by_rules),
                             ShareCell(p.by_preference), ShareCell(p.by_either),
                             ShareCell(p.by_both)});
  }
  Table contradictions;
  contradictions.name = "ai-contradictions";
  contradictions.caption = "Signals that contradict the rules";
  contradictions.denominator =
      "robots.txt files (the TDMRep row: domains with signals)";
  contradictions.headers = {"Contradiction", "Files", "Best-ranked domains"};
  Table domains;
  domains.name = "ai-contradiction-domains";
  domains.caption =
      "The domains of each contradiction (best-ranked " +
      FormatCount(static_cast<std::int64_t>(ai.domains_listed_cap)) +
      " of each)";
  domains.denominator = "domains listed";
  domains.headers = {"Contradiction", "Domain", "Rank"};
  domains.text_rows = report.registry_blocking.top;
  for (const AiPreferences::Contradiction& c : ai.contradictions) {
    std::string examples;
    for (std::size_t i = 0; i < c.domains.size() && i < 5; ++i) {
      examples += (i == 0 ? "" : ", ") + c.domains[i].domain;
    }
    if (c.domains.size() > 5) examples += ", ...";
    contradictions.rows.push_back({Text(ContradictionTitle(c.kind)),
                                   ShareCell(c.files),
                                   Text(examples.empty() ? "-" : examples)});
    for (const RankedDomain& d : c.domains) {
      domains.rows.push_back(
          {Text(std::string(
               kAiContradictionNames[static_cast<std::size_t>(c.kind)])),
           Text(d.domain), RankCell(d.rank)});
    }
  }
  section.blocks.emplace_back(std::move(presence));
  if (signal_domains > 0) {
    Table outside;
    outside.name = "ai-outside-signals";
    outside.caption = "Signals outside robots.txt by rank stratum";
    outside.denominator = "domains of the stratum whose signals were fetched";
    outside.headers = {"Stratum",           "Domains",
                       "llms.txt",          "tdmrep.json (valid)",
                       "X-Robots-Tag noai", "Content-Usage header",
                       "TDM reservation"};
    for (std::size_t stratum = 0; stratum < kStratumCount; ++stratum) {
      std::vector<Cell> row = {Text(std::string(StratumName(stratum))),
                               Number(ai.signal_domains[stratum])};
      for (const Share& share : ai.outside[stratum]) {
        row.push_back(ShareCell(share));
      }
      outside.rows.push_back(std::move(row));
    }
    section.blocks.emplace_back(std::move(outside));
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(purposes));
  section.blocks.emplace_back(std::move(contradictions));
  section.blocks.emplace_back(std::move(domains));
  return section;
}

Section CommentsSection(const Report& report) {
  const CommentFindings& comments = report.comments;
  Section section;
  section.id = "comments";
  section.title = "5. Comment findings: jobs, careers, hiring";
  section.paragraphs.push_back(
      Sentence(comments.files_with_comments, "robots.txt files") +
      " have comments; " +
      Sentence(comments.files_with_findings, "robots.txt files") +
      " have a block of comment lines that reads as a job advert once the "
      "domain's own name is taken out: a hiring or recruiting phrase, or "
      "\"job(s)\"/\"career(s)\" with an invitation (a link, an e-mail "
      "address, \"apply\", \"visit\", \"looking for\"...). Not counted: "
      "commented-out directives (\"# Disallow: /jobs/\"), lines about "
      "sitemaps, jobs of machines (\"cron job\"). Every distinct advert is "
      "listed below (" +
      FormatCount(comments.distinct_findings) +
      ", identical blocks across domains collapsed)" +
      (comments.untracked_findings > 0
           ? "; " + FormatCount(comments.untracked_findings) +
                 " more are beyond the tracking budget."
           : "."));
  Table table;
  table.name = "job-adverts";
  table.caption = "Job adverts in comments, best-ranked first";
  table.denominator = "none (every advert found)";
  table.headers = {"Comment", "Rank", "Domain", "Domains with this block"};
  table.preformatted_first_column = true;
  for (const CommentFinding& finding : comments.findings) {
    table.rows.push_back({Text(finding.text), RankCell(finding.rank),
                          Text(finding.domain), Number(finding.domains)});
  }
  section.blocks.emplace_back(std::move(table));
  return section;
}

Table BucketTable(std::string name, std::string caption,
                  std::string denominator, std::string header,
                  const std::vector<Bucket>& buckets) {
  Table table;
  table.name = std::move(name);
  table.caption = std::move(caption);
  table.denominator = std::move(denominator);
  table.headers = {std::move(header), "Files"};
  for (const Bucket& bucket : buckets) {
    table.rows.push_back({Text(bucket.label), ShareCell(bucket.share)});
  }
  return table;
}

BarChart BucketChart(std::string title, std::string denominator,
                     const std::vector<Bucket>& buckets) {
  BarChart chart;
  chart.title = std::move(title);
  chart.denominator = std::move(denominator);
  chart.series = {"Files"};
  for (const Bucket& bucket : buckets) {
    chart.bars.push_back({bucket.label, {bucket.share.percent()}});
  }
  return chart;
}

Table KeyTable(std::string name, std::string caption, std::string denominator,
               std::string header, const std::vector<KeyCount>& keys,
               std::int64_t files) {
  Table table;
  table.name = std::move(name);
  table.caption = std::move(caption);
  table.denominator = std::move(denominator);
  table.headers = {std::move(header), "Files"};
  for (const KeyCount& key : keys) {
    table.rows.push_back({Text(TokenText(key.key, key.written_as)),
                          ShareCell({key.count, files})});
  }
  return table;
}

Section FactsSection(const Report& report) {
  const FileFacts& facts = report.facts;
  const std::int64_t files = facts.files;
  Section section;
  section.id = "file-facts";
  section.title = "6. File facts";
  section.paragraphs.push_back(
      "Denominator unless stated: " + FormatCount(files) +
      " robots.txt files (2xx answers that are not HTML). Body size "
      "percentiles (nearest rank): p50 " +
      FormatCount(facts.size_p50) + " B, p90 " + FormatCount(facts.size_p90) +
      " B, p99 " + FormatCount(facts.size_p99) + " B, max " +
      FormatCount(facts.size_max) + " B.");
  section.blocks.emplace_back(
      BucketChart("Body size", "robots.txt files", facts.size_buckets));
  section.blocks.emplace_back(BucketTable(
      "size", "Body size", "robots.txt files", "Size", facts.size_buckets));
  section.paragraphs.push_back(
      "Crawl-delay counts files with a Crawl-delay line anywhere, whatever "
      "its value: " +
      Sentence(facts.crawl_delay_outside_group, "files") +
      " put one before any user-agent line (crawlers that read it per group "
      "ignore it) and " +
      Sentence(facts.crawl_delay_not_a_number, "files") +
      " one whose value is not a number. The value distribution takes the "
      "first number in a group, or the one before the first group when no "
      "group has one.");
  Table format;
  format.name = "format";
  format.caption = "Format";
  format.denominator = "robots.txt files";
  format.headers = {"Fact", "Files"};
  const std::pair<std::string, Share> format_rows[] = {
      {"Truncated at 500 KiB", facts.truncated},
      {"LF line endings", facts.lf},
      {"CRLF line endings", facts.crlf},
      {"CR-only line endings", facts.cr},
      {"Mixed line endings", facts.mixed_endings},
      {"No line ending (one line)", facts.no_line_end},
      {"UTF-8 byte order mark", facts.bom},
      {"Not valid UTF-8", facts.not_utf8},
      {"Crawl-delay (a line, any value)", facts.crawl_delay},
      {"Crawl-delay before any user-agent", facts.crawl_delay_outside_group},
      {"Crawl-delay that is not a number", facts.crawl_delay_not_a_number},
      {"Sitemap", facts.sitemap},
      {"Host", facts.host},
      {"Clean-param", facts.clean_param},
      {"Unknown directive", facts.unknown_directive},
      {"Lint error", facts.lint_error},
  };
  for (const auto& [label, share] : format_rows) {
    format.rows.push_back({Text(label), ShareCell(share)});
  }
  section.blocks.emplace_back(std::move(format));
  section.blocks.emplace_back(
      BucketChart("Crawl-delay values (first in the file)",
                  "files with a Crawl-delay line", facts.crawl_delay_values));
  section.blocks.emplace_back(BucketTable(
      "crawl-delay", "Crawl-delay values (first in the file)",
      "files with a Crawl-delay line", "Delay", facts.crawl_delay_values));
  section.blocks.emplace_back(
      BucketTable("sitemaps-per-file",
                  "Sitemap lines per file (" +
                      FormatCount(facts.sitemap_lines) + " in all)",
                  "robots.txt files", "Sitemaps", facts.sitemaps_per_file));
  section.blocks.emplace_back(
      KeyTable("lint-codes", "Most common lint findings", "robots.txt files",
               "Lint code", facts.lint_codes, files));
  section.blocks.emplace_back(
      KeyTable("unknown-directives", "Most common unknown directives",
               "robots.txt files", "Key", facts.unknown_keys, files));
  section.blocks.emplace_back(
      KeyTable("agent-tokens", "Most common user-agent tokens",
               "robots.txt files", "Token", facts.agent_tokens, files));
  Table shared;
  shared.name = "templates";
  shared.caption = "Identical files served by many domains (templates)";
  shared.denominator =
      FormatCount(facts.two_xx_bodies) + " domains with a 2xx body";
  shared.headers = {"Excerpt", "Domains", "Bytes", "Best-ranked domain",
                    "Rank",    "SHA-256"};
  shared.preformatted_first_column = true;
  for (const SharedFile& file : facts.shared_files) {
    std::string excerpt = file.excerpt.substr(0, 160);
    if (file.excerpt.size() > 160 || file.bytes > 160) excerpt += " ...";
    shared.rows.push_back({Text(excerpt), ShareCell(file.domains),
                           Number(file.bytes), Text(file.example_domain),
                           RankCell(file.example_rank),
                           Text(file.sha256.substr(0, 16))});
  }
  section.blocks.emplace_back(std::move(shared));
  return section;
}

Section SensitivitySection(const Report& report) {
  const ParserSensitivity& sensitivity = report.sensitivity;
  Section section;
  section.id = "sensitivity";
  section.title = "7. Parser sensitivity: RFC 9309, Google, urllib";
  section.paragraphs.push_back(
      "The findings of parts 2 to 4 with each of three readings of the same "
      "files: RFC 9309 (robotscan's default), Google's open-source parser, "
      "and CPython's urllib.robotparser, the parser of many published "
      "studies, which matches agents by substring (\"User-agent: oBot\" "
      "applies to any name containing \"obot\"), uses only the first * "
      "group, ends a group at an empty line, reads the first matching rule "
      "instead of the longest, keeps whole names (MJ12bot) and misses a "
      "first line behind a byte order mark. " +
      Sentence({sensitivity.files_differ, sensitivity.files},
               "robots.txt files") +
      " change at least one of these findings with the reading; the "
      "best-ranked are listed last. Denominator: " +
      FormatCount(sensitivity.files) + " robots.txt files.");
  Table headline;
  headline.name = "sensitivity-walled-gardens";
  headline.caption = "Walled gardens by reading";
  headline.denominator = "robots.txt files";
  headline.headers = {"Finding"};
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    headline.headers.push_back(ReadingTitle(r));
  }
  headline.headers.push_back("Files that differ");
  std::vector<Cell> walled{Text("Walled gardens")};
  for (const Share& share : sensitivity.walled_gardens) {
    walled.push_back(ShareCell(share));
  }
  walled.push_back(Number(sensitivity.walled_gardens_differ));
  headline.rows.push_back(std::move(walled));
  section.blocks.emplace_back(std::move(headline));

  BarChart chart;
  chart.title = "Files that fully block each crawler, by reading";
  chart.denominator = "robots.txt files";
  chart.grouped = true;
  Table crawlers;
  crawlers.name = "sensitivity-crawlers";
  crawlers.caption = "Full blocks by reading";
  crawlers.denominator = "robots.txt files";
  crawlers.headers = {"Crawler"};
  Table singled;
  singled.name = "sensitivity-singled-out";
  singled.caption = "Crawlers singled out by reading";
  singled.denominator = "robots.txt files";
  singled.headers = {"Crawler"};
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    chart.series.push_back(ReadingTitle(r));
    crawlers.headers.push_back(ReadingTitle(r));
    singled.headers.push_back(ReadingTitle(r));
  }
  crawlers.headers.push_back("Files that differ");
  singled.headers.push_back("Files that differ");
  for (const ParserSensitivity::Crawler& crawler : sensitivity.crawlers) {
    BarChart::Bar bar{crawler.agent, {}};
    std::vector<Cell> full{Text(crawler.agent)};
    std::vector<Cell> single{Text(crawler.agent)};
    for (std::size_t r = 0; r < kReadingCount; ++r) {
      bar.percents.push_back(crawler.full[r].percent());
      full.push_back(ShareCell(crawler.full[r]));
      single.push_back(ShareCell(crawler.singled_out[r]));
    }
    full.push_back(Number(crawler.full_differ));
    single.push_back(Number(crawler.singled_out_differ));
    chart.bars.push_back(std::move(bar));
    crawlers.rows.push_back(std::move(full));
    singled.rows.push_back(std::move(single));
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(crawlers));
  section.blocks.emplace_back(std::move(singled));

  Table banned;
  banned.name = "sensitivity-most-banned";
  banned.caption = "Most fully banned tokens by reading";
  banned.denominator = "robots.txt files";
  banned.headers = {"#"};
  std::size_t rows = 0;
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    banned.headers.push_back(ReadingTitle(r));
    banned.headers.push_back("Full bans, " + ReadingTitle(r));
    rows = std::max(rows, sensitivity.most_banned[r].size());
  }
  rows = std::min<std::size_t>(rows, 15);
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<Cell> row{Number(static_cast<std::int64_t>(i + 1))};
    for (std::size_t r = 0; r < kReadingCount; ++r) {
      const auto& list = sensitivity.most_banned[r];
      if (i < list.size()) {
        row.push_back(Text(TokenText(list[i].token, list[i].written_as)));
        row.push_back(ShareCell(list[i].full_ban));
      } else {
        row.push_back(Text(""));
        row.push_back(Text(""));
      }
    }
    banned.rows.push_back(std::move(row));
  }
  section.blocks.emplace_back(std::move(banned));

  Table changes;
  changes.name = "sensitivity-changes";
  changes.caption = "Best-ranked files that read differently";
  changes.denominator = "none (a ranked list)";
  changes.headers = {"Rank", "Domain", "Finding"};
  for (std::size_t r = 0; r < kReadingCount; ++r) {
    changes.headers.push_back(ReadingTitle(r));
  }
  for (const ReadingChange& change : sensitivity.changes) {
    for (const ReadingChange::Finding& finding : change.findings) {
      std::vector<Cell> row{RankCell(change.rank), Text(change.domain),
                            Text(finding.what)};
      for (bool yes : finding.by_reading) row.push_back(YesNo(yes));
      changes.rows.push_back(std::move(row));
    }
  }
  section.blocks.emplace_back(std::move(changes));
  return section;
}

// The first few of a best-ranked list (JSON has them all).
std::string DomainList(const std::vector<RankedDomain>& domains) {
  constexpr std::size_t kShown = 5;
  std::string text;
  for (std::size_t i = 0; i < domains.size() && i < kShown; ++i) {
    const RankedDomain& domain = domains[i];
    if (!text.empty()) text += ", ";
    text += domain.domain;
    if (domain.rank > 0) text += " (#" + FormatCount(domain.rank) + ")";
  }
  return text;
}

Section ComparisonSection(const Report& report) {
  const Comparison& comparison = report.comparison;
  Section section;
  section.id = "compare";
  section.title = "8. Change since the older crawl";
  const std::int64_t both = comparison.domains_in_both;
  section.paragraphs.push_back(
      "Compared with " + comparison.older +
      (comparison.older_first_fetched_at.empty()
           ? ""
           : " (fetched between " + comparison.older_first_fetched_at +
                 " and " + comparison.older_last_fetched_at + ")") +
      ": " + FormatCount(both) +
      " domains are in both crawls (the "
      "denominator below unless stated), " +
      FormatCount(comparison.new_domains) + " only in this one, " +
      FormatCount(comparison.gone_domains) + " only in the older one. " +
      Sentence(comparison.files_changed, "robots.txt files present in both") +
      " changed.");

  BarChart blocking;
  blocking.title =
      "Domains that started or stopped fully blocking each crawler";
  blocking.denominator = "domains in both crawls";
  blocking.series = {"Started", "Stopped"};
  blocking.grouped = true;
  Table crawlers;
  crawlers.name = "compare-crawlers";
  crawlers.caption = "Full blocks before and after, per crawler";
  crawlers.denominator = "domains in both crawls";
  crawlers.headers = {
      "Crawler", "Fully blocked before",  "Fully blocked now",    "Started",
      "Stopped", "Started (best-ranked)", "Stopped (best-ranked)"};
  for (const Comparison::Crawler& crawler : comparison.crawlers) {
    blocking.bars.push_back(
        {crawler.agent,
         {crawler.started.percent(), crawler.stopped.percent()}});
    crawlers.rows.push_back(
        {Text(crawler.agent), ShareCell({crawler.full_before, both}),
         ShareCell({crawler.full_after, both}), ShareCell(crawler.started),
         ShareCell(crawler.stopped), Text(DomainList(crawler.started_by)),
         Text(DomainList(crawler.stopped_by))});
  }
  section.blocks.emplace_back(std::move(blocking));
  section.blocks.emplace_back(std::move(crawlers));

  // Outcome transitions, most frequent first (unchanged outcomes last).
  struct Transition {
    std::size_t from, to;
    std::int64_t count;
  };
  std::vector<Transition> transitions;
  for (std::size_t from = 0; from < kOutcomeCount; ++from) {
    for (std::size_t to = 0; to < kOutcomeCount; ++to) {
      if (from != to && comparison.transitions[from][to] > 0) {
        transitions.push_back({from, to, comparison.transitions[from][to]});
      }
    }
  }
  std::sort(transitions.begin(), transitions.end(),
            [](const Transition& a, const Transition& b) {
              return a.count != b.count
                         ? a.count > b.count
                         : std::pair(a.from, a.to) < std::pair(b.from, b.to);
            });
  BarChart outcome_chart;
  outcome_chart.title = "Outcome transitions (older -> now)";
  outcome_chart.denominator = "domains in both crawls";
  outcome_chart.series = {"Domains"};
  Table outcomes;
  outcomes.name = "compare-outcomes";
  outcomes.caption = "Outcome transitions (older -> now)";
  outcomes.denominator = "domains in both crawls";
  outcomes.headers = {"Before", "Now", "Domains"};
  std::int64_t unchanged = 0;
  for (std::size_t o = 0; o < kOutcomeCount; ++o) {
    unchanged += comparison.transitions[o][o];
  }
  for (const Transition& t : transitions) {
    const std::string before(OutcomeTitle(static_cast<Outcome>(t.from)));
    const std::string now(OutcomeTitle(static_cast<Outcome>(t.to)));
    if (outcome_chart.bars.size() < 12) {
      outcome_chart.bars.push_back(
          {before + " -> " + now, {Share{t.count, both}.percent()}});
    }
    outcomes.rows.push_back(
        {Text(before), Text(now), ShareCell({t.count, both})});
  }
  outcomes.rows.push_back(
      {Text("(unchanged)"), Text(""), ShareCell({unchanged, both})});
  outcomes.last_row_is_total = true;
  outcome_chart.label_width = 380;
  section.blocks.emplace_back(std::move(outcome_chart));
  section.blocks.emplace_back(std::move(outcomes));

  Table changed;
  changed.name = "compare-changed-files";
  changed.caption = "Best-ranked robots.txt files that changed";
  changed.denominator = "none (a ranked list)";
  changed.headers = {"Rank",      "Domain",       "Bytes before",
                     "Bytes now", "Rules before", "Rules now"};
  for (const ChangedFile& file : comparison.changed_files) {
    changed.rows.push_back({RankCell(file.rank), Text(file.domain),
                            Number(file.bytes_before), Number(file.bytes_after),
                            Number(file.rules_before),
                            Number(file.rules_after)});
  }
  section.blocks.emplace_back(std::move(changed));

  section.paragraphs.push_back(
      Sentence(comparison.sitemaps_added, "robots.txt files present in both") +
      " added a Sitemap URL (" + FormatCount(comparison.sitemap_urls_added) +
      " URLs in all) and " + Sentence(comparison.sitemaps_removed, "") +
      " removed one (" + FormatCount(comparison.sitemap_urls_removed) +
      " URLs).");
  Table sitemaps;
  sitemaps.name = "compare-sitemaps";
  sitemaps.caption = "Best-ranked files whose Sitemap lines changed";
  sitemaps.denominator = "none (a ranked list)";
  sitemaps.headers = {"Rank",         "Domain",          "URLs added",
                      "URLs removed", "Added (example)", "Removed (example)"};
  for (const SitemapChange& change : comparison.sitemap_changes) {
    sitemaps.rows.push_back({RankCell(change.rank), Text(change.domain),
                             Number(change.added), Number(change.removed),
                             Text(change.example_added),
                             Text(change.example_removed)});
  }
  section.blocks.emplace_back(std::move(sitemaps));
  return section;
}

}  // namespace

Cell TextCell(std::string text) { return Text(std::move(text)); }

Cell CountCell(std::int64_t count) { return Number(count); }

Cell ShareCell(const Share& share) {
  return Cell{FormatCount(share.count) + " (" + FormatPercent(share) + ")",
              true, static_cast<double>(share.count), "", share};
}

std::string FormatPercent(const Share& share) {
  if (share.denominator == 0) return "0%";
  char buffer[32];
  const double percent = share.percent();
  std::snprintf(buffer, sizeof buffer,
                percent > 0 && percent < 0.1 ? "%.2f%%" : "%.1f%%", percent);
  return buffer;
}

std::string FormatCount(std::int64_t count) {
  std::string digits = std::to_string(count < 0 ? -count : count);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return count < 0 ? "-" + out : out;
}

Document BuildDocument(const Report& report) {
  Document document;
  document.title = "robotscan report";
  const auto with_rules = static_cast<std::size_t>(Outcome::kWithRules);
  const auto no_rules = static_cast<std::size_t>(Outcome::kNoRules);
  const std::size_t all = kStratumCount - 1;
  const std::int64_t files = report.outcomes.counts[all][with_rules] +
                             report.outcomes.counts[all][no_rules];
  document.summary.push_back(
      FormatCount(report.domains) + " domains in the crawl database; " +
      Sentence({files, report.domains}, "domains") +
      " serve a robots.txt file (2xx, not HTML), the denominator of parts "
      "2 to 6.");
  if (!report.first_fetched_at.empty()) {
    document.summary.push_back(
        "Fetched between " + report.first_fetched_at + " and " +
        report.last_fetched_at + "; rules read with robotscan's " +
        ReadingTitle(ReadingIndex(report.compat)) + " reading" +
        (report.compat == robots::Compat::kUrllib
             ? " (CPython's urllib.robotparser)"
             : "") +
        ".");
  }
  // Which top list each crawl read (crawl_run.list_*), as a paper cites it.
  for (const storage::RunRecord& run : report.runs) {
    const storage::ListProvenance& list = run.list;
    if (list.source.empty()) continue;  // Recorded before provenance was.
    std::string line = "Top list of crawl_run " + std::to_string(run.id) + ": ";
    line += list.source == "file" ? "file " + run.input : list.source + " list";
    if (!list.list_id.empty()) line += " " + list.list_id;
    if (!list.date.empty()) line += " of " + list.date;
    line += ", " + FormatCount(list.entries) + " entries used, sha256 " +
            list.sha256;
    if (!list.url.empty()) line += ", from " + list.url;
    document.summary.push_back(line + ".");
  }
  document.highlights.push_back(
      {FormatCount(report.domains), "domains crawled", "rows of latest_fetch"});
  document.highlights.push_back(
      {FormatPercent({files, report.domains}), "serve a robots.txt",
       "of " + FormatCount(report.domains) + " domains"});
  const std::string of_files = "of " + FormatCount(files) + " robots.txt files";
  document.highlights.push_back({FormatPercent(report.walled_gardens.sites),
                                 "are walled gardens", of_files});
  // The most fully blocked named crawler.
  const CrawlerBlocking* most_blocked = nullptr;
  for (const CrawlerBlocking& crawler : report.blocking.crawlers) {
    if (most_blocked == nullptr ||
        crawler.full.count > most_blocked->full.count) {
      most_blocked = &crawler;
    }
  }
  if (most_blocked != nullptr) {
    document.highlights.push_back({FormatPercent(most_blocked->full),
                                   "fully block " + most_blocked->agent,
                                   of_files});
  }
  document.highlights.push_back(
      {FormatCount(report.comments.files_with_findings.count),
       "files advertise jobs in comments", of_files});
  if (report.sensitivity.computed) {
    std::string value;
    for (const Share& share : report.sensitivity.walled_gardens) {
      value += (value.empty() ? "" : " / ") + FormatCount(share.count);
    }
    document.highlights.push_back(
        {value, "walled gardens as RFC 9309 / Google / urllib read them",
         of_files});
  }
  document.sections.push_back(OutcomesSection(report));
  document.sections.push_back(WalledGardenSection(report));
  document.sections.push_back(BannedAgentsSection(report));
  document.sections.push_back(BlockingSection(report));
  if (!report.registry_blocking.agents.empty()) {
    document.sections.push_back(
        RegistrySection(report, report.registry_blocking.top));
  }
  document.sections.push_back(CommentsSection(report));
  document.sections.push_back(FactsSection(report));
  if (report.sensitivity.computed) {
    document.sections.push_back(SensitivitySection(report));
  }
  if (report.comparison.computed) {
    document.sections.push_back(ComparisonSection(report));
  }
  document.sections.push_back(AiPreferencesSection(report));
  return document;
}

}  // namespace robotscan::report
