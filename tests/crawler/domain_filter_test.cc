#include "domain_filter.h"

#include <gtest/gtest.h>

#include <string>

namespace robotscan::crawler {
namespace {

std::string Name(const char* prefix, int i) {
  return prefix + std::to_string(i) + ".example";
}

TEST(DomainFilterTest, NeverForgetsAnAddedDomain) {
  DomainFilter filter(1 << 16);
  for (int i = 0; i < 20000; ++i) filter.Add(Name("seen", i));
  for (int i = 0; i < 20000; ++i) {
    ASSERT_TRUE(filter.MayContain(Name("seen", i))) << i;
  }
}

TEST(DomainFilterTest, AnswersNoForAlmostAllOtherDomains) {
  // 100k names in 8M bits with 3 probes: about 4e-5 false positives
  // expected; allow 20x that before calling the hashing broken.
  DomainFilter filter;
  for (int i = 0; i < 100000; ++i) filter.Add(Name("seen", i));
  int false_positives = 0;
  for (int i = 0; i < 100000; ++i) {
    if (filter.MayContain(Name("other", i))) ++false_positives;
  }
  EXPECT_LT(false_positives, 120);
}

TEST(DomainFilterTest, EmptyFilterContainsNothing) {
  const DomainFilter filter(1);
  EXPECT_FALSE(filter.MayContain("example.com"));
  EXPECT_FALSE(filter.MayContain(""));
}

TEST(DomainFilterTest, SaturatedFilterStillHasNoFalseNegatives) {
  // Far more names than bits: answers degrade to "maybe", never to "no".
  DomainFilter filter(64);
  for (int i = 0; i < 1000; ++i) filter.Add(Name("seen", i));
  for (int i = 0; i < 1000; ++i)
    EXPECT_TRUE(filter.MayContain(Name("seen", i)));
  EXPECT_TRUE(filter.MayContain("never-added.example"));
}

}  // namespace
}  // namespace robotscan::crawler
