// Database: the catalog's records other than tables', which the product
// keeps there (instances, backups, views, IAM policies), and the catalog
// changes it makes with them (renames, authorized views).

#include <fmt/format.h>

#include <set>

#include "storage/catalog.h"
#include "storage/database.h"
#include "storage/database_internal.h"
#include "storage/format/record_keys.h"
#include "storage/format/stores.h"
#include "storage/kv/lmdb_env.h"

namespace lbt {

Result<std::vector<std::pair<std::string, std::string>>> Database::ReadRecords(std::string_view prefix) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  return stores_->catalog.Records(txn.get(), prefix);
}

Result<std::optional<std::string>> Database::ReadRecord(std::string_view key) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  return stores_->catalog.Record(txn.get(), key);
}

Status Database::ChangeRecord(std::string_view key,
                              const std::function<Status(std::optional<std::string>* record)>& change,
                              std::string_view drop_table) {
  return EditCatalog([&](CatalogTxn& catalog) -> Status {
    LBT_ASSIGN_OR_RETURN(std::optional<std::string> record, catalog.Record(key));
    const bool had = record.has_value();
    LBT_RETURN_IF_ERROR(change(&record));
    if (record.has_value()) {
      LBT_RETURN_IF_ERROR(catalog.PutRecord(key, *record));
    } else if (had) {
      LBT_RETURN_IF_ERROR(catalog.DeleteRecord(key));
    }
    if (drop_table.empty() || catalog.FindTable(drop_table) == nullptr) return Status::OK();
    return catalog.DropTable(drop_table);
  });
}

Status Database::EditCatalog(const std::function<Status(CatalogTxn& catalog)>& change) {
  std::vector<TableId> dropped;
  LBT_RETURN_IF_ERROR(Update([&](Txn* txn) -> Status {
    dropped.clear();
    CatalogTxn catalog(this, txn, &stores_->catalog, &dropped);
    return change(catalog);
  }));
  return DeleteCellsOf(dropped);
}

Status Database::ReadCatalog(const std::function<Status(const CatalogTxn& catalog)>& read) {
  LBT_ASSIGN_OR_RETURN(auto txn, Txn::Begin(env_.get(), /*write=*/false));
  std::lock_guard<std::mutex> lock(read_mu_);
  LBT_RETURN_IF_ERROR(read_catalog_->Refresh(txn.get()));
  const CatalogTxn catalog(this, txn.get(), read_catalog_.get(), nullptr);
  return read(catalog);
}

Status Database::RenameTable(std::string_view from, std::string_view to,
                             const std::optional<RestoreInfo>& restored_from) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* spec, stores_->catalog.Require(from));
    if (stores_->catalog.Find(to) != nullptr) {
      return Status::AlreadyExists(fmt::format("table '{}' already exists", TableIdOf(to)));
    }
    TableSpec renamed = *spec;
    renamed.name = std::string(to);
    renamed.restored_from = restored_from;
    LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, TableIamKey(to)));
    LBT_RETURN_IF_ERROR(stores_->catalog.Remove(txn, from));
    return stores_->catalog.Store(txn, renamed);
  });
}

Status Database::ChangeTableResources(std::string_view table, const std::function<Status(TableSpec* spec)>& change) {
  return Update([&](Txn* txn) -> Status {
    LBT_ASSIGN_OR_RETURN(const TableSpec* current, stores_->catalog.Require(table));
    TableSpec changed = *current;
    LBT_RETURN_IF_ERROR(change(&changed));
    // A view created or deleted here starts, or leaves, without a policy.
    std::set<std::string> before, after;
    for (const AuthorizedViewSpec& view : current->authorized_views) before.insert(view.id);
    for (const AuthorizedViewSpec& view : changed.authorized_views) after.insert(view.id);
    for (const std::string& id : before) {
      if (after.erase(id) == 0) LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, ViewIamKey(table, id)));
    }
    for (const std::string& id : after) LBT_RETURN_IF_ERROR(ForgetIamPolicies(txn, ViewIamKey(table, id)));
    TableSpec stored = *current;
    stored.authorized_views = std::move(changed.authorized_views);
    stored.schema_bundles = std::move(changed.schema_bundles);
    stored.view_etags_issued = changed.view_etags_issued;
    return stores_->catalog.Store(txn, stored);
  });
}

// ---- CatalogTxn ----

std::vector<std::string> CatalogTxn::TableNames() const { return catalog_->TableNames(); }

const TableSpec* CatalogTxn::FindTable(std::string_view name) const { return catalog_->Find(name); }

Result<std::optional<std::string>> CatalogTxn::Record(std::string_view key) const {
  return catalog_->Record(txn_, key);
}

Result<std::vector<std::pair<std::string, std::string>>> CatalogTxn::Records(std::string_view prefix) const {
  return catalog_->Records(txn_, prefix);
}

Status CatalogTxn::PutRecord(std::string_view key, std::string_view value) {
  return catalog_->PutRecord(txn_, key, value);
}

Status CatalogTxn::DeleteRecord(std::string_view key) { return catalog_->DeleteRecord(txn_, key); }

Status CatalogTxn::DropTable(std::string_view name) { return db_->RemoveTable(txn_, name, dropped_); }

}  // namespace lbt
