// Bad input to `robotscan crawl`, each case with real processes (the built
// binary, shells, pipes, FIFOs, signals): a list that can be read only
// once, a FIFO with no writer, a directory where a file belongs, a
// first line a gigabyte long. Nothing may hang, crash, cost memory in
// proportion to the input, or leave a database behind that was not asked
// for.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "crawl_test_util.h"
#include "test_http_server.h"

namespace robotscan::testing {
namespace {

using namespace std::chrono_literals;

const std::string kBinary = ROBOTSCAN_BINARY;

class CrawlBadInputTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_dir_ = new TempDir();
    server_ = new TestHttpServer(server_dir_->path());
  }
  static void TearDownTestSuite() {
    delete server_;
    delete server_dir_;
  }

  // Flags sending every host to the test server, plain http.
  static std::string Flags() {
    return "--connect-to :80:127.0.0.1:" +
           std::to_string(server_->http_port()) +
           " --allow-private-addresses --schemes http --quiet";
  }
  static std::vector<std::string> FlagList() {
    return {"--connect-to",
            ":80:127.0.0.1:" + std::to_string(server_->http_port()),
            "--allow-private-addresses",
            "--schemes",
            "http",
            "--quiet"};
  }

  ProcessResult Shell(const std::string& command) {
    return RunProcess("/bin/bash", {"-c", command}, dir_.path(), 60s);
  }

  static std::string Sha256Of(const std::string& file) {
    const ProcessResult run =
        RunProcess("/usr/bin/sha256sum", {file}, "/tmp", 30s);
    return run.out.substr(0, 64);
  }

  // A list of d1.test ... dN.test, which the test server answers.
  std::string WriteList(int n) {
    std::string list;
    for (int i = 1; i <= n; ++i) {
      list += std::to_string(i) + ",d" + std::to_string(i) + ".test\n";
    }
    WriteFile(list_, list);
    return list;
  }

  void ExpectCrawledOnce(const std::string& db, int n,
                         const std::string& what) {
    EXPECT_EQ(QueryOne(db, "SELECT count(*) FROM latest_fetch"),
              std::to_string(n))
        << what;
    EXPECT_EQ(QueryOne(db, "SELECT list_sha256, list_entries FROM crawl_run"),
              Sha256Of(list_) + "|" + std::to_string(n))
        << what << ": the provenance is the hash of the bytes read";
  }

  static TempDir* server_dir_;
  static TestHttpServer* server_;
  TempDir dir_;
  std::string list_ = dir_.File("list.csv");
};

TempDir* CrawlBadInputTest::server_dir_ = nullptr;
TestHttpServer* CrawlBadInputTest::server_ = nullptr;

// A crawl reads its list several times (count, loops, provenance): from
// stdin, a pipe or a process substitution it used to crawl 0 domains and
// exit 0, with an empty file's SHA-256 as provenance.
TEST_F(CrawlBadInputTest, ListFromStdinPipeOrSubstitutionIsReadOnce) {
  WriteList(30);
  const struct {
    const char* what;
    std::string command;
  } cases[] = {
      {"stdin as -", "cat " + list_ + " | " + kBinary + " crawl --db " +
                         dir_.File("a.sqlite") + " - " + Flags()},
      {"/dev/stdin", "cat " + list_ + " | " + kBinary + " crawl --db " +
                         dir_.File("b.sqlite") + " /dev/stdin " + Flags()},
      {"<(...)", kBinary + " crawl --db " + dir_.File("c.sqlite") + " <(cat " +
                     list_ + ") " + Flags() + " --loops 2"},
  };
  const char* db[] = {"a.sqlite", "b.sqlite", "c.sqlite"};
  for (std::size_t i = 0; i < std::size(cases); ++i) {
    const ProcessResult run = Shell(cases[i].command);
    ASSERT_EQ(run.exit_code, 0) << cases[i].what << ": " << run.err;
    ExpectCrawledOnce(dir_.File(db[i]), 30, cases[i].what);
  }
}

// A FIFO: the crawl waits for its writer (it used to read the list once to
// count it and then block in open(2) for good).
TEST_F(CrawlBadInputTest, FifoIsReadOnceAfterItsWriterComes) {
  const std::string list = WriteList(25);
  const std::string fifo = dir_.File("list.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::vector<std::string> args = {"crawl", "--db", dir_.File("f.sqlite"),
                                   fifo};
  for (const std::string& f : FlagList()) args.push_back(f);
  const pid_t pid =
      StartProcess(kBinary, args, dir_.File("out"), dir_.File("err"));
  std::this_thread::sleep_for(300ms);  // The crawl is waiting by now.
  const int writer = ::open(fifo.c_str(), O_WRONLY);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::write(writer, list.data(), list.size()),
            static_cast<ssize_t>(list.size()));
  ::close(writer);
  bool timed_out = false;
  EXPECT_EQ(WaitProcess(pid, 60s, &timed_out), 0) << ReadFile(dir_.File("err"));
  ASSERT_FALSE(timed_out);
  ExpectCrawledOnce(dir_.File("f.sqlite"), 25, "FIFO");
}

