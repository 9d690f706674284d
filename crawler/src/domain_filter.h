// A fixed-size Bloom filter of domain names. Private to the crawler.
//
// A crawl into an empty database only needs to ask SQLite about a domain
// that was already recorded earlier in the same crawl (a duplicate line in
// the list). Asking about every domain costs a read transaction (two file
// lock system calls) per domain, 4% of a loopback crawl's CPU; the filter
// answers "certainly not recorded" for almost all of them without a query.
// It never says no for a domain that was added (no false negatives), its
// memory does not grow with the list, and a false positive only costs the
// query that would have been made anyway.
#ifndef ROBOTSCAN_CRAWLER_DOMAIN_FILTER_H_
#define ROBOTSCAN_CRAWLER_DOMAIN_FILTER_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace robotscan::crawler {

class DomainFilter {
 public:
  // `bits` is rounded up to a power of two (at least 64).
  explicit DomainFilter(std::size_t bits = std::size_t{1} << 23) {
    std::size_t size = 64;
    while (size < bits) size <<= 1;
    mask_ = size - 1;
    words_.assign(size / 64, 0);
  }

  void Add(std::string_view domain) {
    for (const std::uint64_t bit : BitsOf(domain)) {
      words_[bit >> 6] |= std::uint64_t{1} << (bit & 63);
    }
  }

  bool MayContain(std::string_view domain) const {
    for (const std::uint64_t bit : BitsOf(domain)) {
      if ((words_[bit >> 6] & (std::uint64_t{1} << (bit & 63))) == 0) {
        return false;
      }
    }
    return true;
  }

 private:
  static constexpr int kProbes = 3;

  // The filter's bits for `domain` (double hashing).
  std::array<std::uint64_t, kProbes> BitsOf(std::string_view domain) const {
    std::uint64_t h1 = 0, h2 = 0;
    Hashes(domain, &h1, &h2);
    std::array<std::uint64_t, kProbes> bits{};
    for (int i = 0; i < kProbes; ++i) {
      bits[static_cast<std::size_t>(i)] =
          (h1 + static_cast<std::uint64_t>(i) * h2) &
          static_cast<std::uint64_t>(mask_);
    }
    return bits;
  }

  // Two independent-enough hashes for double hashing. std::hash is mixed
  // first (splitmix64): the crawl already splits domains between event
  // loops by std::hash modulo the loop count, so its low bits are nearly
  // constant within one loop's filter.
  static void Hashes(std::string_view domain, std::uint64_t* h1,
                     std::uint64_t* h2) {
    std::uint64_t x = std::hash<std::string_view>{}(domain);
    *h1 = Mix(x);
    *h2 = Mix(x ^ 0x9e3779b97f4a7c15ULL) | 1;  // Odd: visits every bit.
  }
  static std::uint64_t Mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }

  std::size_t mask_ = 0;
  std::vector<std::uint64_t> words_;
};

}  // namespace robotscan::crawler

#endif  // ROBOTSCAN_CRAWLER_DOMAIN_FILTER_H_
