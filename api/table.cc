#include "api/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace lbt {

namespace {

class EmptyRowStream final : public RowStream {
 public:
  bool Next(Row*) override { return false; }
  Status status() const override { return Status::OK(); }
  ReadStats stats() const override { return {}; }
};

Status NoChangeStreams() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no change streams");
}

}  // namespace

std::unique_ptr<RowStream> NoRows() { return std::make_unique<EmptyRowStream>(); }

Result<std::vector<std::optional<Row>>> LookupRowsWithOneRead(const std::vector<std::string>& keys,
                                                              const ReadRequest& request,
                                                              const ReadRowsFunction& read_rows) {
  // The positions of the keys in key order: rows stream back in that order.
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  ReadRequest read = request;
  read.rows.row_keys.clear();
  for (size_t i : order) {
    if (read.rows.row_keys.empty() || read.rows.row_keys.back() != keys[i]) read.rows.row_keys.push_back(keys[i]);
  }
  std::vector<std::optional<Row>> results(keys.size());
  if (keys.empty()) return results;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, read_rows(read));
  size_t next = 0;  // into order
  for (Row row; stream->Next(&row);) {
    while (next < order.size() && keys[order[next]] < row.key) ++next;
    for (size_t j = next; j < order.size() && keys[order[j]] == row.key; ++j) results[order[j]] = row;
  }
  LBT_RETURN_IF_ERROR(stream->status());
  return results;
}

namespace {

// A sample about every this many bytes, as a local table's.
constexpr int64_t kSampleIntervalBytes = 4 << 20;

// The bytes a cell counts for SampleRowKeys' offsets, as a local table
// counts them (its timestamp: 8).
int64_t CellBytes(const Cell& cell) {
  return static_cast<int64_t>(cell.family.size() + cell.qualifier.size() + cell.value.size() + 8);
}

}  // namespace

Result<std::vector<KeySample>> SampleRowsAsRead(RowStream* rows, std::string end_key) {
  std::vector<KeySample> samples;
  int64_t total = 0, last_sample = 0;
  for (Row row; rows->Next(&row);) {
    if (total - last_sample >= kSampleIntervalBytes) {
      samples.push_back({row.key, total});
      last_sample = total;
    }
    for (const Cell& cell : row.cells) total += CellBytes(cell);
  }
  LBT_RETURN_IF_ERROR(rows->status());
  samples.push_back({std::move(end_key), total});
  return samples;
}

Status ChangeStreamsOfTablesOnly(std::string_view how) {
  return Status::InvalidArgument(fmt::format("change streams are read from a table, not {}", how));
}

Result<int64_t> CountRowsByReading(const RowRange& range, const ReadRowsFunction& read_rows) {
  ReadRequest request;
  if (!range.IsAll()) request.rows.row_ranges.push_back(range);
  request.filter = Filter::Chain({Filter::CellsPerRowLimit(1), Filter::StripValue()});
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, read_rows(request));
  int64_t count = 0;
  for (Row row; stream->Next(&row);) ++count;
  LBT_RETURN_IF_ERROR(stream->status());
  return count;
}

Result<std::vector<std::optional<Row>>> Table::LookupRows(const std::vector<std::string>& keys,
                                                          const ReadRequest& request) {
  return LookupRowsWithOneRead(keys, request, [this](const ReadRequest& read) { return ReadRows(read); });
}

Result<std::vector<RowRange>> Table::ChangeStreamPartitions() { return NoChangeStreams(); }

Result<std::unique_ptr<ChangeStream>> Table::ReadChangeStream(const ChangeStreamRequest&) { return NoChangeStreams(); }

Result<std::optional<Row>> Table::ReadRow(std::string_view row_key, std::optional<Filter> filter) {
  ReadRequest request;
  request.rows.row_keys = {std::string(row_key)};
  request.filter = std::move(filter);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(request));
  Row row;
  if (stream->Next(&row)) return std::optional<Row>(std::move(row));
  LBT_RETURN_IF_ERROR(stream->status());
  return std::optional<Row>();
}

}  // namespace lbt
