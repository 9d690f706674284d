#include "urllib/python_str.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <iterator>
#include <limits>

namespace robotscan::robots::urllib::python {
namespace {

struct CodePointRange {
  char32_t first;
  char32_t last;
};

#include "urllib/python_unicode_tables.inc"

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// CPython's limit on decimal digits converted by int() (sys.flags
// int_max_str_digits; default since 3.11).
constexpr std::size_t kMaxIntDigits = 4300;

template <std::size_t N>
const CodePointRange* FindRange(const CodePointRange (&table)[N],
                                char32_t code_point) {
  const CodePointRange* end = table + N;
  const CodePointRange* it = std::lower_bound(
      table, end, code_point,
      [](const CodePointRange& range, char32_t c) { return range.last < c; });
  return it != end && it->first <= code_point ? it : nullptr;
}

template <std::size_t N>
bool InTable(const CodePointRange (&table)[N], char32_t code_point) {
  return FindRange(table, code_point) != nullptr;
}

// Length of the UTF-8 sequence that starts with `lead` (text is valid).
std::size_t SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead < 0xE0) return 2;
  if (lead < 0xF0) return 3;
  return 4;
}

// The code point at text[i] (valid UTF-8), and its length in *length.
char32_t CodePointAt(std::string_view text, std::size_t i,
                     std::size_t* length) {
  const auto lead = static_cast<unsigned char>(text[i]);
  *length = std::min(SequenceLength(lead), text.size() - i);
  if (*length == 1) return lead;
  char32_t code = lead & (0x7F >> *length);
  for (std::size_t k = 1; k < *length; ++k) {
    code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  }
  return code;
}

// Start of the code point that ends at text[end - 1].
std::size_t StartOfLastCodePoint(std::string_view text, std::size_t end) {
  std::size_t start = end - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
    --start;
  return start;
}

bool IsWhitespace(char32_t code_point) {
  return InTable(kPythonWhitespace, code_point);
}

}  // namespace

std::string DecodeUtf8Replace(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  std::size_t i = 0;
  const std::size_t n = bytes.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
      continue;
    }
    // Continuation bytes needed and the range allowed for the first one
    // (Unicode Table 3-7: no overlong forms, surrogates or values past
    // U+10FFFF).
    std::size_t need = 0;
    unsigned char low = 0x80, high = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
    } else if (c == 0xE0) {
      need = 2;
      low = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
      need = 2;
    } else if (c == 0xED) {
      need = 2;
      high = 0x9F;
    } else if (c == 0xF0) {
      need = 3;
      low = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
      need = 3;
    } else if (c == 0xF4) {
      need = 3;
      high = 0x8F;
    } else {
      out += kReplacement;  // Not a lead byte.
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    std::size_t got = 0;
    while (got < need && j < n) {
      const auto d = static_cast<unsigned char>(bytes[j]);
      if (d < (got == 0 ? low : 0x80) || d > (got == 0 ? high : 0xBF)) break;
      ++j;
      ++got;
    }
    // A complete sequence is kept; a maximal invalid subpart (the lead byte
    // and the continuation bytes that fit) becomes one U+FFFD, as in
    // CPython's decoder.
    if (got == need) {
      out.append(bytes.substr(i, j - i));
    } else {
      out += kReplacement;
    }
    i = j;
  }
  return out;
}

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t length = 1;
    const char32_t c = CodePointAt(text, i, &length);
    if (!InTable(kPythonLineBreaks, c)) {
      i += length;
      continue;
    }
    lines.push_back(text.substr(start, i - start));
    i += length;
    if (c == '\r' && i < text.size() && text[i] == '\n') ++i;
    start = i;
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

std::string_view Strip(std::string_view text) {
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t length = 1;
    if (!IsWhitespace(CodePointAt(text, begin, &length))) break;
    begin += length;
  }
  std::size_t end = text.size();
  while (end > begin) {
    const std::size_t start = StartOfLastCodePoint(text, end);
    std::size_t length = 1;
    if (!IsWhitespace(CodePointAt(text, start, &length))) break;
    end = start;
  }
  return text.substr(begin, end - begin);
}

bool IsDigits(std::string_view text) {
  if (text.empty()) return false;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    if (!InTable(kPythonDigits, CodePointAt(text, i, &length))) return false;
    i += length;
  }
  return true;
}

std::optional<double> ParseDigits(std::string_view text) {
  const std::string_view digits = Strip(text);
  std::string ascii;
  ascii.reserve(digits.size());
  for (std::size_t i = 0; i < digits.size();) {
    std::size_t length = 1;
    const char32_t c = CodePointAt(digits, i, &length);
    const CodePointRange* range = FindRange(kPythonDecimals, c);
    if (range == nullptr) return std::nullopt;  // '²': isdigit, not decimal.
    ascii.push_back(static_cast<char>('0' + (c - range->first) % 10));
    i += length;
  }
  if (ascii.empty() || ascii.size() > kMaxIntDigits) return std::nullopt;
  double value = 0;
  const auto [end, error] =
      std::from_chars(ascii.data(), ascii.data() + ascii.size(), value);
  if (error == std::errc::result_out_of_range) {
    return std::numeric_limits<double>::infinity();
  }
  return value;
}

std::string LowerForMatching(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    const char32_t c = CodePointAt(text, i, &length);
    if (c >= 'A' && c <= 'Z') {
      out.push_back(static_cast<char>(c - 'A' + 'a'));
    } else if (c == kKelvinSign) {
      out.push_back('k');
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

bool HasNfkcNetlocBreaker(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t length = 1;
    const char32_t c = CodePointAt(text, i, &length);
    if (c >= 0x80 && InTable(kNfkcNetlocBreakers, c)) return true;
    i += length;
  }
  return false;
}

}  // namespace robotscan::robots::urllib::python
