// How a C++ value is stored in a column and read back: each codec is a
// pair of functions,
//   static Cell Store(const T& value);              // into either backend
//   template <class Cells>
//   static bool Load(const Cells& cells, int column, T* out);
// where Cells is a backend's current row (SqliteCells, PgCells) offering
// Bytes(column) (NULL: empty), Int(column) (NULL: 0), Real(column) and
// IsNull(column); Load returns false for a stored value the C++ type
// cannot hold (a name not in its table). A codec may also refuse a value
// before anything is written:
//   static std::string Complaint(const T& value);   // "" when acceptable
//
// A column names its codec once (table.h's Field), and every writer and
// reader of the column goes through it, so a column's representation is a
// one-line choice. An enum kept as text through a name table is
//   Name<ErrorClass, ErrorClassName, ParseErrorClass, UnknownErrorClass,
//        EmptyName::kIsNull>
// (the name table of fetch_classes.h; "" stored as NULL).
//
// Private to storage. Thread-safety: stateless functions.
#ifndef ROBOTSCAN_STORAGE_SCHEMA_CODECS_H_
#define ROBOTSCAN_STORAGE_SCHEMA_CODECS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "schema/cell.h"

namespace robotscan::storage::schema {

// Text, written as it is ("" stays an empty string, for NOT NULL columns).
struct Text {
  static Cell Store(std::string_view value) { return Cell::Text(value); }
  template <class Cells>
  static bool Load(const Cells& cells, int column, std::string* out) {
    out->assign(cells.Bytes(column));
    return true;
  }
};

// Text, "" stored as NULL: absent headers and errors read as NULL in SQL.
struct TextOrNull {
  static Cell Store(std::string_view value) {
    return value.empty() ? Cell::Null() : Cell::Text(value);
  }
  template <class Cells>
  static bool Load(const Cells& cells, int column, std::string* out) {
    return Text::Load(cells, column, out);
  }
};

// Bytes (BLOB, bytea), written as they are.
struct Bytes {
  static Cell Store(std::string_view value) { return Cell::Blob(value); }
  template <class Cells>
  static bool Load(const Cells& cells, int column, std::string* out) {
    return Text::Load(cells, column, out);
  }
};

// An integer; NULL reads as 0.
struct Integer {
  static Cell Store(std::int64_t value) { return Cell::Int(value); }
  template <class Cells, class T>
  static bool Load(const Cells& cells, int column, T* out) {
    *out = static_cast<T>(cells.Int(column));
    return true;
  }
};

// An integer where 0 (and less) means "none" and is stored as NULL: an
// HTTP status when no response came.
struct PositiveOrNull {
  static Cell Store(std::int64_t value) {
    return value > 0 ? Cell::Int(value) : Cell::Null();
  }
  template <class Cells, class T>
  static bool Load(const Cells& cells, int column, T* out) {
    return Integer::Load(cells, column, out);
  }
};

// An integer where a negative value means "none" and is stored as NULL
// (read back as -1): a byte offset, where 0 is a real value.
struct NonNegativeOrNull {
  static Cell Store(std::int64_t value) {
    return value < 0 ? Cell::Null() : Cell::Int(value);
  }
  template <class Cells, class T>
  static bool Load(const Cells& cells, int column, T* out) {
    *out = cells.IsNull(column) ? T{-1} : static_cast<T>(cells.Int(column));
    return true;
  }
};

// A bool as INTEGER 0/1 (kept in both dialects, so that the same SQL
// `truncated = 1` runs on both).
struct Flag {
  static Cell Store(bool value) { return Cell::Int(value ? 1 : 0); }
  template <class Cells>
  static bool Load(const Cells& cells, int column, bool* out) {
    *out = cells.Int(column) != 0;
    return true;
  }
};

// A duration in milliseconds; negative means unknown and is stored as NULL
// (read back as -1).
struct MillisOrNull {
  static Cell Store(double ms) {
    return ms < 0 ? Cell::Null() : Cell::Real(ms);
  }
  template <class Cells>
  static bool Load(const Cells& cells, int column, double* out) {
    *out = cells.IsNull(column) ? -1 : cells.Real(column);
    return true;
  }
};

// The size of a string member, for a column that records how many bytes
// the member had (fetch.bytes: the decoded body's size). Write-only.
struct SizeOf {
  static Cell Store(std::string_view value) {
    return Cell::Int(static_cast<std::int64_t>(value.size()));
  }
};

// Whether an empty name is stored as NULL (Name's kEmpty).
enum class EmptyName : std::uint8_t { kIsText, kIsNull };

// An enum stored as its name from a name table: kNameOf(value) out,
// kParse(name) back in (std::optional<Enum>; a stored name it does not know
// fails Load). Names are static strings, so the Cell needs no copy. A value
// outside the table (one kNameOf does not give back through kParse) is
// refused before anything is written, with kComplaint(value).
template <class Enum, auto kNameOf, auto kParse, auto kComplaint,
          EmptyName kEmpty = EmptyName::kIsText>
struct Name {
  static Cell Store(Enum value) {
    const std::string_view name = kNameOf(value);
    if (kEmpty == EmptyName::kIsNull && name.empty()) return Cell::Null();
    return Cell::Text(name);
  }
  static std::string Complaint(Enum value) {
    return kParse(kNameOf(value)) == value ? std::string() : kComplaint(value);
  }
  template <class Cells>
  static bool Load(const Cells& cells, int column, Enum* out) {
    const std::optional<Enum> value = kParse(cells.Bytes(column));
    if (!value) return false;
    *out = *value;
    return true;
  }
  // Load, with a name not in the table read as `unknown` (for an analysis
  // that must go on over rows a newer robotscan wrote).
  template <class Cells>
  static void LoadOr(const Cells& cells, int column, Enum unknown, Enum* out) {
    if (!Load(cells, column, out)) *out = unknown;
  }
};

}  // namespace robotscan::storage::schema

#endif  // ROBOTSCAN_STORAGE_SCHEMA_CODECS_H_
