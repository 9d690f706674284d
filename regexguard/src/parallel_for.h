// A parallel for over [0, count) for the library's batch calls (a scan's
// reading and analysis, AnalyzePatterns). Private to the library.
#ifndef ROBOTSCAN_REGEXGUARD_SRC_PARALLEL_FOR_H_
#define ROBOTSCAN_REGEXGUARD_SRC_PARALLEL_FOR_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace robotscan::regexguard::internal {

// Runs body(i) for every i in [0, count) on min(jobs, count) threads, the
// caller's included; items are handed out one at a time, so uneven items
// balance. Returns when every call has returned.
template <typename Body>
void ParallelFor(std::size_t count, unsigned jobs, const Body& body) {
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t i = next++; i < count; i = next++) body(i);
  };
  const unsigned threads_wanted = static_cast<unsigned>(
      std::max<std::size_t>(1, std::min<std::size_t>(jobs, count)));
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < threads_wanted; ++j) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
}

}  // namespace robotscan::regexguard::internal

#endif  // ROBOTSCAN_REGEXGUARD_SRC_PARALLEL_FOR_H_
