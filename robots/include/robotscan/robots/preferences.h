// Usage preferences in robots.txt: the IETF aipref `Content-Usage` rule,
// Cloudflare's `Content-Signal` line and RSL's `License` line, as parsed by
// RobotsTxt (robots.h) and answered by RobotsTxt::PreferencesFor.
//
// Sources, and what is read from each:
//   * Content-Usage: draft-ietf-aipref-attach-05 (19 August 2026, "Associating
//     AI Usage Preferences with Content in HTTP", §3, updates RFC 9309).
//     A rule of a group: `Content-Usage: [path] statement`. A value that
//     starts with '/' has a path, up to the first SP or HTAB; any other value
//     is all statement, and applies to every path. The statement is an
//     RFC 9651 Dictionary whose keys are labels and whose values are the
//     Tokens `y` or `n` (draft-ietf-aipref-vocab-08, 14 September 2026, its
//     serialization format and processing algorithm): a value
//     that is not one of those tokens expresses no preference for its key,
//     unknown labels are kept, a repeated key keeps its last value, and a
//     statement that is not a Dictionary (an upper-case key, a trailing
//     comma, ...) expresses nothing at all.
//     Selection (attach-05 §3.1): the group is chosen as for allow/disallow;
//     among its Content-Usage rules the one whose path matches the URL's
//     path with the most bytes applies, paths matched exactly as rule
//     patterns (`*`, `$`, percent-normalisation); rules with paths of the
//     same length that both match combine, and for each label `n` wins
//     over `y` (attach-05 refers conflicts to the vocabulary's rules for
//     combining preferences, under which a disallow wins). Preferences apply
//     only to paths that may be crawled: for a disallowed URL none are implied.
//   * Content-Signal: Cloudflare's Content Signals Policy
//     (https://contentsignals.org/, September 2025; Cloudflare also proposed
//     the three categories to the aipref vocabulary, as
//     draft-romm-aipref-contentsignals-00): `Content-Signal: search=yes,
//     ai-input=yes, ai-train=no`, comma-separated `key=yes|no`.
//     Placement: a line of a user-agent group. contentsignals.org's policy
//     text and Cloudflare's managed robots.txt write it under `User-Agent: *`
//     (above `Allow: /`), and RFC 9309 §2.1 makes every line after a
//     user-agent line part of that group; the reading of it as file-wide
//     comes from secondary reporting ("sits alongside User-agent/Allow/
//     Disallow"), not from the policy itself. A Content-Signal line before
//     any user-agent line is therefore kept (content_signals_outside_groups)
//     but applies to no agent, and the linter reports it. Lines of the
//     chosen groups combine as Content-Usage rules do, `no` winning over
//     `yes` (the policy defines no combination; this is the library's).
//   * License: RSL 1.0 (Really Simple Licensing, rslstandard.org),
//     `License: URL`, file-wide like Sitemap.
//
// Content-Usage and Content-Signal lines belong to the group they are written
// in, as extension lines do (robots.h, Group::shares_rules_with_next): they
// never change which allow/disallow rules apply to an agent. The urllib
// compat mode reads none of these lines (CPython's parser has none).
//
// Usage:
//
//   robotscan::robots::Preferences p =
//       robots.PreferencesFor("GPTBot", "https://example.com/article");
//   for (const robotscan::robots::AppliedPreference& pref : p.content_usage) {
//     std::printf("%.*s=%s (line %d)\n", static_cast<int>(pref.key.size()),
//                 pref.key.data(), pref.allowed ? "y" : "n", pref.line);
//   }
//
// Thread-safety: plain values; the functions below are pure.
#ifndef ROBOTSCAN_ROBOTS_PREFERENCES_H_
#define ROBOTSCAN_ROBOTS_PREFERENCES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace robotscan::robots {

// The drafts this library's reading follows; a newer draft may rename
// labels (the vocabulary went from tdm/ai/genai/search through
// train-ai/train-genai/ai-use to train-ai and search).
inline constexpr std::string_view kAiprefAttachDraft =
    "draft-ietf-aipref-attach-05";
inline constexpr std::string_view kAiprefVocabulary =
    "draft-ietf-aipref-vocab-08";
inline constexpr std::string_view kContentSignalsPolicy =
    "contentsignals.org (Cloudflare, September 2025)";

enum class LabelStatus : std::uint8_t {
  kCurrent,   // Defined by the vocabulary followed.
  kObsolete,  // Defined only by an earlier draft of it.
  kUnknown,   // Neither: an extension, or a typo; kept, and never an error.
};

// A Content-Usage label under kAiprefVocabulary: "train-ai" and "search" are
// current; "tdm", "ai", "genai" (vocab-00 to -02), "train-genai" and "ai-use"
// (later drafts) are obsolete. Case-sensitive, as the Dictionary is.
LabelStatus AiprefLabelStatus(std::string_view label);

// A Content-Signal key: "search", "ai-input", "ai-train" are current.
LabelStatus ContentSignalKeyStatus(std::string_view key);

// One key of a statement with an allow/disallow value (`y`/`n`, or
// `yes`/`no` for Content-Signal).
struct UsagePreference {
  std::string key;
  bool allowed = false;
};

// One Content-Usage line.
struct ContentUsage {
  int line = 0;
  std::string path;        // As written; empty when absent (every path).
  std::string match_path;  // What is matched, escaped/normalised as rules.
  std::string statement;   // The statement of preference as written.
  // False when the statement is not an RFC 9651 Dictionary: the line then
  // expresses no preference.
  bool is_dictionary = false;
  // Keys whose value is the Token y or n, in the Dictionary's order (a
  // repeated key counts once, with its last value).
  std::vector<UsagePreference> preferences;
  // Keys whose value is anything else: no preference for them.
  std::vector<std::string> malformed_keys;
};

// One Content-Signal line.
struct ContentSignal {
  int line = 0;
  std::string value;  // As written.
  // `key=yes` / `key=no` entries (keys lower-cased; values compared
  // case-insensitively), in order; a repeated key keeps its last value.
  std::vector<UsagePreference> signals;
  // Entries that are not `key=yes|no`, as written.
  std::vector<std::string> malformed_entries;
};

// A License line (RSL): file-wide.
struct LicenseLine {
  std::string url;
  int line = 0;
};

// A preference in effect for one URL and agent. `key` stays valid while
// any copy of the RobotsTxt that produced it is alive.
struct AppliedPreference {
  std::string_view key;
  bool allowed = false;
  int line = 0;  // The deciding line (for a conflict, the first `n` line).
};

}  // namespace robotscan::robots

#endif  // ROBOTSCAN_ROBOTS_PREFERENCES_H_
