#include "lab/sample.h"

#include <algorithm>
#include <random>

#include <fmt/format.h>

#include "lab/key_shape.h"

namespace lbt::lab {

namespace {

constexpr int64_t kTimestampBytes = 8;

// Summarises one row: its size, its columns and its cells' timestamps.
RowSample Summarise(const Row& row) {
  RowSample out;
  out.key = row.key;
  out.cells = static_cast<int64_t>(row.cells.size());
  out.bytes = static_cast<int64_t>(row.key.size());
  const size_t stride = std::max<size_t>(1, row.cells.size() / RowSample::kMaxTimestampsKept);
  for (size_t i = 0; i < row.cells.size(); ++i) {
    const Cell& cell = row.cells[i];
    const int64_t bytes = CellBytes(cell);
    out.bytes += bytes;
    if (i % stride == 0 && out.timestamps.size() < RowSample::kMaxTimestampsKept) {
      out.timestamps.push_back(cell.timestamp);
    }
    // Cells come grouped by column, newest first.
    const bool new_column =
        i == 0 || cell.family != row.cells[i - 1].family || cell.qualifier != row.cells[i - 1].qualifier;
    if (new_column) {
      ++out.column_count;
      if (out.columns.size() < RowSample::kMaxColumnsKept) {
        out.columns.push_back(ColumnSample{cell.family, cell.qualifier, 0, 0, 0, cell.timestamp, cell.timestamp});
      }
    }
    if (static_cast<int64_t>(out.columns.size()) != out.column_count) continue;  // past the kept columns
    ColumnSample& column = out.columns.back();
    ++column.versions;
    column.bytes += bytes;
    column.largest_cell = std::max<int64_t>(column.largest_cell, static_cast<int64_t>(cell.value.size()));
    column.oldest = std::min(column.oldest, cell.timestamp);
    column.newest = std::max(column.newest, cell.timestamp);
  }
  return out;
}

// Keeps the `limit` largest items, largest first.
void KeepLargest(std::vector<LargeItem>* items, LargeItem item) {
  if (items->size() == TableSample::kLargestKept && items->back().bytes >= item.bytes) return;
  auto at = std::upper_bound(items->begin(), items->end(), item,
                             [](const LargeItem& a, const LargeItem& b) { return a.bytes > b.bytes; });
  items->insert(at, std::move(item));
  if (items->size() > TableSample::kLargestKept) items->pop_back();
}

// Adds a row read to the totals and the largest items.
void Count(const Row& row, TableSample* sample) {
  int64_t row_bytes = static_cast<int64_t>(row.key.size());
  const std::string* last_family = nullptr;
  LargeItem largest_cell;
  for (const Cell& cell : row.cells) {
    const int64_t bytes = CellBytes(cell);
    row_bytes += bytes;
    FamilyTotals& family = sample->families[cell.family];
    if (last_family == nullptr || *last_family != cell.family) ++family.rows;
    last_family = &cell.family;
    ++family.cells;
    family.bytes += bytes;
    if (static_cast<int64_t>(cell.value.size()) > largest_cell.bytes) {
      largest_cell = {row.key, cell.family + ":" + cell.qualifier, static_cast<int64_t>(cell.value.size())};
    }
  }
  ++sample->rows;
  sample->cells += static_cast<int64_t>(row.cells.size());
  sample->bytes += row_bytes;
  KeepLargest(&sample->largest_rows, {row.key, "", row_bytes});
  if (largest_cell.bytes > 0) KeepLargest(&sample->largest_cells, std::move(largest_cell));
}

Status CheckCancelled(const SampleOptions& options) {
  if (options.cancelled && options.cancelled()) return Status::Cancelled("interrupted");
  return Status::OK();
}

// Adds a row to the exact per-prefix totals of each delimiter still counted.
void CountPrefixes(std::string_view key, int64_t row_bytes, TableSample* sample) {
  for (auto it = sample->prefix_totals.begin(); it != sample->prefix_totals.end();) {
    AddToPrefix(&it->second, KeyPrefix(key, it->first), row_bytes);
    it = it->second.size() > TableSample::kMaxPrefixesCounted ? sample->prefix_totals.erase(it) : std::next(it);
  }
}

// Reads every row: exact totals, and a reservoir of rows (Algorithm R).
Status ReadWhole(Table* table, const SampleOptions& options, TableSample* sample) {
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, table->ReadRows(ReadRequest{}));
  std::mt19937_64 random(options.seed);
  const size_t capacity = static_cast<size_t>(std::max<int64_t>(1, options.max_rows));
  sample->prefix_totals['\0'];
  for (char delimiter : kKeyDelimiters) sample->prefix_totals[delimiter];
  for (Row row; stream->Next(&row);) {
    LBT_RETURN_IF_ERROR(CheckCancelled(options));
    const int64_t bytes_before = sample->bytes;
    Count(row, sample);
    CountPrefixes(row.key, sample->bytes - bytes_before, sample);
    if (sample->sample.size() < capacity) {
      sample->sample.push_back(Summarise(row));
      continue;
    }
    const uint64_t slot = std::uniform_int_distribution<uint64_t>(0, sample->rows - 1)(random);
    if (slot < capacity) sample->sample[slot] = Summarise(row);
  }
  LBT_RETURN_IF_ERROR(stream->status());
  sample->whole_table = true;
  sample->rows_read = sample->rows;
  sample->row_weight = sample->sample.empty() ? 1 : static_cast<double>(sample->rows) / sample->sample.size();
  return Status::OK();
}

// The keys to start each run at: evenly spaced by bytes over the splits.
std::vector<std::string> RunStarts(const std::vector<KeySample>& splits, int segments) {
  std::vector<std::string> starts = {""};
  const int64_t total = splits.empty() ? 0 : splits.back().offset_bytes;
  size_t next = 0;
  for (int i = 1; i < segments && total > 0; ++i) {
    const int64_t target = total * i / segments;
    while (next < splits.size() && splits[next].offset_bytes < target) ++next;
    if (next == splits.size() || splits[next].row_key.empty()) break;
    if (splits[next].row_key != starts.back()) starts.push_back(splits[next].row_key);
  }
  return starts;
}

// Reads short runs of rows at evenly spaced places; totals are scaled from
// the rows read to the table's size as SampleRowKeys gives it.
Status ReadRuns(Table* table, const std::vector<KeySample>& splits, const SampleOptions& options, TableSample* sample) {
  const std::vector<std::string> starts = RunStarts(splits, std::max(1, options.segments));
  const int64_t per_run = std::max<int64_t>(1, options.max_rows / static_cast<int64_t>(starts.size()));
  std::string last_key;
  bool any = false;
  for (size_t i = 0; i < starts.size(); ++i) {
    ReadRequest request;
    RowRange range = RowRange::ClosedOpen(starts[i], i + 1 < starts.size() ? starts[i + 1] : "");
    request.rows.row_ranges = {range};
    request.rows_limit = per_run;
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, table->ReadRows(request));
    for (Row row; stream->Next(&row);) {
      LBT_RETURN_IF_ERROR(CheckCancelled(options));
      if (any && row.key <= last_key) continue;  // runs never overlap, but stay safe
      any = true;
      last_key = row.key;
      Count(row, sample);
      sample->sample.push_back(Summarise(row));
    }
    LBT_RETURN_IF_ERROR(stream->status());
  }
  sample->rows_read = sample->rows;
  if (sample->rows == 0) return Status::OK();
  // Scale what was counted to the table's size. SampleRowKeys' offsets
  // count cells as CellBytes does, without the row keys.
  int64_t cell_bytes = 0;
  for (const RowSample& row : sample->sample) cell_bytes += row.bytes - static_cast<int64_t>(row.key.size());
  const double scale = static_cast<double>(splits.back().offset_bytes) / std::max<int64_t>(1, cell_bytes);
  sample->row_weight = std::max(1.0, scale);
  sample->rows = static_cast<int64_t>(sample->rows * sample->row_weight);
  sample->cells = static_cast<int64_t>(sample->cells * sample->row_weight);
  sample->bytes = static_cast<int64_t>(sample->bytes * sample->row_weight);
  for (auto& [name, family] : sample->families) {
    family.rows = static_cast<int64_t>(family.rows * sample->row_weight);
    family.cells = static_cast<int64_t>(family.cells * sample->row_weight);
    family.bytes = static_cast<int64_t>(family.bytes * sample->row_weight);
  }
  return Status::OK();
}

}  // namespace

