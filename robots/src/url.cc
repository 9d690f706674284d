#include "robotscan/robots/url.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "normalize.h"

#include "robotscan/base/ascii.h"
#include "robotscan/base/terminal_text.h"

namespace robotscan::robots {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

constexpr bool IsUnreserved(unsigned char c) {
  return IsAsciiAlpha(static_cast<char>(c)) ||
         IsAsciiDigit(static_cast<char>(c)) || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Bytes that may not appear literally in an RFC 3986 URI: controls, space,
// non-ASCII and the "unwise" set. They are compared in encoded form.
constexpr bool MustBeEncoded(unsigned char c) {
  return c <= 0x20 || c >= 0x7F || c == '"' || c == '<' || c == '>' ||
         c == '\\' || c == '^' || c == '`' || c == '{' || c == '|' || c == '}';
}

constexpr bool IsAsciiLowerHex(char c) { return c >= 'a' && c <= 'f'; }

void AppendEscaped(std::string* out, unsigned char c) {
  out->push_back('%');
  out->push_back(kHexDigits[c >> 4]);
  out->push_back(kHexDigits[c & 0xF]);
}

// Byte classes for the per-check loops: one table lookup per byte instead
// of a chain of comparisons (or, for find_first_of, one memchr per byte).
enum ByteClass : std::uint8_t {
  kMustBeEncoded = 1,
  kPercent = 2,
  kStarOrDollar = 4,  // '*' and '$': literal in a URL, special in a rule.
  kDollar = 8,
  kPathStart = 16,  // '/', '?' and ';' end an authority.
};

constexpr std::array<std::uint8_t, 256> kByteClasses = [] {
  std::array<std::uint8_t, 256> classes{};
  for (int c = 0; c < 256; ++c) {
    std::uint8_t cls = 0;
    if (MustBeEncoded(static_cast<unsigned char>(c))) cls |= kMustBeEncoded;
    if (c == '%') cls |= kPercent;
    if (c == '*' || c == '$') cls |= kStarOrDollar;
    if (c == '$') cls |= kDollar;
    if (c == '/' || c == '?' || c == ';') cls |= kPathStart;
    classes[static_cast<std::size_t>(c)] = cls;
  }
  return classes;
}();

constexpr std::uint8_t ClassOf(char c) {
  return kByteClasses[static_cast<unsigned char>(c)];
}

// First '/', '?' or ';' of `url` at or after `from`, or npos. Sixteen
// bytes at a time where SSE2 is there (every x86-64): the scheme and host
// before a path are most of what a check reads.
std::size_t FindPathStart(std::string_view url, std::size_t from) {
  std::size_t i = from;
#if defined(__SSE2__)
  const __m128i slash = _mm_set1_epi8('/');
  const __m128i question = _mm_set1_epi8('?');
  const __m128i semicolon = _mm_set1_epi8(';');
  for (; i + 16 <= url.size(); i += 16) {
    const __m128i bytes =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(url.data() + i));
    const __m128i hits =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, slash),
                                  _mm_cmpeq_epi8(bytes, question)),
                     _mm_cmpeq_epi8(bytes, semicolon));
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(hits));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(mask));
  }
#endif
  for (; i < url.size(); ++i) {
    if ((ClassOf(url[i]) & kPathStart) != 0) return i;
  }
  return std::string_view::npos;
}

bool IsEscapeAt(std::string_view s, std::size_t i) {
  return s[i] == '%' && i + 2 < s.size() && IsAsciiHexDigit(s[i + 1]) &&
         IsAsciiHexDigit(s[i + 2]);
}

#if defined(__SSE2__)
// 0xFF where a byte is a control, space or DEL (UrlSyntaxError's bytes):
// c <= 0x20 (unsigned) is min(c, 0x20) == c.
inline __m128i ControlSpaceOrDel(__m128i bytes) {
  return _mm_or_si128(
      _mm_cmpeq_epi8(_mm_min_epu8(bytes, _mm_set1_epi8(0x20)), bytes),
      _mm_cmpeq_epi8(bytes, _mm_set1_epi8(0x7F)));
}

