// What the parts of a row key look like.

#include "lab/key_shape.h"

#include <gtest/gtest.h>

namespace lbt::lab {
namespace {

TEST(KeyShapeTest, Times) {
  EXPECT_EQ(ClassifySegment("1700000000"), SegmentKind::kTimestamp);        // seconds
  EXPECT_EQ(ClassifySegment("1700000000000"), SegmentKind::kTimestamp);     // ms
  EXPECT_EQ(ClassifySegment("1700000000000000"), SegmentKind::kTimestamp);  // µs
  EXPECT_EQ(ClassifySegment("20190501"), SegmentKind::kTimestamp);
  EXPECT_EQ(ClassifySegment("20150301124501001"), SegmentKind::kTimestamp);
  EXPECT_EQ(ClassifySegment("2021-03-05-1200"), SegmentKind::kTimestamp);
  EXPECT_EQ(ClassifySegment("2021-03-05T12:00:00Z"), SegmentKind::kTimestamp);
  EXPECT_EQ(ClassifySegment(std::to_string(9223372036854775807 - 1700000000000)), SegmentKind::kReversedTimestamp);
  EXPECT_EQ(SegmentTimeMicros("20190501"), 1556668800000000);
  EXPECT_EQ(SegmentTimeMicros("1700000000000"), 1700000000000000);
  EXPECT_EQ(SegmentTimeMicros(std::to_string(9223372036854775807 - 1700000000000)), 1700000000000000);
}

TEST(KeyShapeTest, NumbersAndIdsAreNotTimes) {
  EXPECT_EQ(ClassifySegment("42"), SegmentKind::kNumber);
  EXPECT_EQ(ClassifySegment("4223421"), SegmentKind::kNumber);
  EXPECT_EQ(ClassifySegment("20191399"), SegmentKind::kNumber);  // no month 13
  EXPECT_EQ(ClassifySegment("4c410523"), SegmentKind::kText);    // a device id, not a hash
  EXPECT_EQ(ClassifySegment("0123456789abcdef0123"), SegmentKind::kHash);
  EXPECT_EQ(ClassifySegment("phone"), SegmentKind::kText);
}

TEST(KeyShapeTest, PersonalDataAndDomains) {
  EXPECT_EQ(ClassifySegment("alice@example.com"), SegmentKind::kEmail);
  EXPECT_EQ(ClassifySegment("+1-555-010-0199"), SegmentKind::kPhone);
  EXPECT_EQ(ClassifySegment("(555) 010-0199"), SegmentKind::kPhone);
  EXPECT_EQ(ClassifySegment("5550100199"), SegmentKind::kNumber);  // digits alone are a number
  EXPECT_EQ(ClassifySegment("maps.google.com"), SegmentKind::kDomain);
  EXPECT_EQ(ClassifySegment("com.google.maps"), SegmentKind::kReversedDomain);
  EXPECT_EQ(ClassifySegment("PQ2A.190405.003"), SegmentKind::kText);
  EXPECT_EQ(ClassifySegment(std::string("\x00\x01", 2)), SegmentKind::kBinary);
}

TEST(KeyShapeTest, DelimitersAndSplitting) {
  EXPECT_EQ(DetectDelimiter({"a#b", "c#d:e", "f"}), '#');
  EXPECT_EQ(DetectDelimiter({"a:b", "c:d"}), ':');
  EXPECT_EQ(DetectDelimiter({"abc", "def"}), '\0');
  const std::vector<std::string_view> parts = SplitKey("phone#4c410523#", '#');
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], "4c410523");
  EXPECT_EQ(parts[2], "");
  EXPECT_EQ(PrintableKey(std::string("a\x01\\", 3)), "a\\x01\\x5c");
}

}  // namespace
}  // namespace lbt::lab
