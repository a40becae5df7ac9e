#include "engine/local_bigtable.h"

#include <fmt/format.h>

#include <chrono>

#include "engine/bulk_loader.h"
#include "engine/row_reader.h"
#include "filter/row_filter.h"

namespace lbt {

namespace {

// SampleRowKeys reports a key about every this many bytes of data.
constexpr uint64_t kSampleIntervalBytes = 4 << 20;

// A RowReader with the compiled filter it reads through.
class LocalRowStream final : public RowStream {
 public:
  LocalRowStream(std::unique_ptr<RowFilter> filter, std::unique_ptr<RowReader> reader)
      : filter_(std::move(filter)), reader_(std::move(reader)) {}

  bool Next(Row* row) override { return reader_->Next(row); }
  Status status() const override { return reader_->status(); }
  ReadStats stats() const override { return reader_->stats(); }
  void ReleaseSnapshot() override { reader_->ReleaseSnapshot(); }
  std::string LastScannedKey() const override { return reader_->skipped_tail_key(); }

 private:
  // Declared first so that it outlives the reader that points to it.
  std::unique_ptr<RowFilter> filter_;
  std::unique_ptr<RowReader> reader_;
};

}  // namespace

LocalBigtable::LocalBigtable(std::string dir, DatabaseOptions options)
    : dir_(std::move(dir)), options_(std::move(options)) {}

LocalBigtable::LocalBigtable(Database* db) : dir_(db->dir()), db_(db) {}

LocalBigtable::~LocalBigtable() {
  if (owned_ != nullptr) owned_->Sync();  // with sync off, the one flush at the end
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
  std::unique_ptr<RowFilter> filter;
  if (request.filter) {
    LBT_ASSIGN_OR_RETURN(filter, CompileFilter(*request.filter));
  }
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  ReadOptions options;
  options.rows = request.rows;
  options.reversed = request.reversed;
  options.rows_limit = request.rows_limit;
  options.cells_per_column_limit = request.cells_per_column_limit;
  options.columns = request.columns;
  options.filter = filter.get();
  options.max_snapshot_age = request.max_snapshot_age;
  options.interrupted = request.interrupted;
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowReader> reader, db->NewReader(table, options));
  return std::unique_ptr<RowStream>(std::make_unique<LocalRowStream>(std::move(filter), std::move(reader)));
}

Result<std::vector<std::optional<Row>>> LocalBigtable::LookupRows(std::string_view table,
                                                                  const std::vector<std::string>& keys,
                                                                  const ReadRequest& request) {
  std::unique_ptr<RowFilter> filter;
  if (request.filter) {
    LBT_ASSIGN_OR_RETURN(filter, CompileFilter(*request.filter));
  }
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  ReadOptions options;
  options.cells_per_column_limit = request.cells_per_column_limit;
  options.columns = request.columns;
  options.filter = filter.get();
  return db->LookupRows(table, keys, options);
}

Result<std::unique_ptr<BulkLoad>> LocalBigtable::NewBulkLoad(std::string_view table, const BulkLoadOptions& options) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoader> loader, db->NewBulkLoader(table, options));
  return std::unique_ptr<BulkLoad>(std::move(loader));
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
  return db->MutateRowsEach(table, rows);
}

Result<bool> LocalBigtable::CheckAndMutateRow(std::string_view table, std::string_view row_key,
                                              const std::optional<Filter>& predicate,
                                              const std::vector<Mutation>& true_mutations,
                                              const std::vector<Mutation>& false_mutations) {
  std::unique_ptr<RowFilter> compiled;
  if (predicate) {
    LBT_ASSIGN_OR_RETURN(compiled, CompileFilter(*predicate, "predicate_filter"));
  }
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->CheckAndMutateRow(table, row_key, compiled.get(), true_mutations, false_mutations);
}

Result<Row> LocalBigtable::ReadModifyWriteRow(std::string_view table, std::string_view row_key,
                                              const std::vector<ReadModifyWriteRule>& rules) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->ReadModifyWriteRow(table, row_key, rules);
}

Result<std::vector<KeySample>> LocalBigtable::SampleRowKeys(std::string_view table, const RowRange& range) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->SampleRowKeys(table, kSampleIntervalBytes, range);
}

// ---- admin ----

Status LocalBigtable::CreateTable(std::string_view table, const std::vector<FamilySpec>& families,
                                 const std::vector<std::string>&, bool deletion_protection) {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(true));
  return db->CreateTable(table, families, deletion_protection);
}

Status LocalBigtable::DeleteTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->DropTable(table);
}

Result<std::vector<std::string>> LocalBigtable::ListTables() {
  LBT_ASSIGN_OR_RETURN(Database * db, Open(false));
  if (db == nullptr) return std::vector<std::string>();
  return db->ListTables();
}

Result<TableSpec> LocalBigtable::GetTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  return db->DescribeTable(table);
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
  return db->DropFamily(table, family);
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
  return db_ == nullptr ? Status::OK() : db_->Sync();
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
