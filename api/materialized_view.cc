#include "api/materialized_view.h"

#include <fmt/format.h>

#include "api/bigtable.h"
#include "api/table.h"

namespace lbt {

namespace {

// Reads of one materialized view as if it were a table.
class MaterializedViewTable final : public WritesRefused<Table> {
 public:
  MaterializedViewTable(Bigtable* instance, std::string view)
      : instance_(instance), ref_(TableRef::MaterializedView(std::move(view))) {}

  const TableRef& ref() const override { return ref_; }
  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    return instance_->ReadMaterializedView(ref_.materialized_view, request);
  }
  Result<int64_t> CountRows(const RowRange& range) override {
    return CountRowsByReading(range, [this](const ReadRequest& request) { return ReadRows(request); });
  }
  // Bigtable reads change streams of tables only.
  Result<std::vector<RowRange>> ChangeStreamPartitions() override {
    return ChangeStreamsOfTablesOnly("from a materialized view");
  }
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest&) override {
    return ChangeStreamsOfTablesOnly("from a materialized view");
  }
  // Samples of the view's rows, from their sizes as read: a view's rows
  // are few next to its source's, and its storage is not a table of the
  // instance's to sample.
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override {
    ReadRequest request;
    request.rows.row_ranges = {range};
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, ReadRows(request));
    return SampleRowsAsRead(rows.get(), "");
  }

 private:
  Status RefuseWrite() const override {
    return Status::InvalidArgument(fmt::format(
        "{} is a materialized view: it is kept from its query and cannot be written", ref_.materialized_view));
  }

  Bigtable* const instance_;
  const TableRef ref_;
};

}  // namespace

TableSpec MaterializedViewSchema(std::string_view view_id) {
  TableSpec spec;
  spec.name = std::string(view_id);
  FamilySpec family{.name = "default", .id = 1};
  spec.families.emplace(family.name, family);
  return spec;
}

std::unique_ptr<Table> ReadMaterializedViewAsTable(Bigtable* instance, std::string view_id) {
  return std::make_unique<MaterializedViewTable>(instance, std::move(view_id));
}

}  // namespace lbt
