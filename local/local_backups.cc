// LocalInstanceAdmin's backups (api/backup.h): records under "backup:"
// and the cells in hidden tables (local/instance_records.h); and the
// automated backups that tables' policies make due. A backup or a
// restore copies rows from one snapshot through a bulk load, so memory stays
// bounded by the load's sort memory whatever the table's size.

#include <fmt/format.h>

#include <ctime>

#include <algorithm>
#include <optional>

#include "api/bigtable.h"
#include "local/instance_records.h"
#include "local/lazy_database.h"
#include "local/local_instance_admin.h"
#include "util/file_lock.h"

namespace lbt {

namespace {

Status NoBackup(const InstanceName& instance, std::string_view cluster, std::string_view id) {
  return Status::NotFound(fmt::format("backup {}/clusters/{}/backups/{} does not exist", instance.Full(), cluster, id));
}

// Copies every row of `from` into `to`, both catalogued names of `db`,
// from one snapshot of `from`. Returns the bytes copied.
Result<int64_t> CopyRows(Database* db, std::string_view from, std::string_view to) {
  ReadRequest read;  // max_snapshot_age 0: the whole read sees one moment
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<RowStream> rows, db->ReadRows(from, read));
  LBT_ASSIGN_OR_RETURN(std::unique_ptr<BulkLoad> load, db->NewBulkLoad(to, BulkLoadOptions{}));
  int64_t bytes = 0;
  for (Row row; rows->Next(&row);) {
    RowMutation copy{row.key, {}};
    for (Cell& cell : row.cells) {
      bytes += static_cast<int64_t>(row.key.size() + cell.qualifier.size() + cell.value.size());
      copy.mutations.push_back(
          Mutation::SetCell(std::move(cell.family), std::move(cell.qualifier), std::move(cell.value), cell.timestamp));
    }
    LBT_RETURN_IF_ERROR(load->Add(copy));
  }
  LBT_RETURN_IF_ERROR(rows->status());
  LBT_RETURN_IF_ERROR(load->Finish(nullptr, nullptr));
  if (load->stats().rows_failed > 0) {
    return Status::FromCode(Status::Code::kInternal,
                            fmt::format("{} rows could not be copied", load->stats().rows_failed));
  }
  return bytes;
}

// Held by whatever makes a backup or restores one, start to end: each works
// under a hidden table named after its result (a backup's id, a restore's
// table), and clears what an interrupted one left there first, so two at
// once (two CreateBackup calls with one id) would delete each other's
// work. One at a time per database, across processes; the second then
// finds the first's result (ALREADY_EXISTS).
Status LockBackups(Database* db, std::optional<FileLock>* lock) {
  lock->emplace(db->dir() + "/backups.lock", FileLock::Mode::kWait);
  if (!(*lock)->held()) {
    return Status::FromCode(Status::Code::kInternal, fmt::format("cannot lock {}/backups.lock", db->dir()));
  }
  return Status::OK();
}

// `families` with rules that keep every cell, for a backup's hidden table.
std::vector<FamilySpec> KeepingEverything(std::vector<FamilySpec> families) {
  for (FamilySpec& f : families) f.gc_rule = GcRule::Never();
  return families;
}

// Deletes the IAM policy of backup `full_name`: a backup made under a name
// once used starts without one.
Status ForgetBackupPolicy(Database* db, const std::string& full_name) {
  return db->ChangeRecord(IamKey(full_name), [](std::optional<std::string>* record) {
    record->reset();
    return Status::OK();
  });
}

}  // namespace

Result<Database*> LocalInstanceAdmin::OpenForBackups(bool create) {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(create));
  if (db == nullptr) return static_cast<Database*>(nullptr);
  LBT_RETURN_IF_ERROR(DropExpiredBackups(db));
  return db;
}

Status LocalInstanceAdmin::DropExpiredBackups(Database* db) {
  LBT_ASSIGN_OR_RETURN(auto records, db->ReadRecords(kBackupKeyPrefix));
  const int64_t now = NowMicros();
  for (const auto& [key, bytes] : records) {
    BackupSpec spec;
    LBT_RETURN_IF_ERROR(DecodeBackupSpec(key, bytes, &spec));
    if (spec.expire_time_micros > now) continue;
    LBT_RETURN_IF_ERROR(db->ChangeRecord(
        key, [](std::optional<std::string>* record) { return record->reset(), Status::OK(); },
        BackupTableName(spec.instance, spec.cluster, spec.id)));
    LBT_RETURN_IF_ERROR(ForgetBackupPolicy(db, spec.Full()));
  }
  return Status::OK();
}

