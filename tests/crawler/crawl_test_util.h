// Helpers for the crawler's end-to-end tests: temporary directories,
// running the built `robotscan` binary with a deadline, and reading the
// crawl database with plain sqlite3 (as a researcher would).
#ifndef ROBOTSCAN_TESTS_CRAWLER_CRAWL_TEST_UTIL_H_
#define ROBOTSCAN_TESTS_CRAWLER_CRAWL_TEST_UTIL_H_

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace robotscan::testing {

// A fresh directory under /tmp, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void WriteFile(const std::string& path, const std::string& contents);
std::string ReadFile(const std::string& path);

struct ProcessResult {
  int exit_code = -1;  // 128+N when killed by signal N.
  bool timed_out = false;
  std::string out, err;
  double seconds = 0;
};

// Starts `binary args...` with stdout/stderr to files; returns the pid.
pid_t StartProcess(const std::string& binary,
                   const std::vector<std::string>& args,
                   const std::string& out_file, const std::string& err_file);
// Waits for pid; kills it (SIGKILL) after `deadline`.
int WaitProcess(pid_t pid, std::chrono::milliseconds deadline, bool* timed_out);
ProcessResult RunProcess(const std::string& binary,
                         const std::vector<std::string>& args,
                         const std::string& work_dir,
                         std::chrono::milliseconds deadline);

// Rows as '|'-joined text, NULL as "NULL".
std::vector<std::string> Query(const std::string& db, const std::string& sql);
std::string QueryOne(const std::string& db, const std::string& sql);
// Runs `sql` read-write (test set-up: damaging or aging a database);
// returns the error message, empty on success.
std::string Execute(const std::string& db, const std::string& sql);

}  // namespace robotscan::testing

#endif  // ROBOTSCAN_TESTS_CRAWLER_CRAWL_TEST_UTIL_H_
