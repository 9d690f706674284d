// The urllib compat mode (Compat::kUrllib): CPython 3.11's
// urllib.robotparser.RobotFileParser reading of a robots.txt, reproduced
// exactly so that studies made with it can be re-run and compared. Private
// to the robots library; RobotsTxt (robots.h) is the public face.
//
// What CPython does that RFC 9309 does not, and this reproduces:
//   * The body is UTF-8 decoded (invalid bytes replaced, as
//     bytes.decode("utf-8", "replace") does; RobotFileParser.read() would
//     raise) and split with str.splitlines() (also VT, FF, NEL, U+2028...).
//     A byte order mark is not removed, so a first line behind one is not
//     read.
//   * A group ends at an empty line (a user-agent line followed by an empty
//     line is forgotten), keys must be written exactly ("user-agent",
//     "disallow", ... in any case, no typos, a colon required), values are
//     percent-decoded.
//   * The first group naming `*` is the default, consulted last; later `*`
//     groups are dropped. Other groups are tried in file order, and the first
//     whose agent name, lower-cased, is a *substring* of the caller's agent
//     (cut at its first '/', lower-cased) decides.
//   * Within a group the first rule whose path is a prefix of the URL's path
//     decides (no longest match, no wildcards); an empty Disallow allows
//     everything. Paths and URLs are compared after unquote / urlparse /
//     urlunparse / quote (python_urlparse.h).
//   * parse() raises ValueError on some rule paths (an unmatched '[' in
//     "//[..."), on crawl-delay values such as '²' and on numbers of more
//     than 4,300 digits; the reading then keeps what was read before that
//     line, as a caller that catches the exception would see.
#ifndef ROBOTSCAN_ROBOTS_SRC_URLLIB_READING_H_
#define ROBOTSCAN_ROBOTS_SRC_URLLIB_READING_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "robotscan/robots/robots.h"

namespace robotscan::robots::urllib {

// RobotFileParser's state after parse(lines).
struct File {
  // The entries CPython keeps (self.entries and self.default_entry), in
  // file order. Group::agents are the values as written, Group::tokens the
  // percent-decoded, lower-cased names that are matched; Rule::pattern is
  // the value as written, Rule::match_pattern the quoted path compared.
  std::vector<Group> groups;
  std::vector<std::uint32_t> entries;          // self.entries, in order.
  std::optional<std::uint32_t> default_entry;  // self.default_entry.
  std::vector<Sitemap> sitemaps;               // self.sitemaps (decoded).
  std::vector<Rule> ignored_rules;  // Allow/disallow before any user-agent.
  int line_count = 0;               // Lines of str.splitlines().
  int error_line = 0;               // Where parse() raises; 0 if it does not.
};

File Read(std::string_view body);

// The group can_fetch consults for `agent`: the first entry that applies,
// else the default entry (*used_default set), else nullptr.
const Group* GroupFor(const File& file, std::string_view agent,
                      bool* used_default);

// The first entry (not the default) that applies to `agent`, or nullptr.
const Group* EntryFor(const File& file, std::string_view agent);

// can_fetch(agent, url). Decision::kInvalidUrl (allowed false) where
// CPython raises ValueError on the URL.
MatchResult Match(const File& file, std::string_view agent,
                  std::string_view url);

// An Allow line, or an empty Disallow (RuleLine makes it an allowance).
bool RuleAllows(const Rule& rule);

}  // namespace robotscan::robots::urllib

#endif  // ROBOTSCAN_ROBOTS_SRC_URLLIB_READING_H_
