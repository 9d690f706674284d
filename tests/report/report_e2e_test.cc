// End to end: the built `robotscan report` on fixture databases, in every
// format, and the HTML page in headless Chromium (labelled slow).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "hostile_fixture.h"
#include "report_fixture.h"

namespace robotscan::report {
namespace {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// Runs a shell command (arguments are test-controlled paths, quoted).
CommandResult RunShell(const std::string& command) {
  CommandResult result;
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    result.output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

std::string Quote(const std::string& text) { return "'" + text + "'"; }

std::string ReportCommand(const std::string& db, const std::string& format,
                          const std::string& out) {
  return Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) + " --format " +
         format + " --out " + Quote(out);
}

TEST(ReportCommandTest, WritesEveryFormat) {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  testing::WriteDatabase(db, testing::StudyFixture());
  for (const std::string format : {"text", "markdown", "json", "html"}) {
    const std::string out = dir + "/report." + format;
    const CommandResult result = RunShell(ReportCommand(db, format, out));
    EXPECT_EQ(result.exit_code, 0) << format << ": " << result.output;
    EXPECT_TRUE(result.output.empty()) << result.output;
    const std::string text = ReadFile(out);
    EXPECT_NE(text.find("gptbot"), std::string::npos) << format;
    if (format == "json") {
      EXPECT_EQ(nlohmann::json::parse(text)["domains"], 14);
    }
  }
  // Default: text on stdout.
  const CommandResult result =
      RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db));
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("1. Outcome categories"), std::string::npos);
}

TEST(ReportCommandTest, AgentsAndTopFlags) {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  testing::WriteDatabase(db, testing::StudyFixture());
  const CommandResult result =
      RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) +
               " --format json --agents GPTBot,FooBot --top 1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  const auto json = nlohmann::json::parse(result.output);
  ASSERT_EQ(json["blocking_matrix"]["crawlers"].size(), 2u);
  EXPECT_EQ(json["blocking_matrix"]["crawlers"][1]["agent"], "FooBot");
  EXPECT_EQ(json["blocking_matrix"]["crawlers"][0]["full"]["count"], 3);
  EXPECT_EQ(json["file_facts"]["agent_tokens"].size(), 1u);
}

TEST(ReportCommandTest, UsageAndInputErrorsExitTwo) {
  const std::string dir = testing::MakeTempDir();
  CommandResult result = RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " +
                                  Quote(dir + "/absent.sqlite"));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("robotscan report:"), std::string::npos);
  { std::ofstream(dir + "/notadb.sqlite") << "hello"; }
  result = RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " +
                    Quote(dir + "/notadb.sqlite"));
  EXPECT_EQ(result.exit_code, 2);
  result = RunShell(Quote(ROBOTSCAN_BINARY) + " report --db x --format pdf");
  EXPECT_EQ(result.exit_code, 2);
  result = RunShell(Quote(ROBOTSCAN_BINARY) + " report");
  EXPECT_EQ(result.exit_code, 2);
}

// Issue 30: `robotscan report` on a terminal. The text and Markdown
// reports print no control character of the crawled files' (C0, DEL, C1
// both as UTF-8 and as raw bytes); the HTML report none either.
TEST(ReportCommandTest, PrintsNoControlCharacterOfTheCrawledFiles) {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  testing::WriteDatabase(db, testing::TerminalControlFixture());
  for (const std::string format : {"text", "markdown", "html"}) {
    const CommandResult result =
        RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) +
                 " --format " + format);
    ASSERT_EQ(result.exit_code, 0) << format << ": " << result.output;
    EXPECT_NE(result.output.find("hiring"), std::string::npos) << format;
    EXPECT_NE(result.output.find("caf\xc3\xa9 \xe2\x82\xac"), std::string::npos)
        << format;
    EXPECT_FALSE(testing::HasControlCharacter(result.output)) << format << "\n"
                                                              << result.output;
  }
}

TEST(ReportCommandTest, CsvTablesAndTheirErrors) {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  testing::WriteDatabase(db, testing::StudyFixture());
  const std::string robotscan =
      Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) + " --format csv";
  CommandResult result = RunShell(robotscan + " --table blocking");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(result.output.substr(0, 50),
            "Crawler,Full block,Full block denominator,Full blo");
  EXPECT_NE(result.output.find("\r\nGPTBot,3,7,42.8571,"), std::string::npos);
  result = RunShell(robotscan + " --table list");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_NE(result.output.find("job-adverts,"), std::string::npos);
  result = RunShell(robotscan);  // No --table.
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("--format csv needs --table"),
            std::string::npos);
  result = RunShell(robotscan + " --table nope");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no table 'nope'; tables: outcomes,"),
            std::string::npos);
  result = RunShell(Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) +
                    " --table blocking");
  EXPECT_EQ(result.exit_code, 2);
}