// No writer ever: SIGTERM still stops the crawl, as at any other time
// (exit 143), and no database was created for a crawl that never began.
TEST_F(CrawlBadInputTest, FifoWithoutWriterStopsOnSignal) {
  const std::string fifo = dir_.File("silent.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string db = dir_.File("never.sqlite");
  std::vector<std::string> args = {"crawl", "--db", db, fifo};
  for (const std::string& f : FlagList()) args.push_back(f);
  const pid_t pid =
      StartProcess(kBinary, args, dir_.File("out"), dir_.File("err"));
  std::this_thread::sleep_for(500ms);
  ::kill(pid, SIGTERM);
  bool timed_out = false;
  EXPECT_EQ(WaitProcess(pid, 20s, &timed_out), 128 + SIGTERM)
      << ReadFile(dir_.File("err"));
  EXPECT_FALSE(timed_out);
  EXPECT_NE(::access(db.c_str(), F_OK), 0) << "no database for no crawl";
}

// A directory is neither a list nor a database: a usage error (exit 2)
// that names it, and no database file appears (it used to exit 3 after
// creating an empty one).
TEST_F(CrawlBadInputTest, DirectoriesAreRefusedAndCreateNothing) {
  WriteList(3);
  const std::string db = dir_.File("d.sqlite");
  std::vector<std::string> args = {"crawl", "--db", db, dir_.path()};
  for (const std::string& f : FlagList()) args.push_back(f);
  ProcessResult run = RunProcess(kBinary, args, dir_.path(), 20s);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("is a directory"), std::string::npos) << run.err;
  EXPECT_NE(::access(db.c_str(), F_OK), 0);

  const std::string db_dir = dir_.File("db-dir");
  ASSERT_EQ(::mkdir(db_dir.c_str(), 0755), 0);
  args = {"crawl", "--db", db_dir, list_};
  for (const std::string& f : FlagList()) args.push_back(f);
  run = RunProcess(kBinary, args, dir_.path(), 20s);
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("is a directory"), std::string::npos) << run.err;
}

// A 256 MB first line (no newline in it) used to cost 559 MB of RSS (the
// provenance reader's getline); every list reader stops at 64 KiB a line.
TEST_F(CrawlBadInputTest, AHugeFirstLineCostsNoMemory) {
  const std::string list = dir_.File("long-line.csv");
  {
    // Sparse: 256 MB of NUL bytes, then two ordinary lines.
    const int fd = ::open(list.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, 256 << 20), 0);
    ASSERT_EQ(::lseek(fd, 0, SEEK_END), 256 << 20);
    const std::string tail = "\n1,d1.test\n2,d2.test\n";
    ASSERT_EQ(::write(fd, tail.data(), tail.size()),
              static_cast<ssize_t>(tail.size()));
    ::close(fd);
  }
  // Peak RSS of a crawl of `file` (KB), as GNU time reports it.
  const auto crawl_rss = [&](const std::string& file, const std::string& db) {
    const ProcessResult run =
        Shell("/usr/bin/time -f %M -o " + dir_.File("rss") + " " + kBinary +
              " crawl --db " + db + " " + file + " " + Flags());
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return std::stol(ReadFile(dir_.File("rss")));
  };
  // The same crawl of an ordinary two-line list is the baseline (a
  // sanitizer build's is several times a release build's).
  WriteFile(list_, "1,d1.test\n2,d2.test\n");
  const long baseline_kb = crawl_rss(list_, dir_.File("base.sqlite"));
  const std::string db = dir_.File("l.sqlite");
  const long rss_kb = crawl_rss(list, db);
  EXPECT_EQ(QueryOne(db, "SELECT count(*) FROM latest_fetch"), "2");
  EXPECT_LT(rss_kb, baseline_kb + 64 * 1024)
      << "peak RSS " << rss_kb << " KB, " << baseline_kb
      << " KB for the two-line list";
}

