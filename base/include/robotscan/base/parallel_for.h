// ParallelFor: run body(i) for every i in [0, count) on up to `jobs`
// threads (the calling thread is one of them), each taking the next index
// as it finishes the last, so that a few slow items (a regex whose search
// runs to its budget) do not hold up a fixed share of the rest. Returns
// when every call has returned. `body` must be safe to call concurrently
// for different indices; results go into slots the caller indexes by i.
// A template in a header, so that robotscan::base stays header-only; the
// target that calls it links Threads::Threads.
//
// Usage:
//   std::vector<int> squares(values.size());
//   ParallelFor(values.size(), 4, [&](std::size_t i) {
//     squares[i] = values[i] * values[i];
//   });
//
// Thread-safety: reentrant; no shared state beyond what `body` touches.
#ifndef ROBOTSCAN_BASE_PARALLEL_FOR_H_
#define ROBOTSCAN_BASE_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace robotscan {

// jobs == 0 is taken as 1. Exceptions must not escape `body`.
template <typename Body>
void ParallelFor(std::size_t count, unsigned jobs, const Body& body) {
  if (count == 0) return;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  };
  const std::size_t threads_wanted =
      std::min<std::size_t>(std::max(jobs, 1u), count);
  std::vector<std::thread> threads;
  threads.reserve(threads_wanted - 1);
  for (std::size_t j = 1; j < threads_wanted; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

}  // namespace robotscan

#endif  // ROBOTSCAN_BASE_PARALLEL_FOR_H_
