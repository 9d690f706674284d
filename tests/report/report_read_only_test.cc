// `robotscan report` on a crawl database that its user may read but not
// write (issue 30): a file 0444 in a directory 0555, in WAL mode with and
// without the -wal and -shm files a crawl leaves behind, in rollback-journal
// mode, and on a read-only mount. Reading must never need write access,
// must never change a byte, and must never silently miss committed rows.
//
// Root ignores file permissions, so as root the report runs as `nobody`
// (setpriv); as any other user the permissions apply to the test's own
// user. The read-only mount needs root and a mount namespace (unshare -m);
// where either is missing that test is skipped, saying why.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report_fixture.h"

namespace robotscan::report {
namespace {

namespace fs = std::filesystem;

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

std::string Quote(const std::string& text) { return "'" + text + "'"; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream contents;
  contents << in.rdbuf();
  return contents.str();
}

// Runs a shell command (arguments are test-controlled paths, quoted);
// stderr goes to a file so that stdout stays parseable JSON.
CommandResult RunShell(const std::string& command, const std::string& dir) {
  CommandResult result;
  const std::string err_file = dir + "/stderr.txt";
  std::FILE* pipe = ::popen((command + " 2>" + Quote(err_file)).c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) {
    result.out.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.err = ReadFile(err_file);
  fs::remove(err_file);
  return result;
}

// The prefix that runs a command as a user who may not write the test's
// files: nobody, when the test runs as root.
std::string AsReader() {
  return ::geteuid() == 0 ? "setpriv --reuid=nobody --regid=nogroup "
                            "--clear-groups "
                          : "";
}

// Every file of `dir` and its bytes.
std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    files[entry.path().filename()] = ReadFile(entry.path());
  }
  return files;
}

void Execute(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
  const std::string message = error != nullptr ? error : "";
  sqlite3_free(error);
  sqlite3_close(db);
  ASSERT_EQ(rc, SQLITE_OK) << sql << ": " << message;
}

// Count of domains in the file alone, not its -wal (immutable=1).
int DomainsInTheFileAlone(const std::string& path) {
  sqlite3* db = nullptr;
  const std::string uri = "file:" + path + "?immutable=1";
  if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI,
                      nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return -1;
  }
  sqlite3_stmt* stmt = nullptr;
  int count = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM domain", -1, &stmt,
                         nullptr) == SQLITE_OK &&
      sqlite3_step(stmt) == SQLITE_ROW) {
    count = sqlite3_column_int(stmt, 0);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return count;
}

class ReadOnlyDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (::geteuid() == 0 &&
        RunShell("command -v setpriv", testing::MakeTempDir()).exit_code != 0) {
      GTEST_SKIP() << "running as root, and no setpriv to read as nobody";
    }
    // A build tree under a 0700 directory (a checkout in `mktemp -d`) is out
    // of nobody's reach: the reader runs a copy of the two programs, laid
    // out as in the build tree (robotscan finds robotscan-full by its path
    // relative to itself), in the test's temporary tree, which nobody may
    // search.
    binary_ = ROBOTSCAN_BINARY;
    if (::geteuid() == 0 && RunShell(AsReader() + "test -x " + Quote(binary_),
                                     testing::MakeTempDir())
                                    .exit_code != 0) {
      const fs::path bin(ROBOTSCAN_BINARY);
      const fs::path full(ROBOTSCAN_FULL_BINARY);
      const fs::path copy = fs::path(testing::MakeTempDir()) / "tree";
      const fs::path relative = fs::relative(full, bin.parent_path());
      const fs::path bin_copy = copy / "bin" / bin.filename();
      const fs::path full_copy =
          (bin_copy.parent_path() / relative).lexically_normal();
      fs::create_directories(bin_copy.parent_path());
      fs::create_directories(full_copy.parent_path());
      fs::copy_file(bin, bin_copy);
      fs::copy_file(full, full_copy);
      for (fs::path p = full_copy.parent_path();
           p.string().size() >= copy.parent_path().string().size();
           p = p.parent_path()) {
        fs::permissions(p, fs::perms::others_exec | fs::perms::group_exec,
                        fs::perm_options::add);
        if (p == p.parent_path()) break;
      }
      fs::permissions(bin_copy.parent_path(),
                      fs::perms::others_exec | fs::perms::group_exec,
                      fs::perm_options::add);
      binary_ = bin_copy.string();
      if (RunShell(AsReader() + Quote(binary_) + " report --help >/dev/null",
                   testing::MakeTempDir())
              .exit_code != 0) {
        GTEST_SKIP() << "nobody cannot run " << ROBOTSCAN_BINARY
                     << " nor a copy of it at " << binary_;
      }
    }
    work_ = testing::MakeTempDir();
    dir_ = work_ + "/readonly";
    fs::create_directory(dir_);
    db_ = dir_ + "/crawl.sqlite";
  }

  void TearDown() override {
    // Writable again, so that the temporary tree can be removed.
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add, ignored);
  }

  // 0444 for every file, 0555 for the directory.
  void MakeReadOnly() {
    for (const auto& entry : fs::directory_iterator(dir_)) {
      fs::permissions(entry.path(), fs::perms::owner_read |
                                        fs::perms::group_read |
                                        fs::perms::others_read);
    }
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec |
                              fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
  }

  CommandResult Report(const std::string& prefix = AsReader()) {
    return RunShell(prefix + Quote(binary_) + " report --db " + Quote(db_) +
                        " --format json",
                    work_);
  }

  // Runs the report as a reader and checks it read `domains` domains and
  // left every file as it was, and no new one.
  void ExpectReportReads(int domains) {
    const auto before = Snapshot(dir_);
    const CommandResult result = Report();
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(nlohmann::json::parse(result.out)["domains"], domains);
    EXPECT_TRUE(Snapshot(dir_) == before) << "the database files changed";
  }

  std::string binary_;  // The robotscan this test runs (see SetUp).
  std::string work_;
  std::string dir_;
  std::string db_;
};

