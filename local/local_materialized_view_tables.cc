// LocalBigtable's side of its instance's materialized views (which
// LocalInstanceAdmin keeps, local_materialized_views.cc): their hidden
// tables read as a table and opened for the maintainer, and the checks that
// keep a view's source from going while a view reads it.
//
// WARNING: the hidden tables' names are part of the on-disk format.

#include <fmt/format.h>

#include <cctype>

#include "api/materialized_view.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_bigtable.h"
#include "local/local_instance_admin.h"
#include "local/local_table.h"

namespace lbt {

namespace {

// Reads of one materialized view as if it were a table.
class MaterializedViewTable final : public WritesRefused<Table> {
 public:
  MaterializedViewTable(LocalBigtable* instance, TableRef ref) : instance_(instance), ref_(std::move(ref)) {}

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

  LocalBigtable* const instance_;
  const TableRef ref_;
};

// The two hidden tables of one view. Writes go to the database as any
// table's do, through its log when it has one.
class ViewStorage final : public MaterializedViewStorage {
 public:
  // `rows` and `state`: the tables' catalog names; the handles name them
  // "rows" and "state".
  ViewStorage(std::shared_ptr<LazyDatabase> db, std::string rows, std::string state)
      : db_(db),
        rows_name_(std::move(rows)),
        state_name_(std::move(state)),
        rows_(db, TableRef::Table("rows"), rows_name_),
        state_(db, TableRef::Table("state"), state_name_) {}

  Table& rows() override { return rows_; }
  Table& state() override { return state_; }
  Status Clear() override {
    LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
    LBT_RETURN_IF_ERROR(db->DropRowRange(rows_name_, ""));
    return db->DropRowRange(state_name_, "");
  }

 private:
  const std::shared_ptr<LazyDatabase> db_;
  const std::string rows_name_, state_name_;
  LocalTable rows_, state_;
};

}  // namespace

Result<std::unique_ptr<RowStream>> LocalBigtable::ReadMaterializedView(std::string_view view_id,
                                                                       const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(MaterializedViewSpec view, local_admin_->GetMaterializedView(instance_, view_id));
  if (!view.backfilled) {
    return Status::FailedPrecondition(
        fmt::format("materialized view {} is still being created: its first build from table '{}' is not done", view_id,
                    view.source_table));
  }
  db_->BeforeViewRead();
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  return db->ReadRows(MaterializedViewTableName(instance_, view_id), request);
}

std::unique_ptr<Table> LocalBigtable::OpenMaterializedViewAsTable(TableRef ref) {
  return std::make_unique<MaterializedViewTable>(this, std::move(ref));
}

void LocalBigtable::SetBeforeMaterializedViewRead(std::function<void()> hook) {
  db_->set_before_view_read(std::move(hook));
}

Result<std::unique_ptr<MaterializedViewStorage>> LocalBigtable::OpenMaterializedViewStorage(std::string_view view_id) {
  LBT_RETURN_IF_ERROR(local_admin_->GetMaterializedView(instance_, view_id).status());
  LBT_RETURN_IF_ERROR(db_->Open(true).status());
  return std::unique_ptr<MaterializedViewStorage>(std::make_unique<ViewStorage>(
      db_, MaterializedViewTableName(instance_, view_id), MaterializedViewStateName(instance_, view_id)));
}

Status LocalBigtable::SetMaterializedViewBackfilled(std::string_view view_id) {
  return local_admin_->SetMaterializedViewBackfilled(instance_, view_id);
}

namespace {

// Whether `word` occurs in `text` not as part of a longer name. After a
// dot it is a name of its own: a family read through the table's alias
// (`FROM t AS s ... s.cf['q']`).
bool NamesWord(std::string_view text, std::string_view word) {
  auto is_name = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'; };
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || text[at - 1] == '.' || !is_name(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !is_name(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

}  // namespace

Result<std::string> LocalBigtable::MaterializedViewsReading(std::string_view table,
                                                            std::optional<std::string_view> family) {
  LBT_ASSIGN_OR_RETURN(std::vector<MaterializedViewSpec> views, local_admin_->ListMaterializedViews(instance_));
  std::string readers;
  for (const MaterializedViewSpec& v : views) {
    if (v.source_table != table || (family && !NamesWord(v.query, *family))) continue;
    readers += fmt::format("{}{}/materializedViews/{}", readers.empty() ? "" : ", ", instance_.Full(), v.id);
  }
  return readers;
}

Status LocalBigtable::CheckNoMaterializedViewReads(std::string_view table, std::string_view what) {
  LBT_ASSIGN_OR_RETURN(std::string readers, MaterializedViewsReading(table, std::nullopt));
  if (readers.empty()) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("Unable to {} {}/tables/{} because the resource is referenced by another resource. The existing "
                  "references are: {{{}}}",
                  what, instance_.Full(), table, readers));
}

Status LocalBigtable::CheckNoMaterializedViewReadsFamily(std::string_view table, std::string_view family) {
  LBT_ASSIGN_OR_RETURN(std::string readers, MaterializedViewsReading(table, family));
  if (readers.empty()) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("Unable to delete column family {} of {}/tables/{} because materialized views read it: {{{}}}",
                  family, instance_.Full(), table, readers));
}

}  // namespace lbt
