#include "local/local_table.h"

#include <utility>

#include "local/lazy_database.h"

namespace lbt {

LocalTable::LocalTable(std::shared_ptr<LazyDatabase> db, TableRef ref, std::string catalog_name)
    : db_(std::move(db)), ref_(std::move(ref)), catalog_name_(std::move(catalog_name)) {}

Result<Database*> LocalTable::For(bool write) const { return db_->OpenForTable(ref_.table, write); }

Result<std::unique_ptr<RowStream>> LocalTable::ReadRows(const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  return db->ReadRows(catalog_name_, request);
}

Result<std::vector<std::optional<Row>>> LocalTable::LookupRows(const std::vector<std::string>& keys,
                                                               const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  return db->LookupRows(catalog_name_, keys, request);
}

Result<int64_t> LocalTable::CountRows(const RowRange& range) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  return db->CountRows(catalog_name_, range);
}

Result<std::vector<KeySample>> LocalTable::SampleRowKeys(const RowRange& range) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  return db->SampleRowKeys(catalog_name_, range);
}

Status LocalTable::MutateRow(std::string_view row_key, const std::vector<Mutation>& mutations) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(true));
  return db->MutateRow(catalog_name_, row_key, mutations);
}

void LocalTable::MutateRowAsync(std::string row_key, std::vector<Mutation> mutations, WriteDone done) {
  Result<Database*> db = For(true);
  if (!db.ok()) return done(db.status());
  (*db)->MutateRowAsync(catalog_name_, std::move(row_key), std::move(mutations), std::move(done));
}

Result<std::vector<Status>> LocalTable::MutateRows(const std::vector<RowMutation>& rows) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(true));
  return db->MutateRows(catalog_name_, rows);
}

Result<bool> LocalTable::CheckAndMutateRow(std::string_view row_key, const std::optional<Filter>& predicate,
                                           const std::vector<Mutation>& true_mutations,
                                           const std::vector<Mutation>& false_mutations) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(true));
  return db->CheckAndMutateRow(catalog_name_, row_key, predicate, true_mutations, false_mutations);
}

Result<Row> LocalTable::ReadModifyWriteRow(std::string_view row_key, const std::vector<ReadModifyWriteRule>& rules) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(true));
  return db->ReadModifyWriteRow(catalog_name_, row_key, rules);
}

// The database names tables as it catalogues them: the instance's own
// name is checked here first.
Status LocalTable::RequireChangeStream(Database* db) const {
  LBT_ASSIGN_OR_RETURN(TableSpec spec, db->GetTable(catalog_name_));
  return spec.change_stream ? Status::OK() : ChangeStreamOff(ref_.table);
}

Result<std::vector<RowRange>> LocalTable::ChangeStreamPartitions() {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  LBT_RETURN_IF_ERROR(RequireChangeStream(db));
  return db->ChangeStreamPartitions(catalog_name_);
}

Result<std::unique_ptr<ChangeStream>> LocalTable::ReadChangeStream(const ChangeStreamRequest& request) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(false));
  LBT_RETURN_IF_ERROR(RequireChangeStream(db));
  return db->ReadChangeStream(catalog_name_, request);
}

}  // namespace lbt
