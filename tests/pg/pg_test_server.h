// A fresh PostgreSQL database per test, on the test run's own throw-away
// cluster (pg_test_cluster.sh: Debian's PostgreSQL 15 on a unix socket in
// /tmp, torn down afterwards).
//
// Under ctest the cluster is a fixture (tests/pg/CMakeLists.txt) started
// once per run and named by ROBOTSCAN_TEST_PG_DIR; a test binary run by
// hand starts one of its own on first use and stops it at exit. Where
// PostgreSQL cannot start, every PostgreSQL test skips with the reason
// (ROBOTSCAN_SKIP_WITHOUT_PG), which gtest prints and ctest counts.
//
// Thread-safety: Get() and CreateDatabase from one thread.
#ifndef ROBOTSCAN_TESTS_PG_PG_TEST_SERVER_H_
#define ROBOTSCAN_TESTS_PG_PG_TEST_SERVER_H_

#include <string>
#include <string_view>

namespace robotscan::testing {

class PgTestCluster {
 public:
  static PgTestCluster& Get();
  ~PgTestCluster();
  PgTestCluster(const PgTestCluster&) = delete;
  PgTestCluster& operator=(const PgTestCluster&) = delete;

  bool available() const { return !admin_uri_.empty(); }
  const std::string& skip_reason() const { return skip_reason_; }
  // A URI of the cluster's maintenance database (postgres).
  const std::string& admin_uri() const { return admin_uri_; }

  // Creates an empty database named after `label` (made unique) and
  // returns its postgresql:// URI; empty (with *error set) on failure.
  std::string CreateDatabase(std::string_view label, std::string* error);

  // Runs `sql` on the database at `uri` and returns the rows, columns
  // joined by '|', NULL as "NULL" (as a researcher's psql would show).
  static std::string Query(const std::string& uri, const std::string& sql,
                           std::string* error = nullptr);

 private:
  PgTestCluster();
  std::string own_dir_;  // Set when this process started the cluster.
  std::string admin_uri_;
  std::string skip_reason_;
  int databases_ = 0;
};

}  // namespace robotscan::testing

// In a test body: skips (visibly, with the reason) without PostgreSQL.
#define ROBOTSCAN_SKIP_WITHOUT_PG()                                    \
  do {                                                                 \
    if (!::robotscan::testing::PgTestCluster::Get().available()) {     \
      GTEST_SKIP()                                                     \
          << "PostgreSQL unavailable: "                                \
          << ::robotscan::testing::PgTestCluster::Get().skip_reason(); \
    }                                                                  \
  } while (0)

#endif  // ROBOTSCAN_TESTS_PG_PG_TEST_SERVER_H_
