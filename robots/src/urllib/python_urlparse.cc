#include "urllib/python_urlparse.h"

#include <array>

#include "robotscan/base/ascii.h"
#include "urllib/python_str.h"

namespace robotscan::robots::urllib::python {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

// urllib.parse.uses_params and uses_netloc (CPython 3.11).
constexpr std::array<std::string_view, 16> kUsesParams = {
    "",     "ftp",   "hdl",   "prospero", "http", "imap", "https", "shttp",
    "rtsp", "rtsps", "rtspu", "sip",      "sips", "mms",  "sftp",  "tel"};
constexpr std::array<std::string_view, 26> kUsesNetloc = {
    "",     "ftp",   "http",    "gopher", "nntp",  "telnet",  "imap",
    "wais", "file",  "mms",     "https",  "shttp", "snews",   "prospero",
    "rtsp", "rtsps", "rtspu",   "rsync",  "svn",   "svn+ssh", "sftp",
    "nfs",  "git",   "git+ssh", "ws",     "wss"};

template <std::size_t N>
bool Contains(const std::array<std::string_view, N>& list,
              std::string_view item) {
  for (std::string_view entry : list) {
    if (entry == item) return true;
  }
  return false;
}

bool IsSchemeChar(char c) {
  return IsAsciiAlpha(c) || IsAsciiDigit(c) || c == '+' || c == '-' || c == '.';
}

bool IsAlwaysSafe(unsigned char c) {
  return IsAsciiAlpha(static_cast<char>(c)) ||
         IsAsciiDigit(static_cast<char>(c)) || c == '_' || c == '.' ||
         c == '-' || c == '~';
}

// urllib.parse.unquote_to_bytes on an ASCII run.
std::string UnquoteToBytes(std::string_view ascii) {
  std::string bytes;
  bytes.reserve(ascii.size());
  for (std::size_t i = 0; i < ascii.size(); ++i) {
    if (ascii[i] == '%' && i + 2 < ascii.size() &&
        IsAsciiHexDigit(ascii[i + 1]) && IsAsciiHexDigit(ascii[i + 2])) {
      bytes.push_back(static_cast<char>(HexValue(ascii[i + 1]) * 16 +
                                        HexValue(ascii[i + 2])));
      i += 2;
    } else {
      bytes.push_back(ascii[i]);
    }
  }
  return bytes;
}

// ipaddress._BaseV4._parse_octet.
bool IsPythonIpv4Octet(std::string_view octet) {
  if (octet.empty() || octet.size() > 3) return false;
  for (char c : octet) {
    if (!IsAsciiDigit(c)) return false;
  }
  if (octet.size() > 1 && octet[0] == '0') return false;  // Leading zero.
  int value = 0;
  for (char c : octet) value = value * 10 + (c - '0');
  return value <= 255;
}

// ipaddress.IPv4Address(text) succeeds.
bool IsPythonIpv4Address(std::string_view text) {
  int octets = 0;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = text.find('.', start);
    if (!IsPythonIpv4Octet(text.substr(start, dot - start))) return false;
    ++octets;
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return octets == 4;
}

// ipaddress._BaseV6._parse_hextet.
bool IsPythonHextet(std::string_view hextet) {
  if (hextet.empty() || hextet.size() > 4) return false;
  for (char c : hextet) {
    if (!IsAsciiHexDigit(c)) return false;
  }
  return true;
}

// urllib.parse._check_bracketed_host.
bool IsValidBracketedHost(std::string_view host) {
  if (!host.empty() && host[0] == 'v') {
    // re.match(r"\Av[a-fA-F0-9]+\..+\Z", host); '.' matches anything but a
    // newline, and urlsplit removed newlines.
    std::size_t i = 1;
    while (i < host.size() && IsAsciiHexDigit(host[i])) ++i;
    return i > 1 && i < host.size() && host[i] == '.' && i + 1 < host.size();
  }
  // ipaddress.ip_address: an IPv4 address is refused in brackets, and no
  // IPv4 address is an IPv6 one.
  return IsPythonIpv6Address(host);
}

}  // namespace

bool IsPythonIpv6Address(std::string_view text) {
  if (text.find('/') != std::string_view::npos) return false;
  // _split_scope_id: "addr%scope", the scope non-empty and without '%'.
  const std::size_t percent = text.find('%');
  if (percent != std::string_view::npos) {
    const std::string_view scope = text.substr(percent + 1);
    if (scope.empty() || scope.find('%') != std::string_view::npos) {
      return false;
    }
    text = text.substr(0, percent);
  }
  if (text.empty()) return false;
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 3) return false;
  // An IPv4 suffix stands for two hextets.
  std::size_t hextets = parts.size();
  bool ipv4_tail = false;
  if (parts.back().find('.') != std::string_view::npos) {
    if (!IsPythonIpv4Address(parts.back())) return false;
    ipv4_tail = true;
    ++hextets;
  }
  constexpr std::size_t kHextetCount = 8;
  if (hextets > kHextetCount + 1) return false;
  // Part i of the hextet list (the IPv4 tail's two hextets are valid).
  auto part_is_empty = [&](std::size_t i) {
    return i < parts.size() - (ipv4_tail ? 1 : 0) && parts[i].empty();
  };
  auto part_is_valid = [&](std::size_t i) {
    if (ipv4_tail && i >= parts.size() - 1) return true;
    return IsPythonHextet(parts[i]);
  };
  std::size_t skip_index = 0;
  bool has_skip = false;
  for (std::size_t i = 1; i + 1 < hextets; ++i) {
    if (part_is_empty(i)) {
      if (has_skip) return false;  // At most one "::".
      has_skip = true;
      skip_index = i;
    }
  }
  std::size_t parts_hi = 0, parts_lo = 0;
  if (has_skip) {
    parts_hi = skip_index;
    parts_lo = hextets - skip_index - 1;
    if (part_is_empty(0)) {
      if (--parts_hi != 0) return false;
    }
    if (part_is_empty(hextets - 1)) {
      if (--parts_lo != 0) return false;
    }
    if (parts_hi + parts_lo >= kHextetCount) return false;
  } else {
    if (hextets != kHextetCount) return false;
    if (part_is_empty(0) || part_is_empty(hextets - 1)) return false;
    parts_hi = hextets;
  }
  for (std::size_t i = 0; i < parts_hi; ++i) {
    if (!part_is_valid(i)) return false;
  }
  for (std::size_t i = hextets - parts_lo; i < hextets; ++i) {
    if (!part_is_valid(i)) return false;
  }
  return true;
}

