// CPython 3.11 `str` semantics on UTF-8, as far as urllib.robotparser needs
// them (reading.h). Private to the robots library.
//
// Text is held as "Python UTF-8": what bytes.decode("utf-8", "replace")
// gives, re-encoded — valid UTF-8 in which every invalid sequence became
// U+FFFD exactly as CPython's decoder replaces it (one U+FFFD per maximal
// invalid subpart). Every function below takes and returns such text, so
// byte offsets of ASCII delimiters are code point boundaries.
//
// Thread-safety: pure functions.
#ifndef ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_STR_H_
#define ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_STR_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace robotscan::robots::urllib::python {

// bytes.decode("utf-8", "replace"), re-encoded as UTF-8.
std::string DecodeUtf8Replace(std::string_view bytes);

// str.splitlines(): LF, CR, CR LF, VT, FF, FS, GS, RS, NEL, U+2028, U+2029
// end a line; a final line break adds no empty line.
std::vector<std::string_view> SplitLines(std::string_view text);

// str.strip() with no argument (Unicode whitespace, str.isspace()).
std::string_view Strip(std::string_view text);

// str.isdigit(): non-empty and every code point a digit (decimal digits,
// superscripts, circled digits...).
bool IsDigits(std::string_view text);

// int(text) for text whose stripped form IsDigits: nullopt where CPython
// raises ValueError (a digit that is not decimal, such as '²', or more than
// the default 4,300 digits of sys.get_int_max_str_digits()); the value
// otherwise (rounded to the nearest double, as float(int(text)) is).
std::optional<double> ParseDigits(std::string_view text);

// str.lower() for matching agent names: ASCII letters and U+212A (KELVIN
// SIGN, the one non-ASCII code point that lower-cases to an ASCII letter)
// become lower-case ASCII; every other code point is kept, so text with one
// never matches ASCII text, exactly as after CPython's lower(). (Non-ASCII
// letters are not lower-cased, so two non-ASCII names can compare differently
// than in CPython; crawlers' user agents are ASCII.)
std::string LowerForMatching(std::string_view text);

// Whether text contains a code point (>= U+0080) whose NFKC form contains
// one of "/?#@:" (urllib.parse._checknetloc's test).
bool HasNfkcNetlocBreaker(std::string_view text);

}  // namespace robotscan::robots::urllib::python

#endif  // ROBOTSCAN_ROBOTS_SRC_URLLIB_PYTHON_STR_H_
