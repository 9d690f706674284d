// Private: UTF-8 coding and the character tables the parser needs (shorthand
// classes per dialect, simple case folding, approximate Unicode properties).
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_UNICODE_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_UNICODE_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "robotscan/regexguard/dialect.h"
#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard::internal {

struct DecodedCodePoint {
  char32_t code_point = 0;
  std::size_t length = 0;  // bytes consumed; 0 means invalid UTF-8
};

// Decodes the UTF-8 sequence at text[offset]; length 0 when invalid.
DecodedCodePoint DecodeUtf8(std::string_view text, std::size_t offset);
void AppendUtf8(char32_t code_point, std::string* out);
// True when c can appear in a UTF-8 subject (not a surrogate, in range).
bool IsEncodable(char32_t c);

CodePointSet DigitSet();                          // [0-9]
CodePointSet WordSet();                           // [0-9A-Za-z_]
CodePointSet SpaceSet(Dialect dialect);           // \s in that dialect
CodePointSet HorizontalSpaceSet();                // PCRE \h
CodePointSet VerticalSpaceSet();                  // PCRE \v
CodePointSet LineTerminatorSet(Dialect dialect);  // what `.` excludes

// How an engine's case-insensitive matching pairs characters. They differ
// where an attack string can land: a pump of `ſ` (U+017F) explodes
// /(?:s|x)+$/i on PCRE2, which folds it to `s`, but is linear on Node
// without the u flag, whose Canonicalize() never maps a non-ASCII
// character onto an ASCII one.
enum class CaseFolding {
  kAscii,    // Java without UNICODE_CASE, Python bytes / re.ASCII
  kLegacy,   // JavaScript without u, .NET: no non-ASCII onto ASCII
  kUnicode,  // PCRE2 (UTF), Python str, Ruby, JavaScript u, Java
             // UNICODE_CASE: also ſ~s, K (Kelvin)~k
};
CaseFolding CaseFoldingFor(Dialect dialect, bool unicode_flag, bool ascii_flag);

// Adds the case variants of every member under `folding`: ASCII letters,
// and beyond ASCII (kLegacy, kUnicode) the Latin-1, Greek and Cyrillic
// pairs. Full Unicode folding is out of scope: attack strings are built from
// representatives, and the engines check them.
CodePointSet AddCaseVariants(const CodePointSet& set, CaseFolding folding);

// A POSIX class name ("alpha", "digit", ...) as a set, if known.
std::optional<CodePointSet> PosixClass(std::string_view name);

struct PropertySet {
  CodePointSet set;
  bool approximate = false;
};
// \p{name}: exact for the ASCII-range categories we can state, otherwise a
// representative approximation (flagged). nullopt for unknown names.
std::optional<PropertySet> UnicodeProperty(std::string_view name);

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_UNICODE_H_