std::string Unquote(std::string_view text) {
  if (text.find('%') == std::string_view::npos) return std::string(text);
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t j = i;
    if (static_cast<unsigned char>(text[i]) >= 0x80) {
      while (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80) {
        ++j;
      }
      out.append(text.substr(i, j - i));
    } else {
      while (j < text.size() && static_cast<unsigned char>(text[j]) < 0x80) {
        ++j;
      }
      out += DecodeUtf8Replace(UnquoteToBytes(text.substr(i, j - i)));
    }
    i = j;
  }
  return out;
}

std::string Quote(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsAlwaysSafe(c) || c == '/') {
      out.push_back(ch);
    } else {
      out.push_back('%');
      out.push_back(kHexDigits[c >> 4]);
      out.push_back(kHexDigits[c & 0xF]);
    }
  }
  return out;
}

bool UrlParse(std::string_view text, ParsedUrl* parsed) {
  // urlsplit: leading C0 controls and spaces go, and so do tabs and line
  // breaks anywhere (WHATWG).
  std::size_t first = 0;
  while (first < text.size() && static_cast<unsigned char>(text[first]) <= 0x20)
    ++first;
  std::string url;
  url.reserve(text.size() - first);
  for (char c : text.substr(first)) {
    if (c != '\t' && c != '\r' && c != '\n') url.push_back(c);
  }
  ParsedUrl out;
  const std::size_t colon = url.find(':');
  if (colon != std::string::npos && colon > 0 && IsAsciiAlpha(url[0])) {
    bool all_scheme_chars = true;
    for (std::size_t i = 0; i < colon; ++i) {
      if (!IsSchemeChar(url[i])) {
        all_scheme_chars = false;
        break;
      }
    }
    if (all_scheme_chars) {
      out.scheme = url.substr(0, colon);
      for (char& c : out.scheme) c = ToAsciiLower(c);
      url.erase(0, colon + 1);
    }
  }
  if (url.compare(0, 2, "//") == 0) {
    const std::size_t end = std::min(url.find_first_of("/?#", 2), url.size());
    out.netloc = url.substr(2, end - 2);
    url.erase(0, end);
    const bool open = out.netloc.find('[') != std::string::npos;
    const bool close = out.netloc.find(']') != std::string::npos;
    if (open != close) return false;  // "Invalid IPv6 URL".
    if (open) {
      std::string_view host = out.netloc;
      host = host.substr(host.find('[') + 1);
      host = host.substr(0, host.find(']'));
      if (!IsValidBracketedHost(host)) return false;
    }
  }
  const std::size_t hash = url.find('#');
  if (hash != std::string::npos) {
    out.fragment = url.substr(hash + 1);
    url.resize(hash);
  }
  const std::size_t question = url.find('?');
  if (question != std::string::npos) {
    out.query = url.substr(question + 1);
    url.resize(question);
  }
  // _checknetloc: characters like U+2100 that NFKC turns into "a/c".
  if (HasNfkcNetlocBreaker(out.netloc)) return false;
  // urlparse: ";params" of the last path segment.
  if (Contains(kUsesParams, out.scheme) && url.find(';') != std::string::npos) {
    const std::size_t slash = url.rfind('/');
    const std::size_t semicolon =
        url.find(';', slash == std::string::npos ? 0 : slash);
    if (semicolon != std::string::npos) {
      out.params = url.substr(semicolon + 1);
      url.resize(semicolon);
    }
  }
  out.path = std::move(url);
  *parsed = std::move(out);
  return true;
}

std::string UrlUnparse(const ParsedUrl& parts) {
  std::string url = parts.path;
  if (!parts.params.empty()) url += ";" + parts.params;
  if (!parts.netloc.empty() ||
      (!parts.scheme.empty() && Contains(kUsesNetloc, parts.scheme) &&
       url.compare(0, 2, "//") != 0)) {
    if (!url.empty() && url[0] != '/') url.insert(0, "/");
    url = "//" + parts.netloc + url;
  }
  if (!parts.scheme.empty()) url = parts.scheme + ":" + url;
  if (!parts.query.empty()) url += "?" + parts.query;
  if (!parts.fragment.empty()) url += "#" + parts.fragment;
  return url;
}

}  // namespace robotscan::robots::urllib::python
