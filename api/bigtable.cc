#include "api/bigtable.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <utility>

#include "api/materialized_view.h"

namespace lbt {

// Each per-table call opens the table, calls it and lets the handle go:
// what it returns (a stream) may outlive the handle (api/table.h).
#define LBT_ON_TABLE(table, call)                                                                        \
  do {                                                                                                   \
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Table> opened, OpenTable(TableRef::Table(std::string(table)))); \
    return opened->call;                                                                                 \
  } while (false)

Result<std::unique_ptr<RowStream>> Bigtable::ReadRows(std::string_view table, const ReadRequest& request) {
  LBT_ON_TABLE(table, ReadRows(request));
}
Result<int64_t> Bigtable::CountRows(std::string_view table, const RowRange& range) {
  LBT_ON_TABLE(table, CountRows(range));
}
Status Bigtable::MutateRow(std::string_view table, std::string_view row_key, const std::vector<Mutation>& mutations) {
  LBT_ON_TABLE(table, MutateRow(row_key, mutations));
}
Result<std::vector<Status>> Bigtable::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  LBT_ON_TABLE(table, MutateRows(rows));
}
Result<bool> Bigtable::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                         const std::optional<Filter>& predicate,
                                         const std::vector<Mutation>& true_mutations,
                                         const std::vector<Mutation>& false_mutations) {
  LBT_ON_TABLE(table, CheckAndMutateRow(row_key, predicate, true_mutations, false_mutations));
}
Result<Row> Bigtable::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                         const std::vector<ReadModifyWriteRule>& rules) {
  LBT_ON_TABLE(table, ReadModifyWriteRow(row_key, rules));
}
Result<std::vector<KeySample>> Bigtable::SampleRowKeys(std::string_view table, const RowRange& range) {
  LBT_ON_TABLE(table, SampleRowKeys(range));
}
Result<std::vector<std::optional<Row>>> Bigtable::LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadRequest& request) {
  LBT_ON_TABLE(table, LookupRows(keys, request));
}
Result<std::vector<RowRange>> Bigtable::ChangeStreamPartitions(std::string_view table) {
  LBT_ON_TABLE(table, ChangeStreamPartitions());
}
Result<std::unique_ptr<ChangeStream>> Bigtable::ReadChangeStream(std::string_view table,
                                                                 const ChangeStreamRequest& request) {
  LBT_ON_TABLE(table, ReadChangeStream(request));
}
Result<std::optional<Row>> Bigtable::ReadRow(std::string_view table, std::string_view row_key,
                                             std::optional<Filter> filter) {
  LBT_ON_TABLE(table, ReadRow(row_key, std::move(filter)));
}

#undef LBT_ON_TABLE

namespace {

Status NoLogicalViews() { return Status::FromCode(Status::Code::kUnimplemented, "this service has no logical views"); }

}  // namespace

Result<LogicalViewSpec> Bigtable::CreateLogicalView(const LogicalViewSpec&) { return NoLogicalViews(); }
Result<LogicalViewSpec> Bigtable::GetLogicalView(std::string_view) { return NoLogicalViews(); }
Result<std::vector<LogicalViewSpec>> Bigtable::ListLogicalViews() { return NoLogicalViews(); }
Result<LogicalViewSpec> Bigtable::UpdateLogicalView(const LogicalViewSpec&, const LogicalViewUpdate&) {
  return NoLogicalViews();
}
Status Bigtable::DeleteLogicalView(std::string_view, std::string_view) { return NoLogicalViews(); }

namespace {
Status NoMaterializedViews() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no materialized views");
}
}  // namespace

Result<MaterializedViewSpec> Bigtable::CreateMaterializedView(const MaterializedViewSpec&) {
  return NoMaterializedViews();
}
Result<MaterializedViewSpec> Bigtable::GetMaterializedView(std::string_view) { return NoMaterializedViews(); }
Result<std::vector<MaterializedViewSpec>> Bigtable::ListMaterializedViews() { return NoMaterializedViews(); }
Result<MaterializedViewSpec> Bigtable::UpdateMaterializedView(const MaterializedViewSpec&,
                                                              const MaterializedViewUpdate&) {
  return NoMaterializedViews();
}
Status Bigtable::DeleteMaterializedView(std::string_view, std::string_view) { return NoMaterializedViews(); }
Result<std::unique_ptr<RowStream>> Bigtable::ReadMaterializedView(std::string_view, const ReadRequest&) {
  return NoMaterializedViews();
}

namespace {

// A Table whose calls are its Bigtable's data calls on one table: how a
// Bigtable that does not open tables itself opens one.
class BoundTable final : public Table {
 public:
  BoundTable(Bigtable* bigtable, TableRef ref) : bigtable_(bigtable), ref_(std::move(ref)) {}

  const TableRef& ref() const override { return ref_; }
  Result<std::unique_ptr<RowStream>> ReadRows(const ReadRequest& request) override {
    return bigtable_->ReadRows(ref_.table, request);
  }
  Result<std::vector<std::optional<Row>>> LookupRows(const std::vector<std::string>& keys,
                                                     const ReadRequest& request) override {
    return bigtable_->LookupRows(ref_.table, keys, request);
  }
  Result<int64_t> CountRows(const RowRange& range) override { return bigtable_->CountRows(ref_.table, range); }
  Result<std::vector<KeySample>> SampleRowKeys(const RowRange& range) override {
    return bigtable_->SampleRowKeys(ref_.table, range);
  }
  Status MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) override {
    return bigtable_->MutateRow(ref_.table, row_key, mutations);
  }
  Result<std::vector<Status>> MutateRows(const std::vector<RowMutation>& rows) override {
    return bigtable_->MutateRows(ref_.table, rows);
  }
  Result<bool> CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                 const std::vector<Mutation>& true_mutations,
                                 const std::vector<Mutation>& false_mutations) override {
    return bigtable_->CheckAndMutateRow(ref_.table, row_key, predicate, true_mutations, false_mutations);
  }
  Result<Row> ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) override {
    return bigtable_->ReadModifyWriteRow(ref_.table, row_key, rules);
  }
  Result<std::vector<RowRange>> ChangeStreamPartitions() override {
    return bigtable_->ChangeStreamPartitions(ref_.table);
  }
  Result<std::unique_ptr<ChangeStream>> ReadChangeStream(const ChangeStreamRequest& request) override {
    return bigtable_->ReadChangeStream(ref_.table, request);
  }

 private:
  Bigtable* const bigtable_;
  const TableRef ref_;
};

}  // namespace

Result<std::unique_ptr<Table>> Bigtable::OpenTable(const TableRef& ref) {
  if (ref.is_materialized_view()) return ReadMaterializedViewAsTable(this, ref.materialized_view);
  return ThroughAuthorizedView(this, std::make_unique<BoundTable>(this, ref));
}

Result<std::unique_ptr<Table>> ThroughAuthorizedView(Bigtable* bigtable, std::unique_ptr<Table> table) {
  const TableRef& ref = table->ref();
  if (!ref.is_authorized_view()) return table;
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, bigtable->GetAuthorizedView(ref.table, ref.authorized_view));
  std::string name = ref.instance.project.empty() ? ref.RelativeName() : ref.FullName();
  return RestrictToView(std::move(table), std::move(view), std::move(name));
}

}  // namespace lbt
