#include "api/materialized_view.h"

#include <fmt/format.h>

#include "api/bigtable.h"
#include "api/forwarding_bigtable.h"

namespace lbt {

namespace {

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
