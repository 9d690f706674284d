#include <gtest/gtest.h>

#include "robotscan/regexguard/syntax.h"

namespace robotscan::regexguard {
namespace {

TEST(CodePointSetTest, AddMergesOverlappingAndAdjacentRanges) {
  CodePointSet set;
  set.Add('d', 'f');
  set.Add('a', 'b');
  set.Add('c', 'c');  // adjacent to both neighbours
  set.Add('x', 'z');
  ASSERT_EQ(set.ranges().size(), 2u);
  EXPECT_EQ(set.ranges()[0], (CodePointRange{'a', 'f'}));
  EXPECT_EQ(set.ranges()[1], (CodePointRange{'x', 'z'}));
}

TEST(CodePointSetTest, ComplementCoversTheRestOfUnicode) {
  const CodePointSet set = CodePointSet::Range('b', 'y');
  const CodePointSet complement = set.Complement();
  EXPECT_TRUE(complement.Contains('a'));
  EXPECT_TRUE(complement.Contains('z'));
  EXPECT_TRUE(complement.Contains(kMaxCodePoint));
  EXPECT_FALSE(complement.Contains('m'));
  EXPECT_EQ(complement.Complement(), set);
  EXPECT_TRUE(CodePointSet::All().Complement().empty());
}

TEST(CodePointSetTest, IntersectAndIntersects) {
  CodePointSet digits = CodePointSet::Range('0', '9');
  CodePointSet hex = CodePointSet::Range('0', '9');
  hex.Add('a', 'f');
  CodePointSet letters = CodePointSet::Range('a', 'z');
  EXPECT_EQ(hex.Intersect(letters), CodePointSet::Range('a', 'f'));
  EXPECT_TRUE(hex.Intersects(digits));
  EXPECT_FALSE(digits.Intersects(letters));
  EXPECT_TRUE(digits.Intersect(letters).empty());
}

}  // namespace
}  // namespace robotscan::regexguard
