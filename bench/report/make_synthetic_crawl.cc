// make_synthetic_crawl DB N [SEED] [TEMPLATE_PERMILLE] [FETCHED_AT]: writes a
// crawl database
// of N domains with a realistic mix of outcomes (shares close to those
// published for the top million: ~8% no response, ~25% 404, ~55% robots.txt
// files) and of bodies: two thirds of the files are shared templates (CMS
// defaults, hosting providers, AI-blocking lists), one third are per-site files
// with the domain's own sitemap, paths, groups, crawl-delays, job adverts,
// BOMs, CRLF endings, typos. Deterministic for a given seed.
// TEMPLATE_PERMILLE (default 650) is the share of robots.txt files drawn
// from the templates, per mille; 0 makes every file distinct (the report's
// worst case: nothing to share between domains). FETCHED_AT (default
// 2026-11-30T12:00:00.000Z) is every fetch's time: several runs into one
// database with different times make the periods of `report --series`.
//
// Rows go through CrawlStore::AppendFetches in batches of 5,000, as the
// crawler writes them.
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "robotscan/storage/crawl_store.h"

namespace {

using robotscan::robots::AccessClass;
using robotscan::storage::ErrorClass;
using robotscan::storage::FetchRecord;

const char* const kTemplates[] = {
    // WordPress default.
    "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n",
    // Allow all.
    "User-agent: *\nDisallow:\n",
    // Shopify-like.
    "# we use Shopify as our ecommerce platform\n\nUser-agent: *\n"
    "Disallow: /admin\nDisallow: /cart\nDisallow: /orders\n"
    "Disallow: /checkouts/\nDisallow: /checkout\nDisallow: /carts\n"
    "Disallow: /account\nDisallow: /collections/*sort_by*\n"
    "Disallow: /*/collections/*sort_by*\nDisallow: /search\n\n"
    "User-agent: adsbot-google\nDisallow: /checkouts/\nDisallow: /checkout\n"
    "Disallow: /carts\nDisallow: /orders\n\nUser-agent: Nutch\nDisallow: /\n\n"
    "User-agent: AhrefsBot\nCrawl-delay: 10\nDisallow: /admin\n\n"
    "User-agent: MJ12bot\nCrawl-Delay: 10\n\nUser-agent: Pinterest\n"
    "Crawl-delay: 1\n",
    // Disallow all.
    "User-agent: *\nDisallow: /\n",
    // AI blocking list.
    "User-agent: GPTBot\nDisallow: /\n\nUser-agent: ChatGPT-User\n"
    "Disallow: /\n\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: ClaudeBot\n"
    "Disallow: /\n\nUser-agent: anthropic-ai\nDisallow: /\n\n"
    "User-agent: Google-Extended\nDisallow: /\n\nUser-agent: PerplexityBot\n"
    "Disallow: /\n\nUser-agent: Bytespider\nDisallow: /\n\nUser-agent: *\n"
    "Allow: /\n",
    // Wix-like.
    "# By accessing this site you agree to the terms of use\n"
    "User-agent: *\nDisallow: /*?lightbox=\nDisallow: /_api/*\n"
    "Disallow: /_partials*\nDisallow: /pro-gallery-webapp/v1/galleries/*\n\n"
    "# Optimization for Google Ads Bot\nUser-agent: AdsBot-Google-Mobile\n"
    "User-agent: AdsBot-Google\nDisallow: /_api/*\nDisallow: /_partials*\n",
    // Drupal-ish.
    "#\n# robots.txt\n#\n# This file is to prevent the crawling and indexing"
    " of certain parts\n# of your site by web crawlers and spiders run by "
    "sites like Yahoo!\n# and Google.\n\nUser-agent: *\nCrawl-delay: 10\n"
    "# CSS, JS, Images\nAllow: /core/*.css$\nAllow: /core/*.js$\n"
    "# Directories\nDisallow: /core/\nDisallow: /profiles/\n# Files\n"
    "Disallow: /README.txt\nDisallow: /web.config\n# Paths (clean URLs)\n"
    "Disallow: /admin/\nDisallow: /comment/reply/\nDisallow: /filter/tips\n"
    "Disallow: /node/add/\nDisallow: /search/\nDisallow: /user/register\n"
    "Disallow: /user/password\nDisallow: /user/login\nDisallow: /user/logout\n",
    // Walled garden.
    "User-agent: Googlebot\nAllow: /\n\nUser-agent: Bingbot\nAllow: /\n\n"
    "User-agent: *\nDisallow: /\n",
    // Blogger.
    "User-agent: Mediapartners-Google\nDisallow: \n\nUser-agent: *\n"
    "Disallow: /search\nAllow: /\n",
    // SEO-tool blocking.
    "User-agent: AhrefsBot\nDisallow: /\n\nUser-agent: SemrushBot\n"
    "Disallow: /\n\nUser-agent: MJ12bot\nDisallow: /\n\nUser-agent: DotBot\n"
    "Disallow: /\n\nUser-agent: BLEXBot\nDisallow: /\n\nUser-agent: *\n"
    "Disallow: /cgi-bin/\n",
    // Yandex-style with Host and Clean-param.
    "User-agent: Yandex\nDisallow: /bitrix/\nClean-param: utm_source&"
    "utm_medium /\nHost: https://example.ru\n\nUser-agent: *\n"
    "Disallow: /bitrix/\nDisallow: /search/\n",
    // Empty.
    "",
};
constexpr int kTemplateCount = sizeof kTemplates / sizeof kTemplates[0];

const char* const kAgents[] = {
    "GPTBot",          "CCBot",         "ClaudeBot",
    "Bytespider",      "AhrefsBot",     "SemrushBot",
    "MJ12bot",         "Baiduspider",   "YandexBot",
    "PetalBot",        "DotBot",        "ia_archiver",
    "Google-Extended", "PerplexityBot", "Amazonbot",
    "FacebookBot",     "Applebot",      "Sogou web spider",
    "EmailCollector",  "WebReaper"};
const char* const kPaths[] = {
    "/admin/", "/cgi-bin/", "/tmp/", "/private/", "/search", "/*?sessionid=",
    "/cart",   "/login",    "/api/", "/*.pdf$",   "/print/", "/user/"};

std::string UniqueBody(const std::string& domain, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> percent(0, 99);
  std::string body;
  const bool crlf = percent(rng) < 12;
  const char* eol = crlf ? "\r\n" : "\n";
  if (percent(rng) < 3) body += "\xEF\xBB\xBF";
  if (percent(rng) < 30) {
    body += std::string("# robots.txt for ") + domain + eol;
  }
  if (percent(rng) < 2) {
    body += std::string("# We're hiring! Join our team: https://") + domain +
            "/careers" + eol;
  } else if (percent(rng) < 1) {
    body +=
        std::string("# Looking for a job in SEO? Mail jobs@") + domain + eol;
  }
  const int groups = 1 + percent(rng) % 3;
  for (int g = 0; g < groups; ++g) {
    if (g + 1 == groups) {
      body += std::string("User-agent: *") + eol;
    } else {
      body += std::string("User-agent: ") + kAgents[percent(rng) % 20] + eol;
      if (percent(rng) < 60) {
        body += std::string("Disallow: /") + eol + eol;
        continue;
      }
    }
    const int rules = percent(rng) % 8;
    for (int r = 0; r < rules; ++r) {
      body += std::string(percent(rng) < 3 ? "Disalow: " : "Disallow: ") +
              kPaths[percent(rng) % 12] + eol;
    }
    if (percent(rng) < 15) {
      body += "Crawl-delay: " + std::to_string(1 + percent(rng) % 30) + eol;
    }
    body += eol;
  }
  const int sitemaps = percent(rng) < 45 ? 1 + percent(rng) % 3 : 0;
  for (int s = 0; s < sitemaps; ++s) {
    body += "Sitemap: https://" + domain + "/sitemap" + std::to_string(s) +
            ".xml" + eol;
  }
  if (percent(rng) < 2) body += std::string("Noindex: /drafts/") + eol;
  if (percent(rng) < 1) {  // A few big generated files.
    for (int i = 0; i < 2000; ++i) {
      body +=
          "Disallow: /products/item-" + std::to_string(i) + "/reviews" + eol;
    }
  }
  return body;
}

FetchRecord MakeRecord(std::int64_t rank, int template_permille,
                       const std::string& fetched_at, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> permille(0, 999);
  FetchRecord r;
  r.domain = "site" + std::to_string(rank) + ".example";
  r.rank = rank;
  r.url = "https://" + r.domain + "/robots.txt";
  r.final_url = r.url;
  r.strategy = "https,http";
  r.fetched_at = fetched_at;
  r.content_type = "text/plain";
  const int roll = permille(rng);
  auto fail = [&](ErrorClass error) {
    r.access = AccessClass::kUnreachable;
    r.error_class = error;
  };
  if (roll < 50) {
    fail(roll < 40 ? ErrorClass::kDnsNxdomain : ErrorClass::kDnsServfail);
  } else if (roll < 65) {
    fail(ErrorClass::kConnectRefused);
  } else if (roll < 75) {
    fail(ErrorClass::kTimeout);
  } else if (roll < 78) {
    fail(ErrorClass::kTls);
  } else if (roll < 80) {
    fail(ErrorClass::kReset);
  } else if (roll < 85) {
    r.http_status = 301;
    r.access = AccessClass::kUnavailable;
    r.error_class =
        roll < 83 ? ErrorClass::kTooManyRedirects : ErrorClass::kRedirectLoop;
    r.redirects = 6;
  } else if (roll < 105) {
    r.http_status = roll < 100 ? 403 : 401;
    r.access = AccessClass::kUnavailable;
  } else if (roll < 120) {
    r.http_status = roll < 110 ? 503 : roll < 117 ? 500 : 429;
    r.access =
        roll < 117 ? AccessClass::kUnreachable : AccessClass::kUnavailable;
  } else if (roll < 370) {
    r.http_status = roll < 360 ? 404 : 410;
    r.access = AccessClass::kUnavailable;
  } else if (roll < 410) {
    r.http_status = 200;
    r.access = AccessClass::kSuccess;
    r.content_type = "text/html; charset=utf-8";
    r.body = "<!DOCTYPE html><html><head><title>" + r.domain +
             "</title></head><body>Page not found</body></html>";
  } else {
    r.http_status = 200;
    r.access = AccessClass::kSuccess;
    if (permille(rng) < template_permille) {
      // Zipf-like choice: the first templates are the most common.
      std::geometric_distribution<int> pick(0.35);
      r.body = kTemplates[pick(rng) % kTemplateCount];
    } else {
      r.body = UniqueBody(r.domain, rng);
    }
  }
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr,
                 "usage: make_synthetic_crawl DB N [SEED] [TEMPLATE_PERMILLE] "
                 "[FETCHED_AT]\n");
    return 2;
  }
  const std::int64_t count = std::atoll(argv[2]);
  std::mt19937_64 rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  const int template_permille = argc > 4 ? std::atoi(argv[4]) : 650;
  const std::string fetched_at =
      argc > 5 ? argv[5] : "2026-11-30T12:00:00.000Z";
  auto store = robotscan::storage::CrawlStore::Open(argv[1], {});
  if (!store.ok()) {
    std::fprintf(stderr, "%s\n", store.status().message().c_str());
    return 1;
  }
  robotscan::storage::RunInfo info;
  info.started_at = "2026-11-30T12:00:00Z";
  info.tool_version = "make_synthetic_crawl";
  const robotscan::storage::Result<std::int64_t> begun =
      store.value()->BeginRun(info);
  if (!begun.ok()) return 1;
  const std::int64_t run = *begun;
  std::vector<FetchRecord> batch;
  for (std::int64_t rank = 1; rank <= count; ++rank) {
    batch.push_back(MakeRecord(rank, template_permille, fetched_at, rng));
    if (batch.size() == 5000 || rank == count) {
      const auto status = store.value()->AppendFetches(run, batch);
      if (!status.ok()) {
        std::fprintf(stderr, "%s\n", status.message().c_str());
        return 1;
      }
      batch.clear();
    }
  }
  if (!store.value()->FinishRun(run, "finished", "2026-11-30T13:00:00Z").ok()) {
    return 1;
  }
  return 0;
}
