#include "api/hll_sketch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace lbt {
namespace {

// Three standard errors of HLL++ at precision p.
double Tolerance(int p) { return 3 * 1.04 / std::sqrt(static_cast<double>(1 << p)); }

HllSketch Count(int64_t from, int64_t to, int precision = HllSketch::kDefaultPrecision) {
  HllSketch s(precision);
  for (int64_t i = from; i < to; ++i) s.AddInt64(i);
  return s;
}

TEST(HllSketch, EstimatesStayWithinTheDocumentedError) {
  for (int64_t n : {0, 1, 10, 100, 1000, 5000, 20000, 50000, 100000, 400000}) {
    const HllSketch s = Count(0, n);
    const double estimate = static_cast<double>(s.Estimate());
    if (n == 0) {
      EXPECT_EQ(estimate, 0);
      continue;
    }
    EXPECT_LE(std::abs(estimate - n) / n, Tolerance(HllSketch::kDefaultPrecision)) << n << " estimated " << estimate;
  }
  // Small counts are exact in practice: distinct inputs rarely share a register.
  EXPECT_EQ(Count(0, 10).Estimate(), 10);
}

TEST(HllSketch, DuplicatesCountOnce) {
  HllSketch s;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 3000; ++i) s.AddBytes("user-" + std::to_string(i));
  }
  EXPECT_LE(std::abs(s.Estimate() - 3000) / 3000.0, Tolerance(HllSketch::kDefaultPrecision));
}

TEST(HllSketch, SerializedSketchesRoundTripSparseAndDense) {
  for (int64_t n : {0, 5, 100000}) {
    const HllSketch s = Count(0, n);
    Result<HllSketch> back = HllSketch::Parse(s.Serialize());
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    EXPECT_EQ(back->Estimate(), s.Estimate());
    EXPECT_EQ(back->Serialize(), s.Serialize());
  }
  EXPECT_LT(Count(0, 5).Serialize().size(), 64u);  // sparse: a few bytes per register
  EXPECT_EQ(Count(0, 100000).Serialize().size(), 5u + (1u << HllSketch::kDefaultPrecision));
}

TEST(HllSketch, MergingIsCountingTheUnion) {
  HllSketch a = Count(0, 30000);
  a.Merge(Count(20000, 60000));
  EXPECT_LE(std::abs(a.Estimate() - 60000) / 60000.0, Tolerance(HllSketch::kDefaultPrecision));
  // The same as one sketch of every input.
  EXPECT_EQ(a.Serialize(), Count(0, 60000).Serialize());
  // Merging comes down to the lower precision.
  HllSketch fine = Count(0, 40000, 18);
  fine.Merge(Count(30000, 50000, 12));
  EXPECT_EQ(fine.precision(), 12);
  EXPECT_LE(std::abs(fine.Estimate() - 50000) / 50000.0, Tolerance(12));
  EXPECT_EQ(fine.Serialize(), Count(0, 50000, 12).Serialize());
}

TEST(HllSketch, ParseRefusesWhatIsNoSketch) {
  for (const std::string& bytes :
       {std::string(), std::string("hello"), std::string("LH\x02\x0f\x00", 5), std::string("LH\x01\x05\x00", 5),
        std::string("LH\x01\x0f\x01xx", 7), std::string("LH\x01\x0f\x00\x00\x00\x00", 8)}) {
    EXPECT_FALSE(HllSketch::Parse(bytes).ok()) << bytes.size();
  }
}

}  // namespace
}  // namespace lbt
