#include "history/wayback_cdx.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace robotscan::crawler::history {
namespace {

// The Wayback Machine's first captures are from 1996.
constexpr int kFirstYear = 1996;

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(),
                                   [](char c) { return c >= '0' && c <= '9'; });
}

int Number(std::string_view digits) {
  int n = 0;
  for (char c : digits) n = n * 10 + (c - '0');
  return n;
}

// YYYY or YYYYMM as a month count; a bare year is its first month for
// --from and its last for --to.
Result<int> ParseMonth(std::string_view flag, std::string_view text,
                       bool end_of_year) {
  auto refuse = [&](const std::string& why) {
    return Status(StatusCode::kInvalidArgument,
                  std::string(flag) + " must be YYYY or YYYYMM" + why +
                      ", not '" + std::string(text) + "'");
  };
  if (!AllDigits(text) || (text.size() != 4 && text.size() != 6)) {
    return refuse("");
  }
  const int year = Number(text.substr(0, 4));
  int month = end_of_year ? 12 : 1;
  if (text.size() == 6) month = Number(text.substr(4, 2));
  if (month < 1 || month > 12) return refuse(" with a month of 01 to 12");
  if (year < kFirstYear) {
    return refuse(" from 1996 on (the archive's first captures)");
  }
  return year * 12 + month - 1;
}

int MonthsPer(WaybackPeriod every) {
  switch (every) {
    case WaybackPeriod::kMonth:
      return 1;
    case WaybackPeriod::kQuarter:
      return 3;
    case WaybackPeriod::kYear:
      return 12;
  }
  return 1;
}

std::string TwoDigits(int n) {
  return std::string(1, static_cast<char>('0' + n / 10)) +
         static_cast<char>('0' + n % 10);
}

std::string MonthText(int month) {
  return std::to_string(month / 12) + TwoDigits(month % 12 + 1);
}

// Percent-encodes all but RFC 3986's unreserved characters and '/'.
std::string QueryEncoded(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
        (u >= '0' && u <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~' || c == '/') {
      out += c;
    } else {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

// The fields asked for with fl=, in this order: the plain text output
// names none, so its columns are these.
constexpr const char* kFields[] = {"timestamp", "original", "statuscode",
                                   "mimetype", "digest"};

// A row's fields by name into a capture; false (malformed) without a
// 14-digit timestamp or an original URL.
bool ToCapture(const std::vector<std::string>& names,
               std::vector<std::string> values, CdxCapture* capture) {
  *capture = CdxCapture();
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) {
    std::string& v = values[i];
    if (names[i] == "timestamp") capture->timestamp = std::move(v);
    if (names[i] == "original") capture->original = std::move(v);
    if (names[i] == "statuscode") capture->statuscode = std::move(v);
    if (names[i] == "mimetype") capture->mimetype = std::move(v);
    if (names[i] == "digest") capture->digest = std::move(v);
  }
  return capture->timestamp.size() == 14 && AllDigits(capture->timestamp) &&
         !capture->original.empty();
}

Result<CdxPage> ReadJson(std::string_view body) {
  nlohmann::json answer = nlohmann::json::parse(body, nullptr, false);
  if (answer.is_discarded() || !answer.is_array()) {
    return Status(StatusCode::kInvalidInput,
                  "the CDX answer is not a JSON array");
  }
  CdxPage page;
  std::vector<std::string> names;
  bool key_follows = false;
  for (const nlohmann::json& row : answer) {
    if (!row.is_array()) {
      ++page.malformed;
      continue;
    }
    std::vector<std::string> values;
    for (const nlohmann::json& value : row) {
      values.push_back(value.is_string() ? value.get<std::string>()
                                         : value.dump());
    }
    if (key_follows) {
      if (!values.empty()) page.resume_key = values.front();
      break;
    }
    if (values.empty()) {
      key_follows = true;
    } else if (names.empty()) {
      names = std::move(values);
    } else {
      CdxCapture capture;
      if (ToCapture(names, std::move(values), &capture)) {
        page.captures.push_back(std::move(capture));
      } else {
        ++page.malformed;
      }
    }
  }
  return page;
}

CdxPage ReadPlainText(std::string_view body) {
  const std::vector<std::string> names(std::begin(kFields), std::end(kFields));
  CdxPage page;
  bool key_follows = false;
  while (!body.empty()) {
    const std::size_t eol = body.find('\n');
    std::string_view line = body.substr(0, eol);
    body = eol == std::string_view::npos ? std::string_view()
                                         : body.substr(eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (key_follows) {
      if (!line.empty()) {
        page.resume_key = std::string(line);
        break;
      }
      continue;
    }
    if (line.empty()) {
      key_follows = true;
      continue;
    }
    std::vector<std::string> values;
    std::size_t at = 0;
    while (at < line.size()) {
      const std::size_t space = line.find(' ', at);
      const std::size_t end =
          space == std::string_view::npos ? line.size() : space;
      if (end > at) values.emplace_back(line.substr(at, end - at));
      at = end + 1;
    }
    CdxCapture capture;
    if (ToCapture(names, std::move(values), &capture)) {
      page.captures.push_back(std::move(capture));
    } else {
      ++page.malformed;
    }
  }
  return page;
}

}  // namespace

}  // namespace robotscan::crawler::history