TEST(ReportCommandTest, CompareAndUrllibFlags) {
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  testing::AppendRun(db, testing::StudyFixture(), "2026-10-01T00:00:00.000Z");
  auto newer = testing::StudyFixture();
  newer[0].body = "User-agent: GPTBot\nDisallow: /\n";  // a.com changes.
  testing::AppendRun(db, newer, "2026-11-01T00:00:00.000Z");
  const std::string report =
      Quote(ROBOTSCAN_BINARY) + " report --db " + Quote(db) + " --format json";
  CommandResult result = RunShell(report + " --compare 1");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  auto json = nlohmann::json::parse(result.output);
  EXPECT_EQ(json["comparison"]["files_changed"]["count"], 1);
  EXPECT_EQ(json["comparison"]["changed_files"][0]["domain"], "a.com");
  EXPECT_EQ(json["comparison"]["older"], "run 1 of " + db);
  result = RunShell(report + " --compare " + Quote(db));
  ASSERT_EQ(result.exit_code, 0) << result.output;
  EXPECT_EQ(nlohmann::json::parse(
                result.output)["comparison"]["files_changed"]["count"],
            0);
  result = RunShell(report + " --compare 7");
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.output.find("no crawl run 7"), std::string::npos);
  result = RunShell(report + " --compare " + Quote(dir + "/absent.sqlite"));
  EXPECT_EQ(result.exit_code, 2);
  result = RunShell(report + " --compat urllib --no-sensitivity");
  ASSERT_EQ(result.exit_code, 0) << result.output;
  json = nlohmann::json::parse(result.output);
  EXPECT_EQ(json["compat"], "urllib");
  EXPECT_FALSE(json.contains("parser_sensitivity"));
  EXPECT_FALSE(json.contains("comparison"));
}

