// How a database keeps its instances: one JSON document per instance
// created through InstanceAdmin, under "instance:<project>/<instance>" in
// the catalog database, beside the tables' "table:" entries. An instance's
// tables are catalogued as "<project>/<instance>/<table>"; those of the
// default instance (DefaultInstanceName, api/resource.h) keep their bare names, as every
// release before instances stored them.
//
// WARNING: the key shapes and the JSON field names are part of the on-disk
// format.

#ifndef LBT_LOCAL_INSTANCE_RECORDS_H_
#define LBT_LOCAL_INSTANCE_RECORDS_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/backup.h"
#include "api/instance.h"
#include "api/schema.h"
#include "api/status.h"
#include "storage/format/record_keys.h"

namespace lbt {

class Database;

inline constexpr std::string_view kInstanceKeyPrefix = "instance:";
// A backup's record is under "backup:P/I/C/B"; its cells are a hidden
// table "#backup/P/I/C/B" (no instance's: '#' starts no project id), whose
// families keep every cell (GC never) and whose ids follow the source's
// creation order. A restore fills a hidden "#restore/P/I/T" and renames
// it to "P/I/T" once whole.
inline constexpr std::string_view kBackupKeyPrefix = "backup:";
inline constexpr char kHiddenTableMark = '#';

// "P/I/" for an instance's tables, "" for the default instance's.
std::string TablePrefixOf(const InstanceName& name);
// InstanceOfTable, the instance a catalogued table name belongs to, is
// storage/format/record_keys.h's.

// "a/b/c" as {"a", "b", "c"}: resource names and record keys.
std::vector<std::string> SplitOnSlash(std::string_view name);

std::string InstanceKey(const InstanceName& name);

// Everything deleting an instance deletes besides its record and its
// tables, in the same transaction: its backups, restores in progress,
// logical and materialized views (records and hidden tables) and IAM
// policies.
struct InstanceBelongings {
  std::vector<std::string> record_prefixes;  // catalog records under each
  std::vector<std::string> record_keys;      // and these
  std::vector<std::string> table_prefixes;   // catalogued tables whose names start so
};
InstanceBelongings BelongingsOf(const InstanceName& name);

// ---- instance records in a database (over its catalog records) ----

// Every instance record.
Result<std::vector<InstanceSpec>> ReadInstances(Database* db);
// The record of `name` (nullopt if none), and in *has_tables whether the
// catalog has tables of it, from one snapshot.
Result<std::optional<InstanceSpec>> ReadInstance(Database* db, const InstanceName& name, bool* has_tables);
// In one write transaction: hands `change` the record of `name` (nullopt
// when there is none) and whether the catalog has tables of the
// instance, then stores the record `change` leaves (nullopt: none). An
// error from `change` changes nothing. With `deleted` (deleting the
// instance), the same transaction also removes the instance's tables
// and everything `deleted` names, or, when a table or an authorized view
// of one has deletion protection, fails with FailedPrecondition and
// changes nothing; the tables' cells go after it (finished at the next
// writable open if a crash cuts that short).
Status ChangeInstance(Database* db, const InstanceName& name,
                      const std::function<Status(std::optional<InstanceSpec>* record, bool has_tables)>& change,
                      const InstanceBelongings* deleted = nullptr);
// True if `table_names` (in byte order) hold a table of `instance`.
bool HasTablesOf(const std::vector<std::string>& table_names, const InstanceName& instance);
// A logical view's record: "logical_view:P/I/V" ("logical_view:P/I/" with
// an empty id: the prefix of the instance's views). WARNING: on disk.
std::string LogicalViewKey(const InstanceName& instance, std::string_view view_id);
// A materialized view's record: "materialized_view:P/I/V" ("...:P/I/" with
// an empty id: the prefix of the instance's views). Its rows are hidden
// table "#mview/P/I/V", its maintainer's state "#mview-state/P/I/V".
// WARNING: on disk.
std::string MaterializedViewKey(const InstanceName& instance, std::string_view view_id);
std::string MaterializedViewTableName(const InstanceName& instance, std::string_view view_id);
std::string MaterializedViewStateName(const InstanceName& instance, std::string_view view_id);
// "backup:P/I/C/" for the backups of one cluster ("backup:P/I/" with an
// empty cluster: of every cluster).
std::string BackupKeyPrefix(const InstanceName& instance, std::string_view cluster);
std::string BackupKey(const InstanceName& instance, std::string_view cluster, std::string_view id);
std::string BackupTableName(const InstanceName& instance, std::string_view cluster, std::string_view id);
std::string RestoreTableName(const InstanceName& instance, std::string_view table);
// "#deleted/P/I/T": where a deleted table is kept for an undelete.
inline constexpr std::string_view kDeletedTablePrefix = "#deleted/";
std::string DeletedTableName(const InstanceName& instance, std::string_view table);
// True for the hidden tables above, which no instance lists.
inline bool IsHiddenTable(std::string_view catalog_name) {
  return !catalog_name.empty() && catalog_name.front() == kHiddenTableMark;
}
std::string EncodeBackupSpec(const BackupSpec& spec);
// `key` is the record's whole key.
Status DecodeBackupSpec(std::string_view key, std::string_view bytes, BackupSpec* spec);
std::string EncodeInstanceSpec(const InstanceSpec& spec);
// `key_name` is the key's "P/I".
Status DecodeInstanceSpec(std::string_view key_name, std::string_view bytes, InstanceSpec* spec);

}  // namespace lbt

#endif  // LBT_LOCAL_INSTANCE_RECORDS_H_