// Flags that are wrong are usage errors (exit 2) naming the flag, before
// any database exists: negative counts, a rate that is not a number, a
// zero timeout (libcurl's "no timeout"), and a User-Agent that would end
// its header line early (a CR/LF there used to reach servers as an extra
// header).
TEST_F(CrawlBadInputTest, WrongFlagsAreUsageErrorsNamingTheFlag) {
  WriteList(2);
  const std::string db = dir_.File("flags.sqlite");
  const struct {
    std::vector<std::string> flags;
    const char* named;
  } cases[] = {
      {{"--rate", "-1"}, "--rate"},
      {{"--rate", "nan"}, "--rate"},
      {{"--rate", "inf"}, "--rate"},
      {{"--retries", "-1"}, "--retries"},
      {{"--per-ip-limit", "-2"}, "--per-ip-limit"},
      {{"--max-redirects", "-1"}, "--max-redirects"},
      {{"--timeout", "0s"}, "--timeout"},
      {{"--connect-timeout", "0ms"}, "--connect-timeout"},
      {{"--dns-tries", "0"}, "--dns-tries"},
      {{"--user-agent", "Bot\r\nX-Injected: 1"}, "--user-agent"},
      {{"--user-agent", "Bot\nX-Injected: 1"}, "--user-agent"},
      {{"--user-agent", "Bot\x1b[31m"}, "--user-agent"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"crawl", "--db", db, list_};
    for (const std::string& f : FlagList()) args.push_back(f);
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    const ProcessResult run = RunProcess(kBinary, args, dir_.path(), 20s);
    EXPECT_EQ(run.exit_code, 2) << c.flags[0] << " " << c.flags[1];
    EXPECT_NE(run.err.find(c.named), std::string::npos)
        << c.flags[0] << ": " << run.err;
    EXPECT_NE(::access(db.c_str(), F_OK), 0) << c.flags[0];
  }
}

// Answers that break HTTP are "protocol" errors, recorded once, never
// retried like a server error: a status outside 100-599, a header line over
// libcurl's 100 KiB (was "other" with the message "Out of memory"), and
// headers over its 300 KiB in all (was "reset", fetched three times).
TEST_F(CrawlBadInputTest, BrokenAnswersAreProtocolErrorsFetchedOnce) {
  WriteFile(list_,
            "1,status777.test\n2,bigheaderline.test\n3,manyheaders.test\n");
  const std::string db = dir_.File("answers.sqlite");
  std::vector<std::string> args = {
      "crawl", "--db", db, list_, "--retries", "2", "--retry-delay", "10ms"};
  for (const std::string& f : FlagList()) args.push_back(f);
  const ProcessResult run = RunProcess(kBinary, args, dir_.path(), 60s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* host :
       {"status777.test", "bigheaderline.test", "manyheaders.test"}) {
    EXPECT_EQ(QueryOne(db,
                       "SELECT access, error, attempts FROM latest_fetch "
                       "WHERE domain = '" +
                           std::string(host) + "'"),
              "unreachable|protocol|1")
        << host << ": "
        << QueryOne(db,
                    "SELECT error_message FROM latest_fetch WHERE domain = "
                    "'" +
                        std::string(host) + "'");
    EXPECT_EQ(server_->RequestsFor(host), 1) << host;
  }
  EXPECT_EQ(QueryOne(db,
                     "SELECT http_status FROM latest_fetch WHERE domain = "
                     "'status777.test'"),
            "777");
}

// A list entry whose label starts or ends with a hyphen is a malformed
// line, not a domain to fetch.
TEST_F(CrawlBadInputTest, HyphenEdgedLabelsAreMalformedLines) {
  WriteFile(list_, "1,-evil.test\n2,ok.test\n3,d3-.test\n");
  const std::string db = dir_.File("hyphen.sqlite");
  std::vector<std::string> args = {"crawl", "--db", db, list_};
  for (const std::string& f : FlagList()) args.push_back(f);
  const ProcessResult run = RunProcess(kBinary, args, dir_.path(), 30s);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(QueryOne(db, "SELECT group_concat(domain) FROM latest_fetch"),
            "ok.test");
  EXPECT_NE(run.out.find("malformed lines 2"), std::string::npos) << run.out;
}

// A disk that fills mid-crawl: exit 4 (storage full), the committed
// records intact; the rerun on the still-full disk exits 4 too (it used to
// exit 3: its lock file write failed first, as a plain I/O error).
TEST_F(CrawlBadInputTest, FullDiskExitsFourAndKeepsWhatWasCommitted) {
  const std::string disk = dir_.File("small-disk");
  ASSERT_EQ(::mkdir(disk.c_str(), 0755), 0);
  const ProcessResult mount =
      Shell("mount -t tmpfs -o size=600k robotscan-test " + disk);
  if (mount.exit_code != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): "
                 << mount.err;
  }
  WriteList(3000);
  const std::string db = disk + "/crawl.sqlite";
  std::vector<std::string> args = {"crawl", "--db", db, list_};
  for (const std::string& f : FlagList()) args.push_back(f);
  const ProcessResult first = RunProcess(kBinary, args, dir_.path(), 60s);
  const ProcessResult again = RunProcess(kBinary, args, dir_.path(), 60s);
  const std::string integrity = QueryOne(db, "PRAGMA integrity_check");
  const std::string rows = QueryOne(db, "SELECT count(*) FROM latest_fetch");
  Shell("umount " + disk);
  EXPECT_EQ(first.exit_code, 4) << first.err;
  EXPECT_EQ(again.exit_code, 4) << again.err;
  EXPECT_EQ(integrity, "ok");
  EXPECT_GT(std::stoi(rows), 0) << "what was committed before the disk filled";
  EXPECT_LT(std::stoi(rows), 3000);
}

}  // namespace
}  // namespace robotscan::testing
