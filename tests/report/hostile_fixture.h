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
      MakeFetch("down.example", 5, 0, "", "",
                storage::ErrorClass::kConnectRefused),
  };
  return rows;
}

// Control characters that would drive a terminal: ESC sequences (OSC
// retitle with BEL, clear screen), CSI as UTF-8 U+009B and as a raw byte
// 0x9B (C1), DEL, in a job-advert comment (a table cell), an agent token
// and an unknown key. The comment also holds "café €", whose bytes include
// 0x82 inside a character: text, which must survive.
inline std::vector<storage::FetchRecord> TerminalControlFixture() {
  const std::string body =
      "# We are hiring! \x1b]0;owned\x07\x1b[2J csi\xc2\x9b"
      "2J raw\x9b"
      "2J del\x7f caf\xc3\xa9 \xe2\x82\xac\n"
      "User-agent: Evil\xc2\x9b"
      "bot\nDisallow: /\n\n"
      "User-agent: *\nDisallow: /x\n"
      "X-\x1b[31mkey\xc2\x85: v\n";
  return {MakeFetch("esc.example", 1, 200, body),
          MakeFetch("esc2.example", 2, 200, body)};
}

// True when `text` holds a control character other than line feed (C0,
// DEL, C1 as UTF-8 or as a raw byte 0x80-0x9F outside a UTF-8 character).
// Written without robotscan/base/terminal_text.h, whose escaping is what
// these tests check.
inline bool HasControlCharacter(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && byte != '\n') || byte == 0x7F) return true;
    if (byte == 0xC2 && i + 1 < text.size() &&
        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      return true;
    }
    if (byte >= 0x80 && byte <= 0x9F) {
      // A continuation byte is text only after a lead byte or another
      // continuation byte (this check is looser than UTF-8's, on purpose:
      // it only has to find a 0x9B that no character explains).
      const auto before = i > 0 ? static_cast<unsigned char>(text[i - 1]) : 0;
      if (before < 0x80 || before == 0xC2) return true;
    }
  }
  return false;
}

}  // namespace robotscan::report::testing

#endif  // ROBOTSCAN_TESTS_REPORT_HOSTILE_FIXTURE_H_
