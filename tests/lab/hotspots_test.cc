// The write replay behind hotspots and keyviz, the sample it runs on, and
// stats over the same sample.

#include "lab/hotspots.h"

#include <algorithm>
#include <limits>
#include <tuple>
#include <utility>

#include "lab/table_stats.h"
#include "tests/lab/lab_fixture.h"

namespace lbt::lab {
namespace {

using HotspotsTest = LabTest;

TEST_F(HotspotsTest, TimestampFirstKeysLoadOneNodeAndPromotedKeysSpreadEvenly) {
  TimeSeries("first", 3000, TimeFirst);
  TimeSeries("promoted", 3000, HostFirst);
  HotspotOptions three;
  three.nodes = 3;
  const HotspotReport first = SimulateHotspots(Sample("first"), three);
  const HotspotReport promoted = SimulateHotspots(Sample("promoted"), three);
  EXPECT_GT(first.peak_node_share, 0.8);
  EXPECT_LT(promoted.peak_node_share, 0.5);
  EXPECT_EQ(first.tablets.size(), 12u);
  EXPECT_NEAR(first.writes, 3000, 1);
  // The hottest range of time-first keys takes its whole window.
  EXPECT_GT(first.hottest_share, 0.9);
  for (const WindowLoad& w : promoted.windows) {
    double sum = 0;
    for (double s : w.node_shares) sum += s;
    EXPECT_NEAR(sum, 1.0, 1e-9);
  }
}

TEST_F(HotspotsTest, TabletsSplitTheKeySpaceByBytes) {
  TimeSeries("t", 1200, HostFirst);
  const TableSample sample = Sample("t");
  const std::vector<KeyRange> ranges = SplitByBytes(sample, 4);
  ASSERT_EQ(ranges.size(), 4u);
  EXPECT_EQ(ranges.front().start_key, "");
  EXPECT_EQ(ranges.back().end_key, "");
  EXPECT_EQ(ranges.back().end_row, sample.sample.size());
  for (size_t i = 0; i + 1 < ranges.size(); ++i) {
    EXPECT_EQ(ranges[i].end_key, ranges[i + 1].start_key);
    EXPECT_EQ(ranges[i].end_row, ranges[i + 1].first_row);
    EXPECT_NEAR(static_cast<double>(ranges[i].end_row - ranges[i].first_row), 300, 2);
  }
}

TEST_F(HotspotsTest, AsManyRangesAsRowsWhenFewerRowsThanRangesAreAsked) {
  // 30 rows of one size asked for 32 ranges: one row each, although each
  // row's share of the bytes rounds below a thirtieth.
  TimeSeries("t", 30, HostFirst);
  const TableSample sample = Sample("t");
  const std::vector<KeyRange> ranges = SplitByBytes(sample, 32);
  ASSERT_EQ(ranges.size(), sample.sample.size());
  for (size_t i = 0; i < ranges.size(); ++i) EXPECT_EQ(ranges[i].end_row - ranges[i].first_row, 1u);
}

TEST_F(HotspotsTest, ASmallTableIsReadWholeAndALargeOneInRunsAcrossItsKeySpace) {
  TimeSeries("t", 2000, HostFirst);
  SampleOptions whole;
  whole.max_rows = 500;
  const TableSample all = Sample("t", whole);
  EXPECT_TRUE(all.whole_table);
  EXPECT_EQ(all.rows, 2000);
  EXPECT_EQ(all.sample.size(), 500u);
  EXPECT_EQ(all.rows_read, 2000);
  EXPECT_TRUE(std::is_sorted(all.sample.begin(), all.sample.end(),
                             [](const RowSample& a, const RowSample& b) { return a.key < b.key; }));
  // A reservoir, not the first rows: hosts from all over the key space.
  EXPECT_GT(all.sample.back().key, "host0090");

  SampleOptions runs = whole;
  runs.full_scan_bytes = 0;  // as if the table were too large to read whole
  runs.segments = 8;
  const TableSample part = Sample("t", runs);
  EXPECT_FALSE(part.whole_table);
  EXPECT_LE(part.rows_read, 500);
  EXPECT_GT(part.rows_read, 0);
  // Estimated from the table's size: its rows are alike, so closely.
  EXPECT_NEAR(part.rows, 2000, 200);
}

// The smallest and the mean of a grid's cells.
std::pair<double, double> LeastAndMean(const WriteGrid& grid) {
  double least = std::numeric_limits<double>::max(), sum = 0, cells = 0;
  for (const std::vector<double>& range : grid.writes) {
    for (double v : range) least = std::min(least, v), sum += v, ++cells;
  }
  return {least, cells == 0 ? 0 : sum / cells};
}

TEST_F(HotspotsTest, KeyvizShowsAnEvenLoadEvenly) {
  // 100,000 readings spread evenly over 100 hosts and over time.
  TimeSeries("even", 100000, HostFirst);
  // From the other commands' 10,000 rows, a full page's 64 x 96 cells get
  // about 1.6 sampled writes each: many get none, and show black.
  const TableSample sparse = Sample("even");
  ASSERT_EQ(sparse.sample.size(), 10000u);
  EXPECT_EQ(LeastAndMean(ReplayWrites(sparse, 64, 96)).first, 0) << "the speckle KeyvizGrid avoids";
  const WriteGrid coarse = KeyvizGrid(sparse, 64, 96);
  EXPECT_LT(coarse.ranges.size() * static_cast<size_t>(coarse.windows.count), 10000u / kKeyvizSamplesPerCell + 1);
  auto [least, mean] = LeastAndMean(coarse);
  EXPECT_GT(least, 0.2 * mean) << "an even load has no dark cells";
  // keyviz's own 100,000 rows fill the whole page.
  SampleOptions keyviz;
  keyviz.max_rows = 100000;
  const WriteGrid full = KeyvizGrid(Sample("even", keyviz), 64, 96);
  EXPECT_EQ(full.ranges.size(), 64u);
  EXPECT_EQ(full.windows.count, 96);
  std::tie(least, mean) = LeastAndMean(full);
  EXPECT_GT(least, 0.2 * mean) << "an even load has no dark cells";
}

TEST_F(HotspotsTest, StatsCountExactlyWhenEveryRowIsRead) {
  Create("t", {"a", "b"});
  Put("t", "k1", "a", "q", "12345", 1000);
  Put("t", "k1", "a", "q", "1", 2000);
  Put("t", "k1", "b", "longer-qualifier", "v", 1000);
  Put("t", "k2", "a", "q", std::string(100, 'x'), 1000);
  const TableStats stats = ComputeStats(Sample("t"));
  EXPECT_TRUE(stats.exact);
  EXPECT_EQ(stats.rows, 2);
  EXPECT_EQ(stats.cells, 4);
  ASSERT_EQ(stats.families.size(), 2u);
  EXPECT_EQ(stats.families[0].name, "a");
  EXPECT_EQ(stats.families[0].rows, 2);
  EXPECT_EQ(stats.families[0].cells, 3);
  EXPECT_EQ(stats.families[1].cells, 1);
  // A cell costs family + qualifier + value + 8.
  EXPECT_EQ(stats.families[0].bytes, (1 + 1 + 5 + 8) + (1 + 1 + 1 + 8) + (1 + 1 + 100 + 8));
  ASSERT_FALSE(stats.largest_cells.empty());
  EXPECT_EQ(stats.largest_cells[0].row_key, "k2");
  EXPECT_EQ(stats.largest_cells[0].bytes, 100);
  const Distribution& versions = stats.distributions[3];
  EXPECT_EQ(versions.name, "versions_per_column");
  EXPECT_EQ(versions.max, 2);
}

}  // namespace
}  // namespace lbt::lab
