#include "api/row_key_codec.h"

#include <gtest/gtest.h>

#include <climits>
#include <random>

namespace lbt {
namespace {

using Type = RowKeyField::Type;
using Int = RowKeyField::IntEncoding;

RowKeySchema Schema(RowKeySchema::Encoding encoding, std::vector<RowKeyField> fields, std::string delimiter = "#") {
  RowKeySchema s;
  s.encoding = encoding;
  s.fields = std::move(fields);
  if (encoding == RowKeySchema::Encoding::kDelimitedBytes) s.delimiter = std::move(delimiter);
  return s;
}

RowKeyFieldValue Text(std::string s) { return RowKeyFieldValue{std::move(s), 0}; }
RowKeyFieldValue Number(int64_t n) { return RowKeyFieldValue{"", n}; }

std::string OrderedCode(int64_t v) {
  std::string out;
  AppendOrderedCodeInt64(v, &out);
  return out;
}

// types.proto: n bytes hold [-2^(7n-1), 2^(7n-1)), the header's length
// bits equal to the sign bit's opposite.
TEST(OrderedCodeInt64, LengthsAndHeadersFollowTheFormat) {
  EXPECT_EQ(OrderedCode(0), "\x80");
  EXPECT_EQ(OrderedCode(63), "\xbf");
  EXPECT_EQ(OrderedCode(-1), "\x7f");
  EXPECT_EQ(OrderedCode(-64), "\x40");
  EXPECT_EQ(OrderedCode(64), std::string("\xc0\x40", 2));
  EXPECT_EQ(OrderedCode(-65), std::string("\x3f\xbf", 2));
  EXPECT_EQ(OrderedCode((1LL << 13) - 1).size(), 2u);
  EXPECT_EQ(OrderedCode(1LL << 13).size(), 3u);
  EXPECT_EQ(OrderedCode((1LL << 55) - 1).size(), 8u);
  EXPECT_EQ(OrderedCode(1LL << 62).size(), 10u);
  EXPECT_EQ(OrderedCode(LLONG_MAX).size(), 10u);
  EXPECT_EQ(OrderedCode(LLONG_MIN).size(), 10u);
}

TEST(OrderedCodeInt64, RoundTripsAndSortsAsTheNumbers) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> values = {0, 1, -1, 63, 64, -64, -65, LLONG_MAX, LLONG_MIN, 1LL << 62, -(1LL << 62)};
  for (int i = 0; i < 2000; ++i) values.push_back(static_cast<int64_t>(rng()) >> (rng() % 64));
  for (int64_t v : values) {
    const std::string bytes = OrderedCode(v);
    int64_t back = 0;
    size_t length = 0;
    ASSERT_TRUE(ReadOrderedCodeInt64(bytes + "tail", &back, &length)) << v;
    EXPECT_EQ(back, v);
    EXPECT_EQ(length, bytes.size());
  }
  for (size_t i = 1; i < values.size(); ++i) {
    const int64_t a = values[i - 1], b = values[i];
    EXPECT_EQ(a < b, OrderedCode(a) < OrderedCode(b)) << a << " " << b;
  }
}

TEST(OrderedCodeInt64, RefusesWhatNoEncodingMakes) {
  int64_t v = 0;
  size_t length = 0;
  EXPECT_FALSE(ReadOrderedCodeInt64("", &v, &length));
  EXPECT_FALSE(ReadOrderedCodeInt64("\xc0", &v, &length));                      // two bytes promised
  EXPECT_FALSE(ReadOrderedCodeInt64(std::string("\xc0\x01", 2), &v, &length));  // 1 fits in one byte
}

TEST(RowKeyCodec, DelimitedKeysSplitOnTheDelimiter) {
  const RowKeySchema s = Schema(RowKeySchema::Encoding::kDelimitedBytes,
                                {{"device", Type::kString}, {"day", Type::kString}, {"serial", Type::kBytes}});
  auto values = DecodeRowKey(s, "phone#2025-05-20#x1");
  ASSERT_TRUE(values.ok()) << values.status().ToString();
  EXPECT_EQ(*values, (std::vector<RowKeyFieldValue>{Text("phone"), Text("2025-05-20"), Text("x1")}));
  EXPECT_EQ(EncodeRowKey(s, *values), "phone#2025-05-20#x1");
  EXPECT_EQ(RowKeyPrefix(s, {Text("phone")}), "phone#");
  EXPECT_EQ(RowKeyPrefix(s, {Text("phone"), Text("2025")}), "phone#2025#");

  auto short_key = DecodeRowKey(s, "phone#2025");
  ASSERT_FALSE(short_key.ok());
  EXPECT_EQ(short_key.status().message(),
            "row key \"phone#2025\" does not decode as the table's row-key schema: it has 2 parts, not 3");
  EXPECT_FALSE(DecodeRowKey(s, "a#b#c#d").ok());
  EXPECT_FALSE(DecodeRowKey(s, std::string("\xff#b#c", 5)).ok());  // not UTF-8
}

TEST(RowKeyCodec, DelimitedIntegersAreEightBytesOrOrderedCode) {
  const RowKeySchema s = Schema(RowKeySchema::Encoding::kDelimitedBytes,
                                {{"id", Type::kString},
                                 {"at", Type::kTimestamp, Int::kBigEndianBytes},
                                 {"n", Type::kInt64, Int::kOrderedCodeBytes}},
                                "::");
  const std::vector<RowKeyFieldValue> values = {Text("a"), Number(0x0102030405060708), Number(-5)};
  const std::string key = EncodeRowKey(s, values);
  EXPECT_EQ(key, "a::" + std::string("\x01\x02\x03\x04\x05\x06\x07\x08", 8) + "::" + OrderedCode(-5));
  auto back = DecodeRowKey(s, key);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(*back, values);
  auto bad = DecodeRowKey(s, "a::1234::x");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("field at is 4 bytes"), std::string::npos) << bad.status().message();
}

