// Hand-written crawl databases for the report tests: rows go through the
// storage library's own writer (CrawlStore::AppendFetches), so the report
// reads exactly what a crawl leaves behind.
#ifndef ROBOTSCAN_TESTS_REPORT_REPORT_FIXTURE_H_
#define ROBOTSCAN_TESTS_REPORT_REPORT_FIXTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "robotscan/report/report.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/fetch_classes.h"

namespace robotscan::report::testing {

// A fetch with the fields the report reads; the access class follows
// RFC 9309 from the status and error.
storage::FetchRecord MakeFetch(
    std::string domain, std::int64_t rank, int http_status,
    std::string body = "", std::string content_type = "text/plain",
    storage::ErrorClass error = storage::ErrorClass::kNone);

// Writes `text` to `path` (replacing it); fails the test if it cannot.
void WriteTextFile(const std::string& path, const std::string& text);

// A fresh directory under the test temp dir, unique per call.
std::string MakeTempDir();

// Writes `records` as one crawl run into a new database at `path`.
// Fails the current test on any storage error.
void WriteDatabase(const std::string& path,
                   const std::vector<storage::FetchRecord>& records,
                   bool compress_bodies = false);

// Adds `records` as one more crawl run to the database at `path` (created
// if missing), fetched at `fetched_at`.
void AppendRun(const std::string& path,
               std::vector<storage::FetchRecord> records,
               const std::string& fetched_at);

// A report of the database at `path` with `options`; fails the test on a
// storage error.
Report BuildReport(const std::string& path, const ReportOptions& options = {});

// The fixture every exact-figure test uses (see report_builder_test.cc for
// the expected value of every figure, derived by hand from these rows).
std::vector<storage::FetchRecord> StudyFixture();

}  // namespace robotscan::report::testing

#endif  // ROBOTSCAN_TESTS_REPORT_REPORT_FIXTURE_H_
