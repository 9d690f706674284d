// robotscan._robotscan._CanFetch: RobotFileParser.can_fetch's native fast
// path. robotparser.py installs one as the parser's can_fetch once a file is
// parsed, so a call goes straight from the interpreter (vectorcall) to the
// matcher: no Python frame, no pybind11 dispatcher, which together cost
// about as much as the check itself (~0.2 us of ~0.6 us on the realistic
// file, bench/RESULTS.md).
#include <Python.h>
#include <pybind11/pybind11.h>
#include <structmember.h>

#include <cstddef>
#include <new>
#include <string_view>

#include "arguments.h"
#include "bindings.h"
#include "robotscan/robots/robots.h"
#include "robotscan/robots/url.h"

namespace robotscan::python {
namespace {

namespace py = pybind11;

struct CanFetchObject {
  PyObject_HEAD vectorcallfunc vectorcall;
  robots::RobotsTxt* robots;  // Owned; shares the parsed state (robots.h).
};

// Like PyUnicode_AsUTF8AndSize / bytes, with RobotsTxt's TypeError message.
bool ReadText(PyObject* object, const char* name, std::string_view* out) {
  if (PyUnicode_Check(object)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(object, &size);
    if (data == nullptr) return false;
    *out = {data, static_cast<std::size_t>(size)};
    return true;
  }
  if (PyBytes_Check(object)) {
    *out = {PyBytes_AS_STRING(object),
            static_cast<std::size_t>(PyBytes_GET_SIZE(object))};
    return true;
  }
  PyErr_Format(PyExc_TypeError, "%s must be str or bytes, not %s", name,
               Py_TYPE(object)->tp_name);
  return false;
}

PyObject* CallCanFetch(PyObject* self, PyObject* const* args,
                       std::size_t nargsf, PyObject* kwnames) {
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargs != 2 || (kwnames != nullptr && PyTuple_GET_SIZE(kwnames) != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "can_fetch() takes exactly 2 positional arguments "
                    "(useragent, url)");
    return nullptr;
  }
  std::string_view user_agent;
  std::string_view url;
  if (!ReadText(args[0], "useragent", &user_agent) ||
      !ReadText(args[1], "url", &url)) {
    return nullptr;
  }
  // RFC 9309 §2.2.1: the group is chosen by the product token; "*" and
  // values without one are checked as given (so they reach the `*` group).
  std::string_view token = robots::ExtractProductToken(user_agent);
  if (token.empty()) token = user_agent;
  const auto* object = reinterpret_cast<CanFetchObject*>(self);
  return PyBool_FromLong(object->robots->IsAllowedFor(token, url) ? 1 : 0);
}

void DeallocCanFetch(PyObject* self) {
  auto* object = reinterpret_cast<CanFetchObject*>(self);
  delete object->robots;
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);  // Heap types are referenced by their instances.
}

PyMemberDef can_fetch_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET,
     static_cast<Py_ssize_t>(offsetof(CanFetchObject, vectorcall)), READONLY,
     nullptr},
    {nullptr, 0, 0, 0, nullptr},
};

PyType_Slot can_fetch_slots[] = {
    {Py_tp_dealloc, reinterpret_cast<void*>(&DeallocCanFetch)},
    {Py_tp_call, reinterpret_cast<void*>(&PyVectorcall_Call)},
    {Py_tp_members, can_fetch_members},
    {Py_tp_doc,
     const_cast<char*>(
         "can_fetch(useragent, url) -> bool for one parsed RobotsTxt: the "
         "product token at the start of `useragent` names the group (RFC "
         "9309 §2.2.1); URLs are not refused. Made by robotscan.robotparser; "
         "create with _can_fetch_for(robots).")},
    {0, nullptr},
};

PyType_Spec can_fetch_spec = {
    "robotscan._robotscan._CanFetch",
    static_cast<int>(sizeof(CanFetchObject)),
    0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    can_fetch_slots,
};

}  // namespace

void BindCanFetch(py::module_& m) {
  PyObject* type = PyType_FromSpec(&can_fetch_spec);
  if (type == nullptr) throw py::error_already_set();
  py::object type_object = py::reinterpret_steal<py::object>(type);
  // Constructed only from C++ (the type has no tp_new): a factory function.
  m.def(
      "_can_fetch_for",
      [type_object](const robots::RobotsTxt& robots) {
        auto* py_type = reinterpret_cast<PyTypeObject*>(type_object.ptr());
        // tp_alloc zero-fills, so a failure below deallocates a null
        // `robots` safely once `self` owns the object.
        py::object self =
            py::reinterpret_steal<py::object>(py_type->tp_alloc(py_type, 0));
        if (!self) throw py::error_already_set();
        auto* object = reinterpret_cast<CanFetchObject*>(self.ptr());
        object->robots = new robots::RobotsTxt(robots);
        object->vectorcall = &CallCanFetch;
        return self;
      },
      py::arg("robots"),
      "A callable can_fetch(useragent, url) -> bool over `robots` (the "
      "native fast path of robotscan.robotparser.RobotFileParser.can_fetch).");
  m.attr("_CanFetch") = type_object;
}

}  // namespace robotscan::python
