// `stats`: the numbers a designer compares designs by (tall and narrow
// against short and wide, one family against several), from the same
// TableSample as `advise`.

#ifndef LBT_LAB_TABLE_STATS_H_
#define LBT_LAB_TABLE_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "lab/sample.h"

namespace lbt::lab {

// A histogram bin: values in [low, high].
struct Bin {
  int64_t low = 0;
  int64_t high = 0;
  int64_t count = 0;  // sampled items in the bin
};

// The spread of one measure over the sample.
struct Distribution {
  std::string name;  // "row_bytes", "cells_per_row", ...
  int64_t count = 0;
  double mean = 0;
  int64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
  std::vector<Bin> histogram;  // powers of two, only the bins in use
};

struct PrefixShare {
  std::string prefix;  // the key's first segment, delimiter included
  int64_t rows = 0;    // estimated unless TableStats::prefixes_exact
  int64_t bytes = 0;
  double share = 0;  // of the table's bytes
};

struct TableStats {
  std::string table;
  bool exact = false;  // totals counted over the whole table
  int64_t rows = 0, cells = 0, bytes = 0;
  int64_t rows_sampled = 0;
  struct Family {
    std::string name;
    int64_t rows = 0, cells = 0, bytes = 0;
  };
  std::vector<Family> families;
  // row_bytes, cells_per_row, columns_per_row, versions_per_column,
  // key_bytes, qualifier_bytes.
  std::vector<Distribution> distributions;
  std::vector<LargeItem> largest_rows;
  std::vector<LargeItem> largest_cells;
  std::vector<PrefixShare> top_prefixes;  // most bytes first, at most kTopPrefixes
  bool prefixes_exact = false;            // counted over every row, not estimated

  static constexpr size_t kTopPrefixes = 10;
};

TableStats ComputeStats(const TableSample& sample);

}  // namespace lbt::lab

#endif  // LBT_LAB_TABLE_STATS_H_
