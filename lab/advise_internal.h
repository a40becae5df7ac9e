// Shared by advise.cc (families, rows, cells, tables) and key_rules.cc
// (row keys). Not part of the lab's public interface.

#ifndef LBT_LAB_ADVISE_INTERNAL_H_
#define LBT_LAB_ADVISE_INTERNAL_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lab/finding.h"
#include "lab/key_shape.h"
#include "lab/sample.h"

namespace lbt::lab::internal {

// The sampled keys, split at their delimiter, with each position's kinds.
class KeyProfile {
 public:
  explicit KeyProfile(const TableSample& sample);

  const TableSample& sample() const { return sample_; }
  char delimiter() const { return delimiter_; }
  size_t keys() const { return segments_.size(); }
  // The segments of the i-th sampled key (key order).
  const std::vector<std::string_view>& segments(size_t i) const { return segments_[i]; }
  size_t positions() const { return kinds_.size(); }
  // The share of keys whose segment at `position` is of `kind` (0 to 1).
  double Share(size_t position, SegmentKind kind) const;
  // Up to `n` sampled keys whose segment at `position` is of `kind`,
  // spread over the sample.
  std::vector<std::string> Examples(size_t position, SegmentKind kind, size_t n = 3) const;
  // The first key whose segment at `position` is of `kind`, or -1.
  int FirstWith(size_t position, SegmentKind kind) const;
  // Distinct values at `position` (counted up to a bound).
  size_t Distinct(size_t position) const;
  // The key rebuilt from segments.
  std::string Join(const std::vector<std::string>& segments) const;

 private:
  const TableSample& sample_;
  char delimiter_ = '\0';
  std::vector<std::vector<std::string_view>> segments_;
  std::vector<std::map<SegmentKind, size_t>> kinds_;  // per position
};

// A finding with its rule's lesson filled in.
Finding MakeFinding(std::string_view rule, std::string severity, std::string message);

void AdviseKeys(const KeyProfile& keys, const AdviceLimits& limits, std::vector<Finding>* out);

// "12%" for 0.12.
std::string Percent(double share);

}  // namespace lbt::lab::internal

#endif  // LBT_LAB_ADVISE_INTERNAL_H_
