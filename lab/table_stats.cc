#include "lab/table_stats.h"

#include <algorithm>
#include <bit>
#include <map>

#include "lab/key_shape.h"

namespace lbt::lab {

namespace {

int64_t Percentile(const std::vector<int64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const size_t at = std::min(sorted.size() - 1, static_cast<size_t>(p * static_cast<double>(sorted.size())));
  return sorted[at];
}

// Bins of powers of two: [0,0], [1,1], [2,3], [4,7], ...
std::vector<Bin> PowerOfTwoHistogram(const std::vector<int64_t>& values) {
  std::map<int, int64_t> counts;
  for (int64_t v : values) counts[v <= 0 ? -1 : std::bit_width(static_cast<uint64_t>(v)) - 1]++;
  std::vector<Bin> bins;
  for (const auto& [exponent, count] : counts) {
    if (exponent < 0) {
      bins.push_back({0, 0, count});
    } else {
      bins.push_back({int64_t{1} << exponent, (int64_t{1} << (exponent + 1)) - 1, count});
    }
  }
  return bins;
}

Distribution Describe(std::string name, std::vector<int64_t> values) {
  Distribution d;
  d.name = std::move(name);
  std::sort(values.begin(), values.end());
  d.count = static_cast<int64_t>(values.size());
  if (values.empty()) return d;
  double sum = 0;
  for (int64_t v : values) sum += static_cast<double>(v);
  d.mean = sum / static_cast<double>(values.size());
  d.p50 = Percentile(values, 0.50);
  d.p90 = Percentile(values, 0.90);
  d.p99 = Percentile(values, 0.99);
  d.max = values.back();
  d.histogram = PowerOfTwoHistogram(values);
  return d;
}

std::vector<Distribution> Distributions(const TableSample& sample) {
  std::vector<int64_t> row_bytes, cells, columns, versions, key_bytes, qualifier_bytes;
  for (const RowSample& row : sample.sample) {
    row_bytes.push_back(row.bytes);
    cells.push_back(row.cells);
    columns.push_back(row.column_count);
    key_bytes.push_back(static_cast<int64_t>(row.key.size()));
    for (const ColumnSample& c : row.columns) {
      versions.push_back(c.versions);
      qualifier_bytes.push_back(static_cast<int64_t>(c.qualifier.size()));
    }
  }
  return {Describe("row_bytes", std::move(row_bytes)),     Describe("cells_per_row", std::move(cells)),
          Describe("columns_per_row", std::move(columns)), Describe("versions_per_column", std::move(versions)),
          Describe("key_bytes", std::move(key_bytes)),     Describe("qualifier_bytes", std::move(qualifier_bytes))};
}

// The key prefixes (first segments) that hold the most bytes: counted over
// every row when the whole table was read, else estimated from the sample.
// Sets *exact to which.
std::vector<PrefixShare> TopPrefixes(const TableSample& sample, bool* exact) {
  std::vector<std::string_view> keys;
  for (const RowSample& row : sample.sample) keys.push_back(row.key);
  const char delimiter = DetectDelimiter(keys);
  const auto counted = sample.prefix_totals.find(delimiter);
  *exact = sample.whole_table && counted != sample.prefix_totals.end();
  TableSample::PrefixMap estimated;
  if (!*exact) {
    for (const RowSample& row : sample.sample) AddToPrefix(&estimated, KeyPrefix(row.key, delimiter), row.bytes);
  }
  const TableSample::PrefixMap& totals = *exact ? counted->second : estimated;
  const double weight = *exact ? 1 : sample.row_weight;
  double all_bytes = 0;
  for (const auto& [prefix, t] : totals) all_bytes += static_cast<double>(t.bytes);
  std::vector<PrefixShare> out;
  for (const auto& [prefix, t] : totals) {
    out.push_back({PrintableKey(prefix), static_cast<int64_t>(static_cast<double>(t.rows) * weight),
                   static_cast<int64_t>(static_cast<double>(t.bytes) * weight),
                   all_bytes == 0 ? 0 : static_cast<double>(t.bytes) / all_bytes});
  }
  std::sort(out.begin(), out.end(), [](const PrefixShare& a, const PrefixShare& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.prefix < b.prefix;
  });
  if (out.size() > TableStats::kTopPrefixes) out.resize(TableStats::kTopPrefixes);
  return out;
}

}  // namespace

TableStats ComputeStats(const TableSample& sample) {
  TableStats stats;
  stats.table = sample.spec.name;
  stats.exact = sample.whole_table;
  stats.rows = sample.rows;
  stats.cells = sample.cells;
  stats.bytes = sample.bytes;
  stats.rows_sampled = static_cast<int64_t>(sample.sample.size());
  for (const auto& [name, totals] : sample.families) {
    stats.families.push_back({name, totals.rows, totals.cells, totals.bytes});
  }
  stats.distributions = Distributions(sample);
  stats.largest_rows = sample.largest_rows;
  stats.largest_cells = sample.largest_cells;
  stats.top_prefixes = TopPrefixes(sample, &stats.prefixes_exact);
  return stats;
}

}  // namespace lbt::lab