// For a URL of 16 to 64 bytes: bit i of *delimiters set where byte i is
// '/', '?', ';' or '#', and of *hashes where it is '#'. Four loads, the
// last ones moved back to end at the URL's end (overlapping bytes give the
// same bits), and no branch: which of them a URL needs would be a branch
// mispredicted on every other URL.
// Also true in *well_formed if no byte is a control, space or DEL
// (UrlSyntaxError's test), from the same loads.
template <bool kCheckSyntax>
inline void DelimiterMasks64(std::string_view url, std::uint64_t* delimiters,
                             std::uint64_t* hashes, bool* well_formed) {
  const std::size_t last = url.size() - 16;
  std::uint64_t any = 0, hash = 0;
  __m128i bad = _mm_setzero_si128();
  for (std::size_t block = 0; block < 64; block += 16) {
    const std::size_t at = std::min(block, last);
    const __m128i bytes =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(url.data() + at));
    const __m128i is_hash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('#'));
    const __m128i hits = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('/')),
                     _mm_cmpeq_epi8(bytes, _mm_set1_epi8('?'))),
        _mm_or_si128(_mm_cmpeq_epi8(bytes, _mm_set1_epi8(';')), is_hash));
    any |= std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(hits))} << at;
    hash |= std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(is_hash))}
            << at;
    if constexpr (kCheckSyntax)
      bad = _mm_or_si128(bad, ControlSpaceOrDel(bytes));
  }
  *delimiters = any;
  *hashes = hash;
  if constexpr (kCheckSyntax) {
    *well_formed = _mm_movemask_epi8(bad) == 0;
  } else {
    static_cast<void>(bad);
    static_cast<void>(well_formed);
  }
}
#endif

// ExtractPathParamsQuery for the URLs nearly every check gets, an
// "http://" or "https://" URL of 16 to 64 bytes: the same answer (neither
// scheme holds '/', '?', ';' or '#') from two bit masks of the whole URL.
// False for any other URL.
template <bool kCheckSyntax>
inline bool ExtractFromHttpUrl(std::string_view url, std::string& scratch,
                               std::string_view* path, bool* well_formed) {
#if defined(__SSE2__)
  if (url.size() < 16 || url.size() > 64) return false;
  std::uint64_t scheme = 0;
  std::memcpy(&scheme, url.data(), 8);
  constexpr std::uint64_t kHttps = 0x2F2F3A7370747468u;  // "https://"
  constexpr std::uint64_t kHttp = 0x002F2F3A70747468u;   // "http://"
  std::size_t authority_start = 0;
  if (scheme == kHttps) {
    authority_start = 8;
  } else if ((scheme & 0x00FFFFFFFFFFFFFFu) == kHttp) {
    authority_start = 7;
  } else {
    return false;
  }
  std::uint64_t delimiters = 0, hashes = 0;
  DelimiterMasks64<kCheckSyntax>(url, &delimiters, &hashes, well_formed);
  delimiters &= ~std::uint64_t{0} << authority_start;
  if (delimiters == 0) {
    *path = "/";
    return true;
  }
  const auto path_start = static_cast<std::size_t>(__builtin_ctzll(delimiters));
  if (url[path_start] == '#') {
    *path = "/";
    return true;
  }
  // The first '#' after the path's start (not '#' itself), if any, ends it.
  hashes &= ~std::uint64_t{0} << path_start;
  const std::size_t path_end =
      hashes == 0 ? url.size()
                  : static_cast<std::size_t>(__builtin_ctzll(hashes));
  *path = url.substr(path_start, path_end - path_start);
  if (url[path_start] != '/') {
    scratch.clear();
    scratch.push_back('/');
    scratch.append(*path);
    *path = scratch;
  }
  return true;
#else
  static_cast<void>(url);
  static_cast<void>(scratch);
  static_cast<void>(path);
  static_cast<void>(well_formed);
  return false;
#endif
}

