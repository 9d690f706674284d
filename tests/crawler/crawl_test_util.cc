#include "crawl_test_util.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace robotscan::testing {

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "crawler_test_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

void WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  out << contents;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

pid_t StartProcess(const std::string& binary,
                   const std::vector<std::string>& args,
                   const std::string& out_file, const std::string& err_file) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (const std::string& arg : args)
    argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr,
                             argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn " + binary);
  return pid;
}

int WaitProcess(pid_t pid, std::chrono::milliseconds deadline,
                bool* timed_out) {
  const auto end = std::chrono::steady_clock::now() + deadline;
  *timed_out = false;
  for (;;) {
    int status = 0;
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) {
      if (WIFEXITED(status)) return WEXITSTATUS(status);
      if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
      return -1;
    }
    if (std::chrono::steady_clock::now() > end) {
      *timed_out = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

ProcessResult RunProcess(const std::string& binary,
                         const std::vector<std::string>& args,
                         const std::string& work_dir,
                         std::chrono::milliseconds deadline) {
  ProcessResult result;
  const std::string out = work_dir + "/stdout.txt";
  const std::string err = work_dir + "/stderr.txt";
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = StartProcess(binary, args, out, err);
  result.exit_code = WaitProcess(pid, deadline, &result.timed_out);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  result.out = ReadFile(out);
  result.err = ReadFile(err);
  return result;
}

std::vector<std::string> Query(const std::string& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  std::vector<std::string> rows;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) !=
      SQLITE_OK) {
    sqlite3_close(handle);
    return {"<cannot open " + db + ">"};
  }
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(handle, sql.c_str(), -1, &stmt, nullptr) !=
      SQLITE_OK) {
    rows.push_back(std::string("<error: ") + sqlite3_errmsg(handle) + ">");
  }
  while (stmt != nullptr && sqlite3_step(stmt) == SQLITE_ROW) {
    std::string row;
    for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
      if (i > 0) row += '|';
      const auto* text = sqlite3_column_text(stmt, i);
      row += text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
    }
    rows.push_back(row);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(handle);
  return rows;
}

std::string QueryOne(const std::string& db, const std::string& sql) {
  const std::vector<std::string> rows = Query(db, sql);
  return rows.empty() ? "<no row>" : rows.front();
}

std::string Execute(const std::string& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  std::string error;
  if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READWRITE, nullptr) !=
      SQLITE_OK) {
    error = "cannot open " + db;
  } else {
    char* message = nullptr;
    if (sqlite3_exec(handle, sql.c_str(), nullptr, nullptr, &message) !=
        SQLITE_OK) {
      error = message != nullptr ? message : "sqlite3_exec failed";
    }
    sqlite3_free(message);
  }
  sqlite3_close(handle);
  return error;
}

}  // namespace robotscan::testing