namespace robotscan::crawler {

std::string_view WaybackPeriodName(WaybackPeriod every) {
  switch (every) {
    case WaybackPeriod::kMonth:
      return "month";
    case WaybackPeriod::kQuarter:
      return "quarter";
    case WaybackPeriod::kYear:
      return "year";
  }
  return "month";
}

std::optional<WaybackPeriod> ParseWaybackPeriod(std::string_view name) {
  for (WaybackPeriod every : kWaybackPeriods) {
    if (WaybackPeriodName(every) == name) return every;
  }
  return std::nullopt;
}

}  // namespace robotscan::crawler

namespace robotscan::crawler::history {

Result<WaybackPeriods> WaybackPeriods::Make(std::string_view from,
                                            std::string_view to,
                                            WaybackPeriod every) {
  Result<int> first = ParseMonth("--from", from, false);
  if (!first.ok()) return first.status();
  Result<int> last = ParseMonth("--to", to, true);
  if (!last.ok()) return last.status();
  if (*first > *last) {
    return Status(StatusCode::kInvalidArgument, "--from (" + std::string(from) +
                                                    ") is after --to (" +
                                                    std::string(to) + ")");
  }
  const int per = MonthsPer(every);
  const int start = *first - *first % per;
  const int count = (*last - start) / per + 1;
  return WaybackPeriods(start, per, count, every);
}

std::string WaybackPeriods::Label(int period) const {
  const int month = first_month_ + period * months_per_period_;
  const std::string year = std::to_string(month / 12);
  switch (every_) {
    case WaybackPeriod::kMonth:
      return year + "-" + TwoDigits(month % 12 + 1);
    case WaybackPeriod::kQuarter:
      return year + "-Q" + std::to_string(month % 12 / 3 + 1);
    case WaybackPeriod::kYear:
      return year;
  }
  return year;
}

int WaybackPeriods::PeriodOf(std::string_view timestamp) const {
  if (timestamp.size() != 14 || !AllDigits(timestamp)) return -1;
  const int month_of_year = Number(timestamp.substr(4, 2));
  if (month_of_year < 1 || month_of_year > 12) return -1;
  const int month = Number(timestamp.substr(0, 4)) * 12 + month_of_year - 1;
  if (month < first_month_) return -1;
  const int period = (month - first_month_) / months_per_period_;
  return period < count_ ? period : -1;
}

std::string WaybackPeriods::FirstMonth() const {
  return MonthText(first_month_);
}

std::string WaybackPeriods::LastMonth() const {
  return MonthText(first_month_ + count_ * months_per_period_ - 1);
}

std::string CdxQueryUrl(std::string_view base, std::string_view domain,
                        const WaybackPeriods& periods, int page_rows,
                        bool plain_text, std::string_view resume_key) {
  std::string fields;
  for (const char* field : kFields) {
    if (!fields.empty()) fields += ',';
    fields += field;
  }
  // collapse keeps the first of adjacent rows whose timestamps share a
  // prefix: with the rows of one URL key in time order, the first capture
  // of each month (or year), which is all an import takes.
  std::string url =
      std::string(base) + "/cdx/search/cdx?url=" +
      QueryEncoded(std::string(domain) + "/robots.txt") + "&fl=" + fields +
      "&from=" + periods.FirstMonth() + "&to=" + periods.LastMonth() +
      "&collapse=timestamp:" + std::to_string(periods.CollapseDigits()) +
      (plain_text ? "" : "&output=json") +
      "&showResumeKey=true&limit=" + std::to_string(page_rows);
  if (!resume_key.empty()) url += "&resumeKey=" + QueryEncoded(resume_key);
  return url;
}

Result<CdxPage> ReadCdxAnswer(std::string_view body) {
  std::size_t first = 0;
  while (first < body.size() && (body[first] == ' ' || body[first] == '\n' ||
                                 body[first] == '\r' || body[first] == '\t')) {
    ++first;
  }
  if (first == body.size()) return CdxPage();
  if (body[first] == '[') return ReadJson(body);
  if (body[first] == '{') {
    return Status(StatusCode::kInvalidInput,
                  "the CDX answer is a JSON object, not captures");
  }
  if (body[first] == '<') {
    return Status(StatusCode::kInvalidInput,
                  "the CDX answer is an HTML page, not captures");
  }
  return ReadPlainText(body);
}

std::string SnapshotUrl(std::string_view base, const CdxCapture& capture) {
  return std::string(base) + "/web/" + capture.timestamp + "id_/" +
         capture.original;
}

std::string CaptureTimeOf(std::string_view ts) {
  std::string out;
  out.reserve(24);
  out.append(ts.substr(0, 4)).append("-").append(ts.substr(4, 2));
  out.append("-").append(ts.substr(6, 2)).append("T");
  out.append(ts.substr(8, 2)).append(":").append(ts.substr(10, 2));
  out.append(":").append(ts.substr(12, 2)).append(".000Z");
  return out;
}

}  // namespace robotscan::crawler::history
