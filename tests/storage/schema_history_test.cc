// The crawl database's migrations are made from the table and view
// definitions (storage/src/schema/). Files and databases in the field were
// created by the hand-written SQL those definitions replaced, kept in
// tests/storage/data/schema_history/: the generated steps must be that SQL
// up to comments and white space, and a file made either way must have the
// same tables, columns, keys and indexes. A column or view edited in place
// (instead of added with a new step) fails here. Steps made after the
// definitions (sqlite_v3.sql, pg_v5.sql; sqlite_v4.sql, pg_v6.sql for
// signal_fetch) are kept as the definitions first made them, for the same
// reason.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "postgres/pg_schema.h"
#include "sqlite/sqlite_schema.h"

namespace robotscan::storage {
namespace {

namespace fs = std::filesystem;

std::string ReadHistory(const std::string& name) {
  std::ifstream in(fs::path(ROBOTSCAN_STORAGE_TEST_DATA) / "schema_history" /
                   name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Comments dropped, white space folded to one space and dropped next to
// parentheses and commas: the SQL as the server parses it.
std::string Folded(const std::string& sql) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql.compare(i, 2, "--") == 0) {
      while (i < sql.size() && sql[i] != '\n') ++i;
      space = true;
      continue;
    }
    const char c = sql[i];
    if (c == ' ' || c == '\n' || c == '\t') {
      space = true;
      continue;
    }
    const bool tight =
        c == ')' || c == ',' || c == ';' ||
        (!out.empty() && (out.back() == '(' || out.back() == ','));
    if (space && !out.empty() && !tight) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

TEST(SchemaHistoryTest, SqliteStepsAreTheSqlFilesWereCreatedWith) {
  const std::vector<std::string>& steps = SqliteMigrations();
  ASSERT_EQ(steps.size(), 4u);
  EXPECT_EQ(Folded(steps[0]), Folded(ReadHistory("sqlite_v1.sql")));
  EXPECT_EQ(Folded(steps[1]), Folded(ReadHistory("sqlite_v2.sql")));
  EXPECT_EQ(Folded(steps[2]), Folded(ReadHistory("sqlite_v3.sql")));
  EXPECT_EQ(Folded(steps[3]), Folded(ReadHistory("sqlite_v4.sql")));
}

TEST(SchemaHistoryTest, PostgresStepsAreTheSqlDatabasesWereCreatedWith) {
  const std::vector<std::string>& steps = PgMigrations();
  ASSERT_EQ(steps.size(), 6u);
  EXPECT_EQ(Folded(steps[0]), Folded(ReadHistory("pg_v1.sql")));
  EXPECT_EQ(Folded(steps[1]), Folded(ReadHistory("pg_v2.sql")));
  // Versions 3 and 4 are PostgreSQL's own SQL, run as written.
  EXPECT_EQ(steps[2], kPgSharedFrontierSql);
  EXPECT_EQ(steps[3], kPgFrontierScansSql);
  EXPECT_EQ(Folded(steps[4]), Folded(ReadHistory("pg_v5.sql")));
  EXPECT_EQ(Folded(steps[5]), Folded(ReadHistory("pg_v6.sql")));
}

// What SQLite knows of a file's schema, table by table.
std::vector<std::string> SchemaFacts(sqlite3* db) {
  std::vector<std::string> facts;
  const char* queries[] = {
      "SELECT type || ' ' || name || ' on ' || tbl_name FROM sqlite_schema "
      "ORDER BY rowid",
      "SELECT m.name || ': ' || c.cid || ' ' || c.name || ' ' || c.type || "
      "' notnull=' || c.\"notnull\" || ' default=' || "
      "coalesce(c.dflt_value, '-') || ' pk=' || c.pk || ' hidden=' || "
      "c.hidden FROM sqlite_schema m, pragma_table_xinfo(m.name) c "
      "WHERE m.type IN ('table', 'view') ORDER BY m.name, c.cid",
      "SELECT m.name || ': ' || k.\"from\" || ' -> ' || k.\"table\" || '(' || "
      "k.\"to\" || ')' FROM sqlite_schema m, pragma_foreign_key_list(m.name) "
      "k WHERE m.type = 'table' ORDER BY m.name, k.id",
      "SELECT m.name || ': ' || i.name || ' unique=' || i.\"unique\" || "
      "' origin=' || i.origin FROM sqlite_schema m, "
      "pragma_index_list(m.name) i WHERE m.type = 'table' ORDER BY m.name, "
      "i.name",
      "SELECT m.name || ': ' || (SELECT count(*) FROM pragma_table_list "
      "WHERE name = m.name AND wr = 1) FROM sqlite_schema m WHERE m.type = "
      "'table' ORDER BY m.name",
  };
  for (const char* sql : queries) {
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      facts.push_back(
          reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
    }
    sqlite3_finalize(stmt);
  }
  return facts;
}

std::vector<std::string> FactsOfFileMadeBy(
    const std::vector<std::string>& steps) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  for (const std::string& step : steps) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, step.c_str(), nullptr, nullptr, &error),
              SQLITE_OK)
        << (error != nullptr ? error : "");
    sqlite3_free(error);
  }
  std::vector<std::string> facts = SchemaFacts(db);
  sqlite3_close(db);
  return facts;
}

TEST(SchemaHistoryTest, AFileOfTheOldSqlHasTheSameTablesAsANewOne) {
  const std::vector<std::string> old_file = FactsOfFileMadeBy(
      {ReadHistory("sqlite_v1.sql"), ReadHistory("sqlite_v2.sql"),
       ReadHistory("sqlite_v3.sql"), ReadHistory("sqlite_v4.sql")});
  const std::vector<std::string> new_file =
      FactsOfFileMadeBy(SqliteMigrations());
  ASSERT_GT(old_file.size(), 120u);  // Every column of the seven tables.
  EXPECT_EQ(new_file, old_file);
}

}  // namespace
}  // namespace robotscan::storage
