// robotscan._robotscan: the native half of the `robotscan` Python package
// (python/robotscan/__init__.py re-exports it; docs/python.md).
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "robotscan/base/version.h"

PYBIND11_MODULE(_robotscan, m) {
  m.doc() =
      "Native part of robotscan: the robots.txt matcher, linter and access "
      "policy, crawl database access, the report and regexguard.";
  m.attr("__version__") = ROBOTSCAN_VERSION_STRING;
  robotscan::python::BindRobots(m);
  robotscan::python::BindRegexguard(m);
  robotscan::python::BindCrawl(m);
  robotscan::python::BindCanFetch(m);
}