Result<BackupSpec> LocalInstanceAdmin::Snapshot(Database* db, BackupSpec backup, std::string_view from) {
  const std::string hidden = BackupTableName(backup.instance, backup.cluster, backup.id);
  // What a backup interrupted under this name left, seen by nobody.
  Status gone = db->DeleteTable(hidden);
  if (!gone.ok() && !gone.IsNotFound()) return gone;
  LBT_ASSIGN_OR_RETURN(const TableSpec source, db->GetTable(from));
  LBT_RETURN_IF_ERROR(db->CreateTable(hidden, NewTable{.families = KeepingEverything(backup.families),
                                                       .granularity = backup.granularity,
                                                       .tiered_storage = source.tiered_storage,
                                                       .row_key_schema = source.row_key_schema}));
  backup.start_time_micros = NowMicros();
  Result<int64_t> bytes = CopyRows(db, from, hidden);
  if (!bytes.ok()) {
    db->DeleteTable(hidden);
    return bytes.status();
  }
  backup.size_bytes = *bytes;
  backup.end_time_micros = NowMicros();
  // Whatever a deletion cut short left of an earlier backup's policy.
  Status forgotten = ForgetBackupPolicy(db, backup.Full());
  if (!forgotten.ok()) {
    db->DeleteTable(hidden);
    return forgotten;
  }
  const std::string key = BackupKey(backup.instance, backup.cluster, backup.id);
  Status stored = db->ChangeRecord(key, [&](std::optional<std::string>* record) -> Status {
    if (record->has_value()) return Status::AlreadyExists(fmt::format("backup {} already exists", backup.Full()));
    *record = EncodeBackupSpec(backup);
    return Status::OK();
  });
  if (!stored.ok()) {
    db->DeleteTable(hidden);
    return stored;
  }
  return backup;
}

Status LocalInstanceAdmin::CheckNewBackup(Database* db, const InstanceName& instance, std::string_view cluster,
                                          std::string_view backup_id, int64_t expire_time_micros) {
  LBT_RETURN_IF_ERROR(ValidateBackupId(backup_id, "backup_id"));
  LBT_RETURN_IF_ERROR(ValidateExpireTime(expire_time_micros, NowMicros(), "backup.expire_time"));
  LBT_ASSIGN_OR_RETURN(InstanceSpec spec, GetInstance(instance));
  if (spec.FindCluster(cluster) == nullptr) {
    return Status::NotFound(fmt::format("cluster {}/clusters/{} does not exist", instance.Full(), cluster));
  }
  // Checked again when the record is stored; here so that a taken id
  // costs no copy.
  LBT_ASSIGN_OR_RETURN(std::optional<std::string> existing, db->ReadRecord(BackupKey(instance, cluster, backup_id)));
  if (existing.has_value()) {
    return Status::AlreadyExists(
        fmt::format("backup {}/clusters/{}/backups/{} already exists", instance.Full(), cluster, backup_id));
  }
  return Status::OK();
}

Result<BackupSpec> LocalInstanceAdmin::CreateBackup(const InstanceName& instance, std::string_view cluster,
                                                    std::string_view backup_id, std::string_view table,
                                                    int64_t expire_time_micros) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(true));
  std::optional<FileLock> lock;
  LBT_RETURN_IF_ERROR(LockBackups(db, &lock));
  LBT_RETURN_IF_ERROR(CheckNewBackup(db, instance, cluster, backup_id, expire_time_micros));
  if (table.find('/') != std::string_view::npos) {
    return Status::NotFound(fmt::format("table '{}' does not exist", table));
  }
  const std::string source = TablePrefixOf(instance) + std::string(table);
  LBT_ASSIGN_OR_RETURN(TableSpec spec, db->GetTable(source));
  BackupSpec backup;
  backup.instance = instance;
  backup.cluster = std::string(cluster);
  backup.id = std::string(backup_id);
  backup.source_table = std::string(table);
  backup.source_instance = instance;
  backup.expire_time_micros = expire_time_micros;
  for (const FamilySpec* f : spec.FamiliesInCreationOrder()) backup.families.push_back(*f);
  backup.granularity = spec.granularity;
  return Snapshot(db, std::move(backup), source);
}

