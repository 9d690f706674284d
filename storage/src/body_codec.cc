#include "body_codec.h"

#include <openssl/sha.h>
#include <zstd.h>

#include <array>

namespace robotscan::storage {
namespace {

constexpr int kZstdLevel = 3;

}  // namespace

std::string Sha256Of(std::string_view bytes) {
  std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
  SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(),
         digest.data());
  return std::string(reinterpret_cast<const char*>(digest.data()),
                     digest.size());
}

Status CompressBody(std::string_view in, std::string* out) {
  out->resize(ZSTD_compressBound(in.size()));
  const std::size_t n =
      ZSTD_compress(out->data(), out->size(), in.data(), in.size(), kZstdLevel);
  if (ZSTD_isError(n)) {
    return Status(Status::Code::kInternal,
                  std::string("zstd: ") + ZSTD_getErrorName(n));
  }
  out->resize(n);
  return Status::Ok();
}

Status DecompressBody(std::string_view in, std::size_t size, std::string* out) {
  if (size == 0) {
    const unsigned long long expected =
        ZSTD_getFrameContentSize(in.data(), in.size());
    if (expected == ZSTD_CONTENTSIZE_ERROR ||
        expected == ZSTD_CONTENTSIZE_UNKNOWN) {
      return Status(Status::Code::kCorrupt, "zstd body without a content size");
    }
    size = static_cast<std::size_t>(expected);
  }
  out->resize(size);
  const std::size_t n =
      ZSTD_decompress(out->data(), out->size(), in.data(), in.size());
  if (ZSTD_isError(n) || n != size) {
    return Status(Status::Code::kCorrupt, "stored zstd body does not decode");
  }
  return Status::Ok();
}

}  // namespace robotscan::storage