// Headless Chromium on the hostile fixture's page. The page script marks
// <html data-ready="1"> when it ran, so "no payload ran" is not just "no
// script ran".
TEST(ChromiumTest, PageRendersChartsAndRunsNoCrawledScript) {
  const CommandResult probe = RunShell("command -v chromium");
  ASSERT_EQ(probe.exit_code, 0)
      << "chromium is required (scripts/bootstrap --extras installs it)";
  const std::string dir = testing::MakeTempDir();
  const std::string db = dir + "/crawl.sqlite";
  const std::string page = dir + "/report.html";
  auto rows = testing::HostileFixture();
  for (auto& row : testing::StudyFixture()) rows.push_back(std::move(row));
  rows.back().domain = "n2.com";  // Keep domains distinct across fixtures.
  for (std::size_t i = 5; i < rows.size(); ++i) rows[i].rank += 10;
  // An older run without the hostile files' sitemaps, so that part 8 lists
  // the hostile Sitemap URL as added; and a 100-byte unknown key, which
  // must wrap rather than push its table's last column out of view.
  testing::AppendRun(db, rows, "2026-10-01T00:00:00.000Z");
  const std::string sitemap =
      std::string("Sitemap: https://evil.example/") + testing::kScriptPayload;
  rows[0].body += sitemap + "\n" + std::string(100, 'k') + ": v\n";
  rows[1].body += sitemap + "\n";
  testing::AppendRun(db, rows, "2026-11-01T00:00:00.000Z");
  const CommandResult made =
      RunShell(ReportCommand(db, "html", page) + " --compare 1");
  ASSERT_EQ(made.exit_code, 0) << made.output;

  const std::string chromium =
      "timeout 90 chromium --headless --no-sandbox --disable-gpu "
      "--disable-quic --no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir=" +
      Quote(dir + "/profile") + " ";
  const CommandResult dom =
      RunShell(chromium + "--dump-dom " + Quote("file://" + page));
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  const std::string& html = dom.output;
  EXPECT_NE(html.find("data-ready=\"1\""), std::string::npos)
      << "the page's own script did not run";
  EXPECT_EQ(html.find("data-pwned=\"1\""), std::string::npos);
  EXPECT_EQ(html.find("PWNED</title>"), std::string::npos);
  EXPECT_NE(html.find("<title>robotscan report</title>"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  // The payload is on the page, as text.
  EXPECT_NE(html.find("&lt;script&gt;document.title="), std::string::npos);
  // Charts: the five of parts 1-6, part 4b's, part 7's, part 8's two and
  // part 9's, with bars.
  std::size_t charts = 0;
  for (std::size_t at = html.find("<svg class=\"chart\"");
       at != std::string::npos;
       at = html.find("<svg class=\"chart\"", at + 1)) {
    ++charts;
  }
  EXPECT_EQ(charts, 10u);
  EXPECT_NE(html.find("<rect class=\"bar\""), std::string::npos);
  // The new sections are on the page, and their crawled text is text.
  EXPECT_NE(html.find("<section id=\"sensitivity\">"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"compare\">"), std::string::npos);
  EXPECT_NE(html.find("https://evil.example/&lt;script&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("fully block or single out each crawler"),
            std::string::npos);

  // Sorting: a harness page (same directory; file access allowed between
  // files) clicks the "Full block" header of the blocking matrix (not
  // part 4b's, the next table with that header) twice and
  // prints the column's values after each click.
  const std::string harness = dir + "/harness.html";
  robotscan::report::testing::WriteTextFile(harness, R"html(<!DOCTYPE html>
<html><body><pre id="out">not run</pre>
<iframe id="f" src="report.html" width="1200" height="600"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument, lines = [], done = false;
  d.querySelectorAll('table.sortable').forEach(function (t) {
    if (done) return;  // The first such table: part 4's matrix.
    var ths = t.querySelectorAll('th');
    for (var i = 0; i < ths.length; ++i) {
      if (ths[i].textContent !== 'Full block') continue;
      ['asc', 'desc'].forEach(function (order) {
        ths[i].click();
        var values = [];
        t.tBodies[0].querySelectorAll('tr').forEach(function (r) {
          values.push(r.cells[i].getAttribute('data-v'));
        });
        lines.push(order + ':' + values.join(','));
      });
      done = true;
    }
  });
  document.getElementById('out').textContent = lines.join(' ');
});
</script></body></html>)html");
  const CommandResult sorted =
      RunShell(chromium + "--allow-file-access-from-files --dump-dom " +
               Quote("file://" + harness));
  ASSERT_EQ(sorted.exit_code, 0) << sorted.output;
  const std::size_t asc = sorted.output.find("asc:");
  const std::size_t desc = sorted.output.find(" desc:");
  ASSERT_NE(asc, std::string::npos) << sorted.output;
  ASSERT_NE(desc, std::string::npos) << sorted.output;
  auto parse = [](std::string list) {
    std::vector<double> values;
    std::stringstream stream(list);
    for (std::string item; std::getline(stream, item, ',');) {
      values.push_back(std::stod(item));
    }
    return values;
  };
  const std::vector<double> ascending =
      parse(sorted.output.substr(asc + 4, desc - asc - 4));
  const std::size_t desc_end = sorted.output.find('<', desc);
  const std::vector<double> descending =
      parse(sorted.output.substr(desc + 6, desc_end - desc - 6));
  ASSERT_EQ(ascending.size(), 17u);
  EXPECT_TRUE(std::is_sorted(ascending.begin(), ascending.end()));
  EXPECT_TRUE(std::is_sorted(descending.rbegin(), descending.rend()));
  EXPECT_LT(ascending.front(), ascending.back());  // Not all equal.

  // Wrapping: in a 700-pixel frame, the table of unknown directives (a
  // 100-byte key) still fits its box.
  const std::string narrow = dir + "/narrow.html";
  robotscan::report::testing::WriteTextFile(narrow, R"html(<!DOCTYPE html>
<html><body><pre id="out">not run</pre>
<iframe id="f" src="report.html" width="700" height="600"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument, out = 'no table';
  d.querySelectorAll('h3').forEach(function (h) {
    if (h.textContent !== 'Most common unknown directives') return;
    var wrap = h.nextElementSibling.nextElementSibling, longest = 0;
    wrap.querySelectorAll('td').forEach(function (td) {
      longest = Math.max(longest, td.textContent.length);
    });
    out = 'widths:' + wrap.scrollWidth + '/' + wrap.clientWidth + ':' +
          longest;
  });
  document.getElementById('out').textContent = out;
});
</script></body></html>)html");
  const CommandResult wrapped =
      RunShell(chromium + "--allow-file-access-from-files --dump-dom " +
               Quote("file://" + narrow));
  ASSERT_EQ(wrapped.exit_code, 0) << wrapped.output;
  const std::size_t widths = wrapped.output.find("widths:");
  ASSERT_NE(widths, std::string::npos) << wrapped.output;
  int scroll = 0, client = 0, key_length = 0;
  ASSERT_EQ(std::sscanf(wrapped.output.c_str() + widths, "widths:%d/%d:%d",
                        &scroll, &client, &key_length),
            3);
  EXPECT_EQ(key_length, 100);
  EXPECT_GT(client, 0);
  EXPECT_LE(scroll, client) << "the key pushes the table out of its box";

  const std::string png = dir + "/page.png";
  const CommandResult shot =
      RunShell(chromium + "--screenshot=" + Quote(png) +
               " --window-size=1280,2000 " + Quote("file://" + page));
  ASSERT_EQ(shot.exit_code, 0) << shot.output;
  const std::string image = ReadFile(png);
  ASSERT_GT(image.size(), 20'000u);  // A blank page compresses to ~5 KB.
  EXPECT_EQ(image.substr(1, 3), "PNG");
}

}  // namespace
}  // namespace robotscan::report