Result<BackupSpec> LocalInstanceAdmin::GetBackup(const InstanceName& instance, std::string_view cluster,
                                                 std::string_view backup_id) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(false));
  if (db == nullptr) return NoBackup(instance, cluster, backup_id);
  const std::string key = BackupKey(instance, cluster, backup_id);
  LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, db->ReadRecord(key));
  if (!record.has_value()) return NoBackup(instance, cluster, backup_id);
  BackupSpec spec;
  LBT_RETURN_IF_ERROR(DecodeBackupSpec(key, *record, &spec));
  return spec;
}

Result<std::vector<BackupSpec>> LocalInstanceAdmin::ListBackups(const InstanceName& instance,
                                                                std::string_view cluster) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(false));
  std::vector<BackupSpec> backups;
  if (db == nullptr) return backups;
  LBT_ASSIGN_OR_RETURN(auto records, db->ReadRecords(BackupKeyPrefix(instance, cluster == "-" ? "" : cluster)));
  for (const auto& [key, bytes] : records) {
    BackupSpec spec;
    LBT_RETURN_IF_ERROR(DecodeBackupSpec(key, bytes, &spec));
    backups.push_back(std::move(spec));
  }
  return backups;
}

Result<BackupSpec> LocalInstanceAdmin::UpdateBackupExpireTime(const InstanceName& instance, std::string_view cluster,
                                                              std::string_view backup_id, int64_t expire_time_micros) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(false));
  if (db == nullptr) return NoBackup(instance, cluster, backup_id);
  BackupSpec updated;
  LBT_RETURN_IF_ERROR(
      db->ChangeRecord(BackupKey(instance, cluster, backup_id), [&](std::optional<std::string>* record) -> Status {
        if (!record->has_value()) return NoBackup(instance, cluster, backup_id);
        LBT_RETURN_IF_ERROR(DecodeBackupSpec(BackupKey(instance, cluster, backup_id), **record, &updated));
        LBT_RETURN_IF_ERROR(ValidateExpireTime(expire_time_micros, updated.start_time_micros, "backup.expire_time"));
        updated.expire_time_micros = expire_time_micros;
        *record = EncodeBackupSpec(updated);
        return Status::OK();
      }));
  return updated;
}

Status LocalInstanceAdmin::DeleteBackup(const InstanceName& instance, std::string_view cluster,
                                        std::string_view backup_id) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(false));
  if (db == nullptr) return NoBackup(instance, cluster, backup_id);
  LBT_RETURN_IF_ERROR(db->ChangeRecord(
      BackupKey(instance, cluster, backup_id),
      [&](std::optional<std::string>* record) -> Status {
        if (!record->has_value()) return NoBackup(instance, cluster, backup_id);
        record->reset();
        return Status::OK();
      },
      BackupTableName(instance, cluster, backup_id)));
  return ForgetBackupPolicy(
      db, BackupSpec{.instance = instance, .cluster = std::string(cluster), .id = std::string(backup_id)}.Full());
}

Result<BackupSpec> LocalInstanceAdmin::CopyBackup(const BackupSpec& source, const InstanceName& to_instance,
                                                  std::string_view to_cluster, std::string_view backup_id,
                                                  int64_t expire_time_micros) {
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(true));
  std::optional<FileLock> lock;
  LBT_RETURN_IF_ERROR(LockBackups(db, &lock));
  LBT_RETURN_IF_ERROR(CheckNewBackup(db, to_instance, to_cluster, backup_id, expire_time_micros));
  LBT_ASSIGN_OR_RETURN(BackupSpec from, GetBackup(source.instance, source.cluster, source.id));
  BackupSpec copy = from;
  copy.instance = to_instance;
  copy.cluster = std::string(to_cluster);
  copy.id = std::string(backup_id);
  copy.source_backup = from.Full();
  copy.source_instance = from.SourceInstance();
  copy.expire_time_micros = expire_time_micros;
  LBT_ASSIGN_OR_RETURN(BackupSpec made, Snapshot(db, copy, BackupTableName(from.instance, from.cluster, from.id)));
  // A copy holds the cells of its source's moment.
  made.start_time_micros = from.start_time_micros;
  made.end_time_micros = from.end_time_micros;
  LBT_RETURN_IF_ERROR(db->ChangeRecord(BackupKey(to_instance, to_cluster, backup_id),
                                       [&](std::optional<std::string>* record) -> Status {
                                         *record = EncodeBackupSpec(made);
                                         return Status::OK();
                                       }));
  return made;
}

