#include "pg_test_server.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace robotscan::testing {
namespace {

std::string ReadFirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

bool FileExists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

// The URI of database `name` on the cluster of `admin_uri`
// (postgresql://robotscan@/postgres?host=/tmp/...).
std::string WithDatabase(const std::string& admin_uri,
                         const std::string& name) {
  const std::size_t slash = admin_uri.find("/postgres?");
  if (slash == std::string::npos) return admin_uri;
  return admin_uri.substr(0, slash + 1) + name +
         admin_uri.substr(slash + std::string("/postgres").size());
}

}  // namespace

PgTestCluster& PgTestCluster::Get() {
  static PgTestCluster cluster;
  return cluster;
}

PgTestCluster::PgTestCluster() {
  std::string dir;
  if (const char* shared = std::getenv("ROBOTSCAN_TEST_PG_DIR")) dir = shared;
  if (dir.empty() ||
      (!FileExists(dir + "/uri") && !FileExists(dir + "/skip"))) {
    // Run by hand: a cluster of our own.
    own_dir_ = "/tmp/robotscan-pgtest-" + std::to_string(::getpid());
    const std::string command = std::string(ROBOTSCAN_PG_TEST_CLUSTER_SCRIPT) +
                                " start " + own_dir_ + " >/dev/null 2>&1";
    if (std::system(command.c_str()) != 0) {
      skip_reason_ = "pg_test_cluster.sh start failed";
      return;
    }
    dir = own_dir_;
  }
  if (FileExists(dir + "/uri")) {
    admin_uri_ = ReadFirstLine(dir + "/uri");
  } else {
    skip_reason_ = ReadFirstLine(dir + "/skip");
    if (skip_reason_.empty()) skip_reason_ = "no cluster in " + dir;
  }
}

PgTestCluster::~PgTestCluster() {
  if (own_dir_.empty()) return;
  const std::string command = std::string(ROBOTSCAN_PG_TEST_CLUSTER_SCRIPT) +
                              " stop " + own_dir_ + " >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) {
    // Nothing to do at exit; the directory names the leftover.
  }
}

std::string PgTestCluster::CreateDatabase(std::string_view label,
                                          std::string* error) {
  std::string name = "t";
  for (const char c : label) {
    if (name.size() >= 40) break;
    name += std::isalnum(static_cast<unsigned char>(c)) != 0
                ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                : '_';
  }
  name += "_" + std::to_string(::getpid()) + "_" + std::to_string(++databases_);
  std::string failure;
  Query(admin_uri_, "CREATE DATABASE " + name, &failure);
  if (!failure.empty()) {
    if (error != nullptr) *error = failure;
    return "";
  }
  return WithDatabase(admin_uri_, name);
}

std::string PgTestCluster::Query(const std::string& uri, const std::string& sql,
                                 std::string* error) {
  PGconn* conn = PQconnectdb(uri.c_str());
  std::string out;
  if (PQstatus(conn) != CONNECTION_OK) {
    if (error != nullptr) *error = PQerrorMessage(conn);
    PQfinish(conn);
    return out;
  }
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  PGresult* r = PQexec(conn, sql.c_str());
  const ExecStatusType status = PQresultStatus(r);
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
    if (error != nullptr) *error = PQresultErrorMessage(r);
  } else {
    for (int i = 0; i < PQntuples(r); ++i) {
      if (i > 0) out += '\n';
      for (int j = 0; j < PQnfields(r); ++j) {
        if (j > 0) out += '|';
        out += PQgetisnull(r, i, j) != 0 ? "NULL" : PQgetvalue(r, i, j);
      }
    }
  }
  PQclear(r);
  PQfinish(conn);
  return out;
}

}  // namespace robotscan::testing
