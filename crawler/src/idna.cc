#include "idna.h"

#include <idn2.h>

#include <algorithm>

namespace robotscan::crawler {

bool HostToAscii(std::string_view host, std::string* ascii,
                 std::string* error) {
  const bool non_ascii = std::any_of(host.begin(), host.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x80;
  });
  if (!non_ascii) {
    ascii->assign(host);
    return true;
  }
  const std::string utf8(host);
  char* out = nullptr;
  int rc = idn2_to_ascii_8z(utf8.c_str(), &out,
                            IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
  if (rc != IDN2_OK) {
    rc = idn2_to_ascii_8z(utf8.c_str(), &out,
                          IDN2_NFC_INPUT | IDN2_TRANSITIONAL);
  }
  if (rc != IDN2_OK) {
    *error = idn2_strerror(rc);
    return false;
  }
  ascii->assign(out);
  idn2_free(out);
  return true;
}

}  // namespace robotscan::crawler
