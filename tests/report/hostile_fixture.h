// Crawled content that tries to run script in the HTML report: in comments,
// user-agent names, paths, domains and the excerpt of a shared file.
#ifndef ROBOTSCAN_TESTS_REPORT_HOSTILE_FIXTURE_H_
#define ROBOTSCAN_TESTS_REPORT_HOSTILE_FIXTURE_H_

#include <string>
#include <vector>

#include "report_fixture.h"

namespace robotscan::report::testing {

// Each payload, if it ever ran, would mark the page: set the title, or add
// an attribute to <body>. The tests assert neither happened.
inline constexpr char kScriptPayload[] =
    "<script>document.title='PWNED'</script>";
inline constexpr char kImagePayload[] =
    "\"><img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";

inline std::vector<storage::FetchRecord> HostileFixture() {
  const std::string body =
      std::string("# We are hiring! ") + kScriptPayload + "\n# jobs " +
      kImagePayload + "\nUser-agent: " + kScriptPayload + "\nDisallow: /\n" +
      "User-agent: Evil" + kImagePayload + "\nDisallow: /\n\n" +
      "User-agent: *\nDisallow: /" + kScriptPayload + "\nDisallow: /" +
      kImagePayload + "\n" + kImagePayload + ": unknown\n";
  std::vector<storage::FetchRecord> rows = {
      MakeFetch("evil.example", 1, 200, body),
      MakeFetch("evil2.example", 2, 200, body),
      MakeFetch("walled.example", 3, 200,
                "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\n"
                "Allow: /\n# careers " +
                    std::string(kScriptPayload) + "\n"),
      MakeFetch("gone.example", 4, 404),
      MakeFetch("down.example", 5, 0, "", "", "connect_refused"),
  };
  return rows;
}

}  // namespace robotscan::report::testing

#endif  // ROBOTSCAN_TESTS_REPORT_HOSTILE_FIXTURE_H_
