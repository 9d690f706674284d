// Crawl databases for Python (robotscan.open_crawl): body decoding through
// the storage library, the report through the report library, so that
// Python sees exactly what `robotscan report` computes. Row queries are plain
// SQL over the documented schema, done by robotscan/crawl.py with Python's
// sqlite3.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings.h"
#include "robotscan/report/render.h"
#include "robotscan/report/report.h"
#include "robotscan/report/series.h"
#include "robotscan/robots/robots.h"
#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/database_location.h"
#include "robotscan/storage/latest_fetch_reader.h"

namespace robotscan::python {
namespace {

namespace py = pybind11;

// Storage and report failures as Python exceptions: a file that is not a
// crawl database (or is damaged) is a ValueError, the OS refusing is an
// OSError, anything else a RuntimeError. Messages are the library's.
[[noreturn]] void RaiseStorageError(const storage::Status& status) {
  using Code = storage::Status::Code;
  switch (status.code()) {
    case Code::kInvalidArgument:
    case Code::kInvalidInput:
    case Code::kUnsupported:
    case Code::kCorrupt:
    case Code::kSchemaTooNew:
      throw py::value_error(status.message());
    case Code::kNotFound:
    case Code::kIoError:
    case Code::kDiskFull:
    case Code::kBusy:
    case Code::kLocked:
    case Code::kNetwork: {
      PyErr_SetString(PyExc_OSError, status.message().c_str());
      throw py::error_already_set();
    }
    case Code::kOk:
    case Code::kBudgetExceeded:
    case Code::kCancelled:
    case Code::kInternal:
      break;
  }
  throw std::runtime_error(status.message());
}

// A read-only CrawlStore, used only to read bodies by fetch id (decompressed
// when the crawl stored them zstd-compressed). One per open_crawl object;
// CrawlStore is single-threaded, so calls are serialised by the GIL, which
// ReadBody keeps (one indexed lookup).
class BodyReader {
 public:
  explicit BodyReader(const std::string& path) {
    storage::StoreOptions options;
    options.read_only = true;
    auto store = storage::CrawlStore::Open(path, options);
    if (!store.ok()) RaiseStorageError(store.status());
    store_ = std::move(store.value());
  }

  py::bytes ReadBody(std::int64_t fetch_id) {
    const storage::Result<std::string> body = store_->ReadBody(fetch_id);
    if (!body.ok()) RaiseStorageError(body.status());
    return py::bytes(*body);
  }

 private:
  std::unique_ptr<storage::CrawlStore> store_;
};

// The storage library's own checks: a latest_fetch view, a schema this
// build can read. Returns the SQLite URI that crawl.py's queries read the
// file with, chosen as the storage library's readers choose it, so that a
// database the user may not write (or on read-only storage) reads the same
// in Python.
std::string CheckCrawlDatabase(const std::string& path) {
  auto reader = storage::LatestFetchReader::Open(path);
  if (!reader.ok()) RaiseStorageError(reader.status());
  auto uri = storage::SqliteUriForReading(path);
  if (!uri.ok()) RaiseStorageError(uri.status());
  return *uri;
}

std::string ReportJson(const std::string& path, std::size_t top,
                       const std::vector<std::string>& agents,
                       const std::string& compat) {
  report::ReportOptions options;
  options.top = top;
  if (!agents.empty()) options.crawlers = agents;
  options.compat = CompatFromName(compat);
  report::Report result;
  storage::Status status;
  std::string json;
  {
    // A million domains take seconds; other threads may run meanwhile.
    py::gil_scoped_release release;
    status = report::BuildReportFromDatabase(path, options, &result);
    if (status.ok()) json = report::RenderReport(result, report::Format::kJson);
  }
  if (!status.ok()) RaiseStorageError(status);
  return json;
}

std::string SeriesJson(const std::string& path, const std::string& every,
                       const std::string& first, const std::string& last,
                       const std::vector<std::string>& agents,
                       const std::string& compat) {
  report::SeriesOptions options;
  const std::optional<report::PeriodLength> length =
      report::ParsePeriodLength(every);
  if (!length) {
    throw py::value_error("every must be 'month', 'quarter' or 'year', not '" +
                          every + "'");
  }
  options.every = *length;
  for (const std::string* bound : {&first, &last}) {
    if (!bound->empty() && !report::ParsePeriod(*bound)) {
      throw py::value_error("'" + *bound +
                            "' is not a period (2019, 2019-Q1 or 2019-03)");
    }
  }
  options.from = first;
  options.to = last;
  if (!agents.empty()) options.report.crawlers = agents;
  options.report.compat = CompatFromName(compat);
  report::Series series;
  storage::Status status;
  std::string json;
  {
    py::gil_scoped_release release;
    status = report::BuildSeriesFromDatabase(path, options, &series);
    if (status.ok()) json = report::RenderSeries(series, report::Format::kJson);
  }
  if (!status.ok()) RaiseStorageError(status);
  return json;
}

}  // namespace

void BindCrawl(py::module_& m) {
  py::class_<BodyReader>(m, "_BodyReader",
                         "Reads stored bodies by fetch id (decompressed).")
      .def(py::init<const std::string&>(), py::arg("path"))
      .def("read_body", &BodyReader::ReadBody, py::arg("fetch_id"),
           "The decoded body of a fetch (b'' when it has none).");
  m.def("_check_crawl_database", &CheckCrawlDatabase, py::arg("path"),
        "Raises ValueError unless `path` is a crawl database this build "
        "reads; returns the SQLite URI that reads it without writing "
        "(mode=ro, or immutable=1 on read-only storage).");
  m.def("_report_json", &ReportJson, py::arg("path"), py::arg("top"),
        py::arg("agents"), py::arg("compat"),
        "`robotscan report --format json` for the database at `path`, as "
        "text. Releases the GIL.");
  m.def("_series_json", &SeriesJson, py::arg("path"), py::arg("every"),
        py::arg("first"), py::arg("last"), py::arg("agents"), py::arg("compat"),
        "`robotscan report --series --format json` for the database at "
        "`path`, as text. Releases the GIL.");
}

}  // namespace robotscan::python
