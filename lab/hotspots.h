// `hotspots` and `keyviz`: the table's writes replayed over its key space.
//
// Bigtable splits a table into tablets of contiguous keys, sized by data,
// and spreads the tablets over its nodes. Replaying the sampled cells in
// timestamp order over such a split shows where each moment's writes
// land: with time-first keys, each moment's writes fall in one tablet at
// the end of the key space; with a high-cardinality field first, they fall
// everywhere.
//
// The model is deliberately simple: the split is made from the data as it
// is now, tablet i goes to node i mod N, and a write's time is its cell's
// timestamp. It shows a design's shape, not a cluster's exact numbers.

#ifndef LBT_LAB_HOTSPOTS_H_
#define LBT_LAB_HOTSPOTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "lab/sample.h"

namespace lbt::lab {

// A contiguous run of the sample's rows: [first_row, end_row).
struct KeyRange {
  size_t first_row = 0;
  size_t end_row = 0;
  std::string start_key;  // the first sampled key in it ("" for the first range)
  std::string end_key;    // the next range's start key ("" for the last)
  double bytes = 0;       // estimated for the whole table
};

// Splits the sample's rows into at most `n` ranges of about equal bytes.
std::vector<KeyRange> SplitByBytes(const TableSample& sample, size_t n);

// `count` equal windows over the sample's cell timestamps.
struct TimeWindows {
  int64_t start = 0;  // microseconds
  int64_t width = 1;
  int count = 1;
  // Every sampled cell has the same timestamp: the order of the writes
  // cannot be replayed, and the grid shows where the data lies, not how
  // writes arrived over time.
  bool single_timestamp = false;
  int Index(int64_t timestamp) const;
  int64_t Start(int i) const { return start + width * i; }
};
TimeWindows WindowsOver(const TableSample& sample, int count);

// Writes per (range, window): what both commands draw on. Each sampled
// cell timestamp stands for its share of the row's cells, scaled to the
// table.
struct WriteGrid {
  std::vector<KeyRange> ranges;
  TimeWindows windows;
  std::vector<std::vector<double>> writes;  // [range][window]
  double total = 0;
};
WriteGrid ReplayWrites(const TableSample& sample, size_t ranges, int windows);

// The grid keyviz draws: ReplayWrites at most `ranges` by `windows`. When
// the sample keeps only some of the table's rows, both are fewer by the
// same factor if it holds too few cell timestamps to give each cell
// kKeyvizSamplesPerCell of them on average: a cell's count then stays near
// its true share, and an even load looks even, not speckled with the empty
// cells of a sparse sample. A sample of every row is drawn as it is.
inline constexpr int kKeyvizSamplesPerCell = 16;
WriteGrid KeyvizGrid(const TableSample& sample, size_t ranges, int windows);

struct HotspotOptions {
  int nodes = 3;
  int tablets_per_node = 4;
  int windows = 48;  // at most; fewer when the sample is small
};

struct TabletLoad {
  std::string start_key;
  std::string end_key;
  int node = 0;
  double bytes = 0;
  double writes = 0;
};

struct WindowLoad {
  int64_t start_micros = 0;
  int64_t end_micros = 0;
  double writes = 0;
  std::vector<double> node_shares;  // each node's share of the window's writes
};

struct HotspotReport {
  int nodes = 0;
  // The hottest node's share of a window's writes, averaged over the
  // windows weighted by their writes: 1/nodes is an even spread, 1 means
  // one node takes every write.
  double peak_node_share = 0;
  std::vector<WindowLoad> windows;  // windows with writes only
  std::vector<TabletLoad> tablets;
  // The tablet with the most writes in one window, that window, and the
  // share of the window's writes it took.
  int hottest_tablet = -1;
  int64_t hottest_window_start = 0;
  double hottest_share = 0;
  double writes = 0;              // replayed, scaled to the table
  bool single_timestamp = false;  // see TimeWindows
};

// REQUIRES: options.nodes >= 1.
HotspotReport SimulateHotspots(const TableSample& sample, const HotspotOptions& options = {});

}  // namespace lbt::lab

#endif  // LBT_LAB_HOTSPOTS_H_
