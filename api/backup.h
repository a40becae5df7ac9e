// Backups: a table's schema and cells as they were at one moment, kept in a
// cluster of its instance. TableAdmin (api/table_admin.h) takes, lists,
// copies and restores them, as Bigtable's Table Admin API does.

#ifndef LBT_API_BACKUP_H_
#define LBT_API_BACKUP_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "api/resource.h"
#include "api/schema.h"
#include "api/status.h"

namespace lbt {

// A backup: a table's schema and cells as they were at one moment, kept
// in a cluster of the table's instance, until it expires.
struct BackupSpec {
  InstanceName instance;
  std::string cluster;
  std::string id;
  std::string source_table;  // a table id of source_instance
  // The source table's instance: `instance`, or another for a copy made
  // in another instance (empty: `instance`).
  InstanceName source_instance;
  std::string source_backup;  // "projects/P/instances/I/clusters/C/backups/B" if copied
  // The cells are those the table held at start_time (the snapshot is
  // taken then); end_time is when the copy was done.
  int64_t start_time_micros = 0;
  int64_t end_time_micros = 0;
  int64_t expire_time_micros = 0;
  int64_t size_bytes = 0;
  bool hot = false;
  int64_t hot_to_standard_time_micros = 0;  // hot backups only
  // The table's families in creation order, with their GC rules and types.
  std::vector<FamilySpec> families;
  // The table's granularity, which a table restored from it keeps.
  TimestampGranularity granularity = TimestampGranularity::kMillis;

  // "projects/P/instances/I/clusters/C/backups/B".
  std::string Full() const { return BackupName{instance, cluster, id}.Full(); }
  const InstanceName& SourceInstance() const { return source_instance.project.empty() ? instance : source_instance; }
  // "projects/P/instances/I/tables/T" of the source table.
  std::string SourceTableFull() const { return FullTableName(SourceInstance(), source_table); }
};

// Production's window for a backup's expire time, from its creation.
inline constexpr int64_t kMinBackupLifeMicros = int64_t{6} * 3600 * 1000000;
inline constexpr int64_t kMaxBackupLifeMicros = int64_t{90} * 24 * 3600 * 1000000;

// A backup id (the rule of table ids, at most 50 characters) and an
// expire time within [created + 6 h, created + 90 d].
Status ValidateBackupId(std::string_view id, std::string_view field);
Status ValidateExpireTime(int64_t expire_micros, int64_t created_micros, std::string_view field);

}  // namespace lbt

#endif  // LBT_API_BACKUP_H_
