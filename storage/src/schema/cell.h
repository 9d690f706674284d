// One value of one column on its way into either backend: what a column's
// codec (table.h) makes of a C++ member, and what SQLite binds
// (Statement::BindCell) and PostgreSQL's COPY writes (CopyRows::Cell).
// Text and blobs are views of the record's own bytes (or of a static name
// table): a Cell lives no longer than the record it was made from.
//
// Private to storage. Thread-safety: a plain value.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_CELL_H_
#define ROBOTSCAN_STORAGE_SCHEMA_CELL_H_

#include <cstdint>
#include <string_view>

namespace robotscan::storage::schema {

struct Cell {
  enum class Kind : std::uint8_t { kNull, kInt, kReal, kText, kBlob };

  static Cell Null() { return Cell(); }
  static Cell Int(std::int64_t value) {
    Cell c;
    c.kind = Kind::kInt;
    c.integer = value;
    return c;
  }
  static Cell Real(double value) {
    Cell c;
    c.kind = Kind::kReal;
    c.real = value;
    return c;
  }
  static Cell Text(std::string_view text) {
    Cell c;
    c.kind = Kind::kText;
    c.bytes = text;
    return c;
  }
  static Cell Blob(std::string_view bytes) {
    Cell c;
    c.kind = Kind::kBlob;
    c.bytes = bytes;
    return c;
  }

  Kind kind = Kind::kNull;
  std::int64_t integer = 0;
  double real = 0;
  std::string_view bytes;
};

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_CELL_H_