// ExtractPathParamsQuery for any URL, the general way.
std::string_view ExtractFromAnyUrl(std::string_view url, std::string& scratch) {
  constexpr auto npos = std::string_view::npos;
  // Initial two slashes (scheme-relative URL) are ignored.
  const std::size_t search_start =
      (url.size() >= 2 && url[0] == '/' && url[1] == '/') ? 2 : 0;
  // A scheme ends at the first "://", unless a path, query or parameter has
  // started before it. Since "://" holds a '/', that is: the first path
  // start character is the '/' of a "://".
  std::size_t authority_start = search_start;
  const std::size_t early_path = FindPathStart(url, search_start);
  if (early_path != npos && early_path > search_start &&
      url[early_path] == '/' && url[early_path - 1] == ':' &&
      early_path + 1 < url.size() && url[early_path + 1] == '/') {
    authority_start = early_path + 2;
  }
  const std::size_t path_start = authority_start == search_start
                                     ? early_path
                                     : FindPathStart(url, authority_start);
  if (path_start == npos) return "/";
  const std::size_t hash_pos = url.find('#', search_start);
  if (hash_pos < path_start) return "/";
  const std::size_t path_end = (hash_pos == npos) ? url.size() : hash_pos;
  std::string_view path = url.substr(path_start, path_end - path_start);
  if (path.front() != '/') {
    // Starts with '?' or ';': the path is empty, so it is "/".
    // (Built with push_back: GCC 12 at -O3 warns falsely on assign("/").)
    scratch.clear();
    scratch.push_back('/');
    scratch.append(path);
    return scratch;
  }
  return path;
}

bool HasNoControlOrSpace(std::string_view url);

}  // namespace

std::string_view ExtractPathParamsQuery(std::string_view url,
                                        std::string& scratch) {
  if (std::string_view path;
      ExtractFromHttpUrl<false>(url, scratch, &path, nullptr)) {
    return path;
  }
  return ExtractFromAnyUrl(url, scratch);
}

namespace internal {

std::string_view ExtractPathParamsQueryChecked(std::string_view url,
                                               std::string& scratch,
                                               bool* well_formed) {
  if (std::string_view path;
      ExtractFromHttpUrl<true>(url, scratch, &path, well_formed)) {
    return path;
  }
  *well_formed = HasNoControlOrSpace(url);
  return ExtractFromAnyUrl(url, scratch);
}

namespace {

// Whether the first `size` bytes (16 to 32) of `a` and `b` are the same:
// two loads each, the second ending at `size`.
#if defined(__SSE2__)
bool SamePrefix16To32(const char* a, const char* b, std::size_t size) {
  const auto load = [](const char* at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  };
  const __m128i same =
      _mm_and_si128(_mm_cmpeq_epi8(load(a), load(b)),
                    _mm_cmpeq_epi8(load(a + size - 16), load(b + size - 16)));
  return _mm_movemask_epi8(same) == 0xFFFF;
}
#endif

bool StartsWithHttpScheme(std::string_view url) {
  return url.starts_with("https://") || url.starts_with("http://");
}

}  // namespace

template <bool kCheckSyntax>
std::string_view RunPathExtractor<kCheckSyntax>::Extract(std::string_view url,
                                                         std::string& scratch,
                                                         bool* well_formed) {
#if defined(__SSE2__)
  const std::size_t shared = prefix_size_;
  // A URL that shares the prefix leaves it in place (it points into the
  // URL it came from).
  // The rest, at most 48 bytes, in three loads: from the prefix's end (or
  // earlier, for a short rest), 16 bytes on (or earlier), and ending at
  // the URL's end. Bytes of the prefix they also cover hold no '#' and no
  // control byte; bytes covered twice give the same bits.
  if (shared != 0 && url.size() > shared && url.size() - shared <= 48 &&
      url[shared] == '/' && SamePrefix16To32(url.data(), prefix_, shared)) {
    const std::size_t last = url.size() - 16;
    const std::size_t first = std::min(shared, last);
    const std::size_t middle = std::min(shared + 16, last);
    const auto load = [&](std::size_t at) {
      return _mm_loadu_si128(reinterpret_cast<const __m128i*>(url.data() + at));
    };
    const __m128i head = load(first);
    const __m128i body = load(middle);
    const __m128i tail = load(last);
    const __m128i hash = _mm_set1_epi8('#');
    const auto hashes_in = [&](__m128i bytes, std::size_t at) {
      return std::uint64_t{static_cast<std::uint32_t>(
                 _mm_movemask_epi8(_mm_cmpeq_epi8(bytes, hash)))}
             << (at - first);
    };
    const std::uint64_t hashes = hashes_in(head, first) |
                                 hashes_in(body, middle) |
                                 hashes_in(tail, last);
    if constexpr (kCheckSyntax) {
      *well_formed =
          _mm_movemask_epi8(_mm_or_si128(
              _mm_or_si128(ControlSpaceOrDel(head), ControlSpaceOrDel(body)),
              ControlSpaceOrDel(tail))) == 0;
    } else {
      static_cast<void>(well_formed);
    }
    const std::size_t path_end =
        hashes == 0 ? url.size()
                    : first + static_cast<std::size_t>(__builtin_ctzll(hashes));
    return url.substr(shared, path_end - shared);
  }
#endif
  bool clean = true;
  std::string_view path;
  if constexpr (kCheckSyntax) {
    path = ExtractPathParamsQueryChecked(url, scratch, &clean);
    *well_formed = clean;
  } else {
    static_cast<void>(well_formed);
    path = ExtractPathParamsQuery(url, scratch);
  }
  // The next URL may share this one's scheme and host: an http(s) URL
  // whose path, in the URL itself, starts 16 to 32 bytes in. (Its bytes
  // before the path hold no '/', '?', ';' or '#' past the scheme: the path
  // would have started, or ended, there.)
  prefix_size_ = 0;
  const auto begin = reinterpret_cast<std::uintptr_t>(url.data());
  const auto at = reinterpret_cast<std::uintptr_t>(path.data());
  if (clean && at >= begin && at < begin + url.size()) {
    const std::size_t offset = at - begin;
    if (offset >= 16 && offset <= 32 && StartsWithHttpScheme(url)) {
      prefix_ = url.data();
      prefix_size_ = offset;
    }
  }
  return path;
}

template class RunPathExtractor<true>;
template class RunPathExtractor<false>;

}  // namespace internal

