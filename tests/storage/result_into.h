// The storage tests keep what a read returns in variables of their own:
// Into moves a Result's value into them and returns the Status, so that a
// read is still one assertion:
//   ASSERT_OK(Into(store->BeginRun(info), &run));
// Nothing is written on failure.
#ifndef ROBOTSCAN_TESTS_STORAGE_RESULT_INTO_H_
#define ROBOTSCAN_TESTS_STORAGE_RESULT_INTO_H_

#include <cstdint>
#include <string>
#include <utility>

#include "robotscan/storage/crawl_store.h"
#include "robotscan/storage/status.h"

namespace robotscan::storage {

template <typename T>
Status Into(Result<T> result, T* out) {
  if (!result.ok()) return result.status();
  *out = std::move(result).value();
  return Status::Ok();
}

inline Status Into(Result<RowCounts> result, std::int64_t* fetches,
                   std::int64_t* bodies) {
  if (!result.ok()) return result.status();
  *fetches = result->fetches;
  *bodies = result->bodies;
  return Status::Ok();
}

inline Status Into(Result<IntegrityReport> result, bool* healthy,
                   std::string* text) {
  if (!result.ok()) return result.status();
  *healthy = result->healthy;
  *text = std::move(result->text);
  return Status::Ok();
}

}  // namespace robotscan::storage

#endif  // ROBOTSCAN_TESTS_STORAGE_RESULT_INTO_H_
