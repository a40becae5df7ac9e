#include "engine/local_bigtable.h"

#include <fmt/format.h>

#include <chrono>

namespace lbt {

LocalBigtable::LocalBigtable(std::string dir, DatabaseOptions options)
    : dir_(std::move(dir)), options_(std::move(options)) {}

LocalBigtable::~LocalBigtable() {
  if (owned_ != nullptr) owned_->Flush();  // with sync off, the one flush at the end
}

std::string LocalBigtable::Describe() const { return fmt::format("database '{}'", dir_); }

Result<Database*> LocalBigtable::Open(bool create) {
  std::lock_guard<std::mutex> lock(open_mu_);
  if (db_ != nullptr) return db_;
  DatabaseOptions options = options_;
  options.create_if_missing = create && !options_.read_only;
  Result<std::unique_ptr<Database>> db = Database::Open(dir_, options);
  if (!db.ok()) {
    if (db.status().IsNotFound() && !options.create_if_missing) return static_cast<Database*>(nullptr);
    return db.status();
  }
  owned_ = std::move(db).value();
  db_ = owned_.get();
  return db_;
}

Result<Database*> LocalBigtable::For(std::string_view table, bool write) {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(write));
  if (db == nullptr) return Status::NotFound(fmt::format("table '{}' does not exist", table));
  return db;
}

bool LocalBigtable::Exists() {
  Result<Database*> db = Open(false);
  return !db.ok() || *db != nullptr;  // an unopenable one exists: its error comes next
}

// ---- data ----

Result<std::unique_ptr<RowStream>> LocalBigtable::ReadRows(std::string_view table, const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->ReadRows(table, request);
}

Result<std::vector<std::optional<Row>>> LocalBigtable::LookupRows(std::string_view table,
                                                                  const std::vector<std::string>& keys,
                                                                  const ReadRequest& request) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->LookupRows(table, keys, request);
}

Result<std::unique_ptr<BulkLoad>> LocalBigtable::NewBulkLoad(std::string_view table, const BulkLoadOptions& options) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->NewBulkLoad(table, options);
}

Result<int64_t> LocalBigtable::CountRows(std::string_view table, const RowRange& range) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->CountRows(table, range);
}

Status LocalBigtable::MutateRow(std::string_view table, std::string_view row_key,
                                const std::vector<Mutation>& mutations) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->MutateRow(table, row_key, mutations);
}

Result<std::vector<Status>> LocalBigtable::MutateRows(std::string_view table, const std::vector<RowMutation>& rows) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->MutateRows(table, rows);
}

Result<bool> LocalBigtable::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                              const std::optional<Filter>& predicate,
                                              const std::vector<Mutation>& true_mutations,
                                              const std::vector<Mutation>& false_mutations) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->CheckAndMutateRow(table, row_key, predicate, true_mutations, false_mutations);
}

Result<Row> LocalBigtable::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                              const std::vector<ReadModifyWriteRule>& rules) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->ReadModifyWriteRow(table, row_key, rules);
}

Result<std::vector<KeySample>> LocalBigtable::SampleRowKeys(std::string_view table, const RowRange& range) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->SampleRowKeys(table, range);
}

// ---- admin ----

Status LocalBigtable::CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                                  const std::vector<std::string>& splits, bool deletion_protection) {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(true));
  return db->CreateTable(table, families, splits, deletion_protection);
}

Status LocalBigtable::DeleteTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->DeleteTable(table);
}

Result<std::vector<std::string>> LocalBigtable::ListTables() {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(false));
  if (db == nullptr) return std::vector<std::string>();
  return db->ListTables();
}

Result<TableSpec> LocalBigtable::GetTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->GetTable(table);
}

Status LocalBigtable::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->ModifyFamilies(table, changes);
}

Status LocalBigtable::CreateFamily(std::string_view table, const FamilySpec& family) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->CreateFamily(table, family);
}

Status LocalBigtable::DeleteFamily(std::string_view table, std::string_view family) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->DeleteFamily(table, family);
}

Status LocalBigtable::SetGcRule(std::string_view table, std::string_view family, const GcRule& rule) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetGcRule(table, family, rule);
}

Status LocalBigtable::SetValueType(std::string_view table, std::string_view family, ValueType type) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetValueType(table, family, type);
}

Status LocalBigtable::SetDeletionProtection(std::string_view table, bool enabled) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetDeletionProtection(table, enabled);
}

Status LocalBigtable::DropRowRange(std::string_view table, std::string_view prefix) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->DropRowRange(table, prefix);
}

Status LocalBigtable::Flush() {
  std::lock_guard<std::mutex> lock(open_mu_);
  return db_ == nullptr ? Status::OK() : db_->Flush();
}

int64_t LocalBigtable::NowMicros() const {
  if (db_ != nullptr) return db_->NowMicros();
  if (options_.clock) return options_.clock();
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// ---- local maintenance ----

Result<GcStats> LocalBigtable::CollectGarbage(std::string_view table,
                                              const std::function<Status(int64_t cells)>& progress) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->CollectGarbage(table, progress);
}

Result<CompactStats> LocalBigtable::Compact() {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(false));
  if (db == nullptr) return Status::NotFound("there is no database to compact yet");
  return db->Compact();
}

Status LocalBigtable::SetTableEnabled(std::string_view table, bool enabled) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetTableEnabled(table, enabled);
}

}  // namespace lbt
