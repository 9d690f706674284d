// `robotscan toplist` end to end against our loopback server (the
// --toplist-url override): Tranco's current list with its ID, a list by
// ID, Umbrella's zip, Majestic's csv; a truncated zip, an HTML error page,
// an error status and a list with bad lines; then a crawl of the file,
// whose crawl_run records the list's provenance and whose report prints it.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <openssl/sha.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "crawl_test_util.h"
#include "robotscan/crawler/top_list_download.h"
#include "test_http_server.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

const std::string kBinary = ROBOTSCAN_BINARY;

std::string Sha256Hex(const std::string& bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         digest.data());
  std::string hex;
  char two[3];
  for (unsigned char b : digest) {
    std::snprintf(two, sizeof(two), "%02x", b);
    hex += two;
  }
  return hex;
}

// A zip holding one file, written with libarchive.
std::string Zip(const std::string& name, const std::string& contents) {
  std::vector<char> buffer(contents.size() * 2 + 4096);
  std::size_t used = 0;
  archive* a = archive_write_new();
  archive_write_set_format_zip(a);
  EXPECT_EQ(archive_write_open_memory(a, buffer.data(), buffer.size(), &used),
            ARCHIVE_OK);
  archive_entry* entry = archive_entry_new();
  archive_entry_set_pathname(entry, name.c_str());
  archive_entry_set_size(entry, static_cast<la_int64_t>(contents.size()));
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_perm(entry, 0644);
  EXPECT_EQ(archive_write_header(a, entry), ARCHIVE_OK);
  EXPECT_EQ(archive_write_data(a, contents.data(), contents.size()),
            static_cast<la_ssize_t>(contents.size()));
  archive_entry_free(entry);
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buffer.data(), used);
}

std::string RankCsv(int n, const std::string& suffix = ".test") {
  std::string csv;
  for (int i = 1; i <= n; ++i) {
    csv += std::to_string(i) + ",d" + std::to_string(i) + suffix + "\r\n";
  }
  return csv;
}

class TopListE2eTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_dir_ = new TempDir();
    server_ = new TestHttpServer(server_dir_->path());
  }
  static void TearDownTestSuite() {
    delete server_;
    delete server_dir_;
  }

  std::string Base() const {
    return "http://127.0.0.1:" + std::to_string(server_->http_port());
  }

  ProcessResult TopList(std::vector<std::string> flags) {
    std::vector<std::string> args = {"toplist", "--toplist-url", Base(),
                                     "--output", output_};
    args.insert(args.end(), flags.begin(), flags.end());
    return RunProcess(kBinary, args, dir_.path(), 30s);
  }

  static TempDir* server_dir_;
  static TestHttpServer* server_;
  TempDir dir_;
  std::string output_ = dir_.File("list.csv");
};

TempDir* TopListE2eTest::server_dir_ = nullptr;
TestHttpServer* TopListE2eTest::server_ = nullptr;

// Today's Tranco list: the zip, its list ID, the file with its provenance
// line; a crawl of it records the provenance, the report prints it.
TEST_F(TopListE2eTest, TrancoCurrentListThenCrawlRecordsProvenance) {
  const std::string zip = Zip("top-1m.csv", RankCsv(5));
  server_->ServeFile("/top-1m.csv.zip", 200, "application/zip", zip);
  server_->ServeFile("/top-1m-id", 200, "text/plain", "K7QJW\n");
  const ProcessResult run = TopList({});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("tranco list K7QJW"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("5 entries, 0 malformed lines"), std::string::npos)
      << run.out;
  const std::string file = ReadFile(output_);
  const std::string first = file.substr(0, file.find('\n'));
  EXPECT_EQ(first, "# robotscan-toplist source=tranco list_id=K7QJW date=" +
                       first.substr(first.find("date=") + 5, 10) + " url=" +
                       Base() + "/top-1m.csv.zip sha256=" + Sha256Hex(zip));
  EXPECT_NE(file.find("\n1,d1.test\r\n"), std::string::npos)
      << "the list as published follows";
  EXPECT_FALSE(std::filesystem::exists(output_ + ".part"));

  const std::string db = dir_.File("crawl.sqlite");
  const ProcessResult crawl = RunProcess(
      kBinary,
      {"crawl", "--db", db, output_, "--top", "3", "--schemes", "http",
       "--connect-to", ":80:127.0.0.1:" + std::to_string(server_->http_port()),
       "--allow-private-addresses", "--quiet"},
      dir_.path(), 60s);
  ASSERT_EQ(crawl.exit_code, 0) << crawl.err;
  EXPECT_EQ(QueryOne(db,
                     "SELECT count(*) FROM latest_fetch WHERE access = "
                     "'success'"),
            "3");
  EXPECT_EQ(
      QueryOne(db,
               "SELECT list_source, list_id, list_url, list_sha256, "
               "list_entries, length(list_date) FROM crawl_run"),
      "tranco|K7QJW|" + Base() + "/top-1m.csv.zip|" + Sha256Hex(zip) + "|3|10");

  const ProcessResult report =
      RunProcess(kBinary, {"report", "--db", db}, dir_.path(), 60s);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_NE(report.out.find("tranco list K7QJW"), std::string::npos)
      << report.out;
  EXPECT_NE(report.out.find(Sha256Hex(zip)), std::string::npos) << report.out;
}

