#include "api/bigtable.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace lbt {

Result<std::optional<Row>> Bigtable::ReadRow(std::string_view table, std::string_view row_key,
                                             std::optional<Filter> filter) {
  ReadRequest request;
  request.rows.row_keys = {std::string(row_key)};
  request.filter = std::move(filter);
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(table, request));
  Row row;
  if (stream->Next(&row)) return std::optional<Row>(std::move(row));
  LBT_RETURN_IF_ERROR(stream->status());
  return std::optional<Row>();
}

Result<std::vector<std::optional<Row>>> Bigtable::LookupRows(std::string_view table,
                                                             const std::vector<std::string>& keys,
                                                             const ReadRequest& request) {
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
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> stream, ReadRows(table, read));
  size_t next = 0;  // into order
  for (Row row; stream->Next(&row);) {
    while (next < order.size() && keys[order[next]] < row.key) ++next;
    for (size_t j = next; j < order.size() && keys[order[j]] == row.key; ++j) results[order[j]] = row;
  }
  LBT_RETURN_IF_ERROR(stream->status());
  return results;
}

namespace {

class EmptyRowStream final : public RowStream {
 public:
  bool Next(Row*) override { return false; }
  Status status() const override { return Status::OK(); }
  ReadStats stats() const override { return {}; }
};

}  // namespace

std::unique_ptr<RowStream> NoRows() { return std::make_unique<EmptyRowStream>(); }

namespace {

Status NoAuthorizedViews() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no authorized views");
}

}  // namespace

Result<AuthorizedViewSpec> Bigtable::CreateAuthorizedView(std::string_view, const AuthorizedViewSpec&) {
  return NoAuthorizedViews();
}
Result<AuthorizedViewSpec> Bigtable::GetAuthorizedView(std::string_view, std::string_view) {
  return NoAuthorizedViews();
}
Result<std::vector<AuthorizedViewSpec>> Bigtable::ListAuthorizedViews(std::string_view) { return NoAuthorizedViews(); }
Result<AuthorizedViewSpec> Bigtable::UpdateAuthorizedView(std::string_view, const AuthorizedViewSpec&,
                                                          const AuthorizedViewUpdate&) {
  return NoAuthorizedViews();
}
Status Bigtable::DeleteAuthorizedView(std::string_view, std::string_view, std::string_view) {
  return NoAuthorizedViews();
}

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
Status NoChangeStreams() {
  return Status::FromCode(Status::Code::kUnimplemented, "this service has no change streams");
}
}  // namespace

Status Bigtable::SetChangeStream(std::string_view, const std::optional<ChangeStreamConfig>&) {
  return NoChangeStreams();
}
Result<std::vector<RowRange>> Bigtable::ChangeStreamPartitions(std::string_view) { return NoChangeStreams(); }
Result<std::unique_ptr<ChangeStream>> Bigtable::ReadChangeStream(std::string_view, const ChangeStreamRequest&) {
  return NoChangeStreams();
}

Status Bigtable::SetAutomatedBackupPolicy(std::string_view, const std::optional<AutomatedBackupPolicy>&) {
  return Status::FromCode(Status::Code::kUnimplemented, "this service takes no automated backups");
}

Result<std::unique_ptr<Bigtable>> Bigtable::OpenAuthorizedView(std::string_view table, std::string_view view_id) {
  LBT_ASSIGN_OR_RETURN(AuthorizedViewSpec view, GetAuthorizedView(table, view_id));
  std::string name = fmt::format("tables/{}/authorizedViews/{}", table, view_id);
  return RestrictToView(this, std::string(table), std::move(view), std::move(name));
}

}  // namespace lbt