Status LocalInstanceAdmin::RestoreTable(const BackupSpec& backup, const InstanceName& to_instance,
                                        std::string_view table_id) {
  LBT_RETURN_IF_ERROR(ValidateTableName(table_id));
  LBT_ASSIGN_OR_RETURN(Database * db, OpenForBackups(true));
  std::optional<FileLock> lock;
  LBT_RETURN_IF_ERROR(LockBackups(db, &lock));
  LBT_ASSIGN_OR_RETURN(BackupSpec from, GetBackup(backup.instance, backup.cluster, backup.id));
  const std::string target = TablePrefixOf(to_instance) + std::string(table_id);
  if (db->GetTable(target).ok()) return Status::AlreadyExists(fmt::format("table '{}' already exists", table_id));
  // Made whole under a hidden name, then renamed: an interrupted restore
  // leaves no table anyone sees.
  const std::string hidden = RestoreTableName(to_instance, table_id);
  Status gone = db->DeleteTable(hidden);
  if (!gone.ok() && !gone.IsNotFound()) return gone;
  // The backup's hidden table keeps the source's settings that the backup
  // record does not: its tiered storage rule and row-key schema.
  const std::string kept = BackupTableName(from.instance, from.cluster, from.id);
  LBT_ASSIGN_OR_RETURN(const TableSpec settings, db->GetTable(kept));
  LBT_RETURN_IF_ERROR(db->CreateTable(hidden, NewTable{.families = from.families,
                                                       .granularity = from.granularity,
                                                       .tiered_storage = settings.tiered_storage,
                                                       .row_key_schema = settings.row_key_schema}));
  Status copied = CopyRows(db, kept, hidden).status();
  if (copied.ok()) {
    copied = db->RenameTable(
        hidden, target, RestoreInfo{from.Full(), from.SourceTableFull(), from.start_time_micros, from.end_time_micros});
  }
  if (!copied.ok()) db->DeleteTable(hidden);
  return copied;
}

namespace {

// "auto-<table>-<yyyymmddhhmmss>": within a backup id's 50 characters.
std::string AutomatedBackupId(std::string_view table, int64_t now_micros) {
  const std::time_t seconds = static_cast<std::time_t>(now_micros / 1000000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  return fmt::format("auto-{}-{:04}{:02}{:02}{:02}{:02}{:02}", table.substr(0, 29), utc.tm_year + 1900, utc.tm_mon + 1,
                     utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec);
}

}  // namespace

Status LocalInstanceAdmin::RunAutomatedBackups() {
  LBT_ASSIGN_OR_RETURN(Database * db, db_->Open(false));
  if (db == nullptr) return Status::OK();
  LBT_ASSIGN_OR_RETURN(std::vector<InstanceSpec> instances, ListInstances(""));
  for (const InstanceSpec& instance : instances) {
    if (instance.clusters.empty()) continue;
    LBT_ASSIGN_OR_RETURN(std::unique_ptr<Bigtable> tables, OpenTables(instance.name));
    LBT_ASSIGN_OR_RETURN(std::vector<std::string> names, tables->ListTables());
    std::optional<std::vector<BackupSpec>> backups;  // read once, when a table has a policy
    for (const std::string& table : names) {
      Result<TableSpec> spec = tables->GetTable(table);
      if (!spec.ok() || !spec->automated_backup_policy) continue;
      if (!backups) {
        LBT_ASSIGN_OR_RETURN(backups, ListBackups(instance.name, "-"));
      }
      int64_t newest = 0;
      for (const BackupSpec& b : *backups) {
        if (b.source_table == table && b.id.rfind("auto-", 0) == 0) newest = std::max(newest, b.start_time_micros);
      }
      const int64_t now = NowMicros();
      if (newest != 0 && now - newest < spec->automated_backup_policy->frequency_micros) continue;
      LBT_RETURN_IF_ERROR(CreateBackup(instance.name, instance.clusters.front().id, AutomatedBackupId(table, now),
                                       table, now + spec->automated_backup_policy->retention_micros)
                              .status());
    }
  }
  return Status::OK();
}

}  // namespace lbt
