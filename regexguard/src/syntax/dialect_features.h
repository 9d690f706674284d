// Regex dialects as sets of syntax features, so that the parser asks "is
// `(?P<name>...)` a named group here?" instead of "is this Python?". Model:
// RE2's parse flags (`LikePerl = ClassNL | OneLine | PerlClasses | ...`).
//
// Each feature is one decision the parser takes; a dialect is the set of
// features its engine has (PCRE2 10.42, CPython's re, ECMAScript with and
// without the `u` flag, java.util.regex, Onigmo, Go's regexp/RE2, .NET), as
// this parser models them. Refused constructs ("cannot analyse: ...") are
// features too: the dialect has the construct, the analysis does not.
// Private to the library; tests/regexguard/parser_test.cc pins each
// dialect's reading of one pattern per feature.
//
// Thread safety: constexpr values.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_DIALECT_FEATURES_H_
#define ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_DIALECT_FEATURES_H_

#include <array>
#include <cstddef>
#include <cstdint>

#include "robotscan/regexguard/dialect.h"

namespace robotscan::regexguard::internal {

enum class Feature : unsigned {
  // ---- Quantifiers
  kPossessiveQuantifiers,    // a*+ a++ a?+
  kRepeatOfCountedRepeat,    // a{2}{3} is a repeat of a repeat (Java)
  kAnchorsNotRepeatable,     // ^* \b+ are "nothing to repeat"
  kOmittedMinimumCount,      // {,3} means {0,3} (Python)
  kCountLimit1000,           // counts above 1000 are refused (RE2)
  kLiteralQuantifierBraces,  // a lone {2} is literal text (Annex B)
  kStrictBraces,             // a lone { } ] is an error (JavaScript u)
  kBraceMustBeCount,         // a { that opens no count is an error (Java)
  kNestedRepeatsReduced,     // (?:a+)+ is a+, (?:a+){1,3} is a+ (Onigmo)
  kRepeatOfAnyRepeat,        // a** a{2}+ a+?* repeat a repeat (Ruby)
  // ---- Anchors and assertions
  kAnchorsMatchAtLines,       // ^ and $ are always line anchors (Ruby)
  kDollarIsEndOfText,         // $ does not match before a final newline
  kEscapeStartOfText,         // \A
  kEscapeEndOfText,           // \z
  kEscapeEndOfTextOrNewline,  // \Z
  kUpperZIsEndOfText,         // \Z is the true end of text (Python)
  kEscapeStartOfSearch,       // \G
  kResetMatchStart,           // \K (refused)
  kLookaround,                // (?=...) (?!...) (?<=...) (?<!...)
  kLookbehindBranchesFixed,   // each top-level lookbehind branch fixed length
  kLookbehindFixedLength,     // the whole lookbehind body fixed length
  kAnchorLooksThroughLookaround,  // (?=x)^a is anchored (V8)
  // ---- Groups and inline flags
  kAtomicGroups,            // (?>...)
  kBacktrackingVerbs,       // (*SKIP) ... (refused)
  kAngleGroupNames,         // (?<name>...) (not Go 1.19)
  kQuotedGroupNames,        // (?'name'...)
  kPythonGroupNames,        // (?P<name>...)
  kPythonNamedBackrefs,     // (?P=name)
  kInlineComments,          // (?#...)
  kUnknownGroupIsInvalid,   // unknown (?...) is a syntax error, not refused
  kGlobalFlagsOnlyAtStart,  // (?i) only at the pattern's start (CPython 3.11)
  kDuplicateGroupNames,     // two groups may share a name
  kAlphanumericGroupNames,  // group names are ASCII letters and digits (Java)
  kExtendedFlag,            // (?x)
  kMIsDotAll,               // (?m) makes . match newlines (Ruby)
  kInlineUnicodeFlag,       // (?u): Java UNICODE_CASE, Python Unicode
  kInlineAsciiFlag,         // (?a): Python re.ASCII
  kUFlagIsUnicode,          // (?U) is Unicode (Python), not ungreedy
  kUFlagIsUnicodeClasses,   // (?U) is UNICODE_CHARACTER_CLASS (Java; refused)
  // ---- Character escapes
  kEscapeBell,                   // \a
  kEscapeEscape,                 // \e
  kEscapeVerticalTab,            // \v is U+000B (not vertical space)
  kBracedHex,                    // \x{HHHH}
  kTwoDigitHex,                  // \x takes exactly two hex digits
  kHexEscapeNeedsDigit,          // \x without a hex digit is an error
  kEscapeU,                      // \uHHHH (surrogate pairs joined)
  kEscapeUIsError,               // \u is refused with a hint to use \x{...}
  kBracedUnicodeEscape,          // \u{HHHHH} (JavaScript u)
  kEscapeLongU,                  // \UHHHHHHHH (Python)
  kControlEscape,                // \cX
  kBadControlEscapeIsBackslash,  // \c followed by a non-letter is '\'
  kOctalBraces,                  // \o{...}
  kNamedCharacters,              // \N{name} (refused)
  kIdentityEscapes,              // unknown escapes are the character (Annex B)
  // ---- Shorthand classes and character classes
  kHIsHexDigit,                // \h is [0-9a-fA-F] (Ruby)
  kSpaceByDirection,           // \h \H \v \V horizontal/vertical space
  kUnicodeProperties,          // \p{..} \P{..}
  kGraphemeClusters,           // \X (refused)
  kNewlineSequence,            // \R
  kLeadingBracketIsLiteral,    // []a] and [^]a] hold ']'
  kPosixClasses,               // [[:alpha:]]
  kClassSetOperations,         // nested classes and && (refused)
  kOctalInClass,               // [\101]
  kRangeFromShorthandIsError,  // [\d-z] is an error
  kRangeToShorthandIsError,    // [a-\d] is an error
  // ---- Literal text and back references
  kQuotedLiterals,           // \Q...\E
  kQuotedLiteralsInClass,    // \Q...\E inside [...], stray \E ignored there
  kIgnoresStrayEndQuote,     // a stray \E outside classes is ignored
  kBackReferences,           // \1 ... \99
  kJavaScriptBackrefDigits,  // \12 drops digits until it names a group
  kNamedBackrefK,            // \k<name> \k{name} \k'name'
  kBackrefG,                 // \g1 \g{-1} \g{name}
  kFeatureCount,
};

class FeatureSet {
 public:
  constexpr FeatureSet() = default;
  constexpr FeatureSet(Feature feature) {  // NOLINT: implicit by design
    const auto index = static_cast<std::size_t>(feature);
    words_[index / 64] |= std::uint64_t{1} << (index % 64);
  }

