#include "syntax/unicode.h"

#include <algorithm>
#include <string>

#include "robotscan/base/ascii.h"

namespace robotscan::regexguard::internal {

DecodedCodePoint DecodeUtf8(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return {};
  const auto byte = [&](std::size_t i) {
    return static_cast<unsigned char>(text[offset + i]);
  };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t value = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
  } else {
    return {};
  }
  if (offset + length > text.size()) return {};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return {};
    value = (value << 6) | (byte(i) & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  static constexpr char32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < kMinimum[length] || !IsEncodable(value)) return {};
  return {value, length};
}

void AppendUtf8(char32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

bool IsEncodable(char32_t c) {
  return c <= kMaxCodePoint && !(c >= 0xD800 && c <= 0xDFFF);
}

CodePointSet DigitSet() { return CodePointSet::Range('0', '9'); }

CodePointSet WordSet() {
  CodePointSet set = CodePointSet::Range('0', '9');
  set.Add('A', 'Z');
  set.Add('a', 'z');
  set.Add('_', '_');
  return set;
}

CodePointSet SpaceSet(Dialect dialect) {
  CodePointSet set = CodePointSet::Range('\t', '\r');
  set.Add(' ', ' ');
  if (dialect == Dialect::kJavaScript || dialect == Dialect::kPython ||
      dialect == Dialect::kDotNet) {
    // Unicode White_Space (JavaScript adds U+FEFF; Python adds \x1c-\x1f).
    set.Add(0xA0, 0xA0);
    set.Add(0x1680, 0x1680);
    set.Add(0x2000, 0x200A);
    set.Add(0x2028, 0x2029);
    set.Add(0x202F, 0x202F);
    set.Add(0x205F, 0x205F);
    set.Add(0x3000, 0x3000);
    if (dialect == Dialect::kJavaScript) set.Add(0xFEFF, 0xFEFF);
    if (dialect == Dialect::kPython) {
      set.Add(0x1C, 0x1F);
      set.Add(0x85, 0x85);
    }
  }
  return set;
}

CodePointSet HorizontalSpaceSet() {
  CodePointSet set = CodePointSet::Single('\t');
  set.Add(' ', ' ');
  set.Add(0xA0, 0xA0);
  set.Add(0x1680, 0x1680);
  set.Add(0x180E, 0x180E);
  set.Add(0x2000, 0x200A);
  set.Add(0x202F, 0x202F);
  set.Add(0x205F, 0x205F);
  set.Add(0x3000, 0x3000);
  return set;
}

CodePointSet VerticalSpaceSet() {
  CodePointSet set = CodePointSet::Range('\n', '\r');
  set.Add(0x85, 0x85);
  set.Add(0x2028, 0x2029);
  return set;
}

CodePointSet LineTerminatorSet(Dialect dialect) {
  CodePointSet set = CodePointSet::Single('\n');
  if (dialect == Dialect::kJavaScript || dialect == Dialect::kJava) {
    set.Add('\r', '\r');
    set.Add(0x2028, 0x2029);
    if (dialect == Dialect::kJava) set.Add(0x85, 0x85);
  }
  return set;
}

CaseFolding CaseFoldingFor(Dialect dialect, bool unicode_flag,
                           bool ascii_flag) {
  switch (dialect) {
    case Dialect::kPython:
      return ascii_flag ? CaseFolding::kAscii : CaseFolding::kUnicode;
    case Dialect::kJavaScript:
      return unicode_flag ? CaseFolding::kUnicode : CaseFolding::kLegacy;
    case Dialect::kJava:
      return unicode_flag ? CaseFolding::kUnicode : CaseFolding::kAscii;
    case Dialect::kDotNet:
      return CaseFolding::kLegacy;
    default:
      return CaseFolding::kUnicode;
  }
}

CodePointSet AddCaseVariants(const CodePointSet& set, CaseFolding folding) {
  CodePointSet result = set;
  // Blocks where upper and lower case differ by a fixed offset.
  struct Shift {
    char32_t upper_first, upper_last;
    char32_t offset;
  };
  static constexpr Shift kShifts[] = {
      {'A', 'Z', 32},     {0xC0, 0xD6, 32},   {0xD8, 0xDE, 32},
      {0x391, 0x3A1, 32}, {0x3A3, 0x3AB, 32}, {0x410, 0x42F, 32},
      {0x400, 0x40F, 80},
  };
  for (const Shift& shift : kShifts) {
    if (folding == CaseFolding::kAscii && shift.upper_first != 'A') continue;
    const CodePointSet upper =
        set.Intersect(CodePointSet::Range(shift.upper_first, shift.upper_last));
    for (const CodePointRange& r : upper.ranges()) {
      result.Add(r.first + shift.offset, r.last + shift.offset);
    }
    const CodePointSet lower = set.Intersect(CodePointSet::Range(
        shift.upper_first + shift.offset, shift.upper_last + shift.offset));
    for (const CodePointRange& r : lower.ranges()) {
      result.Add(r.first - shift.offset, r.last - shift.offset);
    }
  }
  // Kelvin sign and long s fold onto ASCII letters only under full Unicode
  // folding.
  if (folding == CaseFolding::kUnicode) {
    if (set.Contains('k') || set.Contains('K')) result.Add(0x212A, 0x212A);
    if (set.Contains('s') || set.Contains('S')) result.Add(0x17F, 0x17F);
  }
  return result;
}

std::optional<CodePointSet> PosixClass(std::string_view name) {
  CodePointSet set;
  if (name == "alpha") {
    set.Add('A', 'Z');
    set.Add('a', 'z');
  } else if (name == "digit") {
    set.Add('0', '9');
  } else if (name == "alnum") {
    set.Add('0', '9');
    set.Add('A', 'Z');
    set.Add('a', 'z');
  } else if (name == "upper") {
    set.Add('A', 'Z');
  } else if (name == "lower") {
    set.Add('a', 'z');
  } else if (name == "space") {
    set.Add('\t', '\r');
    set.Add(' ', ' ');
  } else if (name == "blank") {
    set.Add('\t', '\t');
    set.Add(' ', ' ');
  } else if (name == "punct") {
    set.Add('!', '/');
    set.Add(':', '@');
    set.Add('[', '`');
    set.Add('{', '~');
  } else if (name == "xdigit") {
    set.Add('0', '9');
    set.Add('A', 'F');
    set.Add('a', 'f');
  } else if (name == "word") {
    set = WordSet();
  } else if (name == "cntrl") {
    set.Add(0, 0x1F);
    set.Add(0x7F, 0x7F);
  } else if (name == "print") {
    set.Add(0x20, 0x7E);
  } else if (name == "graph") {
    set.Add(0x21, 0x7E);
  } else if (name == "ascii") {
    set.Add(0, 0x7F);
  } else {
    return std::nullopt;
  }
  return set;
}

std::optional<PropertySet> UnicodeProperty(std::string_view raw_name) {
  std::string name;
  for (const char c : raw_name) {
    if (c != '_' && c != ' ' && c != '-') {
      name.push_back(ToAsciiLower(c));
    }
  }
  if (name.rfind("is", 0) == 0 && name.size() > 2 && name != "isl") {
    name = name.substr(2);  // Java's \p{IsAlphabetic}, \p{IsLatin}
  }
  PropertySet result;
  result.approximate = true;
  CodePointSet& set = result.set;
  const auto letters = [&set] {
    set.Add('A', 'Z');
    set.Add('a', 'z');
    set.Add(0xAA, 0xAA);
    set.Add(0xB5, 0xB5);
    set.Add(0xBA, 0xBA);
    set.Add(0xC0, 0xD6);
    set.Add(0xD8, 0xF6);
    set.Add(0xF8, 0x2C1);
    set.Add(0x370, 0x3FF);
    set.Add(0x400, 0x52F);
    set.Add(0x4E00, 0x9FFF);
  };
  if (name == "l" || name == "letter" || name == "alpha" ||
      name == "alphabetic" || name == "l&" || name == "lc") {
    letters();
  } else if (name == "lu" || name == "uppercaseletter" || name == "upper" ||
             name == "uppercase") {
    set.Add('A', 'Z');
    set.Add(0xC0, 0xD6);
    set.Add(0xD8, 0xDE);
    set.Add(0x391, 0x3A9);
    set.Add(0x410, 0x42F);
  } else if (name == "ll" || name == "lowercaseletter" || name == "lower" ||
             name == "lowercase") {
    set.Add('a', 'z');
    set.Add(0xDF, 0xF6);
    set.Add(0xF8, 0xFF);
    set.Add(0x3B1, 0x3C9);
    set.Add(0x430, 0x44F);
  } else if (name == "n" || name == "number" || name == "nd" ||
             name == "decimalnumber" || name == "digit") {
    set.Add('0', '9');
    set.Add(0x660, 0x669);
    set.Add(0xFF10, 0xFF19);
  } else if (name == "p" || name == "punctuation" || name == "punct") {
    set.Add('!', '#');
    set.Add('%', '*');
    set.Add(',', '/');
    set.Add(':', ';');
    set.Add('?', '@');
    set.Add('[', ']');
    set.Add('_', '_');
    set.Add('{', '{');
    set.Add('}', '}');
    set.Add(0x2010, 0x2027);
  } else if (name == "s" || name == "symbol") {
    set.Add('$', '$');
    set.Add('+', '+');
    set.Add('<', '>');
    set.Add('^', '^');
    set.Add('`', '`');
    set.Add('|', '|');
    set.Add('~', '~');
  } else if (name == "z" || name == "separator" || name == "zs" ||
             name == "spaceseparator" || name == "whitespace" ||
             name == "space") {
    set.Add(' ', ' ');
    set.Add(0xA0, 0xA0);
    set.Add(0x2000, 0x200A);
    set.Add(0x3000, 0x3000);
  } else if (name == "m" || name == "mark" || name == "mn") {
    set.Add(0x300, 0x36F);
  } else if (name == "c" || name == "other" || name == "cc" ||
             name == "control") {
    set.Add(0, 0x1F);
    set.Add(0x7F, 0x9F);
  } else if (name == "latin") {
    set.Add('A', 'Z');
    set.Add('a', 'z');
    set.Add(0xC0, 0x24F);
  } else if (name == "greek") {
    set.Add(0x370, 0x3FF);
  } else if (name == "cyrillic") {
    set.Add(0x400, 0x4FF);
  } else if (name == "han") {
    set.Add(0x4E00, 0x9FFF);
  } else if (name == "any") {
    set = CodePointSet::All();
    result.approximate = false;
  } else if (name == "ascii") {
    set.Add(0, 0x7F);
    result.approximate = false;
  } else {
    return std::nullopt;
  }
  return result;
}

}  // namespace robotscan::regexguard::internal
