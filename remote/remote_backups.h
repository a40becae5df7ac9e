// Internal to remote/: backups, and the IAM policies of tables, authorized
// views and backups, through the service's Table Admin API, for
// RemoteBigtable (TableAdmin's). A change that
// returns a long-running operation waits for it, as RemoteCalls says.

#ifndef LBT_REMOTE_REMOTE_BACKUPS_H_
#define LBT_REMOTE_REMOTE_BACKUPS_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/backup.h"
#include "api/iam.h"
#include "remote/remote_calls.h"

namespace lbt::remote {

Result<BackupSpec> CreateBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                                std::string_view backup_id, std::string_view table, int64_t expire_time_micros);
Result<BackupSpec> GetBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                             std::string_view backup_id);
Result<std::vector<BackupSpec>> ListBackups(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster);
Result<BackupSpec> UpdateBackupExpireTime(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                                          std::string_view backup_id, int64_t expire_time_micros);
Status DeleteBackup(RemoteCalls* calls, const InstanceName& instance, std::string_view cluster,
                    std::string_view backup_id);
// Into `to_instance`'s cluster `to_cluster`.
Result<BackupSpec> CopyBackup(RemoteCalls* calls, const BackupSpec& source, const InstanceName& to_instance,
                              std::string_view to_cluster, std::string_view backup_id, int64_t expire_time_micros);
Status RestoreTable(RemoteCalls* calls, const BackupSpec& backup, const InstanceName& to_instance,
                    std::string_view table_id);
Result<IamPolicy> GetIamPolicy(RemoteCalls* calls, std::string_view resource);
Result<IamPolicy> SetIamPolicy(RemoteCalls* calls, std::string_view resource, const IamPolicy& policy);

}  // namespace lbt::remote

#endif  // LBT_REMOTE_REMOTE_BACKUPS_H_
