// robots.txt tokenizer: splits a body into lines and classifies each one.
//
// This is the one parser of the library. The matcher builder (robots.h), the
// linter (lint.h) and the crawl report's statistics are all listeners on the
// events it emits, so they can never disagree about what a line means.
//
// Line syntax follows RFC 9309 §2.2 (https://www.rfc-editor.org/rfc/rfc9309)
// with the leniency of Google's open-source parser, which is the reference
// for every corner case:
//   * LF, CR and CRLF all end a line; a UTF-8 byte order mark (or any prefix
//     of one) at the very start of the body is skipped.
//   * `#` starts a comment; keys and values are stripped of ASCII whitespace.
//   * A line without `:` is still a directive if it has exactly two
//     whitespace-separated words ("disallow /x"); it is flagged
//     `is_missing_colon_separator`.
//   * Keys are recognised case-insensitively by prefix, as Google does
//     ("user-agent", "allow", "disallow", "sitemap"), plus the frequent typos
//     Google accepts ("useragent", "user agent", "disalow", "site-map", ...).
//   * A line is cut after kMaxLineBytes bytes (Google's limit); the cut is
//     flagged `is_line_too_long`.
//   * A NUL byte ends the line's content (Google reads lines as C strings).
//
// Example:
//
//   class CountRules : public robotscan::robots::LineListener {
//    public:
//     void OnLine(const robotscan::robots::Line& line) override {
//       if (line.directive == robotscan::robots::Directive::kDisallow) ++n;
//     }
//     int n = 0;
//   };
//   CountRules counter;
//   robotscan::robots::TokenizeRobotsTxt(body, counter);
//
// Thread-safety: TokenizeRobotsTxt is reentrant; it keeps no state of its own.
#ifndef ROBOTSCAN_ROBOTS_TOKENIZER_H_
#define ROBOTSCAN_ROBOTS_TOKENIZER_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

namespace robotscan::robots {

// Google's per-line limit: 8 times the 2083-byte browser URL limit, minus the
// terminating NUL of its line buffer. Bytes past it are ignored.
inline constexpr std::size_t kMaxLineBytes = 2083 * 8 - 1;

// What a line's key was recognised as. The first four are the directives of
// RFC 9309; the rest are widely used extensions that do not affect matching.
// Extension keys, these included, are recognised by whole key,
// case-insensitively.
enum class Directive : std::uint8_t {
  kNone,         // Empty line, comment, or no key/value separator found.
  kUserAgent,    // RFC 9309 §2.2.1
  kAllow,        // RFC 9309 §2.2.2
  kDisallow,     // RFC 9309 §2.2.2
  kSitemap,      // RFC 9309 §2.3.5 (other records)
  kCrawlDelay,   // Non-standard: seconds between requests.
  kRequestRate,  // Non-standard: "N/Ms" requests per time.
  kVisitTime,    // Non-standard: "HHMM-HHMM" UTC window.
  kHost,         // Non-standard (Yandex): preferred host name.
  kCleanParam,   // Non-standard (Yandex): "param1&param2 /path".
  kNoindex,      // Unsupported by Google but common; kept for reports.
  kNofollow,
  kNoarchive,
  kUnknown,  // Any other `key: value` line.
  // Usage preferences (preferences.h). After kUnknown so that the values
  // above keep their numbers.
  kContentUsage,   // draft-ietf-aipref-attach: "[path] train-ai=n".
  kContentSignal,  // Cloudflare: "search=yes, ai-train=no".
  kLicense,        // RSL: license URL, file-wide.
};

// Returns a stable lower-case name ("user-agent", "crawl-delay", "unknown"...).
std::string_view DirectiveName(Directive directive);

// One line of a robots.txt body, as reported to a LineListener. The
// string_views point into the body passed to TokenizeRobotsTxt (or, for
// `value` of a line longer than kMaxLineBytes, into its retained prefix) and
// are valid only during the OnLine call.
struct Line {
  int number = 0;          // 1-based; LF, CR and CRLF each end one line.
  std::size_t offset = 0;  // Byte offset of the line's first byte.
  std::string_view text;   // Line content (BOM and EOL excluded, cut at
                           // kMaxLineBytes and at the first NUL).
  Directive directive = Directive::kNone;
  std::string_view key;      // Key as written (stripped); empty if none.
  std::string_view value;    // Value as written (stripped, comment removed).
  std::string_view comment;  // Text after the first '#', if any.

  // Metadata, named as in Google's RobotsParseHandler::LineMetadata.
  bool is_empty = false;            // Nothing but whitespace.
  bool has_comment = false;         // Contains '#'.
  bool is_comment = false;          // Only a comment.
  bool has_directive = false;       // A `key: value` (or `key value`) line.
  bool is_acceptable_typo = false;  // Key is a typo Google accepts.
  bool is_line_too_long = false;    // Cut after kMaxLineBytes bytes.
  bool is_missing_colon_separator = false;
  bool has_nul_byte = false;    // Content after a NUL byte was ignored.
  bool ends_with_cr = false;    // Line ended with a lone CR.
  bool ends_with_crlf = false;  // Line ended with CR LF.
};

// Facts about the whole body, reported once after the last line.
struct BodySummary {
  int line_count = 0;         // Number of lines (a trailing EOL adds one).
  std::size_t bom_bytes = 0;  // Bytes of a (possibly partial) UTF-8 BOM.
  std::size_t lf_endings = 0;
  std::size_t cr_endings = 0;
  std::size_t crlf_endings = 0;
};

// Receives the tokenizer's events in body order.
class LineListener {
 public:
  virtual ~LineListener() = default;
  virtual void OnLine(const Line& line) = 0;
  virtual void OnEnd(const BodySummary& /*summary*/) {}
};

// Forwards every event to several listeners, in the order given: one
// tokenizer pass feeds them all, so a body that several readers need (the
// report's readings, its lint and its file facts) is read once. The
// listeners must want the same bytes (see RobotsTxtBuilder::parsed_body and
// RobotsTxtLinter::parsed_body) and outlive the fan-out.
class LineFanOut : public LineListener {
 public:
  explicit LineFanOut(std::initializer_list<LineListener*> listeners)
      : listeners_(listeners) {}
  void Add(LineListener* listener) { listeners_.push_back(listener); }

  void OnLine(const Line& line) override {
    for (LineListener* listener : listeners_) listener->OnLine(line);
  }
  void OnEnd(const BodySummary& summary) override {
    for (LineListener* listener : listeners_) listener->OnEnd(summary);
  }

 private:
  std::vector<LineListener*> listeners_;
};

// Tokenizes `body` and reports every line, including empty ones, to
// `listener`. Linear in body size; never fails: any byte sequence is a valid
// (if meaningless) robots.txt. Callers enforce size limits (see robots.h).
void TokenizeRobotsTxt(std::string_view body, LineListener& listener);

// Classifies a key as the tokenizer does. Sets *is_typo when the key is only
// accepted as a frequent misspelling.
Directive ClassifyKey(std::string_view key, bool* is_typo);

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_TOKENIZER_H_