// A list by its ID, the reproducible form: /download/ID/1000000 as csv.
TEST_F(TopListE2eTest, TrancoListById) {
  const std::string csv = RankCsv(4);
  server_->ServeFile("/download/X5Y7N/1000000", 200, "text/csv", csv);
  const ProcessResult run = TopList({"--list-id", "X5Y7N"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  storage::ListProvenance p;
  ASSERT_TRUE(crawler::ReadListProvenance(output_, &p).ok());
  EXPECT_EQ(p.source, "tranco");
  EXPECT_EQ(p.list_id, "X5Y7N");
  EXPECT_EQ(p.sha256, Sha256Hex(csv));
  EXPECT_EQ(p.url, Base() + "/download/X5Y7N/1000000");
  // A list ID is letters and digits: nothing else reaches a URL.
  const ProcessResult bad = TopList({"--list-id", "../etc"});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("invalid Tranco list ID"), std::string::npos);
}

TEST_F(TopListE2eTest, UmbrellaZipAndMajesticCsv) {
  const std::string umbrella = Zip("top-1m.csv", RankCsv(3, ".example"));
  server_->ServeFile("/top-1m.csv.zip", 200, "application/zip", umbrella);
  ProcessResult run = TopList({"--source", "umbrella"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("umbrella list of"), std::string::npos) << run.out;
  EXPECT_NE(ReadFile(output_).find("source=umbrella date="), std::string::npos);

  const std::string majestic =
      "GlobalRank,TldRank,Domain,TLD,RefSubNets,RefIPs\n"
      "1,1,google.com,com,1,1\n2,2,facebook.com,com,1,1\n";
  server_->ServeFile("/majestic_million.csv", 200, "text/csv", majestic);
  run = TopList({"--source", "majestic"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("2 entries"), std::string::npos) << run.out;
  storage::ListProvenance p;
  ASSERT_TRUE(crawler::ReadListProvenance(output_, &p).ok());
  EXPECT_EQ(p.source, "majestic");
  EXPECT_EQ(p.sha256, Sha256Hex(majestic));
  EXPECT_EQ(TopList({"--source", "alexa"}).exit_code, 2);
  EXPECT_EQ(TopList({"--source", "majestic", "--list-id", "X5Y7N"}).exit_code,
            2)
      << "list IDs are Tranco's";
}

struct BadDownload {
  const char* id;
  int status;
  const char* content_type;
  std::string body;
  const char* message;
};

// What must not become a list: nothing is written, the message says what
// arrived instead, the exit status is 3.
TEST_F(TopListE2eTest, DamagedOrWrongDownloadsWriteNothing) {
  const std::string zip = Zip("top-1m.csv", RankCsv(2000));
  const BadDownload cases[] = {
      {"truncated zip", 200, "application/zip", zip.substr(0, zip.size() / 2),
       "damaged zip"},
      {"zip cut in its header", 200, "application/zip", zip.substr(0, 12),
       "damaged zip"},
      {"HTML error page", 200, "text/html",
       "<!DOCTYPE html><html><body>Rate limited</body></html>", "HTML page"},
      {"HTML without a type", 200, "application/octet-stream",
       "\n  <html><body>maintenance</body></html>", "HTML page"},
      {"error status", 503, "text/plain", "try later", "HTTP 503"},
      {"only bad lines", 200, "text/csv", "x,y,z\n,,\nnot a domain!\n",
       "no list entries"},
      {"empty", 200, "text/csv", "", "no list entries"},
  };
  for (const BadDownload& c : cases) {
    std::filesystem::remove(output_);
    server_->ServeFile("/majestic_million.csv", c.status, c.content_type,
                       c.body);
    const ProcessResult run = TopList({"--source", "majestic"});
    EXPECT_EQ(run.exit_code, 3) << c.id << run.err;
    EXPECT_NE(run.err.find(c.message), std::string::npos) << c.id << run.err;
    EXPECT_FALSE(std::filesystem::exists(output_)) << c.id;
    EXPECT_FALSE(std::filesystem::exists(output_ + ".part")) << c.id;
  }
}

// Bad lines in a usable list are reported and kept out of the count; the
// crawl skips them as it skips any malformed line.
TEST_F(TopListE2eTest, ListWithBadLinesIsWrittenAndTheyAreReported) {
  const std::string csv = "1,a.test\n2,bad domain\n3,b.test\n\n4,\n5,c.test\n";
  server_->ServeFile("/download/BADL1/1000000", 200, "text/csv", csv);
  const ProcessResult run = TopList({"--list-id", "BADL1"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("3 entries, 2 malformed lines"), std::string::npos)
      << run.out;
  EXPECT_NE(run.err.find("line 2 skipped"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("line 5 skipped"), std::string::npos) << run.err;
}

// The default file name says which list it is.
TEST_F(TopListE2eTest, DefaultOutputNamesTheList) {
  server_->ServeFile("/download/NAME7/1000000", 200, "text/csv", RankCsv(2));
  const ProcessResult run = RunProcess(
      "/bin/sh",
      {"-c", "cd '" + dir_.path() + "' && exec '" + kBinary +
                 "' toplist --toplist-url " + Base() + " --list-id NAME7"},
      dir_.path(), 30s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.File("tranco-NAME7.csv")));
}

// scripts/crawl without a LIST fetches today's Tranco list next to the
// database (ROBOTSCAN_TOPLIST_URL points it at our server) and crawls it;
// --top still applies.
TEST_F(TopListE2eTest, ScriptsCrawlWithoutAListFetchesTodaysTranco) {
  const std::string script =
      std::string(ROBOTSCAN_SOURCE_DIR) + "/scripts/crawl";
  server_->ServeFile("/top-1m.csv.zip", 200, "application/zip",
                     Zip("top-1m.csv", RankCsv(6)));
  server_->ServeFile("/top-1m-id", 200, "text/plain", "SCRPT\n");
  const std::string db = dir_.File("crawl.sqlite");
  const std::string command =
      "ROBOTSCAN_BINARY='" + kBinary + "' ROBOTSCAN_TOPLIST_URL=" + Base() +
      " '" + script + "' '" + db +
      "' --top 4 --schemes http --connect-to :80:127.0.0.1:" +
      std::to_string(server_->http_port()) +
      " --allow-private-addresses --quiet";
  const ProcessResult run =
      RunProcess("/bin/sh", {"-c", command}, dir_.path(), 60s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryOne(db, "SELECT count(*) FROM latest_fetch"), "4");
  EXPECT_EQ(QueryOne(db,
                     "SELECT list_source, list_id, list_entries FROM "
                     "crawl_run"),
            "tranco|SCRPT|4");
  EXPECT_TRUE(std::filesystem::exists(dir_.File("tranco-" +
                                                QueryOne(db,
                                                         "SELECT list_date "
                                                         "FROM crawl_run") +
                                                ".csv")));
  // The old form, LIST then DB, still works.
  const ProcessResult with_list = RunProcess(
      "/bin/sh",
      {"-c",
       "ROBOTSCAN_BINARY='" + kBinary + "' '" + script + "' '" +
           dir_.File("tranco-" +
                     QueryOne(db, "SELECT list_date FROM crawl_run") + ".csv") +
           "' '" + dir_.File("second.sqlite") + "' --top 2 --schemes " +
           "http --connect-to :80:127.0.0.1:" +
           std::to_string(server_->http_port()) +
           " --allow-private-addresses --quiet"},
      dir_.path(), 60s);
  ASSERT_EQ(with_list.exit_code, 0) << with_list.err;
  EXPECT_EQ(
      QueryOne(dir_.File("second.sqlite"), "SELECT count(*) FROM latest_fetch"),
      "2");
}

TEST(ListProvenanceTest, LineRoundTripsAndPlainFilesAreHashed) {
  storage::ListProvenance p;
  p.source = "tranco";
  p.list_id = "K7QJW";
  p.date = "2026-12-01";
  p.url = "https://tranco-list.eu/top-1m.csv.zip";
  p.sha256 = std::string(64, 'f');
  const std::string line = crawler::FormatProvenanceLine(p);
  const auto back = crawler::ParseProvenanceLine(line);
  ASSERT_TRUE(back.has_value()) << line;
  EXPECT_EQ(back->source, p.source);
  EXPECT_EQ(back->list_id, p.list_id);
  EXPECT_EQ(back->date, p.date);
  EXPECT_EQ(back->url, p.url);
  EXPECT_EQ(back->sha256, p.sha256);
  for (const char* junk :
       {"", "# a comment", "# robotscan-toplist source=tranco",
        "# robotscan-toplist sha256=short source=x", "1,example.com"}) {
    EXPECT_FALSE(crawler::ParseProvenanceLine(junk).has_value()) << junk;
  }

  TempDir dir;
  const std::string plain = "1,a.test\n2,b.test\n";
  WriteFile(dir.File("plain.csv"), plain);
  storage::ListProvenance read;
  ASSERT_TRUE(crawler::ReadListProvenance(dir.File("plain.csv"), &read).ok());
  EXPECT_EQ(read.source, "file");
  EXPECT_EQ(read.sha256, Sha256Hex(plain));
  EXPECT_EQ(read.list_id, "");
  EXPECT_FALSE(
      crawler::ReadListProvenance(dir.File("missing.csv"), &read).ok());
}

}  // namespace
}  // namespace robotscan::testing