// The examples are table.proto's, under the ordered-code struct encoding.
TEST(RowKeyCodec, OrderedCodeStructsFollowTheProtosExamples) {
  const RowKeySchema s = Schema(RowKeySchema::Encoding::kOrderedCodeBytes,
                                {{"a", Type::kBytes}, {"b", Type::kBytes}, {"c", Type::kBytes}});
  const std::string sep("\0\x01", 2), empty("\0\0", 2);
  EXPECT_EQ(EncodeRowKey(s, {Text(""), Text(""), Text("")}), empty);
  EXPECT_EQ(EncodeRowKey(s, {Text(""), Text("B"), Text("")}), empty + sep + "B");
  EXPECT_EQ(EncodeRowKey(s, {Text("A"), Text(""), Text("")}), "A");
  EXPECT_EQ(EncodeRowKey(s, {Text("A"), Text(""), Text("C")}), "A" + sep + empty + sep + "C");
  EXPECT_EQ(EncodeRowKey(s, {Text(std::string("x\0y", 3)), Text(""), Text("")}), std::string("x\0\xffy", 4));
  for (const auto& values : std::vector<std::vector<RowKeyFieldValue>>{
           {Text(""), Text(""), Text("")},
           {Text(""), Text("B"), Text("")},
           {Text("A"), Text(""), Text("C")},
           {Text(std::string("\0", 1)), Text("q"), Text(std::string("\0\0", 2))}}) {
    auto back = DecodeRowKey(s, EncodeRowKey(s, values));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(*back, values);
  }
  EXPECT_FALSE(DecodeRowKey(s, std::string("A\0\x02", 3)).ok());
  EXPECT_FALSE(DecodeRowKey(s, "A" + sep + "B" + sep + "C" + sep + "D").ok());
  // Keys with a leading field start with its bytes, not with a separator
  // after it: ("A", "", "") is just "A".
  EXPECT_EQ(RowKeyPrefix(s, {Text("A")}), "A");
  EXPECT_EQ(RowKeyPrefix(s, {Text("A"), Text("B")}), "A" + sep + "B");
  EXPECT_EQ(RowKeyPrefix(s, {Text(""), Text("B")}), "");
}

TEST(RowKeyCodec, SingletonIsTheFieldAlone) {
  const RowKeySchema s = Schema(RowKeySchema::Encoding::kSingleton, {{"id", Type::kInt64, Int::kOrderedCodeBytes}});
  EXPECT_EQ(EncodeRowKey(s, {Number(1)}), OrderedCode(1));
  auto back = DecodeRowKey(s, OrderedCode(-300));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ((*back)[0].number, -300);
  EXPECT_FALSE(DecodeRowKey(s, OrderedCode(1) + "x").ok());
}

}  // namespace
}  // namespace lbt
