#include "storage/format/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <random>
#include <tuple>

#include "tests/test_util.h"

namespace lbt {
namespace {

using testing::RandomBytes;

struct Tuple {
  TableId table;
  std::string row;
  FamilyId family;
  std::string qualifier;
  int64_t ts;
  // Bigtable's order: timestamps newest first.
  bool operator<(const Tuple& o) const {
    return std::tie(table, row, family, qualifier, o.ts) < std::tie(o.table, o.row, o.family, o.qualifier, ts);
  }
  std::string Encode() const { return EncodeCellKey(table, row, family, qualifier, ts); }
};

// An id near one of the boundaries of id()'s forms.
uint32_t RandomId(std::mt19937_64& rng) {
  static const uint32_t kEdges[] = {0, 1, 0xEF, 0xF0, 0xFF, 0x100, 0xFFFF, 0x10000, 0xFFFFFF, 0x1000000, 0xFFFFFFFF};
  std::uniform_int_distribution<size_t> edge(0, std::size(kEdges) - 1);
  std::uniform_int_distribution<int> step(-1, 1);
  const int64_t id = static_cast<int64_t>(kEdges[edge(rng)]) + step(rng);
  return static_cast<uint32_t>(std::clamp<int64_t>(id, 0, UINT32_MAX));
}

Tuple RandomTuple(std::mt19937_64& rng) {
  std::uniform_int_distribution<int> small(0, 3);
  std::uniform_int_distribution<int64_t> ts(-3, 3);
  // Few distinct values per component so that ties reach the later ones.
  return Tuple{small(rng) == 0 ? RandomId(rng) : static_cast<TableId>(small(rng)), RandomBytes(rng, 4),
               small(rng) == 0 ? RandomId(rng) : static_cast<FamilyId>(small(rng)), RandomBytes(rng, 4),
               ts(rng) * 1000};
}

TEST(KeyCodecTest, EncodedOrderEqualsTupleOrder) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 200000; ++i) {
    Tuple a = RandomTuple(rng), b = RandomTuple(rng);
    std::string ea = a.Encode(), eb = b.Encode();
    ASSERT_EQ(a < b, ea < eb) << "i=" << i;
    ASSERT_EQ(b < a, eb < ea) << "i=" << i;
  }
}

TEST(KeyCodecTest, DecodeRoundTrips) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> any_ts(INT64_MIN, INT64_MAX);
  for (int i = 0; i < 50000; ++i) {
    Tuple t = RandomTuple(rng);
    t.row = RandomBytes(rng, 64);
    t.ts = any_ts(rng);
    CellKey decoded;
    ASSERT_TRUE(DecodeCellKey(t.Encode(), &decoded));
    EXPECT_EQ(decoded.table, t.table);
    EXPECT_EQ(decoded.row, t.row);
    EXPECT_EQ(decoded.family, t.family);
    EXPECT_EQ(decoded.qualifier, t.qualifier);
    EXPECT_EQ(decoded.timestamp, t.ts);
  }
}

TEST(KeyCodecTest, TimestampsSortNewestFirstAcrossTheWholeRange) {
  std::vector<int64_t> ascending = {INT64_MIN, -1000, -1, 0, 1, 1000, INT64_MAX};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    std::string older, newer;
    AppendTimestamp(&older, ascending[i]);
    AppendTimestamp(&newer, ascending[i + 1]);
    EXPECT_LT(newer, older) << ascending[i + 1] << " should sort before " << ascending[i];
  }
}

TEST(KeyCodecTest, EscapingHandlesNulAndFf) {
  std::string out;
  AppendEscaped(&out, std::string("a\0b\xff", 4));
  EXPECT_EQ(out, std::string("a\0\xff"
                             "b\xff\0\x01",
                             7));
  std::string_view in = out;
  std::string back;
  ASSERT_TRUE(ConsumeEscaped(&in, &back));
  EXPECT_EQ(back, std::string("a\0b\xff", 4));
  EXPECT_TRUE(in.empty());
}

TEST(KeyCodecTest, MalformedKeysAreRejected) {
  CellKey k;
  EXPECT_FALSE(DecodeCellKey("", &k));
  EXPECT_FALSE(DecodeCellKey(std::string("\0\0\0\1row", 7), &k));      // no terminator
  EXPECT_FALSE(DecodeCellKey(std::string("\0\0\0\1r\0\x07", 7), &k));  // bad escape
  std::string valid = EncodeCellKey(1, "r", 1, "q", 0);
  EXPECT_TRUE(DecodeCellKey(valid, &k));
  EXPECT_FALSE(DecodeCellKey(valid + "x", &k));                        // trailing bytes
  EXPECT_FALSE(DecodeCellKey(valid.substr(0, valid.size() - 1), &k));  // short timestamp
}

TEST(KeyCodecTest, IdsTakeOneByteBelow240AndHaveOneEncodingEach) {
  for (uint32_t id : {0u, 1u, 0xEFu, 0xF0u, 0xFFu, 0x100u, 0xFFFFu, 0x10000u, 0xFFFFFFFFu}) {
    std::string encoded;
    AppendId(&encoded, id);
    EXPECT_EQ(encoded.size(), id < 0xF0 ? 1u : id <= 0xFF ? 2u : id <= 0xFFFF ? 3u : id <= 0xFFFFFF ? 4u : 5u) << id;
    std::string_view in = encoded;
    uint32_t back = 0;
    ASSERT_TRUE(ConsumeId(&in, &back)) << id;
    EXPECT_EQ(back, id);
    EXPECT_TRUE(in.empty());
  }
  uint32_t id;
  for (std::string bad : {std::string("\xF0\x05", 2), std::string("\xF1\x00\xFF", 3), std::string("\xF4", 1),
                          std::string("\xF2\x01", 2), std::string()}) {
    std::string_view in = bad;
    EXPECT_FALSE(ConsumeId(&in, &id)) << "a long form of a short id, a short input or an unknown form";
  }
}

TEST(KeyCodecTest, RowPrefixesContainExactlyTheirRows) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    std::string row = RandomBytes(rng, 4), other = RandomBytes(rng, 4);
    std::string key = EncodeCellKey(1, other, 1, RandomBytes(rng, 3), 0);
    bool in_row = key.compare(0, RowPrefix(1, row).size(), RowPrefix(1, row)) == 0;
    EXPECT_EQ(in_row, row == other);
    std::string prefix = RandomBytes(rng, 2);
    std::string rkp = RowKeyPrefix(1, prefix);
    bool has_prefix = key.compare(0, rkp.size(), rkp) == 0;
    EXPECT_EQ(has_prefix, other.compare(0, prefix.size(), prefix) == 0) << "prefix of size " << prefix.size();
  }
}

TEST(KeyCodecTest, PrefixSuccessor) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff\xff", 3)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff", 1)), "");
  EXPECT_EQ(PrefixSuccessor(""), "");
}

}  // namespace
}  // namespace lbt
