#include "local/local_bigtable.h"

#include <fmt/format.h>

#include <chrono>

#include "api/backup.h"
#include "api/logical_view.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_instance_admin.h"
#include "local/local_table.h"

namespace lbt {

// ---- LocalBigtable ----

LocalBigtable::LocalBigtable(std::string dir, DatabaseOptions options, InstanceName instance)
    : db_(std::make_shared<LazyDatabase>(std::move(dir), std::move(options))),
      instance_(std::move(instance)),
      prefix_(TablePrefixOf(instance_)) {
  OwnAdmin(/*shown=*/true);
}

LocalBigtable::LocalBigtable(std::unique_ptr<Database> opened, DatabaseOptions options)
    : db_(std::make_shared<LazyDatabase>(std::move(opened), std::move(options))), instance_(DefaultInstanceName()) {
  OwnAdmin(/*shown=*/true);
}

LocalBigtable::LocalBigtable(std::shared_ptr<LazyDatabase> db, InstanceName instance, LocalInstanceAdmin* admin)
    : db_(std::move(db)),
      instance_(std::move(instance)),
      prefix_(TablePrefixOf(instance_)),
      local_admin_(admin),
      admin_(admin) {}

std::unique_ptr<LocalBigtable> LocalBigtable::OneInstanceOf(Database* db, DatabaseOptions options) {
  auto shared = std::make_shared<LazyDatabase>(db, std::move(options));
  auto tables = std::make_unique<LocalBigtable>(shared, DefaultInstanceName(), nullptr);
  tables->OwnAdmin(/*shown=*/false);
  return tables;
}

void LocalBigtable::OwnAdmin(bool shown) {
  // The admin opens each instance's tables as this instance's are made,
  // sharing the database and borrowing the admin.
  owned_admin_ = std::make_unique<LocalInstanceAdmin>(db_, [db = db_, this](const InstanceName& name) {
    return std::unique_ptr<Bigtable>(std::make_unique<LocalBigtable>(db, name, owned_admin_.get()));
  });
  local_admin_ = owned_admin_.get();
  if (shown) admin_ = owned_admin_.get();
}

LocalBigtable::~LocalBigtable() = default;

std::string LocalBigtable::Describe() const {
  if (prefix_.empty()) return fmt::format("database '{}'", db_->dir());
  return fmt::format("instance {}/{} in database '{}'", instance_.project, instance_.instance, db_->dir());
}

std::string LocalBigtable::PromptName() const {
  return prefix_.empty() ? "lbt" : instance_.project + "/" + instance_.instance;
}

const std::string& LocalBigtable::dir() const { return db_->dir(); }
bool LocalBigtable::lazy_gc() const { return db_->options().gc == GcMode::kLazy; }
std::chrono::milliseconds LocalBigtable::gc_interval() const { return db_->options().gc_interval; }
bool LocalBigtable::read_only() const { return db_->options().read_only; }

Result<Database*> LocalBigtable::For(std::string_view table, bool write) { return db_->OpenForTable(table, write); }

bool LocalBigtable::Exists() {
  Result<Database*> db = db_->Open(false);
  return !db.ok() || *db != nullptr;  // an unopenable one exists: its error comes next
}

// ---- data ----

Result<std::unique_ptr<BulkLoad>> LocalBigtable::NewBulkLoad(std::string_view table, const BulkLoadOptions& options) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->NewBulkLoad(Qualified(table), options);
}

// ---- admin ----

Status LocalBigtable::CreateTable(std::string_view table, const NewTable& spec) {
  LBT_RETURN_IF_ERROR(ValidateTableName(table));
  LBT_RETURN_IF_ERROR(CheckNoViewNamed(table));
  LBT_RETURN_IF_ERROR(CheckBundleTypes(TableSpec(), spec.families));
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  return db->CreateTable(Qualified(table), spec);
}

