#include "robotscan/robots/tokenizer.h"

#include <cstring>

#include "robotscan/base/ascii.h"

namespace robotscan::robots {
namespace {

constexpr unsigned char kUtf8Bom[3] = {0xEF, 0xBB, 0xBF};

struct KeyName {
  std::string_view prefix;
  Directive directive;
  bool is_typo;
};

// Google recognises keys by case-insensitive *prefix*, in this order
// ("user-agentx: foo" is a user-agent line). Typos marked as such.
constexpr KeyName kPrefixKeys[] = {
    {"user-agent", Directive::kUserAgent, false},
    {"useragent", Directive::kUserAgent, true},
    {"user agent", Directive::kUserAgent, true},
    {"allow", Directive::kAllow, false},
    {"disallow", Directive::kDisallow, false},
    {"dissallow", Directive::kDisallow, true},
    {"dissalow", Directive::kDisallow, true},
    {"disalow", Directive::kDisallow, true},
    {"diasllow", Directive::kDisallow, true},
    {"disallaw", Directive::kDisallow, true},
    {"sitemap", Directive::kSitemap, false},
    {"site-map", Directive::kSitemap, true},
};

// Extensions are matched by whole key (case-insensitive); for Google they are
// all "unknown" directives and do not affect matching.
constexpr KeyName kExactKeys[] = {
    {"crawl-delay", Directive::kCrawlDelay, false},
    {"crawldelay", Directive::kCrawlDelay, true},
    {"crawl delay", Directive::kCrawlDelay, true},
    {"request-rate", Directive::kRequestRate, false},
    {"visit-time", Directive::kVisitTime, false},
    {"host", Directive::kHost, false},
    {"clean-param", Directive::kCleanParam, false},
    {"noindex", Directive::kNoindex, false},
    {"nofollow", Directive::kNofollow, false},
    {"noarchive", Directive::kNoarchive, false},
    {"content-usage", Directive::kContentUsage, false},
    {"content-signal", Directive::kContentSignal, false},
    {"license", Directive::kLicense, false},
};

// Splits a line into key, value and comment exactly as Google's
// GetKeyAndValueFrom does (including the missing-colon leniency).
void SplitLine(Line& line) {
  std::string_view content = line.text;
  const std::size_t hash = content.find('#');
  if (hash != std::string_view::npos) {
    line.has_comment = true;
    line.comment = content.substr(hash + 1);
    content = content.substr(0, hash);
  }
  content = StripAsciiWhitespace(content);
  if (content.empty()) {
    if (line.has_comment) {
      line.is_comment = true;
    } else {
      line.is_empty = true;
    }
    return;
  }
  std::size_t sep = content.find(':');
  if (sep == std::string_view::npos) {
    // Google-specific: accept whitespace instead of the colon, but only when
    // the line is exactly two words.
    sep = content.find_first_of(" \t");
    if (sep == std::string_view::npos) return;
    const std::size_t value_start = content.find_first_not_of(" \t", sep);
    if (value_start == std::string_view::npos) return;  // Cannot happen.
    if (content.find_first_of(" \t", value_start) != std::string_view::npos) {
      return;  // More than two words: not a directive.
    }
    line.is_missing_colon_separator = true;
  }
  const std::string_view key = StripAsciiWhitespace(content.substr(0, sep));
  if (key.empty()) {
    line.is_missing_colon_separator = false;
    return;
  }
  line.key = key;
  line.value = StripAsciiWhitespace(content.substr(sep + 1));
  line.has_directive = true;
}

}  // namespace

std::string_view DirectiveName(Directive directive) {
  switch (directive) {
    case Directive::kNone:
      return "none";
    case Directive::kUserAgent:
      return "user-agent";
    case Directive::kAllow:
      return "allow";
    case Directive::kDisallow:
      return "disallow";
    case Directive::kSitemap:
      return "sitemap";
    case Directive::kCrawlDelay:
      return "crawl-delay";
    case Directive::kRequestRate:
      return "request-rate";
    case Directive::kVisitTime:
      return "visit-time";
    case Directive::kHost:
      return "host";
    case Directive::kCleanParam:
      return "clean-param";
    case Directive::kNoindex:
      return "noindex";
    case Directive::kNofollow:
      return "nofollow";
    case Directive::kNoarchive:
      return "noarchive";
    case Directive::kUnknown:
      return "unknown";
    case Directive::kContentUsage:
      return "content-usage";
    case Directive::kContentSignal:
      return "content-signal";
    case Directive::kLicense:
      return "license";
  }
  return "unknown";
}

Directive ClassifyKey(std::string_view key, bool* is_typo) {
  *is_typo = false;
  for (const KeyName& k : kPrefixKeys) {
    if (StartsWithIgnoreAsciiCase(key, k.prefix)) {
      *is_typo = k.is_typo;
      return k.directive;
    }
  }
  for (const KeyName& k : kExactKeys) {
    if (AsciiEqualsIgnoreCase(key, k.prefix)) {
      *is_typo = k.is_typo;
      return k.directive;
    }
  }
  return Directive::kUnknown;
}

void TokenizeRobotsTxt(std::string_view body, LineListener& listener) {
  BodySummary summary;
  const auto* data = reinterpret_cast<const unsigned char*>(body.data());
  const std::size_t size = body.size();

  // Skip a UTF-8 BOM or any prefix of one (Google does the same: broken
  // editors write partial BOMs).
  std::size_t pos = 0;
  while (pos < size && pos < 3 && data[pos] == kUtf8Bom[pos]) ++pos;
  summary.bom_bytes = pos;

  int line_number = 0;
  bool done = false;
  while (!done) {
    const std::size_t start = pos;
    // Find the end of the line: the next CR or LF.
    std::size_t end = start;
    while (end < size && data[end] != '\n' && data[end] != '\r') ++end;
    Line line;
    line.number = ++line_number;
    line.offset = start;
    std::string_view text = body.substr(start, end - start);
    if (text.size() > kMaxLineBytes) {
      text = text.substr(0, kMaxLineBytes);
      line.is_line_too_long = true;
    }
    const std::size_t nul = text.find('\0');
    if (nul != std::string_view::npos) {
      text = text.substr(0, nul);
      line.has_nul_byte = true;
    }
    line.text = text;
    if (end >= size) {
      done = true;  // Last line (possibly empty after a final EOL).
      pos = size;
    } else if (data[end] == '\r' && end + 1 < size && data[end + 1] == '\n') {
      line.ends_with_crlf = true;
      ++summary.crlf_endings;
      pos = end + 2;
    } else if (data[end] == '\r') {
      line.ends_with_cr = true;
      ++summary.cr_endings;
      pos = end + 1;
    } else {
      ++summary.lf_endings;
      pos = end + 1;
    }
    SplitLine(line);
    if (line.has_directive) {
      line.directive = ClassifyKey(line.key, &line.is_acceptable_typo);
    }
    listener.OnLine(line);
  }
  summary.line_count = line_number;
  listener.OnEnd(summary);
}

}  // namespace robotscan::robots
