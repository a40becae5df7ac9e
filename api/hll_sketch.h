// HyperLogLog++ sketches: approximate distinct counts that merge. They are
// the state of a `Type.Aggregate.hllpp_unique_count` family's cells
// (AddToCell adds an input, MergeToCell merges a sketch) and the BYTES of
// SQL's HLL_COUNT functions.
//
// A sketch has 2^p registers (p from 10 to 24; 15 unless asked): each
// input's 64-bit hash picks a register by its top p bits, which keeps the
// most leading zeros of the rest (plus one) seen there. Few distinct
// inputs keep a sparse list of the registers set; past 2^p / 4 of them the
// sketch becomes dense. The count comes from the registers' histogram by
// Ertl's improved estimator ("New cardinality estimation algorithms for
// HyperLogLog sketches", 2017), which needs no empirical bias tables;
// its relative standard error is about 1.04 / sqrt(2^p) (0.6% at p = 15).
//
// WARNING: the serialized form is stored in aggregate cells (on-disk
// format) and is lbt's own: "LH", version 1, p, then 0 and the sparse
// registers as 4-byte big-endian (index << 6 | value) in index order, or 1
// and the 2^p register bytes. Production's sketch bytes are not documented.

#ifndef LBT_API_HLL_SKETCH_H_
#define LBT_API_HLL_SKETCH_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/status.h"

namespace lbt {

class HllSketch {
 public:
  static constexpr int kMinPrecision = 10;
  static constexpr int kMaxPrecision = 24;
  static constexpr int kDefaultPrecision = 15;

  // An empty sketch. REQUIRES: kMinPrecision <= precision <= kMaxPrecision.
  explicit HllSketch(int precision = kDefaultPrecision);

  // The sketch `bytes` holds; InvalidArgument when they are not one.
  static Result<HllSketch> Parse(std::string_view bytes);
  std::string Serialize() const;

  int precision() const { return precision_; }

  // Counts an input: bytes as they are, an INT64 as its 8 big-endian bytes.
  void AddBytes(std::string_view bytes);
  void AddInt64(int64_t value);
  // Counts what `other` counted too. A sketch of a higher precision comes
  // down to the lower one of the two first, as BigQuery merges them.
  void Merge(const HllSketch& other);

  // The estimated number of distinct inputs.
  int64_t Estimate() const;

 private:
  void AddHash(uint64_t hash);
  void Set(uint32_t index, uint8_t value);
  void Densify();
  // This sketch at a lower precision.
  HllSketch Reduced(int precision) const;

  int precision_;
  bool dense_ = false;
  std::vector<uint8_t> registers_;  // dense: 2^p of them
  std::vector<uint32_t> sparse_;    // sparse: index << 6 | value, in index order
};

}  // namespace lbt

#endif  // LBT_API_HLL_SKETCH_H_
