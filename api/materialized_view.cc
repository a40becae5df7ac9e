#include "api/materialized_view.h"

#include <fmt/format.h>

#include "api/bigtable.h"
#include "api/forwarding_bigtable.h"

namespace lbt {

namespace {

// A sample about every this many bytes of the view's rows, as a table's.
constexpr int64_t kViewSampleIntervalBytes = 4 << 20;

// Reads of one materialized view as if it were a table.
class MaterializedViewTable final : public ForwardingBigtable {
 public:
  MaterializedViewTable(Bigtable* base, std::string view) : ForwardingBigtable(base), view_(std::move(view)) {}

  Result<TableSpec> GetTable(std::string_view table) override {
    if (table != view_) return target()->GetTable(table);
    LBT_RETURN_IF_ERROR(target()->GetMaterializedView(view_).status());
    TableSpec spec;
    spec.name = view_;
    FamilySpec family{.name = "default", .id = 1};
    spec.families.emplace(family.name, family);
    return spec;
  }
  Result<std::unique_ptr<RowStream>> ReadRows(std::string_view table, const ReadRequest& request) override {
    if (table != view_) return target()->ReadRows(table, request);
    return target()->ReadMaterializedView(view_, request);
  }
  Result<int64_t> CountRows(std::string_view table, const RowRange& range) override {
    if (table != view_) return target()->CountRows(table, range);
    ReadRequest request;
    request.rows.row_ranges = {range};
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, target()->ReadMaterializedView(view_, request));
    int64_t n = 0;
    for (Row row; rows->Next(&row);) ++n;
    LBT_RETURN_IF_ERROR(rows->status());
    return n;
  }
  // Samples of the view's rows, from their sizes as read: a view's rows
  // are few next to its source's, and its storage is not a table of the
  // instance's to sample.
  Result<std::vector<KeySample>> SampleRowKeys(std::string_view table, const RowRange& range) override {
    if (table != view_) return target()->SampleRowKeys(table, range);
    ReadRequest request;
    request.rows.row_ranges = {range};
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, target()->ReadMaterializedView(view_, request));
    std::vector<KeySample> samples;
    int64_t offset = 0, since_sample = 0;
    for (Row row; rows->Next(&row);) {
      int64_t bytes = static_cast<int64_t>(row.key.size());
      for (const Cell& c : row.cells)
        bytes += static_cast<int64_t>(c.family.size() + c.qualifier.size() + c.value.size());
      offset += bytes;
      since_sample += bytes;
      if (since_sample >= kViewSampleIntervalBytes) {
        samples.push_back({row.key, offset});
        since_sample = 0;
      }
    }
    LBT_RETURN_IF_ERROR(rows->status());
    samples.push_back({"", offset});
    return samples;
  }
  Result<std::vector<std::optional<Row>>> LookupRows(std::string_view table, const std::vector<std::string>& keys,
                                                     const ReadRequest& request) override {
    if (table != view_) return target()->LookupRows(table, keys, request);
    return Bigtable::LookupRows(table, keys, request);  // one ReadRows, through ReadRows above
  }
  Status MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) override {
    if (table == view_) return ReadOnly();
    return target()->MutateRow(table, row_key, mutations);
  }
  Result<std::vector<Status>> MutateRows(std::string_view table, const std::vector<RowMutation>& rows) override {
    if (table == view_) return ReadOnly();
    return target()->MutateRows(table, rows);
  }

 private:
  Status ReadOnly() const {
    return Status::InvalidArgument(
        fmt::format("{} is a materialized view: it is kept from its query and cannot be written", view_));
  }

  const std::string view_;
};

}  // namespace

std::unique_ptr<Bigtable> ReadMaterializedViewAsTable(Bigtable* base, std::string view_id) {
  return std::make_unique<MaterializedViewTable>(base, std::move(view_id));
}

}  // namespace lbt
