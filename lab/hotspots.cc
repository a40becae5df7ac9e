#include "lab/hotspots.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lbt::lab {

std::vector<KeyRange> SplitByBytes(const TableSample& sample, size_t n) {
  std::vector<KeyRange> ranges;
  const size_t rows = sample.sample.size();
  if (rows == 0 || n == 0) return ranges;
  n = std::min(n, rows);
  double total = 0;
  for (const RowSample& row : sample.sample) total += static_cast<double>(row.bytes);
  double seen = 0;
  KeyRange current;
  for (size_t i = 0; i < rows; ++i) {
    seen += static_cast<double>(sample.sample[i].bytes);
    current.bytes += static_cast<double>(sample.sample[i].bytes) * sample.row_weight;
    // Close the range once it holds its share of the bytes, leaving at
    // least one row for each range still to come; and close it when just
    // one row is left for each of them, whatever rounding says of its
    // share (so that n rows of equal size make n ranges).
    const bool full = seen >= total * static_cast<double>(ranges.size() + 1) / static_cast<double>(n);
    const size_t rows_left = rows - i - 1, ranges_left = n - ranges.size() - 1;
    const bool close = ranges_left > 0 && (rows_left == ranges_left || (full && rows_left > ranges_left));
    if (close || i + 1 == rows) {
      current.end_row = i + 1;
      ranges.push_back(current);
      current = KeyRange{};
      current.first_row = i + 1;
      if (i + 1 < rows) current.start_key = sample.sample[i + 1].key;
    }
  }
  for (size_t i = 0; i + 1 < ranges.size(); ++i) ranges[i].end_key = ranges[i + 1].start_key;
  return ranges;
}

int TimeWindows::Index(int64_t timestamp) const {
  const int64_t i = (timestamp - start) / width;
  return static_cast<int>(std::clamp<int64_t>(i, 0, count - 1));
}

TimeWindows WindowsOver(const TableSample& sample, int count) {
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (const RowSample& row : sample.sample) {
    for (int64_t t : row.timestamps) lo = std::min(lo, t), hi = std::max(hi, t);
  }
  TimeWindows w;
  if (lo > hi) return w;  // no cells
  // Windows of whole seconds from a whole second read better, when the
  // span is long enough for them.
  constexpr int64_t kSecond = 1000000;
  w.single_timestamp = hi == lo;
  w.count = hi == lo ? 1 : std::max(1, count);
  w.width = std::max<int64_t>(1, (hi - lo) / w.count + 1);
  if (w.width >= kSecond) {
    lo -= lo % kSecond;
    w.width = ((hi - lo) / w.count / kSecond + 1) * kSecond;
  }
  w.start = lo;
  return w;
}

WriteGrid ReplayWrites(const TableSample& sample, size_t ranges, int windows) {
  WriteGrid grid;
  grid.ranges = SplitByBytes(sample, ranges);
  grid.windows = WindowsOver(sample, windows);
  grid.writes.assign(grid.ranges.size(), std::vector<double>(grid.windows.count, 0));
  for (size_t r = 0; r < grid.ranges.size(); ++r) {
    for (size_t i = grid.ranges[r].first_row; i < grid.ranges[r].end_row; ++i) {
      const RowSample& row = sample.sample[i];
      if (row.timestamps.empty()) continue;
      const double each = static_cast<double>(row.cells) / row.timestamps.size() * sample.row_weight;
      for (int64_t t : row.timestamps) grid.writes[r][grid.windows.Index(t)] += each;
      grid.total += each * row.timestamps.size();
    }
  }
  return grid;
}

WriteGrid KeyvizGrid(const TableSample& sample, size_t ranges, int windows) {
  // Every row kept: the grid shows the writes themselves, gaps and all.
  const bool every_row = sample.whole_table && static_cast<int64_t>(sample.sample.size()) == sample.rows;
  if (every_row) return ReplayWrites(sample, ranges, windows);
  double timestamps = 0;
  for (const RowSample& row : sample.sample) timestamps += static_cast<double>(row.timestamps.size());
  const double cells = static_cast<double>(ranges) * windows;
  const double fill = timestamps / kKeyvizSamplesPerCell;
  if (fill < cells) {
    const double scale = std::sqrt(fill / cells);
    ranges = std::max<size_t>(1, static_cast<size_t>(static_cast<double>(ranges) * scale));
    windows = std::max(1, static_cast<int>(windows * scale));
  }
  return ReplayWrites(sample, ranges, windows);
}

namespace {

// Fills the report's windows and its peak share from the tablets' writes.
void LoadWindows(const WriteGrid& grid, int nodes, HotspotReport* report) {
  double weighted = 0;
  for (int w = 0; w < grid.windows.count; ++w) {
    WindowLoad load;
    load.start_micros = grid.windows.Start(w);
    load.end_micros = grid.windows.Start(w + 1);
    load.node_shares.assign(nodes, 0);
    for (size_t t = 0; t < grid.ranges.size(); ++t) {
      load.writes += grid.writes[t][w];
      load.node_shares[t % nodes] += grid.writes[t][w];
    }
    if (load.writes == 0) continue;
    for (double& share : load.node_shares) share /= load.writes;
    weighted += load.writes * *std::max_element(load.node_shares.begin(), load.node_shares.end());
    report->windows.push_back(std::move(load));
  }
  report->peak_node_share = grid.total == 0 ? 0 : weighted / grid.total;
}

// The tablet with the most writes in a single window.
void FindHottest(const WriteGrid& grid, HotspotReport* report) {
  double most = 0;
  for (size_t t = 0; t < grid.ranges.size(); ++t) {
    for (int w = 0; w < grid.windows.count; ++w) {
      if (grid.writes[t][w] <= most) continue;
      most = grid.writes[t][w];
      double window_total = 0;
      for (size_t u = 0; u < grid.ranges.size(); ++u) window_total += grid.writes[u][w];
      report->hottest_tablet = static_cast<int>(t);
      report->hottest_window_start = grid.windows.Start(w);
      report->hottest_share = most / window_total;
    }
  }
}

}  // namespace

HotspotReport SimulateHotspots(const TableSample& sample, const HotspotOptions& options) {
  HotspotReport report;
  report.nodes = options.nodes;
  // Windows no wider than a tablet's share of time, so that time-ordered
  // keys show one tablet at a time, and, as far as the sample allows, with
  // about 20 writes a node in each, so that an even spread looks even.
  const int tablets = options.nodes * options.tablets_per_node;
  size_t stamps = 0;
  for (const RowSample& row : sample.sample) stamps += row.timestamps.size();
  const int windows = static_cast<int>(std::clamp<size_t>(stamps / (20 * static_cast<size_t>(options.nodes)),
                                                          static_cast<size_t>(tablets),
                                                          static_cast<size_t>(std::max(options.windows, tablets))));
  const WriteGrid grid = ReplayWrites(sample, static_cast<size_t>(tablets), windows);
  report.writes = grid.total;
  report.single_timestamp = grid.windows.single_timestamp;
  for (size_t t = 0; t < grid.ranges.size(); ++t) {
    TabletLoad tablet;
    tablet.start_key = grid.ranges[t].start_key;
    tablet.end_key = grid.ranges[t].end_key;
    tablet.node = static_cast<int>(t % options.nodes);
    tablet.bytes = grid.ranges[t].bytes;
    for (double w : grid.writes[t]) tablet.writes += w;
    report.tablets.push_back(std::move(tablet));
  }
  LoadWindows(grid, options.nodes, &report);
  FindHottest(grid, &report);
  return report;
}

}  // namespace lbt::lab