Status LocalBigtable::CheckNoViewNamed(std::string_view table) {
  if (local_admin_->GetMaterializedView(instance_, table).ok()) {
    return Status::AlreadyExists(fmt::format(
        "instance {} has a materialized view named '{}'; a query could not name the table", instance_.Full(), table));
  }
  Result<LogicalViewSpec> view = local_admin_->GetLogicalView(instance_, table);
  if (!view.ok()) return view.status().IsNotFound() ? Status::OK() : view.status();
  return Status::AlreadyExists(fmt::format(
      "instance {} has a logical view named '{}'; a query could not name the table", instance_.Full(), table));
}

Status LocalBigtable::DeleteTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  LBT_RETURN_IF_ERROR(CheckNoMaterializedViewReads(table, "delete"));
  // Kept, hidden, for an undelete; PurgeDeletedTables reclaims it later.
  return db->DeleteTableKeeping(Qualified(table), DeletedTableName(instance_, table), db->NowMicros());
}

Status LocalBigtable::UndeleteTable(std::string_view table) {
  LBT_RETURN_IF_ERROR(ValidateTableName(table));
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(true));
  const std::string kept = DeletedTableName(instance_, table);
  Result<TableSpec> spec = db->GetTable(kept);
  if (spec.status().IsNotFound() ||
      (spec.ok() && spec->deleted_micros.value_or(0) <= db->NowMicros() - kUndeleteRetentionMicros)) {
    return Status::NotFound(fmt::format("no table '{}' was deleted in the last 7 days (or it was purged)", table));
  }
  LBT_RETURN_IF_ERROR(spec.status());
  LBT_RETURN_IF_ERROR(CheckNoViewNamed(table));
  return db->UndeleteTable(kept, Qualified(table));
}

Result<std::vector<std::string>> LocalBigtable::PurgeDeletedTables(bool expired_only) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  std::vector<std::string> purged;
  if (db == nullptr || db->read_only()) return purged;
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListTables());
  const int64_t cutoff = db->NowMicros() - kUndeleteRetentionMicros;
  for (const std::string& name : names) {
    if (!name.starts_with(kDeletedTablePrefix)) continue;
    LBT_ASSIGN_OR_RETURN(TableSpec spec, db->GetTable(name));
    if (expired_only && spec.deleted_micros.value_or(0) > cutoff) continue;
    LBT_RETURN_IF_ERROR(db->DeleteTable(name));
    std::string_view table;
    const InstanceName instance = InstanceOfTable(name.substr(kDeletedTablePrefix.size()), &table);
    purged.push_back(instance == DefaultInstanceName() ? std::string(table) : name.substr(kDeletedTablePrefix.size()));
  }
  return purged;
}

Status LocalBigtable::SetAutomatedBackupPolicy(std::string_view table,
                                               const std::optional<AutomatedBackupPolicy>& policy) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetAutomatedBackupPolicy(Qualified(table), policy);
}

Status LocalBigtable::SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                                      bool ignore_warnings) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetRowKeySchema(Qualified(table), schema, ignore_warnings);
}

Status LocalBigtable::SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetTieredStorage(Qualified(table), tiers);
}

Status LocalBigtable::SetChangeStream(std::string_view table, const std::optional<ChangeStreamConfig>& config) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  if (!config) LBT_RETURN_IF_ERROR(CheckNoMaterializedViewReads(table, "disable the change stream of"));
  return db->SetChangeStream(Qualified(table), config);
}

// ---- backups, kept by the instance admin ----

Status LocalBigtable::RunAutomatedBackups() { return local_admin_->RunAutomatedBackups(); }