TEST_F(ReadOnlyDatabaseTest, WalDatabaseWithoutWalAndShmFiles) {
  testing::WriteDatabase(db_, testing::StudyFixture());
  ASSERT_FALSE(fs::exists(db_ + "-wal"));
  ASSERT_FALSE(fs::exists(db_ + "-shm"));
  ASSERT_EQ(ReadFile(db_).substr(18, 2), "\x02\x02") << "not in WAL mode";
  MakeReadOnly();
  // Before: "attempt to write a readonly database", exit 2.
  ExpectReportReads(14);
}

// What a crawl that is still running (or was killed) leaves: committed rows
// in the -wal that are not in the file yet, and the -shm index.
TEST_F(ReadOnlyDatabaseTest, WalDatabaseWithLeftoverWalAndShmFiles) {
  const std::string source = work_ + "/source.sqlite";
  testing::WriteDatabase(source, testing::StudyFixture());
  // A connection held open keeps the last writer from checkpointing and
  // removing the -wal when it closes.
  sqlite3* keeper = nullptr;
  ASSERT_EQ(sqlite3_open(source.c_str(), &keeper), SQLITE_OK);
  sqlite3_exec(keeper, "SELECT count(*) FROM domain", nullptr, nullptr,
               nullptr);
  auto rows = testing::StudyFixture();
  rows.push_back(testing::MakeFetch("new.example", 15, 200,
                                    "User-agent: *\nDisallow: /new\n"));
  testing::AppendRun(source, rows, "2026-12-01T00:00:00.000Z");
  for (const char* suffix : {"", "-wal", "-shm"}) {
    fs::copy_file(source + suffix, db_ + suffix);
  }
  sqlite3_close(keeper);
  // The 15th domain is only in the -wal.
  ASSERT_EQ(DomainsInTheFileAlone(db_), 14);
  MakeReadOnly();
  ExpectReportReads(15);
}

// A -wal with committed rows but no -shm, in a directory where SQLite may
// not create one: reading the file alone would miss rows, so the report
// refuses and says why.
TEST_F(ReadOnlyDatabaseTest, WalWithoutShmIsRefusedNotMisread) {
  const std::string source = work_ + "/source.sqlite";
  testing::WriteDatabase(source, testing::StudyFixture());
  sqlite3* keeper = nullptr;
  ASSERT_EQ(sqlite3_open(source.c_str(), &keeper), SQLITE_OK);
  sqlite3_exec(keeper, "SELECT count(*) FROM domain", nullptr, nullptr,
               nullptr);
  auto rows = testing::StudyFixture();
  rows.push_back(testing::MakeFetch("new.example", 15, 200, "x"));
  testing::AppendRun(source, rows, "2026-12-01T00:00:00.000Z");
  fs::copy_file(source, db_);
  fs::copy_file(source + "-wal", db_ + "-wal");
  sqlite3_close(keeper);
  MakeReadOnly();
  const auto before = Snapshot(dir_);
  const CommandResult result = Report();
  EXPECT_EQ(result.exit_code, 2) << result.out;
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("crawl.sqlite-wal holds transactions not yet in "
                            "the file, and SQLite reads them only where it "
                            "may create"),
            std::string::npos)
      << result.err;
  EXPECT_TRUE(Snapshot(dir_) == before);
}

TEST_F(ReadOnlyDatabaseTest, RollbackJournalDatabase) {
  testing::WriteDatabase(db_, testing::StudyFixture());
  Execute(db_, "PRAGMA journal_mode=DELETE");
  ASSERT_EQ(ReadFile(db_).substr(18, 2), "\x01\x01") << "still in WAL mode";
  MakeReadOnly();
  ExpectReportReads(14);
}

// A read-only bind mount: the file system refuses every write (EROFS),
// root's included, so this runs as root.
TEST_F(ReadOnlyDatabaseTest, WalDatabaseOnAReadOnlyMount) {
  if (::geteuid() != 0) GTEST_SKIP() << "a bind mount needs root";
  const CommandResult probe = RunShell("unshare -m true && echo ok", work_);
  if (probe.out != "ok\n") {
    GTEST_SKIP() << "no mount namespace here (unshare -m): " << probe.err;
  }
  testing::WriteDatabase(db_, testing::StudyFixture());
  ASSERT_FALSE(fs::exists(db_ + "-shm"));
  const auto before = Snapshot(dir_);
  const CommandResult result = RunShell(
      "unshare -m sh -c " +
          Quote("mount --bind -o ro " + dir_ + " " + dir_ + " && " + "touch " +
                dir_ + "/probe 2>/dev/null && echo writable; " +
                ROBOTSCAN_BINARY + " report --db " + db_ + " --format json"),
      work_);
  ASSERT_EQ(result.exit_code, 0) << result.err;
  ASSERT_EQ(result.out.find("writable"), std::string::npos)
      << "the mount was not read-only";
  EXPECT_EQ(nlohmann::json::parse(result.out)["domains"], 14);
  EXPECT_TRUE(Snapshot(dir_) == before);
}

}  // namespace
}  // namespace robotscan::report