std::string_view KeyPrefix(std::string_view key, char delimiter) {
  const size_t end = delimiter == '\0' ? std::string_view::npos : key.find(delimiter);
  return end == std::string_view::npos ? key.substr(0, 4) : key.substr(0, end + 1);
}

void AddToPrefix(TableSample::PrefixMap* map, std::string_view prefix, int64_t bytes) {
  // Looked up by view first: a full read adds every row, mostly to
  // prefixes already there, and needs no string for those.
  auto it = map->find(prefix);
  if (it == map->end()) it = map->emplace(std::string(prefix), TableSample::PrefixTotals{}).first;
  ++it->second.rows;
  it->second.bytes += bytes;
}

int64_t CellBytes(const Cell& cell) {
  return static_cast<int64_t>(cell.family.size() + cell.qualifier.size() + cell.value.size()) + kTimestampBytes;
}

Result<TableSample> SampleTable(Bigtable* bigtable, std::string_view table, const SampleOptions& options) {
  TableSample sample;
  LBT_ASSIGN_OR_RETURN(sample.spec, bigtable->GetTable(table));
  for (const auto& [name, family] : sample.spec.families) sample.families[name];
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> data, bigtable->OpenTable(TableRef::Table(std::string(table))));
  LBT_ASSIGN_OR_RETURN(std::vector<KeySample> splits, data->SampleRowKeys(RowRange::All()));
  const uint64_t size = splits.empty() ? 0 : static_cast<uint64_t>(splits.back().offset_bytes);
  if (size <= options.full_scan_bytes) {
    LBT_RETURN_IF_ERROR(ReadWhole(data.get(), options, &sample));
  } else {
    LBT_RETURN_IF_ERROR(ReadRuns(data.get(), splits, options, &sample));
  }
  std::sort(sample.sample.begin(), sample.sample.end(),
            [](const RowSample& a, const RowSample& b) { return a.key < b.key; });
  return sample;
}

}  // namespace lbt::lab