Result<BackupSpec> LocalBigtable::CreateBackup(std::string_view cluster, std::string_view backup_id,
                                               std::string_view table, int64_t expire_time_micros) {
  return local_admin_->CreateBackup(instance_, cluster, backup_id, table, expire_time_micros);
}
Result<BackupSpec> LocalBigtable::GetBackup(std::string_view cluster, std::string_view backup_id) {
  return local_admin_->GetBackup(instance_, cluster, backup_id);
}
Result<std::vector<BackupSpec>> LocalBigtable::ListBackups(std::string_view cluster) {
  return local_admin_->ListBackups(instance_, cluster);
}
Result<BackupSpec> LocalBigtable::UpdateBackupExpireTime(std::string_view cluster, std::string_view backup_id,
                                                         int64_t expire_time_micros) {
  return local_admin_->UpdateBackupExpireTime(instance_, cluster, backup_id, expire_time_micros);
}
Status LocalBigtable::DeleteBackup(std::string_view cluster, std::string_view backup_id) {
  return local_admin_->DeleteBackup(instance_, cluster, backup_id);
}
Result<BackupSpec> LocalBigtable::CopyBackup(const BackupSpec& source, std::string_view cluster,
                                             std::string_view backup_id, int64_t expire_time_micros) {
  return local_admin_->CopyBackup(source, instance_, cluster, backup_id, expire_time_micros);
}
Status LocalBigtable::RestoreTable(const BackupSpec& backup, std::string_view table_id) {
  return local_admin_->RestoreTable(backup, instance_, table_id);
}

Result<IamPolicy> LocalBigtable::GetIamPolicy(std::string_view resource) {
  return local_admin_->GetIamPolicy(resource);
}
Result<IamPolicy> LocalBigtable::SetIamPolicy(std::string_view resource, const IamPolicy& policy) {
  return local_admin_->SetIamPolicy(resource, policy);
}

Result<std::unique_ptr<Table>> LocalBigtable::OpenTable(const TableRef& ref) {
  TableRef named = ref;
  if (named.instance.project.empty()) named.instance = instance_;
  if (named.is_materialized_view()) return OpenMaterializedViewAsTable(std::move(named));
  std::string catalog_name = Qualified(named.table);
  return ThroughAuthorizedView(this, std::make_unique<LocalTable>(db_, std::move(named), std::move(catalog_name)));
}

Result<std::vector<std::string>> LocalBigtable::ListTables() {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return std::vector<std::string>();
  LBT_ASSIGN_OR_RETURN(std::vector<std::string> all, db->ListTables());
  std::vector<std::string> mine;  // still in byte order: they share the prefix
  for (const std::string& name : all) {
    std::string_view table;
    if (IsHiddenTable(name) || !(InstanceOfTable(name, &table) == instance_)) continue;
    if (table.find('/') == std::string_view::npos) mine.emplace_back(table);
  }
  return mine;
}

Result<TableSpec> LocalBigtable::GetTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, false));
  LBT_ASSIGN_OR_RETURN(TableSpec spec, db->GetTable(Qualified(table)));
  spec.name = std::string(table);
  return spec;
}

Status LocalBigtable::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  std::vector<FamilySpec> created;
  for (const FamilyChange& change : changes) {
    if (change.kind == FamilyChange::Kind::kDrop)
      LBT_RETURN_IF_ERROR(CheckNoMaterializedViewReadsFamily(table, change.family.name));
    if (change.kind == FamilyChange::Kind::kCreate) created.push_back(change.family);
  }
  if (!created.empty()) {
    LBT_ASSIGN_OR_RETURN(TableSpec spec, GetTable(table));
    LBT_RETURN_IF_ERROR(CheckBundleTypes(spec, created));
  }
  return db->ModifyFamilies(Qualified(table), changes);
}

Status LocalBigtable::SetDeletionProtection(std::string_view table, bool enabled) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetDeletionProtection(Qualified(table), enabled);
}

Status LocalBigtable::DropRowRange(std::string_view table, std::string_view prefix) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->DropRowRange(Qualified(table), prefix);
}

Status LocalBigtable::Flush() { return db_->Flush(); }

int64_t LocalBigtable::NowMicros() const { return db_->NowMicros(); }

// ---- local maintenance ----

Result<GcStats> LocalBigtable::CollectGarbage(std::string_view table,
                                              const std::function<Status(int64_t cells)>& progress) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->CollectGarbage(Qualified(table), progress);
}

Result<CompactStats> LocalBigtable::Compact() {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return Status::NotFound("there is no database to compact yet");
  return db->Compact();
}

Status LocalBigtable::SetTableEnabled(std::string_view table, bool enabled) {
  LBT_ASSIGN_OR_RETURN(Database * db, For(table, true));
  return db->SetTableEnabled(Qualified(table), enabled);
}

}  // namespace lbt
