// Database: the schema. Tables (created, listed, deleted with their cells
// in bounded transactions), column families and table flags.

#include <fmt/format.h>

#include <set>

#include "storage/catalog.h"
#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/key_codec.h"
#include "storage/format/record_keys.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"
#include "storage/rows/row_writer.h"

namespace lbt {

namespace {

Status ValidateFamilies(const std::vector<FamilySpec>& families) {
  std::set<std::string_view> seen;
  for (const FamilySpec& f : families) {
    LBT_RETURN_IF_ERROR(ValidateFamilyName(f.name));
    LBT_RETURN_IF_ERROR(f.gc_rule.Validate());
    if (!seen.insert(f.name).second) {
      return Status::InvalidArgument(fmt::format("column family '{}' is listed twice", f.name));
    }
  }
  return Status::OK();
}

// The family as the catalog keeps it.
FamilySpec Stored(FamilySpec family) {
  family.value_type = StoredValueType(family.value_type);
  return family;
}

// Checks one change against the spec as the earlier changes left it, and
// makes it there.
Status PlanFamilyChange(const FamilyChange& change, TableSpec* spec) {
  const std::string& name = change.family.name;
  switch (change.kind) {
    case FamilyChange::Kind::kCreate:
      LBT_RETURN_IF_ERROR(ValidateFamilies({change.family}));
      if (spec->FindFamily(name) != nullptr) {
        return Status::AlreadyExists(
            fmt::format("column family '{}' already exists in table '{}'", name, TableIdOf(spec->name)));
      }
      if (spec->row_key_schema) {
        for (const RowKeyField& field : spec->row_key_schema->fields) {
          if (field.name == name) {
            return Status::InvalidArgument(
                fmt::format("column family '{}' would have the name of a field of table '{}''s row key schema", name,
                            TableIdOf(spec->name)));
          }
        }
      }
      spec->AddFamily(Stored(change.family));
      return Status::OK();
    case FamilyChange::Kind::kUpdate: {
      LBT_RETURN_IF_ERROR(spec->RequireFamily(name).status());
      FamilySpec& family = spec->families.find(name)->second;
      if (change.gc_rule) {
        LBT_RETURN_IF_ERROR(change.gc_rule->Validate());
        family.gc_rule = *change.gc_rule;
      }
      if (change.value_type) {
        LBT_RETURN_IF_ERROR(CheckValueTypeChange(name, family.value_type, *change.value_type));
        family.value_type = StoredValueType(*change.value_type);
      }
      return Status::OK();
    }
    case FamilyChange::Kind::kDrop:
      LBT_RETURN_IF_ERROR(spec->RequireFamily(name).status());
      LBT_RETURN_IF_ERROR(RequireUnprotected(*spec, "its column families"));
      spec->families.erase(spec->families.find(name));
      return Status::OK();
  }
  return Status::InvalidArgument("unknown column family change");
}

}  // namespace

Status RequireUnprotected(const TableSpec& spec, std::string_view what) {
  if (!spec.deletion_protection) return Status::OK();
  return Status::FailedPrecondition(
      fmt::format("table '{}' has deletion protection on; turn it off before deleting {}", TableIdOf(spec.name), what));
}

// A table with a protected authorized view cannot be deleted, nor its
// instance (the AuthorizedView message's deletion_protection).
Status RequireNoProtectedViews(const TableSpec& spec) {
  for (const AuthorizedViewSpec& view : spec.authorized_views) {
    if (!view.deletion_protection) continue;
    return Status::FailedPrecondition(
        fmt::format("authorized view '{}' of table '{}' has deletion protection on; turn it off before deleting "
                    "the table or its instance",
                    view.id, TableIdOf(spec.name)));
  }
  return Status::OK();
}

Status Database::WaitForReplication(std::string_view table) { return GetTable(table).status(); }

Status Database::CreateTable(std::string_view table, const NewTable& request) {
  // An instance's tables are catalogued as P/I/t, hidden ones deeper still.
  LBT_RETURN_IF_ERROR(ValidateTableName(TableIdOf(table)));
  LBT_RETURN_IF_ERROR(ValidateFamilies(request.families));
  std::optional<AutomatedBackupPolicy> backups = request.automated_backup_policy;
  if (backups) LBT_RETURN_IF_ERROR(ValidateAutomatedBackupPolicy(&*backups, "table.automated_backup_policy"));
  if (request.tiered_storage) {
    LBT_RETURN_IF_ERROR(ValidateTieredStorage(*request.tiered_storage, "table.tiered_storage_config"));
  }
  return Update([&](Txn* txn) -> Status {
    if (stores_->catalog.Find(table) != nullptr) {
      return Status::AlreadyExists(fmt::format("table '{}' already exists", TableIdOf(table)));
    }
    TableSpec spec;
    spec.name = std::string(table);
    spec.deletion_protection = request.deletion_protection;
    spec.granularity = request.granularity;
    spec.automated_backup_policy = backups;
    spec.tiered_storage = request.tiered_storage;
    LBT_ASSIGN_OR_RETURN(spec.id, stores_->catalog.AllocateTableId(txn));
    // Ids in the order the request lists the families.
    for (const FamilySpec& f : request.families) spec.AddFamily(Stored(f));
    if (request.row_key_schema) {
      LBT_RETURN_IF_ERROR(ValidateRowKeySchema(*request.row_key_schema, spec, "table.row_key_schema"));
      spec.row_key_schema = request.row_key_schema;
    }
    // A new table and its views start without IAM policies, whatever an
    // older release left of a deleted one's.
    LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(table)));
    return stores_->catalog.Store(txn, spec);
  });
}

