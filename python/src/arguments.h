// Reading Python arguments as the bytes the C++ libraries take, with the
// errors a Python caller expects: TypeError naming the argument and the type
// received, UnicodeEncodeError (a ValueError) for strings that have no UTF-8
// form (lone surrogates).
//
// The views point into the Python objects (str's cached UTF-8, bytes'
// buffer): they stay valid while the object is alive, which the callers
// guarantee by holding a reference, so the text can be read with the GIL
// released.
#ifndef ROBOTSCAN_PYTHON_ARGUMENTS_H_
#define ROBOTSCAN_PYTHON_ARGUMENTS_H_

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>
#include <vector>

namespace robotscan::python {

// `value` as UTF-8 (str) or raw bytes (bytes); anything else is a TypeError
// "NAME must be str or bytes, not TYPE". Needs the GIL.
std::string_view TextOf(pybind11::handle value, const char* name);

// Like TextOf, but also accepts any object with the buffer protocol
// (bytearray, memoryview, mmap), copied into *storage because such buffers
// may change once the GIL is released.
std::string_view BodyOf(pybind11::handle value, const char* name,
                        std::string* storage);

// The type name of `value` for error messages ("int", "NoneType").
std::string TypeNameOf(pybind11::handle value);

// Text taken from a robots.txt (patterns, agents, values) as str. Files are
// bytes and need not be UTF-8: undecodable bytes become lone surrogates
// (errors="surrogateescape", as os.fsdecode does), so
// text.encode("utf-8", "surrogateescape") gives the bytes back.
pybind11::str FileText(std::string_view text);
pybind11::list FileTextList(const std::vector<std::string>& texts);

// Human-readable text that may quote file content (lint messages):
// undecodable bytes become U+FFFD, so it always prints.
pybind11::str MessageText(std::string_view text);

}  // namespace robotscan::python

#endif  // ROBOTSCAN_PYTHON_ARGUMENTS_H_
