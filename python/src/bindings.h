// The parts of the robotscan._robotscan extension module, one per library
// it exposes; module.cc calls each once.
#ifndef ROBOTSCAN_PYTHON_BINDINGS_H_
#define ROBOTSCAN_PYTHON_BINDINGS_H_

#include <pybind11/pybind11.h>

#include <string_view>

#include "robotscan/robots/robots.h"

namespace robotscan::python {

void BindRobots(pybind11::module_& m);      // robots_bindings.cc
void BindRegexguard(pybind11::module_& m);  // regexguard_bindings.cc
void BindCrawl(pybind11::module_& m);       // crawl_bindings.cc
void BindCanFetch(pybind11::module_& m);    // can_fetch.cc

// The robots::Compat named `name` (robots::kCompatNames), or ValueError
// "compat must be 'rfc', 'rfc9309', 'google' or 'urllib', not 'NAME'".
robots::Compat CompatFromName(std::string_view name);  // robots_bindings.cc

}  // namespace robotscan::python

#endif  // ROBOTSCAN_PYTHON_BINDINGS_H_
