// Body hashing and zstd (de)compression, shared by the SQLite and
// PostgreSQL backends so that both store and read bodies identically.
// Private to storage.
#ifndef ROBOTSCAN_STORAGE_BODY_CODEC_H_
#define ROBOTSCAN_STORAGE_BODY_CODEC_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "robotscan/storage/status.h"

namespace robotscan::storage {

// The 32 raw bytes of SHA-256(bytes).
std::string Sha256Of(std::string_view bytes);

// zstd level 3 (kInternal on failure).
Status CompressBody(std::string_view in, std::string* out);

// Decompresses a zstd frame into *out. `size` is the decoded size when
// known (the body table's size column); 0 reads it from the frame header.
// kCorrupt when the frame does not decode to that size.
Status DecompressBody(std::string_view in, std::size_t size, std::string* out);

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_STORAGE_BODY_CODEC_H_
