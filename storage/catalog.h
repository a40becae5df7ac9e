// The persisted schema: one JSON document per table in the "catalog"
// database, plus counters in "meta". Readable with mdb_dump.
//
// The catalog caches the specs and reloads them whenever the stored catalog
// version changes, so a table created by another process is seen by the next
// transaction here.
//
// WARNING: the JSON field names are part of the on-disk format.

#ifndef LBT_STORAGE_CATALOG_H_
#define LBT_STORAGE_CATALOG_H_

#include <lmdb.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/schema.h"
#include "api/status.h"
#include "storage/kv/lmdb_env.h"

namespace lbt {

class Catalog {
 public:
  Catalog() = default;
  Catalog(MDB_dbi catalog, MDB_dbi meta) : catalog_(catalog), meta_(meta) {}

  // Brings the cache up to date with what `txn` sees. Call at the start of
  // every transaction before Find/TableNames.
  Status Refresh(Txn* txn);

  // Returns the spec or nullptr. The pointer dies with the next Refresh.
  const TableSpec* Find(std::string_view name) const;
  // The same spec, shared: it stays valid after later Refreshes.
  std::shared_ptr<const TableSpec> Share(std::string_view name) const;
  // Like Find, but a missing table is a NotFound error naming it.
  Result<const TableSpec*> Require(std::string_view name) const;
  // Forgets the cache, e.g. after a transaction that changed it aborted.
  void Invalidate() {
    loaded_ = false;
    checked_snapshot_ = 0;
  }
  // Table names in byte order.
  std::vector<std::string> TableNames() const;

  // Writes `spec` (new or changed). REQUIRES: txn->is_write()
  Status Store(Txn* txn, const TableSpec& spec);
  // Removes the table's spec. REQUIRES: txn->is_write()
  Status Remove(Txn* txn, std::string_view name);
  // A table id never used before in this database. REQUIRES: txn->is_write()
  Result<TableId> AllocateTableId(Txn* txn);

  // Records other than tables' (format/record_keys.h, and the product's:
  // instances, backups, views), by key, read from `txn` each time.
  Result<std::vector<std::pair<std::string, std::string>>> Records(Txn* txn, std::string_view prefix) const;
  Result<std::optional<std::string>> Record(Txn* txn, std::string_view key) const;
  // REQUIRES: txn->is_write()
  Status PutRecord(Txn* txn, std::string_view key, std::string_view value);
  Status DeleteRecord(Txn* txn, std::string_view key);

 private:
  Status BumpVersion(Txn* txn);

  MDB_dbi catalog_ = 0;
  MDB_dbi meta_ = 0;
  bool loaded_ = false;
  std::string loaded_version_;
  uint64_t checked_snapshot_ = 0;  // the snapshot last checked: no need to look again
  std::map<std::string, std::shared_ptr<const TableSpec>, std::less<>> tables_;
};

// A table's catalog entry: its spec as JSON, under kTableKeyPrefix + name.
// Decoding a format-1 entry, which has no family ids, gives its families
// ids in name order.
std::string EncodeTableSpec(const TableSpec& spec);
Status DecodeTableSpec(std::string_view name, std::string_view bytes, TableSpec* spec);
inline constexpr std::string_view kTableKeyPrefix = "table:";

// Meta keys shared with db_open.cc.
inline constexpr std::string_view kMetaFormatVersion = "format_version";
inline constexpr std::string_view kMetaCatalogVersion = "catalog_version";
inline constexpr std::string_view kMetaNextTableId = "next_table_id";

}  // namespace lbt

#endif  // LBT_STORAGE_CATALOG_H_
