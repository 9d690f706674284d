#include "document.h"

#include <cstdio>
#include <string>
#include <utility>

namespace robotscan::report {
namespace {

Cell Text(std::string text) { return Cell{std::move(text), false, 0}; }

Cell Number(std::int64_t value) {
  return Cell{FormatCount(value), true, static_cast<double>(value)};
}

Cell ShareCell(const Share& share) {
  return Cell{FormatCount(share.count) + " (" + FormatPercent(share) + ")",
              true, static_cast<double>(share.count)};
}

Cell RankCell(std::int64_t rank) {
  if (rank <= 0) return Cell{"-", true, 1e18};
  return Number(rank);
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

Table AgentTable(std::string caption,
                 const std::vector<AgentRestriction>& agents, bool full) {
  Table table;
  table.caption = std::move(caption);
  table.denominator = "robots.txt files";
  table.headers = {
      "#", "User-agent token",
      full ? "Full ban (Disallow: /, no allow)" : "Partial restriction",
      "Files naming it"};
  std::int64_t position = 0;
  for (const AgentRestriction& agent : agents) {
    table.rows.push_back({Number(++position), Text(agent.token),
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
  BarChart chart;
  chart.title = "Share of robots.txt files that fully ban the agent";
  chart.denominator = "robots.txt files";
  chart.series = {"Full ban"};
  for (std::size_t i = 0; i < banned.most_banned.size() && i < 15; ++i) {
    chart.bars.push_back({banned.most_banned[i].token,
                          {banned.most_banned[i].full_ban.percent()}});
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(
      AgentTable("Most fully banned agents", banned.most_banned, true));
  section.blocks.emplace_back(AgentTable("Most partially restricted agents",
                                         banned.most_restricted, false));
  return section;
}

Section BlockingSection(const Report& report) {
  const BlockingMatrix& matrix = report.blocking;
  Section section;
  section.id = "blocking";
  section.title = "4. Blocking matrix for named crawlers";
  section.paragraphs.push_back(
      "Computed with the RFC 9309 matcher: an agent without a group of its "
      "own is governed by the * group. Full block: / refused and no allow "
      "rule applies; partial: some disallow applies; singled out: a group "
      "naming the agent refuses / while Googlebot may fetch /. Denominator: " +
      FormatCount(matrix.files) + " robots.txt files.");
  BarChart chart;
  chart.title = "Share of robots.txt files blocking each crawler";
  chart.denominator = "robots.txt files";
  chart.series = {"Full block", "Partial block"};
  Table table;
  table.caption = "Blocking per crawler";
  table.denominator = "robots.txt files";
  table.headers = {"Crawler", "Full block", "Partial block",
                   "Singled out (Googlebot allowed)", "Named in a group"};
  for (const CrawlerBlocking& crawler : matrix.crawlers) {
    chart.bars.push_back(
        {crawler.agent, {crawler.full.percent(), crawler.partial.percent()}});
    table.rows.push_back({Text(crawler.agent), ShareCell(crawler.full),
                          ShareCell(crawler.partial),
                          ShareCell(crawler.singled_out),
                          ShareCell(crawler.named)});
  }
  section.blocks.emplace_back(std::move(chart));
  section.blocks.emplace_back(std::move(table));
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
      " have a block of comment lines that mentions jobs, careers, hiring "
      "or recruiting once the domain's own name is taken out. " +
      FormatCount(comments.distinct_findings) +
      " distinct blocks (identical blocks across domains collapsed)" +
      (comments.untracked_findings > 0
           ? ", " + FormatCount(comments.untracked_findings) +
                 " beyond the tracking budget."
           : "."));
  Table table;
  table.caption = "Job adverts in comments, best-ranked first";
  table.denominator = "none (a ranked list)";
  table.headers = {"Comment", "Rank", "Domain", "Domains with this block"};
  table.preformatted_first_column = true;
  for (const CommentFinding& finding : comments.findings) {
    table.rows.push_back({Text(finding.text), RankCell(finding.rank),
                          Text(finding.domain), Number(finding.domains)});
  }
  section.blocks.emplace_back(std::move(table));
  return section;
}

Table BucketTable(std::string caption, std::string denominator,
                  std::string header, const std::vector<Bucket>& buckets) {
  Table table;
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

Table KeyTable(std::string caption, std::string denominator, std::string header,
               const std::vector<KeyCount>& keys, std::int64_t files) {
  Table table;
  table.caption = std::move(caption);
  table.denominator = std::move(denominator);
  table.headers = {std::move(header), "Files"};
  for (const KeyCount& key : keys) {
    table.rows.push_back({Text(key.key), ShareCell({key.count, files})});
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
  section.blocks.emplace_back(
      BucketTable("Body size", "robots.txt files", "Size", facts.size_buckets));
  Table format;
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
      {"Crawl-delay", facts.crawl_delay},
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
                  "files with a Crawl-delay", facts.crawl_delay_values));
  section.blocks.emplace_back(BucketTable(
      "Crawl-delay values (first in the file)", "files with a Crawl-delay",
      "Delay", facts.crawl_delay_values));
  section.blocks.emplace_back(
      BucketTable("Sitemap lines per file (" +
                      FormatCount(facts.sitemap_lines) + " in all)",
                  "robots.txt files", "Sitemaps", facts.sitemaps_per_file));
  section.blocks.emplace_back(KeyTable("Most common lint findings",
                                       "robots.txt files", "Lint code",
                                       facts.lint_codes, files));
  section.blocks.emplace_back(KeyTable("Most common unknown directives",
                                       "robots.txt files", "Key",
                                       facts.unknown_keys, files));
  section.blocks.emplace_back(KeyTable("Most common user-agent tokens",
                                       "robots.txt files", "Token",
                                       facts.agent_tokens, files));
  Table shared;
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

}  // namespace

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
        (report.compat == robots::Compat::kGoogle ? "Google-compatible"
                                                  : "RFC 9309") +
        " matcher.");
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
  document.sections.push_back(OutcomesSection(report));
  document.sections.push_back(WalledGardenSection(report));
  document.sections.push_back(BannedAgentsSection(report));
  document.sections.push_back(BlockingSection(report));
  document.sections.push_back(CommentsSection(report));
  document.sections.push_back(FactsSection(report));
  return document;
}

}  // namespace robotscan::report