Result<const TableSpec*> Database::RequireDeletable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
  LBT_RETURN_IF_ERROR(RequireUnprotected(*spec, "it"));
  LBT_RETURN_IF_ERROR(RequireNoProtectedViews(*spec));
  return spec;
}

Status Database::DeleteTable(std::string_view table) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    LBT_RETURN_IF_ERROR(RequireDeletable(table).status());
    return RemoveTable(txn, table, &dropped);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::DeleteTableKeeping(std::string_view table, std::string_view keep_as, int64_t now) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, RequireDeletable(table));
    TableSpec kept = *spec;
    kept.name = std::string(keep_as);
    kept.deleted_micros = now;
    if (stores_->catalog.Find(keep_as) != nullptr) LBT_RETURN_IF_ERROR(RemoveTable(txn, keep_as, &dropped));
    LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, table));
    return stores_->catalog.Store(txn, kept);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::UndeleteTable(std::string_view kept, std::string_view to) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(kept));
    if (stores_->catalog.Find(to) != nullptr) {
      return Status::FailedPrecondition(
          fmt::format("table '{}' exists again: a deleted table comes back under its own name only, once that is free",
                      TableIdOf(to)));
    }
    TableSpec back = *spec;
    back.name = std::string(to);
    back.deleted_micros.reset();
    LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, kept));
    return stores_->catalog.Store(txn, back);
  });
}

Status Database::RemoveTable(Txn* txn, std::string_view name, std::vector<TableId>* dropped) {
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(name));
  const TableId id = spec->id;
  LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, name));
  LBT_RETURN_IF_ERROR(stores_->catalog.PutRecord(txn, PendingDropKey(id), ""));
  LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(name)));
  dropped->push_back(id);
  return Status::OK();
}

Status Database::ForgetIamPolicies(Txn* txn, const std::string& key) {
  LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, key));
  LBT_ASSIGN_OR_RETURN(auto under, stores_->catalog.Records(txn, key + "/"));
  for (const auto& [record_key, value] : under) LBT_RETURN_IF_ERROR(stores_->catalog.DeleteRecord(txn, record_key));
  return Status::OK();
}

Status Database::DeleteCellsOf(const std::vector<TableId>& ids) {
  // The tables are gone for every reader now; their cells go in bounded
  // transactions. Ids are never reused, so what a crash leaves stays
  // invisible, and its pending-drop record has the next writable open
  // finish the work.
  if (ids.empty()) return Status::OK();
  for (TableId id : ids) {
    const std::string prefix = TablePrefix(id);
    for (const OrderedStore* store : {&stores_->cells, &stores_->rows, &stores_->changes}) {
      if (store == &stores_->changes && !stores_->has_changes) continue;
      size_t deleted = 0;
      do {
        LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
          LBT_ASSIGN_OR_RETURN(deleted, DeleteKeys(txn, *store, prefix, PrefixSuccessor(prefix), kDropChunkKeys));
          return Status::OK();
        }));
      } while (deleted > 0);
    }
    LBT_RETURN_IF_ERROR(
        Update([&](Txn* txn) -> Status { return stores_->catalog.DeleteRecord(txn, PendingDropKey(id)); }));
  }
  return SettleFreedPages();
}