  constexpr bool Has(Feature feature) const {
    const auto index = static_cast<std::size_t>(feature);
    return (words_[index / 64] >> (index % 64)) & 1;
  }
  friend constexpr FeatureSet operator|(FeatureSet a, FeatureSet b) {
    for (std::size_t i = 0; i < a.words_.size(); ++i)
      a.words_[i] |= b.words_[i];
    return a;
  }
  // `a` without the features of `b`.
  friend constexpr FeatureSet operator-(FeatureSet a, FeatureSet b) {
    for (std::size_t i = 0; i < a.words_.size(); ++i) {
      a.words_[i] &= ~b.words_[i];
    }
    return a;
  }
  friend constexpr bool operator==(FeatureSet, FeatureSet) = default;

 private:
  static_assert(static_cast<std::size_t>(Feature::kFeatureCount) <= 128);
  std::array<std::uint64_t, 2> words_{};
};

constexpr FeatureSet operator|(Feature a, Feature b) {
  return FeatureSet(a) | FeatureSet(b);
}

namespace features {
using enum Feature;

// What every engine here shares.
inline constexpr FeatureSet kCommon = kBackReferences | kAngleGroupNames;

// The Perl heritage of PCRE, Java, Ruby, Python and .NET.
inline constexpr FeatureSet kPerlCommon =
    kCommon | kLeadingBracketIsLiteral | kAtomicGroups | kLookaround |
    kBacktrackingVerbs | kPythonGroupNames | kPythonNamedBackrefs |
    kInlineComments | kExtendedFlag | kEscapeBell | kOctalInClass |
    kEscapeStartOfText | kEscapeEndOfTextOrNewline;

// Perl's escapes beyond Python's: \e \cX \x{...} \z \G \k<name> \p{..}
// (?'name') [[:alpha:]].
inline constexpr FeatureSet kPerlEscapes =
    kEscapeEscape | kControlEscape | kBracedHex | kEscapeEndOfText |
    kEscapeStartOfSearch | kNamedBackrefK | kUnicodeProperties |
    kQuotedGroupNames | kPosixClasses;

inline constexpr FeatureSet kLikePcre =
    kPerlCommon | kPerlEscapes | kPossessiveQuantifiers | kDuplicateGroupNames |
    kEscapeUIsError | kOctalBraces | kSpaceByDirection | kResetMatchStart |
    kGraphemeClusters | kNewlineSequence | kQuotedLiterals |
    kIgnoresStrayEndQuote | kQuotedLiteralsInClass | kBackrefG |
    kRangeFromShorthandIsError | kRangeToShorthandIsError |
    kLookbehindBranchesFixed;

inline constexpr FeatureSet kLikePython =
    kPerlCommon | kPossessiveQuantifiers | kAnchorsNotRepeatable |
    kOmittedMinimumCount | kInlineUnicodeFlag | kInlineAsciiFlag |
    kUFlagIsUnicode | kEscapeVerticalTab | kTwoDigitHex | kEscapeU |
    kEscapeLongU | kNamedCharacters | kUpperZIsEndOfText |
    kRangeToShorthandIsError | kLookbehindFixedLength |
    kGlobalFlagsOnlyAtStart | kUnknownGroupIsInvalid;

// Python's (?P<name>...) and (?P=name) are syntax errors in Java ("Unknown
// inline modifier") and Ruby ("undefined group option"), as OpenJDK 17 and
// Ruby 3.1 say when asked (tests/regexguard/engine_attacks/syntax_test.py);
// so are unknown inline flags. Java has no [[:alpha:]] (it reads a nested
// class) and refuses a stray \E; Ruby keeps unknown escapes as the
// character, reads \uHHHH and \u{H...}, but not \x{...}, and allows
// duplicate names.
inline constexpr FeatureSet kLikeJava =
    ((kPerlCommon | kPerlEscapes) -
     (kPythonGroupNames | kPythonNamedBackrefs | kPosixClasses)) |
    kPossessiveQuantifiers | kRepeatOfCountedRepeat | kInlineUnicodeFlag |
    kEscapeU | kSpaceByDirection | kGraphemeClusters | kNewlineSequence |
    kQuotedLiterals | kQuotedLiteralsInClass | kClassSetOperations |
    kUnknownGroupIsInvalid | kUFlagIsUnicodeClasses | kBraceMustBeCount |
    kAlphanumericGroupNames | kRangeToShorthandIsError | kHexEscapeNeedsDigit;

inline constexpr FeatureSet kLikeRuby =
    ((kPerlCommon | kPerlEscapes) -
     (kPythonGroupNames | kPythonNamedBackrefs | kBracedHex)) |
    kPossessiveQuantifiers | kAnchorsMatchAtLines | kMIsDotAll |
    kEscapeVerticalTab | kHIsHexDigit | kResetMatchStart | kGraphemeClusters |
    kNewlineSequence | kClassSetOperations | kUnknownGroupIsInvalid |
    kLookbehindBranchesFixed | kRangeToShorthandIsError |
    kRangeFromShorthandIsError | kEscapeU | kBracedUnicodeEscape |
    kIdentityEscapes | kDuplicateGroupNames | kHexEscapeNeedsDigit |
    kNestedRepeatsReduced | kRepeatOfAnyRepeat;

inline constexpr FeatureSet kLikeDotNet =
    kPerlCommon | kPerlEscapes | kEscapeVerticalTab | kEscapeU;

// RE2's syntax: no backtracking constructs, Perl's character syntax.
inline constexpr FeatureSet kLikeGo =
    kLeadingBracketIsLiteral | kBacktrackingVerbs | kQuotedGroupNames |
    kPythonGroupNames | kCountLimit1000 | kDollarIsEndOfText | kEscapeBell |
    kEscapeVerticalTab | kBracedHex | kEscapeUIsError | kOctalInClass |
    kUnicodeProperties | kEscapeStartOfText | kEscapeEndOfText |
    kQuotedLiterals | kPosixClasses;

// ECMAScript: the common core; Annex B's leniency without the u flag,
// strict syntax, \u{...} and \p{..} with it.
inline constexpr FeatureSet kLikeJavaScriptCore =
    kCommon | kLookaround | kExtendedFlag | kAnchorsNotRepeatable |
    kDollarIsEndOfText | kUnknownGroupIsInvalid | kEscapeVerticalTab |
    kTwoDigitHex | kEscapeU | kControlEscape | kBadControlEscapeIsBackslash |
    kNamedBackrefK | kJavaScriptBackrefDigits | kAnchorLooksThroughLookaround;
inline constexpr FeatureSet kLikeJavaScript =
    kLikeJavaScriptCore | kLiteralQuantifierBraces | kIdentityEscapes;
inline constexpr FeatureSet kLikeJavaScriptUnicode =
    kLikeJavaScriptCore | kStrictBraces | kBracedUnicodeEscape |
    kUnicodeProperties | kRangeToShorthandIsError;

}  // namespace features

// The features of `dialect` as the parser reads it with `flags` (only
// JavaScript's u changes the syntax).
constexpr FeatureSet SyntaxFeaturesOf(Dialect dialect,
                                      const PatternFlags& flags) {
  switch (dialect) {
    case Dialect::kPcre:
      return features::kLikePcre;
    case Dialect::kPython:
      return features::kLikePython;
    case Dialect::kJavaScript:
      return flags.unicode ? features::kLikeJavaScriptUnicode
                           : features::kLikeJavaScript;
    case Dialect::kJava:
      return features::kLikeJava;
    case Dialect::kRuby:
      return features::kLikeRuby;
    case Dialect::kGo:
      return features::kLikeGo;
    case Dialect::kDotNet:
      return features::kLikeDotNet;
  }
  return features::kLikePcre;
}

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_SYNTAX_DIALECT_FEATURES_H_