std::string GetPathParamsQuery(std::string_view url) {
  std::string scratch;
  return std::string(ExtractPathParamsQuery(url, scratch));
}

std::string EscapePatternGoogle(std::string_view pattern) {
  std::string out;
  out.reserve(pattern.size());
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<unsigned char>(pattern[i]);
    if (c == '%' && i + 2 < pattern.size() && IsAsciiHexDigit(pattern[i + 1]) &&
        IsAsciiHexDigit(pattern[i + 2])) {
      out.push_back('%');
      out.push_back(ToAsciiUpper(pattern[i + 1]));
      out.push_back(ToAsciiUpper(pattern[i + 2]));
      i += 2;
    } else if (c >= 0x80) {
      AppendEscaped(&out, c);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

namespace internal {

const std::array<bool, 256>& UrlPathBytesNormalizationMayChange() {
  static constexpr std::array<bool, 256> kBytes = [] {
    std::array<bool, 256> bytes{};
    for (std::size_t c = 0; c < 256; ++c) {
      bytes[c] =
          (kByteClasses[c] & (kMustBeEncoded | kPercent | kStarOrDollar)) != 0;
    }
    return bytes;
  }();
  return kBytes;
}

bool NeedsNormalization(std::string_view input, PathRole role) {
  // '*' and '$' are literal in a URL (so encoded), and in a rule only a
  // '$' that is not last is.
  const std::uint8_t special = role == PathRole::kUrlPath
                                   ? (kMustBeEncoded | kPercent | kStarOrDollar)
                                   : (kMustBeEncoded | kPercent | kDollar);
  for (std::size_t i = 0; i < input.size(); ++i) {
    const char ch = input[i];
    if ((ClassOf(ch) & special) == 0) continue;
    if (ch == '%' && IsEscapeAt(input, i)) {
      // An escape that is already normal (upper-case hex of a character
      // that must stay encoded) changes nothing; anything else does.
      const auto decoded = static_cast<unsigned char>(
          HexValue(input[i + 1]) * 16 + HexValue(input[i + 2]));
      if (!IsUnreserved(decoded) && !IsAsciiLowerHex(input[i + 1]) &&
          !IsAsciiLowerHex(input[i + 2])) {
        i += 2;
        continue;
      }
      return true;
    }
    if (role == PathRole::kRulePattern && ch == '$' && i + 1 == input.size()) {
      continue;  // The end anchor.
    }
    return true;
  }
  return false;
}

std::size_t NormalizeInto(std::string_view input, PathRole role, char* out) {
  char* const start = out;
  auto escape = [&out](unsigned char c) {
    *out++ = '%';
    *out++ = kHexDigits[c >> 4];
    *out++ = kHexDigits[c & 0xF];
  };
  for (std::size_t i = 0; i < input.size(); ++i) {
    const auto c = static_cast<unsigned char>(input[i]);
    if (c == '%') {
      if (IsEscapeAt(input, i)) {
        const auto decoded = static_cast<unsigned char>(
            HexValue(input[i + 1]) * 16 + HexValue(input[i + 2]));
        if (IsUnreserved(decoded)) {
          *out++ = static_cast<char>(decoded);
        } else {
          escape(decoded);
        }
        i += 2;
      } else {
        escape(c);  // A stray '%' is compared as %25.
      }
    } else if (MustBeEncoded(c)) {
      escape(c);
    } else if (role == PathRole::kUrlPath && (c == '*' || c == '$')) {
      escape(c);  // Literal in a URL; a rule writes them as %2A / %24.
    } else if (role == PathRole::kRulePattern && c == '$' &&
               i + 1 != input.size()) {
      escape(c);  // Only a final '$' is an anchor.
    } else {
      *out++ = static_cast<char>(c);
    }
  }
  return static_cast<std::size_t>(out - start);
}

}  // namespace internal

bool NormalizeForMatching(std::string_view input, PathRole role,
                          std::string* out) {
  if (!internal::NeedsNormalization(input, role)) return false;
  std::string result(input.size() * 3, '\0');
  result.resize(internal::NormalizeInto(input, role, result.data()));
  if (result == input) return false;
  *out = std::move(result);
  return true;
}

std::string NormalizedForMatching(std::string_view input, PathRole role) {
  std::string out;
  if (!NormalizeForMatching(input, role, &out)) out.assign(input);
  return out;
}

std::string_view ExtractProductToken(std::string_view user_agent) {
  std::size_t end = 0;
  while (end < user_agent.size() &&
         (IsAsciiAlpha(user_agent[end]) || user_agent[end] == '-' ||
          user_agent[end] == '_')) {
    ++end;
  }
  return user_agent.substr(0, end);
}

bool IsValidUserAgentToObey(std::string_view user_agent) {
  return !user_agent.empty() &&
         ExtractProductToken(user_agent).size() == user_agent.size();
}

namespace {

// True if no byte of `url` is below 0x21 or DEL: sixteen bytes at a time
// where SSE2 is there, else eight (the bit tricks of "Bit Twiddling Hacks",
// hasless and haszero), because check_many runs this on every URL before
// the check itself.
bool HasNoControlOrSpace(std::string_view url) {
  std::size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time, the last sixteen overlapping the ones before;
  // up to 64 bytes in four loads and one test, since a loop's end would be
  // a branch mispredicted on every other URL.
  if (url.size() >= 16) {
    const auto bad_in = [&](std::size_t at) {
      return ControlSpaceOrDel(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(url.data() + at)));
    };
    const std::size_t last = url.size() - 16;
    for (;; i += 64) {
      const __m128i bad =
          _mm_or_si128(_mm_or_si128(bad_in(std::min(i, last)),
                                    bad_in(std::min(i + 16, last))),
                       _mm_or_si128(bad_in(std::min(i + 32, last)),
                                    bad_in(std::min(i + 48, last))));
      if (_mm_movemask_epi8(bad) != 0) return false;
      if (i + 64 >= url.size()) return true;
    }
  }
#endif
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  for (; i + 8 <= url.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, url.data() + i, 8);
    const std::uint64_t below_0x21 = (word - kOnes * 0x21) & ~word & kHighs;
    const std::uint64_t del = word ^ (kOnes * 0x7F);
    const std::uint64_t is_del = (del - kOnes) & ~del & kHighs;
    if ((below_0x21 | is_del) != 0) return false;
  }
  for (; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (c <= 0x20 || c == 0x7F) return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> UrlSyntaxError(std::string_view url) {
  if (HasNoControlOrSpace(url)) return std::nullopt;
  for (std::size_t i = 0; i < url.size(); ++i) {
    const auto c = static_cast<unsigned char>(url[i]);
    if (c < 0x20 || c == 0x7F) {
      return "control byte 0x" + std::string(1, kHexDigits[c >> 4]) +
             std::string(1, kHexDigits[c & 0xF]) + " at offset " +
             std::to_string(i) + " (percent-encode it)";
    }
    if (c == ' ') {
      return "space at offset " + std::to_string(i) + " (encode it as %20)";
    }
  }
  return std::nullopt;
}

std::string PrintableUrl(std::string_view url) {
  return EscapeControlCharacters(url);
}

bool EqualsIgnoreAsciiCase(std::string_view a, std::string_view b) {
  return AsciiEqualsIgnoreCase(a, b);
}

}  // namespace robotscan::robots