Status Database::FinishInterruptedDrops() {
  LBT_ASSIGN_OR_RETURN(auto pending, ReadRecords(kPendingDropKeyPrefix));
  std::vector<TableId> ids;
  for (const auto& [key, value] : pending) {
    TableId id = 0;
    if (ParsePendingDropKey(key, &id)) ids.push_back(id);
  }
  return DeleteCellsOf(ids);
}

Result<std::vector<std::string>> Database::ListTables() {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  std::lock_guard<std::mutex> lock(read_mu_);
  LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn.get()));
  return read_catalog_->TableNames();
}

Result<TableSpec> Database::GetTable(std::string_view table) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  LBT_ASSIGN_OR_RETURN(std::shared_ptr<const TableSpec> spec, ReadSpec(txn.get(), table, false));
  return *spec;
}

Status Database::ModifyFamilies(std::string_view table, const std::vector<FamilyChange>& changes) {
  bool dropped = false;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec spec = *current;
    for (const FamilyChange& change : changes) {
      if (change.kind != FamilyChange::Kind::kDrop) {
        LBT_RETURN_IF_ERROR(PlanFamilyChange(change, &spec));
        continue;
      }
      // The cells go in the same transaction, by a writer that still sees
      // the family.
      const TableSpec with_family = spec;
      LBT_RETURN_IF_ERROR(PlanFamilyChange(change, &spec));
      RowWriter writer(txn, stores_.get(), &with_family, NowMicros());
      LBT_RETURN_IF_ERROR(writer.DeleteFamilyEverywhere(with_family.FindFamily(change.family.name)->id));
      dropped = true;
    }
    return stores_->catalog.Store(txn, spec);
  }));
  return dropped ? SettleFreedPages() : Status::OK();
}

Status Database::SetTableEnabled(std::string_view table, bool enabled) {
  return ChangeTableFlag(table, &TableSpec::enabled, enabled);
}

Status Database::SetDeletionProtection(std::string_view table, bool enabled) {
  return ChangeTableFlag(table, &TableSpec::deletion_protection, enabled);
}

Status Database::SetAutomatedBackupPolicy(std::string_view table, const std::optional<AutomatedBackupPolicy>& policy) {
  std::optional<AutomatedBackupPolicy> checked = policy;
  if (checked) LBT_RETURN_IF_ERROR(ValidateAutomatedBackupPolicy(&*checked, "table.automated_backup_policy"));
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec spec = *current;
    spec.automated_backup_policy = checked;
    return stores_->catalog.Store(txn, spec);
  });
}

Status Database::SetTieredStorage(std::string_view table, const std::optional<TieredStorage>& tiers) {
  if (tiers) LBT_RETURN_IF_ERROR(ValidateTieredStorage(*tiers, "table.tiered_storage_config"));
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec spec = *current;
    spec.tiered_storage = tiers;
    return stores_->catalog.Store(txn, spec);
  });
}

Status Database::SetRowKeySchema(std::string_view table, const std::optional<RowKeySchema>& schema,
                                 bool ignore_warnings) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    if (current->row_key_schema == schema) return Status::OK();
    if (schema && current->row_key_schema) {
      return Status::InvalidArgument(
          "table.row_key_schema: a row key schema cannot be changed, only set on a table without one, or removed "
          "(with ignore_warnings)");
    }
    if (!schema && !ignore_warnings) {
      return Status::InvalidArgument(
          "table.row_key_schema: removing a row key schema may break the queries that read its fields; set "
          "ignore_warnings to remove it");
    }
    if (schema) LBT_RETURN_IF_ERROR(ValidateRowKeySchema(*schema, *current, "table.row_key_schema"));
    TableSpec spec = *current;
    spec.row_key_schema = schema;
    return stores_->catalog.Store(txn, spec);
  });
}

Status Database::ChangeTableFlag(std::string_view table, bool TableSpec::*flag, bool value) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    if (current->*flag == value) return Status::OK();
    TableSpec spec = *current;
    spec.*flag = value;
    return stores_->catalog.Store(txn, spec);
  });
}

Result<const TableSpec*> Database::RequireEnabled(std::string_view table) {
  // Writers only: readers check through ReadSpec.
  LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(table));
  LBT_RETURN_IF_ERROR(RequireEnabledSpec(*spec));
  return spec;
}

}  // namespace lbt
