#include "arguments.h"

#include <string>
#include <string_view>
#include <vector>

namespace robotscan::python {

namespace py = pybind11;

namespace {

// A buffer-protocol view, released however the scope is left.
struct BufferView {
  explicit BufferView(PyObject* object) {
    if (PyObject_GetBuffer(object, &view, PyBUF_SIMPLE) != 0) {
      throw py::error_already_set();
    }
  }
  ~BufferView() { PyBuffer_Release(&view); }
  BufferView(const BufferView&) = delete;
  BufferView& operator=(const BufferView&) = delete;
  Py_buffer view;
};

}  // namespace

std::string TypeNameOf(py::handle value) {
  return Py_TYPE(value.ptr())->tp_name;
}

std::string_view TextOf(py::handle value, const char* name) {
  PyObject* object = value.ptr();
  if (PyUnicode_Check(object)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(object, &size);
    if (data == nullptr) throw py::error_already_set();
    return {data, static_cast<std::size_t>(size)};
  }
  if (PyBytes_Check(object)) {
    return {PyBytes_AS_STRING(object),
            static_cast<std::size_t>(PyBytes_GET_SIZE(object))};
  }
  throw py::type_error(std::string(name) + " must be str or bytes, not " +
                       TypeNameOf(value));
}

std::string_view BodyOf(py::handle value, const char* name,
                        std::string* storage) {
  PyObject* object = value.ptr();
  if (PyUnicode_Check(object) || PyBytes_Check(object)) {
    return TextOf(value, name);
  }
  if (PyObject_CheckBuffer(object)) {
    BufferView buffer(object);
    storage->assign(static_cast<const char*>(buffer.view.buf),
                    static_cast<std::size_t>(buffer.view.len));
    return *storage;
  }
  throw py::type_error(std::string(name) +
                       " must be str, bytes or a bytes-like object, not " +
                       TypeNameOf(value));
}

py::str FileText(std::string_view text) {
  PyObject* decoded = PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

py::list FileTextList(const std::vector<std::string>& texts) {
  py::list list(texts.size());
  for (std::size_t i = 0; i < texts.size(); ++i) {
    list[i] = FileText(texts[i]);
  }
  return list;
}

py::str MessageText(std::string_view text) {
  PyObject* decoded = PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
  if (decoded == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

}  // namespace robotscan::python
