// The schema lab's view of a table: a bounded sample of its rows, with
// exact totals where they are cheap. `advise`, `stats`, `hotspots` and
// `keyviz` all work from one TableSample, so they agree with each other.
//
// A table small enough to read whole (SampleOptions::full_scan_bytes, as
// SampleRowKeys sizes it) is read whole: its totals, largest rows and
// largest cells are exact, and the rows kept are a uniform reservoir
// sample. A larger table is read in short runs of rows at evenly spaced
// places of its key space (SampleRowKeys' split points), so the work is
// bounded whatever its size; its totals are then estimates, scaled from
// the sample by the table's size.
//
// Sizes follow Bigtable's accounting closely enough to compare designs: a
// cell costs its family, qualifier, value and an 8-byte timestamp; a row
// costs its key plus its cells.

#ifndef LBT_LAB_SAMPLE_H_
#define LBT_LAB_SAMPLE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "api/bigtable.h"
#include "util/bytes.h"

namespace lbt::lab {

struct SampleOptions {
  // Rows kept for analysis (the reservoir, or the runs of a large table).
  int64_t max_rows = 10000;
  // Tables up to this many bytes are read whole, for exact totals.
  uint64_t full_scan_bytes = 256ull << 20;
  // A larger table is read at this many places of its key space.
  int segments = 64;
  // Seeds the reservoir, so that a report is the same run to run.
  uint64_t seed = 0x5eed;
  // Asked between rows; true stops the read with Cancelled (Ctrl-C).
  std::function<bool()> cancelled;
};

// One column of a sampled row.
struct ColumnSample {
  std::string family;
  std::string qualifier;
  int64_t versions = 0;
  int64_t bytes = 0;         // every version's cost (see the top)
  int64_t largest_cell = 0;  // the largest value, in bytes
  int64_t oldest = 0;        // timestamps (microseconds)
  int64_t newest = 0;
};

struct RowSample {
  std::string key;
  int64_t cells = 0;
  int64_t bytes = 0;
  // Exact, even when `columns` keeps only the first kMaxColumnsKept.
  int64_t column_count = 0;
  std::vector<ColumnSample> columns;
  // Each cell's timestamp, at most kMaxTimestampsKept of them, spread over
  // the row: what hotspots and keyviz replay.
  std::vector<int64_t> timestamps;

  static constexpr size_t kMaxColumnsKept = 256;
  static constexpr size_t kMaxTimestampsKept = 256;
};

struct FamilyTotals {
  int64_t rows = 0;  // rows with at least one cell in the family
  int64_t cells = 0;
  int64_t bytes = 0;
};

// A row or a cell among the largest.
struct LargeItem {
  std::string row_key;
  std::string column;  // "family:qualifier"; empty for a row
  int64_t bytes = 0;
};

struct TableSample {
  TableSpec spec;
  // True when the whole table was read: totals and the largest items are
  // exact. Otherwise they are estimates from the sample.
  bool whole_table = false;
  int64_t rows = 0;
  int64_t cells = 0;
  int64_t bytes = 0;
  std::map<std::string, FamilyTotals, std::less<>> families;  // every family of the schema
  // The rows kept, in key order.
  std::vector<RowSample> sample;
  // Table rows each kept row stands for (1 when every row was kept).
  double row_weight = 1;
  std::vector<LargeItem> largest_rows;   // largest first, at most kLargestKept
  std::vector<LargeItem> largest_cells;  // likewise
  int64_t rows_read = 0;                 // rows this sample read

  // Rows and bytes per key prefix, counted over every row when the whole
  // table is read: for each delimiter DetectDelimiter may choose, and '\0'
  // for none (the first 4 bytes stand for the prefix), the keys' first
  // segments. A map that passes kMaxPrefixesCounted is dropped: estimates
  // from the sample serve instead.
  struct PrefixTotals {
    int64_t rows = 0;
    int64_t bytes = 0;
  };
  using PrefixMap = std::map<std::string, PrefixTotals, std::less<>>;
  std::map<char, PrefixMap> prefix_totals;
  static constexpr size_t kMaxPrefixesCounted = 100000;

  static constexpr size_t kLargestKept = 5;
};

// The key prefix stats groups a row under: its first segment up to
// `delimiter` (included), or its first 4 bytes when the delimiter is '\0'
// or absent.
std::string_view KeyPrefix(std::string_view key, char delimiter);

// Adds a row of `bytes` to `prefix`'s totals in `map`.
void AddToPrefix(TableSample::PrefixMap* map, std::string_view prefix, int64_t bytes);

// The cost of one cell, as described at the top.
int64_t CellBytes(const Cell& cell);

// Reads a sample of `table`. NotFound if it does not exist; a read error
// passes through. The user's Ctrl-C ends a remote read with Cancelled.
Result<TableSample> SampleTable(Bigtable* bigtable, std::string_view table, const SampleOptions& options = {});

}  // namespace lbt::lab

#endif  // LBT_LAB_SAMPLE_H_
